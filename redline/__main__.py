"""``python -m redline``: the same command line as the ``redline`` script."""

from redline.cli.main import main

raise SystemExit(main())

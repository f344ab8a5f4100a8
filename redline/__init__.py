"""Redline: AI contract review for Microsoft Word (see README.md and docs/architecture.md).

OpenBLAS, under numpy, starts a thread per core when numpy is first imported. Nothing in the product multiplies
matrices (the clause engine adds weight rows), so those threads only cost start-up time (a tenth of a second
of a 100-page review) and compete with request threads; one is asked for unless the environment says otherwise.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

"""`redline bench`'s compare rows run the real command line and check its output with pandoc."""

from __future__ import annotations

import io

from redline.bench.compare import compare_rows


def test_the_compare_row_times_the_command_and_says_both_views_are_right(tmp_path):
    out = io.StringIO()
    compare_rows([2], repeat=1, workdir=tmp_path, out=out)
    lines = out.getvalue().splitlines()
    ours = next(line for line in lines if "redline compare" in line).split()
    assert ours[-1] == "yes/yes" and int(ours[-2]) > 0 and float(ours[-4]) > 0
    peer = next(line for line in lines if "python-redlines" in line)
    assert "not installed" in peer or peer.split()[-1] == "yes/yes"

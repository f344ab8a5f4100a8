"""``redline bench``'s model rows run ``redline review --provider openai`` as a user does (issue #29)."""

from __future__ import annotations

import io
import re

from redline.bench.model_path import model_rows


def test_the_model_row_runs_the_review_command_and_counts_what_the_model_was_sent(tmp_path):
    out = io.StringIO()
    model_rows([3], latency=0.0, workdir=tmp_path, out=out)
    row = out.getvalue()
    m = re.search(r"calls (\d+), prompt chars ([\d,]+) = ([\d.]+)× the contract's ([\d,]+)", row)
    assert m is not None and row.startswith("    3  redline review --provider openai"), row
    calls, prompt, ratio, contract = (int(m.group(1)), int(m.group(2).replace(",", "")), float(m.group(3)),
                                      int(m.group(4).replace(",", "")))
    assert calls == 1 and ratio == round(prompt / contract, 2)  # a short contract is one batch
    # the rules it needs are a fixed cost, which a 3-page contract does not spread: the targets are for 20 pages up
    assert 2 < ratio < 8
    assert (tmp_path / "3p-openai.docx").stat().st_size > 0 and (tmp_path / "3p-openai.json").exists()

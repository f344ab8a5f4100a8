"""The safe Markdown renderer and the SVG chart geometry."""

from __future__ import annotations

import re
from itertools import pairwise

from dashboard.charts import Series, bar_chart, column_chart, nice_max, tick_values, wrap_label
from dashboard.diffs import word_diff
from dashboard.markdown import render_markdown


def test_markdown_subset():
    html = render_markdown("# Review Preferences\n\nKeep **late fees** as *drafted*.\n\n- one\n- `two`\n\n1. first\n2. second\n"
                           "\n> quoted\n\n```\n<b>code</b>\n```\n[docs](https://example.com/a_b)")
    assert "<h1>Review Preferences</h1>" in html
    assert "<p>Keep <strong>late fees</strong> as <em>drafted</em>.</p>" in html
    assert "<ul>\n<li>one</li>\n<li><code>two</code></li>\n</ul>" in html
    assert "<ol>\n<li>first</li>\n<li>second</li>\n</ol>" in html
    assert "<blockquote><p>quoted</p></blockquote>" in html
    assert "<pre><code>&lt;b&gt;code&lt;/b&gt;</code></pre>" in html
    assert '<a href="https://example.com/a_b" rel="nofollow noopener noreferrer">docs</a>' in html
    assert 'href="https://x.example/?a=1&amp;b=2"' in render_markdown("[q](https://x.example/?a=1&b=2)")


def test_markdown_never_emits_markup_from_the_text():
    attacks = [
        "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))",
        '[x](https://a.example/"onmouseover="alert(1))', "**<svg onload=alert(1)>**", "`</code><script>`",
        "# <iframe src=//evil>", "- <a href='javascript:x'>y</a>",
    ]
    for text in attacks:
        html = render_markdown(text)
        assert "<script" not in html and "<img" not in html and "<iframe" not in html and "<svg" not in html, text
        assert not re.search(r"<a [^>]*href=[\"']?javascript", html), text
        assert not re.search(r"<[a-z]+\s[^>]*\son\w+=", html), text


def test_nice_axis_maximum():
    assert [nice_max(v) for v in (0, 1, 3, 7, 10, 11, 60, 101)] == [1, 1, 5, 10, 10, 20, 100, 200]


def test_bar_chart_geometry_and_text_alternative():
    series = (Series("a", "Accepted", "s-accepted"), Series("r", "Rejected", "s-rejected"))
    chart = bar_chart("c", "Outcomes by rule", [("Late payment", {"r": 6}), ("Payment", {"a": 3, "r": 1})], series,
                      noun="rules")
    first, second = chart.bars
    assert chart.summary == "Outcomes by rule: 2 rules, 10 in all; the largest is Late payment (6)."
    assert [s.value for s in second.segments] == [3, 1]
    assert second.segments[1].x == second.segments[0].x + second.segments[0].width  # stacked
    assert first.segments[0].width > sum(s.width for s in second.segments)  # proportional
    assert [r.values for r in chart.rows] == [(0, 6), (3, 1)] and not chart.empty
    assert [t.value for t in chart.ticks] == [0, 2, 4, 6, 8, 10]


def test_ticks_are_round_numbers():
    assert tick_values(50) == [0, 10, 20, 30, 40, 50]  # not 0, 12, 25, 37, 50
    assert tick_values(20) == [0, 5, 10, 15, 20] and tick_values(1) == [0, 1] and tick_values(200)[1] == 50
    for top in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000):
        ticks = tick_values(top)
        steps = {b - a for a, b in pairwise(ticks)}
        assert ticks[-1] == top and len(steps) == 1 and len(ticks) <= 6
        assert str(steps.pop()).rstrip("0") in ("1", "2", "5")


def test_bar_labels_wrap_instead_of_being_cut():
    assert wrap_label("Payment terms") == ("Payment terms",)
    assert wrap_label("Late payment interest and fees") == ("Late payment interest and", "fees")
    long = wrap_label("Limitation of liability and indemnities for intellectual property infringement claims")
    assert len(long) == 2 and long[1].endswith("…") and all(len(line) <= 27 for line in long)
    chart = bar_chart("c", "t", [("Late payment interest and fees", {"n": 1})], (Series("n", "n", "s"),))
    assert chart.bars[0].lines == ("Late payment interest and", "fees") and chart.bars[0].label.endswith("fees")


def test_column_chart_labels_some_days_but_tables_all():
    chart = column_chart("d", "Over time", [(f"2026-01-{d:02}", {"n": d}) for d in range(1, 31)],
                         (Series("n", "n", "s-count"),))
    labelled = [b.label for b in chart.bars if b.label]
    assert 2 < len(labelled) <= 9 and labelled[-1] == "2026-01-30"
    assert len(chart.rows) == 30 and chart.rows[0].label == "2026-01-01"
    tops = [b.segments[0].y for b in chart.bars]
    assert tops == sorted(tops, reverse=True)  # taller columns for larger values


def test_empty_chart():
    chart = bar_chart("e", "Nothing", [], (Series("n", "n", "s"),))
    assert chart.empty and chart.summary == "Nothing: no data for this selection."


def test_word_diff_marks_only_the_words_that_change():
    old = "The Customer shall pay each undisputed invoice within ninety (90) days of receipt."
    new = "The Customer shall pay each undisputed invoice within sixty (60) days of receipt."
    changed = [(c.kind, c.text) for c in word_diff(old, new) if c.kind != "same"]
    assert changed == [("del", "ninety (90) "), ("ins", "sixty (60) ")]
    assert "".join(c.text for c in word_diff(old, new) if c.kind != "ins") == old
    assert "".join(c.text for c in word_diff(old, new) if c.kind != "del") == new
    assert [c.kind for c in word_diff("", "New clause.")] == ["ins"]

"""Server-rendered SVG charts: geometry here, markup in ``templates/dashboard/charts/``.

No JavaScript and no chart library: the page is complete as served, works
offline, and prints. Each chart carries its text alternative (a one-line
summary for the SVG's ``<desc>``, and the rows for a data table), so nothing
is conveyed by colour or shape alone.

Charts are drawn at their own size (one SVG unit is one CSS pixel, never scaled
down), so the 12 px text stays 12 px on screen; a window narrower than a chart
scrolls the chart, not the page. Axis ticks fall on round numbers, and bar labels
wrap onto two lines instead of being cut (the tooltip and the table have them whole).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

WIDTH = 480
BAR_LABEL_W = 196
BAR_VALUE_W = 40
BAR_H = 22
BAR_GAP = 14
LABEL_CHARS = 27  # of 12 px text in BAR_LABEL_W, per line
COLUMN_H = 180
COLUMN_TOP = 12
COLUMN_LEFT = 36
COLUMN_BOTTOM = 28


@dataclass(frozen=True, slots=True)
class Series:
    """One stacked part of every bar: ``key`` in the data, ``label`` for people, ``css`` for its fill."""

    key: str
    label: str
    css: str


@dataclass(frozen=True, slots=True)
class Segment:
    series: Series
    value: int
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    total: int
    segments: tuple[Segment, ...]
    label_x: float
    label_y: float
    value_x: float
    value_y: float
    lines: tuple[str, ...] = ()  # the label as drawn: wrapped onto at most two lines


@dataclass(frozen=True, slots=True)
class Tick:
    value: int
    x1: float
    y1: float
    x2: float
    y2: float
    text_x: float
    text_y: float


@dataclass(frozen=True, slots=True)
class Row:
    """A data-table row: the bar's label and its value per series."""

    label: str
    values: tuple[int, ...]
    total: int


@dataclass(frozen=True, slots=True)
class Chart:
    id: str
    title: str
    summary: str
    kind: str  # "bars" (horizontal) or "columns" (vertical)
    series: tuple[Series, ...]
    rows: tuple[Row, ...]
    bars: tuple[Bar, ...]
    ticks: tuple[Tick, ...]
    width: int
    height: int

    @property
    def empty(self) -> bool:
        return not any(r.total for r in self.rows)


def nice_max(value: int) -> int:
    """The axis maximum: the smallest 1, 2 or 5 × 10ⁿ at or above ``value`` (at least 1)."""
    if value <= 1:
        return 1
    magnitude = 10 ** math.floor(math.log10(value))
    return next(step * magnitude for step in (1, 2, 5, 10) if step * magnitude >= value)


def tick_values(top: int) -> list[int]:
    """0 to ``top`` in round steps (1, 2 or 5 × 10ⁿ), at most five intervals: 0, 10, 20 … 50, never 12 or 37."""
    step = 1
    while top / step > 5 or top % step:
        magnitude = 10 ** math.floor(math.log10(step))
        step = next(m * magnitude for m in (2, 5, 10) if m * magnitude > step)
    return list(range(0, top + 1, step))


def wrap_label(label: str, width: int = LABEL_CHARS) -> tuple[str, ...]:
    """The label on one or two lines of at most ``width`` characters, broken between words; "…" if longer."""
    words, lines, line = label.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    if len(lines) > 2 or len(lines[-1]) > width:
        second = " ".join(lines[1:])
        lines = [lines[0], second if len(second) <= width else second[:width - 1].rstrip() + "…"]
    return tuple(line if len(line) <= width else line[:width - 1] + "…" for line in lines)


def _rows(data: Sequence[tuple[str, Mapping[str, int]]], series: Sequence[Series]) -> tuple[Row, ...]:
    rows = []
    for label, values in data:
        counts = tuple(int(values.get(s.key, 0)) for s in series)
        rows.append(Row(label, counts, sum(counts)))
    return tuple(rows)


def _summary(title: str, rows: Sequence[Row], noun: str) -> str:
    if not any(r.total for r in rows):
        return f"{title}: no data for this selection."
    top = max(rows, key=lambda r: r.total)
    return f"{title}: {len(rows)} {noun}, {sum(r.total for r in rows)} in all; the largest is {top.label} ({top.total})."


def bar_chart(chart_id: str, title: str, data: Sequence[tuple[str, Mapping[str, int]]],
              series: Sequence[Series], *, noun: str = "rows") -> Chart:
    """Horizontal stacked bars, one per row of ``data`` (label, {series key: count})."""
    rows = _rows(data, series)
    top = nice_max(max((r.total for r in rows), default=0))
    plot_w = WIDTH - BAR_LABEL_W - BAR_VALUE_W - 8  # the last tick's label must fit
    height = max(1, len(rows)) * (BAR_H + BAR_GAP) + 20
    bars = []
    for i, row in enumerate(rows):
        y = 24 + i * (BAR_H + BAR_GAP)
        x = float(BAR_LABEL_W)
        segments = []
        for s, value in zip(series, row.values, strict=True):
            width = round(plot_w * value / top, 1)
            if value:
                segments.append(Segment(s, value, x, y, width, BAR_H))
            x = round(x + width, 1)
        lines = wrap_label(row.label)
        label_y = y + BAR_H - 6 if len(lines) == 1 else y + BAR_H / 2 - 2
        bars.append(Bar(row.label, row.total, tuple(segments), BAR_LABEL_W - 6, label_y, x + 4, y + BAR_H - 6,
                        lines))
    ticks = tuple(
        Tick(v, x, 14, x, height - 4, x, 11)
        for v in tick_values(top)
        for x in [round(BAR_LABEL_W + plot_w * v / top, 1)]
    )
    return Chart(chart_id, title, _summary(title, rows, noun), "bars", tuple(series), rows, tuple(bars), ticks,
                 WIDTH, height)


def column_chart(chart_id: str, title: str, data: Sequence[tuple[str, Mapping[str, int]]],
                 series: Sequence[Series], *, noun: str = "days") -> Chart:
    """Vertical stacked columns in order (a time series); only some x labels are drawn, the table has all."""
    rows = _rows(data, series)
    top = nice_max(max((r.total for r in rows), default=0))
    plot_w = WIDTH - COLUMN_LEFT - 8
    slot = plot_w / max(1, len(rows))
    col_w = round(max(2.0, min(28.0, slot * 0.7)), 1)
    base = COLUMN_TOP + COLUMN_H
    every = max(1, math.ceil(len(rows) / 8))
    bars = []
    for i, row in enumerate(rows):
        x = round(COLUMN_LEFT + i * slot + (slot - col_w) / 2, 1)
        y = float(base)
        segments = []
        for s, value in zip(series, row.values, strict=True):
            h = round(COLUMN_H * value / top, 1)
            y = round(y - h, 1)
            if value:
                segments.append(Segment(s, value, x, y, col_w, h))
        shown = i % every == 0 or i == len(rows) - 1
        bars.append(Bar(row.label if shown else "", row.total, tuple(segments),
                        round(x + col_w / 2, 1), base + 16, round(x + col_w / 2, 1), round(y - 3, 1)))
    ticks = tuple(
        Tick(v, COLUMN_LEFT, y, WIDTH - 8, y, COLUMN_LEFT - 4, y + 4)
        for v in tick_values(top)
        for y in [round(base - COLUMN_H * v / top, 1)]
    )
    return Chart(chart_id, title, _summary(title, rows, noun), "columns", tuple(series), rows, tuple(bars), ticks,
                 WIDTH, base + COLUMN_BOTTOM)

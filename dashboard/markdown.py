"""A small, safe Markdown renderer for the preferences preview.

Preferences are written by people and by the learning loop from contract text,
so they must never become markup: every character is HTML-escaped first and
only a fixed set of constructs is turned into tags afterwards (headings,
paragraphs, lists, quotes, code, emphasis, and links to http(s) only). Raw HTML
in the text is shown as text. That is the subset the preferences use; anything
else stays readable as plain text.
"""

from __future__ import annotations

import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^\s*[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*\d{1,9}[.)]\s+(.*)$")
_QUOTE = re.compile(r"^\s*>\s?(.*)$")
_FENCE = re.compile(r"^\s*```")
_STRONG = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_EM = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])")
_LINK = re.compile(r"\[([^\]]+)\]\((https?://(?:[^\s)&]|&amp;)+)\)")  # no quotes or other entities in URLs


def _inline(text: str) -> str:
    """Escape, then add code spans, links and emphasis (code spans are left untouched)."""
    parts = text.split("`")
    out = []
    for i, part in enumerate(parts):
        if i % 2 and i < len(parts) - 1:
            out.append(f"<code>{escape(part)}</code>")
            continue
        html = escape(part if i % 2 == 0 else "`" + part)
        html = _LINK.sub(r'<a href="\2" rel="nofollow noopener noreferrer">\1</a>', html)
        html = _STRONG.sub(lambda m: f"<strong>{m.group(1) or m.group(2)}</strong>", html)
        html = _EM.sub(lambda m: f"<em>{m.group(1) or m.group(2)}</em>", html)
        out.append(html)
    return "".join(out)


def render_markdown(text: str) -> SafeString:
    """HTML for ``text``; safe to put in a page whatever the text contains."""
    html: list[str] = []
    paragraph: list[str] = []
    list_tag: str | None = None
    code: list[str] | None = None

    def flush() -> None:
        nonlocal list_tag
        if paragraph:
            html.append(f"<p>{_inline(' '.join(paragraph))}</p>")
            paragraph.clear()
        if list_tag:
            html.append(f"</{list_tag}>")
            list_tag = None

    for line in text.replace("\r\n", "\n").split("\n"):
        if code is not None:
            if _FENCE.match(line):
                html.append(f"<pre><code>{escape(chr(10).join(code))}</code></pre>")
                code = None
            else:
                code.append(line)
            continue
        if _FENCE.match(line):
            flush()
            code = []
        elif not line.strip():
            flush()
        elif m := _HEADING.match(line):
            flush()
            level = len(m.group(1))
            html.append(f"<h{level}>{_inline(m.group(2))}</h{level}>")
        elif (m := _BULLET.match(line)) or (m := _NUMBERED.match(line)):
            tag = "ul" if _BULLET.match(line) else "ol"
            if paragraph or list_tag != tag:
                flush()
                html.append(f"<{tag}>")
                list_tag = tag
            html.append(f"<li>{_inline(m.group(1))}</li>")
        elif m := _QUOTE.match(line):
            flush()
            html.append(f"<blockquote><p>{_inline(m.group(1))}</p></blockquote>")
        else:
            if list_tag:
                flush()
            paragraph.append(line.strip())
    if code is not None:
        html.append(f"<pre><code>{escape(chr(10).join(code))}</code></pre>")
    flush()
    return mark_safe("\n".join(html))  # noqa: S308 - every piece of text above went through escape()

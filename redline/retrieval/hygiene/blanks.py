"""Blanks, drafting notes and redactions left in a contract.

A contract signed with "dated as of ___________, 2015", "USD[ ]" or "[PRIOR TO EXECUTION OF THIS AGREEMENT,
THE PARTIES WILL AGREE UPON …]" in it is either unfinished or means something nobody agreed; a careful
associate reads for them before anything goes out. Reported:

* ``blank``: underscores, empty or bullet brackets ("[ ]", "[●]", "[_]"), "[TBD]" / "TBD", "[insert …]" and
  named placeholders ("[Company Name]"), and a date whose day and month were dropped ("as of , 2012"). A
  blank date or amount is named as such and quoted with its lead-in ("dated as of ___________, 2015").
* ``drafting_note``: bracketed notes to the drafter or the parties (in capitals with a verb, or "Note to
  draft", "NTD", "Insert", "Parties to agree"…), an open point in the text ("Price: to be agreed"), and a
  figure still in square brackets ("[14 ] days"), the convention for a number not yet agreed.
* ``redaction``: a public filing's omissions ("[***]" with a legend that portions were omitted and filed
  separately with the SEC), reported once for the document, at the legend (else at the first mark).

Not reported, because a lawyer would never flag them: the blanks of a signature block (after "By:",
"Name:", "Title:", "Date:", "Per:", "Signature", a testimonium's "EXECUTED this ____ day of ____", a bare
line with a name under it, a rule of underscores on a cover page), and the fill-in lines of an attachment
that is plainly a form: titled as a form, notice, report, certificate, letter, example or agreement to be
signed, or opened by "[Form of …]", or holding four or more fill-in lines. An attachment is only recognised
after the main document has begun, so a contract filed as "Exhibit C" is not taken for a form of itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..blocks import Block
from ..graph import ContractGraph
from ..layout import Role
from .finding import Finding

_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_BLANK_RE = re.compile(
    r"_{3,}|\[(?:[\s_●•·\u2022\u25cf]|\u00a0)*\]"
    r"|\[\s*(?:TBD|TBC|TBA|to\s+be\s+(?:determined|agreed|confirmed))\s*\]|(?<![\w\[])TB[DCA](?![\w\]])"
)
_PLACEHOLDER_RE = re.compile(
    r"\[\s*(?:(?:please\s+)?(?:insert|specify|enter|fill\s+in|complete)\b[^\[\]]{0,80}"
    r"|(?:date|amount|name|address|number|price|fee|percentage|sum|company(?:\s+name)?|party|counterparty"
    r"|name\s+of\s+[^\[\]]{1,40}|jurisdiction|notice\s+details)\s*)\]", re.I)
# a date whose day and month were lost without a trace: "dated as of , 2012", "as of this day of , 2012"
_LOST_DATE_RE = re.compile(
    r"\b(?:dated|as\s+of|effective|made\s+on|entered\s+into\s+on)\s+(?:this\s+)?(?:(?:the\s+)?day\s+of\s+)?"
    r",\s*(?:19|20)\d\d\b", re.I)
_DATE_LEAD_RE = re.compile(
    rf"(?:(?:dated|effective|made|entered\s+into|executed|signed)\s+)?"
    rf"(?:(?:as\s+of|on\s+or\s+(?:before|after)|on|of|before|after|by|until|from|through)\s+)?"
    rf"(?:(?:this|the)\s+)?(?:{_MONTH}\s+)?$", re.I)
_DATE_TAIL_RE = re.compile(
    rf"^(?:\s*(?:st|nd|rd|th))?\s*(?:day\s+of\s+(?:{_MONTH}\s*)?)?,?\s*(?:(?:19|20)(?:\d\d|__?)|20(?=\[))", re.I)
_DATE_CUE_RE = re.compile(rf"(?:\bday\s+of\b|\b{_MONTH}\s*$|\b(?:dated|as\s+of|effective)\b[^.;]{{0,12}}$)", re.I)
_AMOUNT_BEFORE_RE = re.compile(r"(?:US\s?\$|USD|U\.S\.\s?\$|\$|€|£|EUR|GBP)\s*$")
_AMOUNT_AFTER_RE = re.compile(r"^\s*(?:%|percent\b|per\s?cent\b|dollars\b|Dollars\b)")
# what joins the pieces of one blank date: "____ day of ____, 20__", "[ ] [ ], 20[ ]"
_JOIN_RE = re.compile(rf"^\s*(?:(?:st|nd|rd|th)\s*)?(?:day\s+of|{_MONTH}|,|\s)*\s*(?:20|19)?$", re.I)

_SIGN_LABEL_RE = re.compile(
    r"(?:^|[\s_:)\]])(?:By|Name|Title|Its|Date|Dated|Signature|Signed|Sign|Per|Witness|Print(?:ed)?\s+Name|Initials?"
    r"|Authori[sz]ed\s+(?:Signatory|Signature|Representative)|Attest|Date\s+Signed|Officer|Notary(?:\s+Public)?"
    r"|Seal|Occupation|Address|Director|Secretary)\s*[:.]?\s*$", re.I)
# case variants spelled out: an IGNORECASE search of every clause near a blank is the slowest part of the check
_SIGN_CUE_RE = re.compile(
    r"\b(?:By|BY|Per|PER|Name|NAME|Title|TITLE)\s*:|/s/|\b(?:Signature|SIGNATURE)\s*[:_]|^\s*-\s*-{10,}")
_TESTIMONIUM_RE = re.compile(
    r"^\s*(?:IN\s+WITNESS\s+WHEREOF|EXECUTED|SIGNED|Signed\s+the|Dated\s+(?:the|this)|AGREED\s+(?:AND|&)\s+ACCEPTED"
    r"|ACCEPTED\s+AND\s+AGREED)", re.I)
_ATTACHMENT_RE = re.compile(
    r"^(?:[\W\d]{0,6}|.{0,20}?\d{4}\s)\[?\s*(?:(?:EXHIBIT|SCHEDULE|APPENDIX|ANNEX|ATTACHMENT|ADDENDUM)\b"
    r"|(?:Exhibit|Schedule|Appendix|Annex|Attachment|Addendum)\s)\s*(?!\d+\.\d)[A-Z0-9][\w-]{0,4}\b"
    r"|^\s*\[?\s*form\s+of\b", re.I)
_ATTACHMENT_WORDS = ("exhibit", "schedule", "appendix", "annex", "attachment", "addendum", "form of")
_FORM_OF_RE = re.compile(r"\[\s*form\s+of\b", re.I)  # "[Form of Amendment to Appendix A]"
_PARENT_RE = re.compile(
    r"\b(?:to|of|under|in|with|the|this|present|said)\b[^.;:]{0,60}?\bagreements?\b", re.I)
_FORM_TITLE_RE = re.compile(
    r"\b(?:form|notice|report|certificate|request|letter|example|template|specimen|confirmation|acknowledg(?:e)?ment"
    r"|undertaking|joinder|agreement|guarantee|guaranty|amendment|assignment|consent|waiver|release"
    r"|power\s+of\s+attorney"
    r"|invoice|purchase\s+order|application|statement|questionnaire|receipt)\b", re.I)
_FILL_LINE_RE = re.compile(r"_{3,}|\[(?:[\s_●•]|\u00a0)*\]")
# the capitalised words that open an attachment: its title, before the first sentence of its text
_TITLE_RE = re.compile(r"^(?:\s*(?:[^\sa-z][^\s]*|of|to|and|for|the|in|on|by|under|with|a|an))+")
_LISTED_RE = re.compile(r"\b(?:exhibit|schedule|appendix|annex|attachment)\s+[A-Z0-9]", re.I)
_FORM_BLOCKS = 60
_FORM_LINES = 4  # an attachment with this many fill-in lines is a form to be completed, whatever its title

_NOTE_BRACKET_RE = re.compile(r"\[([^\[\]]{6,600})\]")
_NOTE_WORD_RE = re.compile(r"(?:note\s+to\s+(?:draft|drafter|parties|client)|drafting\s+note|NTD|N\.B\.)\s*[:\-–]", re.I)
# A bare "[Note: …]" is often agreed wording (c0016): a note only when addressed to the drafters, or in capitals.
_BARE_NOTE_RE = re.compile(r"^\s*note\s*[:\-–]\s*", re.I)
_NOTE_START_RE = re.compile(
    r"^\s*(?:NTD\b|N\.?B\.?\b|drafting\s+note|comment\b|query\b|question\b|please\b|insert\b|include\b|add\b"
    r"|confirm\b|discuss\b|to\s+be\b|TBD\b|TBC\b|open\s+point|placeholder|under\s+(?:review|discussion)"
    r"|(?:the\s+)?parties\s+(?:to|will|shall|must)\b"
    r"|[A-Z][\w&.]*\s+to\s+(?:confirm|review|provide|advise|discuss|update)\b)", re.I)
_OPEN_POINT_RE = re.compile(
    r"\bto\s+be\s+(?:agreed|determined|confirmed|decided|provided|inserted|discussed)\b"
    r"|\bparties\s+(?:will|to|shall|must)\s+(?:agree|discuss|confirm|negotiate)\b", re.I)
_CAPS_VERB_RE = re.compile(r"\b(?:WILL|SHALL|MUST|SHOULD|NEEDS?|CONFIRM|AGREE|INSERT|DISCUSS|PROVIDE|REVIEW|NOTE"
                           r"|PRIOR)\b")
_BOILERPLATE_RE = re.compile(
    r"signature|remainder\s+of|intentionally|left\s+blank|logo|illegible|reserved|follows|omitted|confidential"
    r"|redact|graphic|chart|picture|image|photo|exhibit\s+\w+\s+to\b|\*", re.I)
_UNBRACKETED_NOTE_RE = re.compile(r"\b(?:Note\s+to\s+draft|NTD|Drafting\s+note)\s*[:\-–][^.\]]{0,160}\.?", re.I)
# "Price: to be agreed.", "(to be determined)", "the fee is to be agreed upon.": nothing after it says how
_OPEN_VALUE_RE = re.compile(r"to\s+be\s+(?:agreed|determined|confirmed|decided)(?:\s+upon)?(?=\s*(?:[.;)]|$))", re.I)
_OPEN_LEAD_RE = re.compile(r"(?::\s*|\(\s*|\b(?:is|are|remains?|shall\s+be|will\s+be)\s+(?:still\s+)?)$", re.I)
_BRACKETED_FIGURE_RE = re.compile(
    r"\[\s*(?:[a-z][a-z\s-]{2,40}\s*\(\s*(?:US\s?\$|\$)?\s*[\d,.]+\s*%?\s*\)|(?:US\s?\$|USD|\$)?\s*\d[\d,.]*\s*%?)\s*\]"
    r"(?=\s*(?:%|percent|per\s?cent|(?:business\s+|calendar\s+)?(?:days?|months?|years?|weeks?|hours?)\b"
    r"|dollars\b|worth))"
    r"|\[\s*[a-z][a-z\s-]{2,40}\s*(?:dollars|percent)\s*\(\s*(?:US\s?\$|\$)?\s*[\d,.]+\s*%?\s*\)\s*\]"
    rf"|\b{_MONTH}\s\[\d{{1,2}}\s*\](?=,?\s*(?:19|20)\d\d)", re.I)
_REDACTION_MARK_RE = re.compile(r"\[\s*[*∗](?:\s*[*∗])*\s*\]|\[\s*\*{3}[^\[\]]{0,40}\]|\*{3}")
_LEGEND_RE = re.compile(
    r"\bconfidential\s+treatment\s+(?:has\s+been\s+|is\s+being\s+|was\s+)?requested"
    r"|\b(?:omitted|omits|omissions|redacted|redactions|excluded)\b.{0,200}?(?:filed\s+separately|separately\s+filed"
    r"|competitively\s+harmful|confidential\s+treatment|24b-2|marked|denoted|identified|brackets|asterisks)"
    r"|\b(?:marked|denoted|identified)\s+(?:by|with)\b.{0,120}?\b(?:omitted|redact|excluded)"
    r"|\b(?:certain|confidential)\s+(?:confidential\s+)?(?:portions|information|material)\b[^.]{0,80}"
    r"\b(?:has|have)\s+been\s+(?:redacted|omitted|excluded)", re.I | re.S)


_MESSAGES = {
    "date": "A blank date: '{quote}' needs the date before signing.",
    "amount": "A blank amount: '{quote}' needs the figure before signing.",
    "tbd": "'{quote}' is still marked to be determined; the term needs settling before signing.",
    "blank": "A blank: '{quote}' still needs to be filled in before signing.",
}


@dataclass(frozen=True, slots=True)
class _Context:
    signature: frozenset[int]  # blocks of a signature block
    signed: frozenset[int]  # … of one already signed ("/s/"): a blank date there was never filled in
    form: frozenset[int]  # blocks of an attachment that is plainly a form


def check(graph: ContractGraph) -> list[Finding]:
    """Blanks, placeholders and drafting notes left in the text, and the document's redaction, once."""
    body = [b for b in graph.blocks if graph.roles[b.index] is Role.BODY]
    findings: list[Finding] = []
    redaction = _redaction(graph.blocks, body)
    if redaction:
        findings.append(redaction)
    suspects = [n for n, b in enumerate(body) if _suspect(b.text)]  # the cheap test first: most clauses are clean
    if not suspects:
        return findings
    context = _context(body, suspects)
    for n in suspects:
        block = body[n]
        taken: list[tuple[int, int]] = []
        findings.extend(_notes(block, context, taken))
        if block.index not in context.form:
            findings.extend(_blanks(block, context, taken))
    return sorted(findings, key=lambda f: f.block)


def _suspect(text: str) -> bool:
    return "_" in text or "[" in text or "TB" in text or " ," in text or _open(text) or _noted(text)


def _open(text: str) -> bool:
    return any(w in text for w in ("o be agreed", "o be determined", "o be confirmed", "o be decided", "O BE"))


def _noted(text: str) -> bool:
    return any(w in text for w in ("NTD", "ote to", "OTE TO", "rafting", "RAFTING"))


# -- where blanks are expected --------------------------------------------------------------------------------
def _context(body: list[Block], suspects: list[int]) -> _Context:
    """Signature blocks (looked for only around the suspect blocks) and attachments that are forms."""
    cues: dict[int, bool] = {}

    def cue(n: int) -> bool:
        if n not in cues:
            text = body[n].text
            cues[n] = (":" in text or "/s/" in text or "_" in text or "----------" in text) and bool(
                _SIGN_CUE_RE.search(text))
        return cues[n]

    signature: set[int] = set()
    signed: set[int] = set()
    for n in suspects:
        text = body[n].text
        near = range(max(0, n - 2), min(len(body), n + 3))
        testimonium = _TESTIMONIUM_RE.search(text)
        if cue(n) or (testimonium and any(cue(k) for k in near)):
            signature.add(body[n].index)
        elif (testimonium or any(cue(k) for k in near if k > n)) and len(text) < 200 and _BLANK_RE.search(text):
            signature.add(body[n].index)  # "Dated the ____ day of May, 2000." just above "Per: ____"
        if body[n].index in signature and any("/s/" in body[k].text for k in near):
            signed.add(body[n].index)
    form: set[int] = set()
    starts = [n for n, b in enumerate(body) if n >= 5 and (("[" in b.text and _FORM_OF_RE.search(b.text)) or (
        _attachment(b.text[:80]) and len(_LISTED_RE.findall(b.text[:300])) < 2))]  # not a list of exhibits
    for a, start in enumerate(starts):
        end = starts[a + 1] if a + 1 < len(starts) else len(body)
        region = body[start:end]
        title = _title(region)
        if len(region) > _FORM_BLOCKS and not re.search(r"\bform\s+of\b", title, re.I):
            continue  # a form is a page or two; a long attachment is a contract in its own right
        if _FORM_TITLE_RE.search(title) or sum(len(_FILL_LINE_RE.findall(b.text)) for b in region) >= _FORM_LINES:
            form.update(b.index for b in region)
    return _Context(frozenset(signature), frozenset(signed), frozenset(form))


def _attachment(head: str) -> bool:
    low = head.lower()
    return any(w in low for w in _ATTACHMENT_WORDS) and bool(_ATTACHMENT_RE.search(head))


def _title(region: list[Block]) -> str:
    """ "EXHIBIT B QUARTERLY SALES & ROYALTY REPORT …", or "SCHEDULE 3" with "Confidentiality Undertaking" below."""
    first = region[0].text
    title = _TITLE_RE.match(first)
    text = " ".join((title.group(0) if title else first).split()[:12])
    if len(first) < 60 and len(region) > 1 and len(region[1].text) < 120:
        text += " " + region[1].text
    # "Exhibit A to Manufacturing Agreement", "apply in the present Agreement": the parent contract, not a form
    return _PARENT_RE.sub(" ", text)


def _signature_field(block: Block, start: int, context: _Context, date: bool) -> bool:
    """A blank that belongs to a signature block, or a rule or signature line standing on its own (but not
    the date line of a letter agreement, "____________, 1996")."""
    text = block.text
    if _SIGN_LABEL_RE.search(text[max(0, start - 40): start]):
        return True
    if block.index in context.signature:  # its lines, not a "[TBD]" or "[●]" left in it
        return text[start] == "_" and not (date and block.index in context.signed)
    if date:
        return False
    rest = _BLANK_RE.sub(" ", text).strip(" .:-")
    return not rest or (start == len(text) - len(text.lstrip()) and len(rest.split()) <= 8 and "." not in rest[-1:])


# -- blanks ---------------------------------------------------------------------------------------------------
def _blanks(block: Block, context: _Context, taken: list[tuple[int, int]]) -> list[Finding]:
    text, out = block.text, []
    maybe = "_" in text or "[" in text or "TB" in text
    spans = [m.span() for m in (_BLANK_RE.finditer(text) if maybe else ()) if not _overlaps(*m.span(), taken)]
    for start, end in _merge(text, spans):
        lo, hi, kind = _describe(text, start, end)
        if _signature_field(block, start, context, kind == "date"):
            continue
        quote = text[lo:hi]
        out.append(_finding("blank", block, lo, quote, _MESSAGES[kind].format(quote=quote)))
    for m in _PLACEHOLDER_RE.finditer(text) if "[" in text else ():
        if not _overlaps(m.start(), m.end(), taken) and not _caption(text, m.start()):
            quote = m.group(0)
            out.append(_finding("blank", block, m.start(), quote,
                                f"A placeholder '{quote}' was left in the text and needs the actual details."))
    for m in _LOST_DATE_RE.finditer(text) if " ," in text else ():
        if block.index not in context.signature:
            out.append(_finding("blank", block, m.start(), m.group(0),
                                f"A blank date: '{m.group(0)}' has no day or month and needs the date before signing."))
    return out


def _merge(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """One blank date is one finding: "____ day of ________, 20__" and "[ ] [ ], 20[ ]" are merged."""
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start - merged[-1][1] <= 14 and _JOIN_RE.match(text[merged[-1][1]: start]):
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def _describe(text: str, start: int, end: int) -> tuple[int, int, str]:
    """Where the quote runs (the blank with the words that say what it is for) and whether the blank is a
    date, an amount, a "TBD" or any other blank."""
    before, after = text[max(0, start - 60): start], text[end: end + 60]
    tail = _DATE_TAIL_RE.match(after)
    if tail or _DATE_CUE_RE.search(before) or "day of" in text[start:end]:
        lead = _DATE_LEAD_RE.search(before)
        lo = start - (len(lead.group(0)) if lead else 0)
        return *_trim(text, lo, end + (len(tail.group(0)) if tail else 0)), "date"
    if re.fullmatch(r"\[?\s*TB[DCA]\s*\]?", text[start:end]):
        return start, end, "tbd"
    amount_before, amount_after = _AMOUNT_BEFORE_RE.search(before), _AMOUNT_AFTER_RE.match(after)
    if amount_before or amount_after:
        lo = start - (len(amount_before.group(0)) if amount_before else 0)
        hi = end + (len(amount_after.group(0)) if amount_after else 0)
        return lo, hi, "amount"
    return *_words_around(text, start, end), "blank"


def _words_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The blank with a word either side within its clause, "within ____ days", so the comment reads."""
    left = re.search(r"(?:[^\s.;:,()\[\]]+\s+)?$", text[max(0, start - 40): start])
    right = re.match(r"(?:\s*\([^()]{1,60}\)|\s+[^\s.;:,()\[\]]+)?", text[end: end + 80])
    lo = start - (len(left.group(0)) if left else 0)
    return _trim(text, lo, end + (len(right.group(0)) if right else 0))


def _trim(text: str, lo: int, hi: int) -> tuple[int, int]:
    inner = text[lo:hi]
    lo += len(inner) - len(inner.lstrip())
    return lo, max(lo, hi - len(inner) + len(inner.rstrip()))


def _caption(text: str, start: int) -> bool:
    """ "Section 3.01 [AMOUNT]": a bracketed caption after a section number, not a placeholder."""
    return bool(re.search(r"\d[\d.]*\)?\s*$", text[max(0, start - 12): start]))


# -- drafting notes -------------------------------------------------------------------------------------------
def _notes(block: Block, context: _Context, taken: list[tuple[int, int]]) -> list[Finding]:
    text, out, in_form = block.text, [], block.index in context.form
    bracket = "[" in text
    for m in _NOTE_BRACKET_RE.finditer(text) if bracket else ():
        inner = m.group(1).strip()
        note = _NOTE_WORD_RE.match(inner)  # "[Note to draft: …]", "[NTD: …]": a note wherever it is
        if not note and (_BOILERPLATE_RE.search(inner) or _PLACEHOLDER_RE.fullmatch(m.group(0))
                         or _BLANK_RE.fullmatch(m.group(0))):
            continue
        letters = [c for c in inner if c.isalpha()]
        caps = len(letters) >= 20 and sum(c.isupper() for c in letters) >= 0.9 * len(letters)
        shouting = caps and len(inner.split()) >= 5 and _CAPS_VERB_RE.search(inner)
        addressed = _NOTE_START_RE.search(_BARE_NOTE_RE.sub("", inner)) or _OPEN_POINT_RE.search(inner)
        if note or shouting or (addressed and not in_form):
            taken.append(m.span())
            out.append(_finding("drafting_note", block, m.start(), m.group(0),
                                f"A drafting note was left in the text: '{_short(m.group(0))}' must be resolved "
                                "and deleted before signing."))
    for m in _UNBRACKETED_NOTE_RE.finditer(text) if _noted(text) else ():
        if not _overlaps(m.start(), m.end(), taken):
            taken.append(m.span())
            out.append(_finding("drafting_note", block, m.start(), m.group(0).strip(),
                                f"A drafting note was left in the text: '{_short(m.group(0))}' must be resolved "
                                "and deleted before signing."))
    if in_form:
        return out
    for m in _OPEN_VALUE_RE.finditer(text) if _open(text) else ():
        lead = _OPEN_LEAD_RE.search(text, max(0, m.start() - 20), m.start())
        if not lead:
            continue
        taken.append(m.span())
        lo, hi = _words_around(text, lead.start() if lead.group(0)[:1].isalpha() else m.start(), m.end())
        quote = text[lo:hi]
        out.append(_finding("drafting_note", block, lo, quote,
                            f"An open point: '{quote}' leaves the term unsettled; agree it before signing."))
    for m in _BRACKETED_FIGURE_RE.finditer(text) if bracket else ():
        taken.append(m.span())
        out.append(_finding("drafting_note", block, m.start(), m.group(0),
                            f"The figure '{m.group(0)}' is still in square brackets, which marks it as not yet "
                            "agreed; confirm it and remove the brackets."))
    return out


def _short(quote: str, limit: int = 90) -> str:
    quote = " ".join(quote.split())
    return quote if len(quote) <= limit else quote[: limit - 1].rstrip() + "…"


# -- redaction ------------------------------------------------------------------------------------------------
def _redaction(blocks: list[Block], body: list[Block]) -> Finding | None:
    """One finding for the document's redactions: at the legend (often a running header, so every block is
    read), else at the first mark."""
    marks = [(b, m) for b in body if "*" in b.text for m in _REDACTION_MARK_RE.finditer(b.text)]
    for block in blocks:
        low = block.text[:1500].lower()
        if not ("omitted" in low or "omits" in low or "omission" in low or "redact" in low or "treatment" in low
                or "exclu" in low):
            continue
        legend = _LEGEND_RE.search(block.text[:1500])
        if legend:
            text = block.text[: legend.end()]
            # the legend's first sentence, from its first word or mark ("- ------ [***] Confidential …")
            lead = re.search(r"[\[A-Za-z]", text)
            begin = lead.start() if lead else 0
            stop = re.search(r"[.!](?=\s|$)", block.text[legend.end():])
            end = legend.end() + stop.end() if stop and stop.start() < 200 else max(legend.end(), len(block.text[:300]))
            begin, end = _trim(block.text, begin, end)
            return _finding("redaction", block, begin, block.text[begin:end], _redaction_message(len(marks)))
    if marks:
        block, m = marks[0]
        return _finding("redaction", block, m.start(), m.group(0), _redaction_message(len(marks)))
    return None


def _redaction_message(count: int) -> str:
    where = f"{count} passage{'s are' if count != 1 else ' is'} marked as omitted" if count else "passages are omitted"
    return (f"This is a redacted public filing ({where}); obtain the unredacted text before relying on the "
            "affected terms.")


# -- helpers --------------------------------------------------------------------------------------------------
def _overlaps(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(start < e and s < end for s, e in spans)


def _finding(kind: str, block: Block, start: int, quote: str, message: str) -> Finding:
    return Finding(kind=kind, block=block.index, anchor=block.anchor, quote=quote, message=message, start=start)

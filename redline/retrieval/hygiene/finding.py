"""What a hygiene check reports: one defect, at one place, said in the lawyer's words."""

from __future__ import annotations

from dataclasses import dataclass

# Every kind a check may report, grouped as issue #27 lists them; the review's category for each is its group.
KINDS: dict[str, str] = {
    "blank": "blanks",  # "____", "[ ]", "[●]", "[TBD]", "[insert …]", a blank date or amount
    "drafting_note": "blanks",  # "[PRIOR TO EXECUTION, THE PARTIES WILL AGREE …]", "to be agreed"
    "redaction": "blanks",  # a public filing's "[*]" marks, reported once
    "undefined_term": "defined_terms",
    "unused_definition": "defined_terms",
    "conflicting_definition": "defined_terms",
    "term_case": "defined_terms",  # "Confidential information" beside "Confidential Information"
    "party_names": "defined_terms",  # one party called by two names
    "missing_reference": "cross_references",  # "section II above" in a contract with no section II
    "empty_attachment": "cross_references",  # a referenced exhibit or schedule attached empty
    "numbering_gap": "numbering",  # §12 jumps from B to D
    "numbering_duplicate": "numbering",
    "unpaired": "punctuation",  # a bracket, parenthesis or quotation mark opened and never closed
    "words_digits": "figures",  # "thirty (60) days"
    "two_values": "figures",  # one right with two notice periods
    "repeated_word": "punctuation",  # "the the": the one fix that is certain
}


@dataclass(frozen=True, slots=True)
class Finding:
    """One defect. ``block`` indexes the graph's blocks (``anchor`` is that block's); ``quote`` is an exact
    substring of the block's text (the place the comment is anchored on); ``message`` names what was found
    and where the other half is ("§12.C is referenced in §18.G but the contract has no §12.C"); ``fix`` is the
    replacement for ``quote`` when the correction is certain (a repeated word), else None: a comment;
    ``start`` is where ``quote`` begins in the block's text (None: at its first occurrence there)."""

    kind: str
    block: int
    anchor: str
    quote: str
    message: str
    fix: str | None = None
    start: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown hygiene kind {self.kind!r}")
        if not self.quote:
            raise ValueError("a finding quotes the text it is about")

    @property
    def group(self) -> str:
        return KINDS[self.kind]

    @property
    def order(self) -> tuple[int, int, str]:
        """Where the finding sits, for document order: block, place in it (unplaced first), kind."""
        return self.block, self.start if self.start is not None else -1, self.kind

"""A rule's red lines (the format's ``red_flags``) as rows of a form, not YAML.

Red lines are the lawyer's part of detection: the wording the team will not
accept and why. Editing them as YAML meant lawyers had to ask a rule author, so
each red line is a row with the format's fields (docs/playbook-format.md, "Red
flags"), rows are added and removed on the form, and the rule form turns the
rows into the same ``red_flags`` list the YAML held. Validation stays the
engine's: the rows' fields are only cleaned here, and the engine's error path
(``/rules/N/red_flags/I/pattern``) is shown on row I's field, naming the row.
"""

from __future__ import annotations

from typing import Any

from django import forms

from redline.analysis.playbook.model import Severity

PREFIX = "red_lines"
MAX_TEXT = 2000  # the format's limit for every red-flag string
# The format's ``replacement`` and ``insert`` are exclusive, so the form asks for one choice and one text.
EDITS = [("", "Comment on the words"), ("replacement", "Replace the words with the text below"),
         ("insert", "Insert the text below after the paragraph")]


def _text(label: str, help_text: str = "", *, required: bool = False, rows: int = 0) -> forms.CharField:
    """A red-flag string kept exactly as typed: spaces in a pattern or a replacement are part of it."""
    attrs = {"class": "code", "spellcheck": "false"}
    widget = forms.Textarea(attrs={"rows": rows}) if rows else forms.TextInput(attrs=attrs)
    return forms.CharField(label=label, help_text=help_text, required=required, strip=False, max_length=MAX_TEXT,
                           widget=widget)


class RedLineForm(forms.Form):
    """One red flag; blank choices and empty texts are the format's defaults and are left out of it.

    ``main_fields`` are what a lawyer reads; ``condition_fields`` refine where the flag applies and what
    the review does, and are folded away unless set (:meth:`conditions_open`).
    """

    required_css_class = "required"
    main_fields = ("pattern", "match", "message", "severity", "favours")
    condition_fields = ("context", "unless", "unless_anywhere", "reciprocal", "edit", "edit_text")

    pattern = _text("Wording to find", "A regular expression (case-insensitive), or plain words with “Match as: "
                    "words”. {party} matches any party.", required=True)
    match = forms.ChoiceField(label="Match as", initial="regex",
                              choices=[("regex", "Regular expression"), ("keyword", "Words (whole words)")])
    message = _text("Why it is a red line", "The comment the lawyer sees; {party} and {counterparty} name the "
                    "parties.", required=True, rows=2)
    severity = forms.ChoiceField(label="Severity of this red line", required=False,
                                 choices=[("", "As the rule"), *((s.value, s.value.capitalize()) for s in Severity)])
    favours = forms.ChoiceField(label="Favours", required=False, choices=[
        ("", "No side"), ("actor", "The party doing it"), ("counterparty", "The other party")],
        help_text="Raised only when the wording works against the party the review acts for.")
    context = _text("Only in paragraphs matching")
    unless = _text("Not in paragraphs matching")
    unless_anywhere = _text("Not when the contract anywhere matches")
    reciprocal = forms.BooleanField(label="Only when one-sided", required=False,
                                    help_text="Ignored when another party does the same elsewhere in the contract "
                                              "(needs {party} in the wording).")
    edit = forms.ChoiceField(label="What the review does", required=False, choices=EDITS)
    edit_text = _text("Replacement or inserted text", rows=2)

    @staticmethod
    def initial_from(flag: dict[str, Any]) -> dict[str, Any]:
        """The row showing a stored flag (the inverse of :meth:`flag`)."""
        edit = next((e for e in ("replacement", "insert") if e in flag), "")
        fields = ("pattern", "message", "severity", "favours", "context", "unless", "unless_anywhere")
        return {**{f: flag.get(f, "") for f in fields}, "match": flag.get("match", "regex"),
                "reciprocal": flag.get("reciprocal", False), "edit": edit, "edit_text": flag.get(edit, "")}

    def clean_message(self) -> str:
        return self.cleaned_data["message"].replace("\r\n", "\n")  # a textarea posts CRLF; YAML would hold LF

    def clean_edit_text(self) -> str:
        return self.cleaned_data["edit_text"].replace("\r\n", "\n")

    def flag(self) -> dict[str, Any]:
        data = self.cleaned_data
        out: dict[str, Any] = {"pattern": data["pattern"], "message": data["message"]}
        if data["match"] != "regex":
            out["match"] = data["match"]
        out |= {f: data[f] for f in ("severity", "favours", "context", "unless", "unless_anywhere") if data[f]}
        if data["reciprocal"]:
            out["reciprocal"] = True
        if data["edit"]:
            out[data["edit"]] = data["edit_text"]
        return out

    def conditions_open(self) -> bool:
        """Show the row's conditions and edit unfolded when they are set or have an error."""
        fields = self.condition_fields
        return any(self[f].value() for f in fields) or (self.is_bound and any(f in self.errors for f in fields))


class BaseRedLineFormSet(forms.BaseFormSet):
    """The rows in order; an empty new row adds nothing, a row marked “Remove” is dropped."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kept: list[RedLineForm] = []

    def flags(self) -> list[dict[str, Any]]:
        """The ``red_flags`` of the rule, in row order (call after validation)."""
        self.kept = [f for f in self.forms if f.cleaned_data and f not in self.deleted_forms]
        return [f.flag() for f in self.kept]

    def add_flag_error(self, index: int, field: str, message: str) -> None:
        """The engine's error about ``red_flags/index/field`` (after :meth:`flags`), on that row's field
        (on the row when the error is about no one field)."""
        form = self.kept[index]  # the engine checked the list flags() built, so its index is a kept row's
        name = "edit_text" if field in ("replacement", "insert") else field
        number = self.forms.index(form) + 1
        form.add_error(name if name in form.fields else None, f"Red line {number}: {message}")

    def first_error_field(self) -> forms.BoundField | None:
        """The field to put focus on: the first one with an error, row by row."""
        for form in self.forms:
            name = next((n for n in form.fields if n in form.errors), None)
            if name:
                return form[name]
        return None


RedLineFormSet = forms.formset_factory(RedLineForm, formset=BaseRedLineFormSet, extra=1, can_delete=True,
                                       can_delete_extra=False)

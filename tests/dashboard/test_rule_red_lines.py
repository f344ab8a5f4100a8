"""A rule's red lines are edited as rows of the rule form, not as YAML (issue #30, 7).

The rows post to the same view and service as before, so every save is a new
version with its audit entry, and the engine still validates them: its error
path lands on the row's field, naming the row.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
import yaml

from redline.models import AuditEvent
from redline.services.playbook_edits import playbook_latest_version, rule_update
from tests.dashboard.conftest import HTMX

ESCROW = {"key": "escrow", "title": "Source code escrow", "category": "intellectual_property", "severity": "minor",
          "enabled": "on", "keywords": "escrow", "advanced": "", "base": "1"}
# The same two red lines as a rule author writes them in the playbook format (docs/playbook-format.md).
RED_LINES_YAML = r"""
red_flags:
  - pattern: '{party}\s+may\s+withhold\s+the\s+source\s+code'
    message: Only {party} may withhold the code. Escrow should release it on insolvency.
    severity: major
    favours: actor
    unless: '\binsolvency\b'
    replacement: 'the escrow agent shall release the source code'
  - pattern: no escrow
    match: keyword
    message: The contract rules out escrow.
    reciprocal: false
"""


def rows(*flags: dict[str, str], initial: int = 0) -> dict[str, str]:
    """The red-line rows as the form posts them (``red_lines-N-field``)."""
    data = {"red_lines-TOTAL_FORMS": str(len(flags)), "red_lines-INITIAL_FORMS": str(initial)}
    for i, flag in enumerate(flags):
        data |= {f"red_lines-{i}-{name}": value for name, value in flag.items()}
    return data


TWO = [
    {"pattern": r"{party}\s+may\s+withhold\s+the\s+source\s+code", "match": "regex",
     "message": "Only {party} may withhold the code. Escrow should release it on insolvency.", "severity": "major",
     "favours": "actor", "unless": r"\binsolvency\b", "edit": "replacement",
     "edit_text": "the escrow agent shall release the source code"},
    {"pattern": "no escrow", "match": "keyword", "message": "The contract rules out escrow.", "severity": "",
     "favours": "", "edit": ""},
]


class FormValues(HTMLParser):
    """What a browser would post for the first form in some HTML: inputs, checked boxes, selects, textareas."""

    def __init__(self) -> None:
        super().__init__()
        self.values: list[tuple[str, str]] = []
        self._select: str | None = None
        self._textarea: str | None = None
        self._text = ""
        self._in_template = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "template":
            self._in_template = True
        if self._in_template or "disabled" in a or (not a.get("name") and tag != "option"):
            return
        if tag == "input" and (a.get("type") not in ("checkbox", "radio") or "checked" in a):
            self.values.append((a["name"], a.get("value", "on" if a.get("type") == "checkbox" else "")))
        elif tag == "select":
            self._select = a["name"]
        elif tag == "option" and self._select and "selected" in a:
            self.values.append((self._select, a.get("value", "")))
        elif tag == "textarea":
            self._textarea, self._text = a["name"], ""

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "template":
            self._in_template = False
        elif tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea:
            self.values.append((self._textarea, self._text.removeprefix("\n")))
            self._textarea = None


def form_values(html: str) -> dict[str, list[str]]:
    parser = FormValues()
    parser.feed(html)
    out: dict[str, list[str]] = {}
    for name, value in parser.values:
        out.setdefault(name, []).append(value)
    return out


def url(version, tail: str) -> str:
    return f"/playbooks/{version.playbook_id}/rules/{tail}"


@pytest.mark.django_db
def test_the_form_shows_a_rules_red_lines_as_rows_not_yaml(admin, playbook):
    html = admin.get(url(playbook, "limitation-of-liability/edit/"), **HTMX).content.decode()
    values = form_values(html)
    flags = playbook.rules.get(key="limitation-of-liability").spec["red_flags"]
    assert values["red_lines-TOTAL_FORMS"] == ["4"] and values["red_lines-INITIAL_FORMS"] == ["3"]  # + a new row
    assert [values[f"red_lines-{i}-pattern"] for i in range(4)] == [*([f["pattern"]] for f in flags), [""]]
    assert "red_flags" not in values["advanced"][0] and "thresholds:" in values["advanced"][0]
    assert 'for="edit-limitation-of-liability-red_lines-0-pattern"' in html
    assert "Remove this red line" in html and "<template data-red-line-template>" in html


@pytest.mark.django_db
def test_every_default_rules_red_lines_survive_a_save_from_the_rows(admin, playbook):
    """Nothing of any red line (all of the format's fields occur in the default playbook) is lost in the rows."""
    for rule in playbook.rules.all():
        html = admin.get(url(playbook, f"{rule.key}/edit/"), **HTMX).content.decode()
        assert admin.post(url(playbook, f"{rule.key}/edit/"), form_values(html), **HTMX)["HX-Retarget"] == "#rules"
        saved = playbook_latest_version(playbook=playbook.playbook).rules.get(key=rule.key).spec
        assert saved.get("red_flags") == rule.spec.get("red_flags"), rule.key


@pytest.mark.django_db
def test_add_two_red_lines_then_edit_one_and_remove_the_other(admin, alice, playbook):
    added = admin.post(url(playbook, "new/"), {**ESCROW, **rows(*TWO, {"match": "regex"})}, **HTMX)  # + empty row
    assert "saved as version 2" in added.content.decode()
    v2 = playbook_latest_version(playbook=playbook.playbook)
    saved = v2.rules.get(key="escrow").spec
    yaml_rule = {**{k: v for k, v in ESCROW.items() if k in ("key", "title", "category", "severity")},
                 "keywords": ["escrow"], **yaml.safe_load(RED_LINES_YAML)}
    # The YAML path (the same rule, its red lines written as YAML, through the same service) saves nothing new.
    assert rule_update(base=v2, key="escrow", spec=yaml_rule).pk == v2.pk
    assert saved["red_flags"] == [{k: v for k, v in f.items() if k != "reciprocal"} for f in yaml_rule["red_flags"]]

    edited = {**TWO[0], "message": "Escrow must release the code on insolvency."}
    post = {**ESCROW, "base": "2", **rows(edited, {**TWO[1], "DELETE": "on"}, initial=2)}
    assert "saved as version 3" in admin.post(url(playbook, "escrow/edit/"), post, **HTMX).content.decode()
    flags = playbook_latest_version(playbook=playbook.playbook).rules.get(key="escrow").spec["red_flags"]
    assert flags == [{**saved["red_flags"][0], "message": "Escrow must release the code on insolvency."}]
    audit = AuditEvent.objects.filter(action="playbook.version_create", actor=alice.membership.user).order_by("pk")
    assert [e.detail["note"] for e in audit] == ["add rule escrow", "edit rule escrow"]  # who changed it, and how


@pytest.mark.django_db
def test_an_invalid_red_line_is_an_error_on_its_row_and_nothing_is_saved(admin, playbook):
    bad = {**TWO[1], "pattern": "(unclosed", "match": "regex"}
    body = admin.post(url(playbook, "new/"), {**ESCROW, **rows(TWO[0], bad)}, **HTMX).content.decode()
    assert re.search(r'id="new-red_lines-1-pattern_error".*?Red line 2: invalid regular expression', body, re.S)
    assert re.search(r'<input[^>]*name="red_lines-1-pattern"[^>]*aria-invalid="true"', body)
    assert re.search(r'<input[^>]*name="red_lines-1-pattern"[^>]*autofocus', body)  # focus goes to the problem
    assert 'value="(unclosed"' in body and "Only {party} may withhold the code." in body  # nothing typed is lost
    one_sided = {**TWO[1], "match": "regex", "reciprocal": "on"}  # needs {party}: an engine check, not the form's
    body = admin.post(url(playbook, "new/"), {**ESCROW, **rows(one_sided)}, **HTMX).content.decode()
    assert re.search(r'id="new-red_lines-0-pattern_error".*?Red line 1: a reciprocal red flag needs \{party\}', body,
                     re.S)
    no_why = {"pattern": "escrow", "match": "regex", "message": ""}
    body = admin.post(url(playbook, "new/"), {**ESCROW, **rows(no_why)}, **HTMX).content.decode()
    assert re.search(r'id="new-red_lines-0-message_error".*?This field is required', body, re.S)
    assert playbook.playbook.versions.count() == 1

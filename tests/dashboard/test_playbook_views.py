"""Playbook pages: filters, inline add/edit with field errors, toggle, reorder, delete, history, import/export, try."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.models import Playbook
from redline.services.playbook_edits import playbook_latest_version
from tests.dashboard.conftest import HTMX

NO_RED_LINES = {"red_lines-TOTAL_FORMS": "0", "red_lines-INITIAL_FORMS": "0"}  # the rule form's red-line rows
RULE = {"key": "escrow", "title": "Source code escrow", "category": "intellectual_property", "severity": "minor",
        "enabled": "on", "keywords": "escrow\nsource code", "advanced": "", "base": "1", **NO_RED_LINES}


def url(version, tail: str = "") -> str:
    return f"/playbooks/{version.playbook_id}/{tail}"


def current(version):
    return playbook_latest_version(playbook=version.playbook)


@pytest.mark.django_db
def test_search_and_filters(admin, playbook):
    page = admin.get(url(playbook), {"q": "termination"}).content.decode()
    assert re.findall(r'<tr id="rule-([\w-]+)"', page) == ["termination-for-convenience", "termination-for-cause"]
    assert 'value="termination"' in page  # the search box keeps its value
    fragment = admin.get(url(playbook), {"category": "payment_terms", "severity": "minor", "state": ""}, **HTMX)
    rows = re.findall(r'<tr id="rule-([\w-]+)"', fragment.content.decode())
    assert rows == ["late-payment"]
    rule_ids = re.findall(r'<tr id="rule-', admin.get(url(playbook), {"state": "disabled"}).content.decode())
    assert rule_ids == []
    # Nonsense filter values are ignored, not errors.
    assert admin.get(url(playbook), {"severity": "nope"}).status_code == 200


@pytest.mark.django_db
def test_add_a_rule_inline(admin, playbook):
    form = admin.get(url(playbook, "rules/new/"), **HTMX).content.decode()
    assert form.lstrip().startswith('<form class="rule-form') and 'name="base" value="1"' in form
    assert 'for="new-key"' in form and "autofocus" in form
    resp = admin.post(url(playbook, "rules/new/"), RULE, **HTMX)
    assert resp["HX-Retarget"] == "#rules" and resp["HX-Reswap"] == "outerHTML"
    body = resp.content.decode()
    assert '<tr id="rule-escrow" tabindex="-1" autofocus>' in body
    assert "Rule “Source code escrow” added: saved as version 2." in body
    spec = current(playbook).rules.get(key="escrow").spec
    assert spec == {"key": "escrow", "title": "Source code escrow", "category": "intellectual_property",
                    "severity": "minor", "keywords": ["escrow", "source code"]}


@pytest.mark.django_db
def test_validation_errors_are_shown_next_to_their_field(admin, playbook):
    bad_key = admin.post(url(playbook, "rules/new/"), {**RULE, "key": "Bad Key!", "title": ""}, **HTMX)
    body = bad_key.content.decode()
    assert "HX-Retarget" not in bad_key
    assert re.search(r'id="new-key_error".*?Use lowercase letters', body, re.S)
    assert re.search(r'id="new-title_error".*?This field is required', body, re.S)
    assert 'aria-invalid="true"' in body and 'aria-describedby="new-key_helptext new-key_error"' in body
    assert re.search(r'<input[^>]*name="title"[^>]*autofocus', body)  # the first field with an error
    dup = admin.post(url(playbook, "rules/new/"), {**RULE, "key": "indemnity"}, **HTMX).content.decode()
    assert re.search(r'id="new-key_error".*?rule key &#x27;indemnity&#x27; is also used', dup, re.S)
    regex = {**RULE, "advanced": "detect:\n  - '(unclosed'\n"}
    body = admin.post(url(playbook, "rules/new/"), regex, **HTMX).content.decode()
    assert re.search(r'id="new-advanced_error".*?detect/0: invalid regular expression', body, re.S)
    flags = {**RULE, "advanced": "red_flags:\n  - pattern: x\n    message: m\n"}
    body = admin.post(url(playbook, "rules/new/"), flags, **HTMX).content.decode()
    assert "Red lines (red_flags) are edited in their rows above." in body  # not in two places
    unknown = admin.post(url(playbook, "rules/new/"), {**RULE, "advanced": "title: x"}, **HTMX).content.decode()
    assert "Unknown field(s) here: title" in unknown
    alias = admin.post(url(playbook, "rules/new/"), {**RULE, "advanced": "a: &x [1]\nb: *x"}, **HTMX).content.decode()
    assert "aliases" in alias
    assert playbook.playbook.versions.count() == 1


@pytest.mark.django_db
def test_edit_inline_then_cancel(admin, playbook):
    edit = admin.get(url(playbook, "rules/payment-terms/edit/"), **HTMX).content.decode()
    assert edit.lstrip().startswith('<tr id="rule-payment-terms" class="editing">')
    assert 'value="Payment terms"' in edit and "thresholds:" in edit  # advanced YAML pre-filled
    row = admin.get(url(playbook, "rules/payment-terms/"), **HTMX).content.decode()
    assert row.lstrip().startswith('<tr id="rule-payment-terms"') and "autofocus>Edit" in row.replace('"', "")
    spec = playbook.rules.get(key="payment-terms").spec
    data = {"key": "payment-terms", "title": "Payment terms (60 days)", "category": spec["category"],
            "severity": "critical", "enabled": "on", "base": "1", "guidance": spec.get("guidance", ""), **NO_RED_LINES,
            "advanced": yaml.safe_dump({k: spec[k] for k in ("thresholds", "examples") if k in spec})}
    resp = admin.post(url(playbook, "rules/payment-terms/edit/"), data, **HTMX)
    assert resp["HX-Retarget"] == "#rules"
    saved = current(playbook).rules.get(key="payment-terms")
    assert saved.title == "Payment terms (60 days)" and saved.severity == "critical"
    assert saved.spec["thresholds"] == spec["thresholds"]


@pytest.mark.django_db
def test_a_rules_key_cannot_be_edited(admin, playbook):
    edit = admin.get(url(playbook, "rules/payment-terms/edit/"), **HTMX).content.decode()
    assert re.search(r'<input[^>]*name="key"[^>]*disabled', edit)
    assert re.search(r'<input[^>]*name="title"[^>]*autofocus', edit)  # the lawyer's field comes first
    spec = playbook.rules.get(key="payment-terms").spec
    data = {"key": "renamed", "title": "Payment terms", "category": spec["category"], "severity": spec["severity"],
            "enabled": "on", "base": "1", **NO_RED_LINES}
    assert admin.post(url(playbook, "rules/payment-terms/edit/"), data, **HTMX)["HX-Retarget"] == "#rules"
    keys = list(current(playbook).rules.values_list("key", flat=True))
    assert "payment-terms" in keys and "renamed" not in keys  # a posted key is ignored


@pytest.mark.django_db
def test_create_a_playbook_blank_or_from_the_default(admin, alice, playbook):
    page = admin.get("/playbooks/").content.decode()
    assert "redline demo" not in page and 'action="/playbooks/new/"' in page
    blank = admin.post("/playbooks/new/", {"name": "NDA – mutual", "perspective": "balanced", "start": "blank"})
    made = Playbook.objects.get(workspace=alice.workspace, name="NDA – mutual")
    assert blank.status_code == 302 and blank["Location"] == f"/playbooks/{made.pk}/"
    assert made.versions.get().rules.count() == 0
    copy = admin.post("/playbooks/new/", {"name": "SaaS – customer", "contract_type": "SaaS", "perspective": "customer",
                                          "start": "default"})
    saas = Playbook.objects.get(workspace=alice.workspace, name="SaaS – customer")
    assert copy.status_code == 302 and saas.contract_type == "SaaS"
    version = saas.versions.get()
    assert version.perspective == "customer" and version.rules.count() == playbook.rules.count()
    taken = admin.post("/playbooks/new/", {"name": playbook.playbook.name, "perspective": "balanced", "start": "blank"})
    assert taken.status_code == 422 and "There is already a playbook called" in taken.content.decode()
    assert playbook.playbook.versions.count() == 1  # nobody's playbook got a new version
    empty = admin.post("/playbooks/new/", {"name": "", "perspective": "nonsense", "start": "blank"})
    assert empty.status_code == 422 and "This field is required" in empty.content.decode()


@pytest.mark.django_db
def test_edit_conflict_is_a_form_error_not_a_crash(admin, playbook):
    spec = playbook.rules.get(key="indemnity").spec
    data = {"key": "indemnity", "title": "Indemnities", "category": spec["category"], "severity": spec["severity"],
            "enabled": "on", "base": "1", **NO_RED_LINES}
    assert admin.post(url(playbook, "rules/indemnity/edit/"), data, **HTMX)["HX-Retarget"] == "#rules"
    stale = admin.post(url(playbook, "rules/indemnity/edit/"), {**data, "title": "Mine"}, **HTMX).content.decode()
    assert "was changed in version 2 after you opened it" in stale and 'role="alert"' in stale


@pytest.mark.django_db
def test_toggle_move_and_delete_refresh_the_list_with_focus(admin, playbook):
    off = admin.post(url(playbook, "rules/indemnity/toggle/"), {"base": "1", "enabled": "0"}, **HTMX).content.decode()
    assert re.search(r'aria-checked="false" aria-label="Apply “Indemnities” in reviews" autofocus>Off', off)
    assert not current(playbook).rules.get(key="indemnity").enabled
    up = admin.post(url(playbook, "rules/indemnity/move/"), {"base": "2", "direction": "up"}, **HTMX).content.decode()
    keys = re.findall(r'<tr id="rule-([\w-]+)"', up)
    assert keys[:2] == ["indemnity", "limitation-of-liability"]
    # Now first: its "up" button is disabled, so focus moves to "down".
    assert re.search(r'value="up"[^>]*disabled', up) and re.search(r'value="down" [^>]*autofocus', up)
    gone = admin.post(url(playbook, "rules/indemnity/delete/"), {"base": "3"}, **HTMX).content.decode()
    assert 'id="rule-indemnity"' not in gone and "deleted: saved as version 4" in gone
    assert re.search(r'role="status" tabindex="-1" autofocus', gone)
    assert [v.note for v in playbook.playbook.versions.order_by("number")][1:] == [
        "disable rule indemnity", "move rule indemnity up", "delete rule indemnity"]


@pytest.mark.django_db
def test_refreshed_list_keeps_the_filters_of_the_page_url(admin, playbook):
    page_url = f"http://testserver{url(playbook)}?q=payment&category=&severity=&state="
    resp = admin.post(url(playbook, "rules/late-payment/toggle/"), {"base": "1", "enabled": "0"},
                      HTTP_HX_CURRENT_URL=page_url, **HTMX).content.decode()
    assert re.findall(r'<tr id="rule-([\w-]+)"', resp) == ["payment-terms", "late-payment"]
    hidden = admin.post(url(playbook, "rules/new/"), RULE, HTTP_HX_CURRENT_URL=page_url, **HTMX).content.decode()
    assert "It is hidden by the current filters." in hidden


@pytest.mark.django_db
def test_without_javascript_forms_post_and_redirect(admin, playbook):
    page = admin.get(url(playbook, "rules/new/")).content.decode()
    assert page.startswith("<!doctype html>") and "<h1>New rule</h1>" in page
    resp = admin.post(url(playbook, "rules/new/"), RULE)
    assert resp.status_code == 302 and resp["Location"] == url(playbook)
    assert "saved as version 2" in admin.get(url(playbook)).content.decode()
    # A form from v1 still works for a rule nobody else changed since (their change is kept).
    resp = admin.post(url(playbook, "rules/indemnity/toggle/"), {"base": "1", "enabled": "0"})
    assert resp.status_code == 302
    assert not current(playbook).rules.get(key="indemnity").enabled and current(playbook).rules.filter(key="escrow")
    # A rule added after the form was rendered cannot be changed from it.
    resp = admin.post(url(playbook, "rules/escrow/toggle/"), {"base": "1", "enabled": "0"})
    assert resp.status_code == 302 and current(playbook).rules.get(key="escrow").enabled
    assert "after you opened it" in admin.get(url(playbook)).content.decode()


@pytest.mark.django_db
def test_history_diff_and_restore(admin, playbook):
    admin.post(url(playbook, "rules/indemnity/delete/"), {"base": "1"}, **HTMX)
    history = admin.get(url(playbook, "versions/")).content.decode()
    assert "delete rule indemnity" in history and "v2" in history
    diff = admin.get(url(playbook, "versions/2/")).content.decode()
    assert "Changes from v1 to v2" in diff and "0 added" not in diff and "1 removed" in diff
    assert '<span class="d-del">-key: indemnity</span>' in diff
    full = admin.get(url(playbook, "versions/1/"), {"against": "0"}).content.decode()
    assert "24 added" in full
    resp = admin.post(url(playbook, "versions/1/restore/"))
    assert resp.status_code == 302
    assert current(playbook).number == 3 and current(playbook).rules.filter(key="indemnity").exists()


@pytest.mark.django_db
def test_export_and_import_with_preview(admin, playbook):
    exported = admin.get(url(playbook, "export/"), {"format": "json"})
    assert exported["Content-Disposition"] == 'attachment; filename="default-commercial-contract-playbook-v1.json"'
    data = json.loads(exported.content)
    assert yaml.safe_load(admin.get(url(playbook, "export/")).content)["rules"] == data["rules"]
    assert admin.get(url(playbook, "export/"), {"format": "xml"}).status_code == 404
    data["rules"][0]["severity"] = "major"
    upload = SimpleUploadedFile("pb.json", json.dumps(data).encode())
    preview = admin.post("/playbooks/import/", {"step": "preview", "file": upload}).content.decode()
    assert "1 changed; 23 unchanged" in preview and "Apply these changes" in preview
    assert playbook.playbook.versions.count() == 1
    source = re.search(r'name="source" value="([^"]*)"', preview)
    assert source
    resp = admin.post("/playbooks/import/", {"step": "apply", "source": json.dumps(data), "base": "1"})
    assert resp.status_code == 302 and current(playbook).rules.get(key=data["rules"][0]["key"]).severity == "major"
    bad = admin.post("/playbooks/import/", {"step": "preview", "source": "name: [unclosed"}).content.decode()
    assert "not valid YAML/JSON" in bad and 'role="alert"' in bad
    empty = admin.post("/playbooks/import/", {"step": "preview"}).content.decode()
    assert "Choose a file or paste a playbook." in empty


@pytest.mark.django_db
def test_try_a_rule_live_and_without_javascript(reviewer, playbook):
    text = "The Customer shall pay each undisputed invoice within ninety (90) days of receipt."
    # ninety days to pay is the Customer's advantage: an edit is proposed for the Supplier, who is paid ...
    live = reviewer.post(url(playbook, "rules/payment-terms/try/"), {"text": text, "acting_for": "Supplier"},
                         **HTMX).content.decode()
    assert "<html" not in live and "1 suggestion." in live and "<ins>sixty (60) days</ins>" in live
    # ... never for the Customer, and without a side the finding is a question
    for_customer = reviewer.post(url(playbook, "rules/payment-terms/try/"), {"text": text, "acting_for": "Customer"},
                                 **HTMX).content.decode()
    assert "this text passes the rule" in for_customer
    no_side = reviewer.post(url(playbook, "rules/payment-terms/try/"), {"text": text}, **HTMX).content.decode()
    assert "<ins>" not in no_side and "Which party do you act for?" in no_side
    unknown = reviewer.post(url(playbook, "rules/payment-terms/try/"), {"text": text, "acting_for": "Bank"},
                            **HTMX).content.decode()
    assert "is not a party of this contract" in unknown
    clean = reviewer.post(url(playbook, "rules/payment-terms/try/"), {"text": "Payment is due in 30 days."}, **HTMX)
    assert "this text passes the rule" in clean.content.decode()
    page = reviewer.post(url(playbook, "rules/payment-terms/try/"), {"text": text, "acting_for": "Supplier"}
                         ).content.decode()
    assert page.startswith("<!doctype html>") and "sixty (60) days" in page
    assert playbook.playbook.versions.count() == 1


@pytest.mark.django_db
def test_import_lists_every_problem_of_the_file_at_once(admin, playbook):
    source = ("format: redline-playbook/1\nname: Broken\nrules:\n"
              "  - {key: a, title: A, category: nope, severity: major}\n"
              "  - {key: b, title: B, category: general, severity: huge}\n")
    page = admin.post("/playbooks/import/", {"step": "preview", "source": source}).content.decode()
    assert "2 problems in this playbook" in page
    assert "(at /rules/0/category)" in page and "(at /rules/1/severity)" in page


@pytest.mark.django_db
def test_try_says_not_checked_for_a_rule_the_offline_engine_cannot_check(reviewer, playbook):
    from redline.services.playbook_edits import rule_create

    version = rule_create(base=playbook, spec={"key": "tone", "title": "Tone", "category": "general",
                                               "severity": "minor", "guidance": "Keep the drafting courteous."})
    page = reviewer.post(url(version, "rules/tone/try/"), {"text": "The Customer shall pay promptly."},
                         **HTMX).content.decode()
    assert "Not checked" in page and "passes the rule" not in page

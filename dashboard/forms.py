"""Forms: what people type, cleaned into what the services take.

Field-level checks that people make often (a key with capitals, a missing
title) are caught here with plain messages; everything else is validated by
the engine itself, and its error path (``/rules/3/red_flags/0/pattern``) is
mapped back onto the field (or red-line row) it came from.
"""

from __future__ import annotations

from typing import Any

import yaml
from django import forms
from django.conf import settings
from django.core.validators import RegexValidator
from django.http import QueryDict

from redline.analysis.categories import Category
from redline.analysis.playbook.io import MAX_BYTES
from redline.analysis.playbook.model import RiskDimension, Severity
from redline.learning.feedback import FOLLOW_UP_REASONS
from redline.models import Membership, Workspace
from redline.services.analytics import TIME_RANGES
from redline.services.preferences import MAX_CHARS as PREFERENCES_MAX_CHARS
from redline.services.rule_trial import MAX_CHARS as TRIAL_MAX_CHARS

from .queries import RuleFilters
from .red_lines import PREFIX as RED_LINES
from .red_lines import RedLineForm, RedLineFormSet

CATEGORY_CHOICES = [(c.value, c.value.replace("_", " ").capitalize()) for c in Category]
SEVERITY_CHOICES = [(s.value, s.value.capitalize()) for s in Severity]
DIMENSION_CHOICES = [(d.value, d.value.replace("_", " ").capitalize()) for d in RiskDimension]
ADVANCED_FIELDS = ("detect", "thresholds", "examples")  # red lines have rows of their own (dashboard.red_lines)
MAX_ADVANCED_CHARS = 100_000
_KEY = RegexValidator(r"^[a-z0-9][a-z0-9_-]{0,63}$",
                      "Use lowercase letters, digits, “-” and “_”, starting with a letter or digit.")


def _lines(value: str) -> list[str]:
    return [line.strip() for line in value.splitlines() if line.strip()]


def _yaml_mapping(text: str) -> dict[str, Any]:
    """Safe YAML without aliases (a small text must not expand into a huge document)."""
    try:
        if any(isinstance(e, yaml.AliasEvent) for e in yaml.parse(text, Loader=yaml.SafeLoader)):
            raise forms.ValidationError("YAML aliases (*name) are not allowed here.")
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark else ""
        raise forms.ValidationError(f"This is not valid YAML{where}.") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise forms.ValidationError("Write a mapping of fields, e.g. “red_flags: [...]”.")
    return data


class RuleForm(forms.Form):
    """One playbook rule in the interchange format, split into the fields people edit most.

    The lawyer's fields come first and get the room (title, the position to ask for,
    the fallbacks, why it matters), then the red lines as rows (``red_lines``, a
    formset with the same ``auto_id``); the detection YAML is for rule authors and
    sits last, folded. A rule's key is fixed once it exists (``fixed_key``).
    """

    required_css_class = "required"

    title = forms.CharField(max_length=200, help_text="What lawyers see, e.g. “Limitation of liability”.")
    key = forms.CharField(max_length=64, validators=[_KEY],
                          help_text="Stable id, fixed once the rule exists: analytics and learned preferences "
                                    "refer to rules by key.")
    category = forms.ChoiceField(choices=CATEGORY_CHOICES,
                                 help_text="Decides which paragraphs the rule reads.")
    severity = forms.ChoiceField(choices=SEVERITY_CHOICES)
    preferred_position = forms.CharField(label="Standard position", widget=forms.Textarea(attrs={"rows": 4}),
                                         required=False, help_text="The position to ask for; quoted in comments.")
    fallbacks = forms.CharField(widget=forms.Textarea(attrs={"rows": 5}), required=False,
                                help_text="Acceptable compromises, best first, one per line.")
    guidance = forms.CharField(widget=forms.Textarea(attrs={"rows": 5}), required=False,
                               help_text="Why the rule matters and what to look for.")
    suggested_language = forms.CharField(widget=forms.Textarea(attrs={"rows": 5}), required=False,
                                         help_text="Model wording, inserted when a required clause is missing.")
    risk_dimensions = forms.MultipleChoiceField(choices=DIMENSION_CHOICES, required=False,
                                                widget=forms.CheckboxSelectMultiple)
    keywords = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False,
                               help_text="Words that make a paragraph relevant, one per line.")
    required = forms.BooleanField(required=False, help_text="The contract must contain such a clause.")
    enabled = forms.BooleanField(required=False, initial=True)
    advanced = forms.CharField(
        label="Detection (YAML)", widget=forms.Textarea(attrs={"rows": 8, "class": "code", "spellcheck": "false"}),
        required=False, max_length=MAX_ADVANCED_CHARS,
        help_text="detect, thresholds and examples, as in the playbook format.",
    )

    def __init__(self, *args: Any, fixed_key: str = "", red_flags: list[dict[str, Any]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if fixed_key:
            self.fields["key"].disabled = True
            self.fields["key"].initial = fixed_key
        self.red_lines = RedLineFormSet(self.data if self.is_bound else None, prefix=RED_LINES, auto_id=self.auto_id,
                                        initial=[RedLineForm.initial_from(f) for f in red_flags or []])

    @classmethod
    def from_spec(cls, spec: dict[str, Any], **kwargs: Any) -> RuleForm:
        """A form showing a stored rule (the inverse of :meth:`spec`)."""
        advanced = {f: spec[f] for f in ADVANCED_FIELDS if f in spec}
        initial = {
            **{f: spec.get(f, "") for f in ("key", "title", "category", "severity", "guidance",
                                             "preferred_position", "suggested_language")},
            "risk_dimensions": spec.get("risk_dimensions", []),
            "fallbacks": "\n".join(spec.get("fallbacks", [])),
            "keywords": "\n".join(spec.get("keywords", [])),
            "required": spec.get("required", False),
            "enabled": spec.get("enabled", True),
            "advanced": yaml.safe_dump(advanced, sort_keys=False, allow_unicode=True, width=100) if advanced else "",
        }
        return cls(initial=initial, fixed_key=spec["key"], red_flags=spec.get("red_flags", []), **kwargs)

    def is_valid(self) -> bool:
        """The rule's fields and its red-line rows, both checked so both show their errors."""
        valid = super().is_valid()
        return self.red_lines.is_valid() and valid

    def clean_advanced(self) -> dict[str, Any]:
        data = _yaml_mapping(self.cleaned_data["advanced"])
        unknown = sorted(set(data) - set(ADVANCED_FIELDS))
        if unknown:
            rows = " Red lines (red_flags) are edited in their rows above." if "red_flags" in unknown else ""
            raise forms.ValidationError(
                f"Unknown field(s) here: {', '.join(unknown)}. Allowed: {', '.join(ADVANCED_FIELDS)}.{rows}")
        return data

    def spec(self) -> dict[str, Any]:
        """The rule in the interchange format (defaults omitted, like the engine writes it)."""
        data = self.cleaned_data
        out: dict[str, Any] = {f: data[f].strip() for f in ("key", "title")}
        out |= {"category": data["category"], "severity": data["severity"]}
        if data["risk_dimensions"]:
            out["risk_dimensions"] = data["risk_dimensions"]
        for f in ("guidance", "preferred_position", "suggested_language"):
            if data[f].strip():
                out[f] = data[f].strip()
        for f in ("fallbacks", "keywords"):
            if _lines(data[f]):
                out[f] = _lines(data[f])
        out |= data["advanced"]
        if flags := self.red_lines.flags():
            out["red_flags"] = flags
        if data["required"]:
            out["required"] = True
        if not data["enabled"]:
            out["enabled"] = False
        return out

    def autofocus(self) -> bool:
        """Put focus where the person must act next: the first field with an error (a red-line row's
        after the rule's own), else the first field.

        Returns True when only form-wide errors remain (the template focuses those instead).
        """
        names = [n for n in self.fields if n in self.errors] if self.is_bound else [next(iter(self.fields))]
        row_field = self.red_lines.first_error_field() if self.is_bound and not names else None
        if names:
            self.fields[names[0]].widget.attrs["autofocus"] = True
        elif row_field is not None:
            row_field.field.widget.attrs["autofocus"] = True
        return self.is_bound and not names and row_field is None

    def add_spec_error(self, path: str, message: str) -> None:
        """Show an engine error (``/rules/N/field/...``) next to the field it is about."""
        parts = path.strip("/").split("/")
        name = parts[2] if len(parts) >= 3 and parts[0] == "rules" else None
        if name == "red_flags" and len(parts) >= 4 and parts[3].isdigit():
            self.red_lines.add_flag_error(int(parts[3]), parts[4] if len(parts) >= 5 else "", message)
        elif name in ADVANCED_FIELDS:
            self.add_error("advanced", f"{'/'.join(parts[2:])}: {message}")
        elif name in self.fields:
            self.add_error(name, message)
        else:
            self.add_error(None, message)


class RuleFilterForm(forms.Form):
    """Search and filters of the rules list (a GET form; bad values are ignored, not errors)."""

    q = forms.CharField(label="Search", required=False, max_length=100)
    category = forms.ChoiceField(choices=[("", "All categories"), *CATEGORY_CHOICES], required=False)
    severity = forms.ChoiceField(choices=[("", "All severities"), *SEVERITY_CHOICES], required=False)
    state = forms.ChoiceField(label="Status", required=False,
                              choices=[("", "Enabled and disabled"), ("enabled", "Enabled"), ("disabled", "Disabled")])

    def filters(self) -> RuleFilters:
        if not self.is_valid():
            return RuleFilters()
        return RuleFilters(**{f: self.cleaned_data[f] for f in ("q", "category", "severity", "state")})


class TryForm(forms.Form):
    text = forms.CharField(label="Clause text", widget=forms.Textarea(attrs={"rows": 6}), max_length=TRIAL_MAX_CHARS,
                           help_text="Paste one or more paragraphs; separate paragraphs with a blank line.")
    acting_for = forms.CharField(label="Acting for", required=False, max_length=200,
                                 help_text="The party your client is, as the text names it (for example Customer). "
                                           "Without it, a finding that depends on a side is a question, not an edit.")


class UploadForm(forms.Form):
    """A contract to upload from the browser (.docx, up to REDLINE_MAX_UPLOAD_BYTES)."""

    required_css_class = "required"

    file = forms.FileField(label="Contract (.docx)", widget=forms.ClearableFileInput(attrs={"accept": ".docx"}))

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > settings.REDLINE_MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                f"The file is larger than the upload limit ({settings.REDLINE_MAX_UPLOAD_BYTES // 1_048_576} MB).")
        return upload


class PlaybookCreateForm(forms.Form):
    """A new playbook: its name, what it is for, and whether it starts empty or from the built-in rules."""

    required_css_class = "required"

    name = forms.CharField(max_length=200, help_text="Shown to everyone in the workspace, e.g. “SaaS – customer side”.")
    contract_type = forms.CharField(max_length=200, required=False, label="Contract type",
                                    help_text="Optional, e.g. “Software as a service agreement”.")
    perspective = forms.ChoiceField(choices=[("balanced", "Balanced"), ("customer", "Customer"),
                                             ("supplier", "Supplier")], initial="balanced",
                                    help_text="Whose interests the positions protect.")
    start = forms.ChoiceField(label="Start from", widget=forms.RadioSelect, initial="default",
                              choices=[("default", "A copy of the built-in commercial playbook (24 rules)"),
                                       ("blank", "A blank playbook (add rules one by one)")])


class ImportForm(forms.Form):
    """A playbook file, or the same pasted as text (YAML or JSON)."""

    file = forms.FileField(label="Playbook file (YAML or JSON)", required=False)
    source = forms.CharField(label="…or paste it", widget=forms.Textarea(attrs={"rows": 8, "class": "code"}),
                             required=False, max_length=MAX_BYTES)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_BYTES:
                raise forms.ValidationError(f"The file is larger than {MAX_BYTES // 1_000_000} MB.")
            try:
                data["source"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError("The file is not UTF-8 text.") from None
        if not (data.get("source") or "").strip():
            raise forms.ValidationError("Choose a file or paste a playbook.")
        return data


class ImportApplyForm(forms.Form):
    """The previewed source, sent back unchanged with the version it was compared with."""

    source = forms.CharField(widget=forms.HiddenInput, max_length=MAX_BYTES)
    base = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)


class PreferencesForm(forms.Form):
    required_css_class = "required"
    text = forms.CharField(label="Preferences (Markdown)", required=False, max_length=PREFERENCES_MAX_CHARS,
                           strip=False, widget=forms.Textarea(attrs={"rows": 18, "class": "code"}))
    reason = forms.CharField(label="Reason for this change", max_length=300,
                             help_text="Shown in the version history, so colleagues know why.")
    # The version the text was edited from: saving over a version a colleague saved meanwhile is refused.
    base_version = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)


class AnalyticsFilterForm(forms.Form):
    time_range = forms.ChoiceField(label="Time range", required=False, choices=[
        ("7d", "Last 7 days"), ("30d", "Last 30 days"), ("90d", "Last 90 days"), ("all", "All time")])
    playbook = forms.TypedChoiceField(label="Playbook", required=False, coerce=int, empty_value=None)

    def __init__(self, *args: Any, workspace: Workspace, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        playbooks = workspace.playbooks.order_by("name").values_list("pk", "name")
        self.fields["playbook"].choices = [("", "All playbooks"), *playbooks]

    @classmethod
    def from_query(cls, query: QueryDict, *, workspace: Workspace) -> AnalyticsFilterForm:
        """Always bound, with the defaults filled in, so the form shows what the page shows."""
        return cls({"time_range": "30d", **query.dict()}, workspace=workspace)

    def values(self) -> tuple[str, int | None]:
        """(time range, playbook id); an invalid value falls back to its default, the other one stays."""
        self.is_valid()
        time_range = self.cleaned_data.get("time_range") or "30d"
        return (time_range if time_range in TIME_RANGES else "30d"), self.cleaned_data.get("playbook")


class ApiKeyForm(forms.Form):
    required_css_class = "required"
    name = forms.CharField(max_length=100, help_text="Where the key is used, e.g. “Word add-in, London office”.")
    member = forms.ModelChoiceField(queryset=Membership.objects.none(), label="Acts as",
                                    help_text="The key has this member's role in the workspace.")

    def __init__(self, *args: Any, workspace: Workspace, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        member = self.fields["member"]
        member.queryset = workspace.memberships.select_related("user").order_by("user__username")
        member.label_from_instance = lambda m: f"{m.user.get_username()} ({m.role})"


class FeedbackForm(forms.Form):
    vote = forms.ChoiceField(choices=[("up", "Helpful"), ("down", "Not helpful")])
    follow_up_reason = forms.ChoiceField(
        label="What was wrong?", required=False,
        choices=[("", "Prefer not to say"), *((r, r.replace("_", " ").capitalize()) for r in FOLLOW_UP_REASONS)])

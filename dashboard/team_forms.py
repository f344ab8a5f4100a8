"""The team page's forms: a new workspace, an existing account or a new one as a member, a member's role.

Two forms on the page both have a role, so they are prefixed (``add-role``, ``new-role``) and each
field keeps a unique id and label.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

from redline.models import Role


class WorkspaceForm(forms.Form):
    required_css_class = "required"
    name = forms.CharField(max_length=200, label="Workspace name",
                           help_text="You become its admin; switch to it with the Workspace menu at the top.")


class MemberAddForm(forms.Form):
    required_css_class = "required"
    who = forms.CharField(max_length=254, label="Username or email", help_text="Someone who already has an account.")
    role = forms.ChoiceField(choices=Role.choices, initial=Role.REVIEWER)


class MemberInviteForm(forms.Form):
    required_css_class = "required"
    username = forms.CharField(max_length=150, validators=[get_user_model().username_validator],
                               help_text="They sign in with this and the password shown once after you create it.")
    email = forms.EmailField(required=False)
    role = forms.ChoiceField(choices=Role.choices, initial=Role.REVIEWER)


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices)

from django.contrib.auth import views as auth_views
from django.urls import path

from .views import (
    account,
    analytics,
    compare,
    documents,
    keys,
    playbook_versions,
    playbooks,
    preferences,
    rejections,
    team,
)

app_name = "dashboard"

_RULE = "playbooks/<int:playbook_id>/rules/<slug:key>/"

urlpatterns = [
    path("", documents.home, name="home"),
    path("login/", account.SignInView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("workspace/", account.switch_workspace, name="switch_workspace"),
    # documents and runs
    path("documents/upload/", documents.document_upload, name="document_upload"),
    path("documents/<int:document_id>/", documents.document_detail, name="document_detail"),
    path("documents/<int:document_id>/runs/", documents.run_start, name="run_start"),
    path("versions/<int:version_id>/download/", documents.version_download, name="version_download"),
    path("documents/<int:document_id>/compare/", compare.compare_view, name="compare"),
    path("documents/<int:document_id>/compare.docx", compare.compare_download, name="compare_download"),
    path("runs/<int:run_id>/", documents.run_detail, name="run_detail"),
    path("runs/<int:run_id>/progress/", documents.run_progress, name="run_progress"),
    path("runs/<int:run_id>/redline.docx", documents.run_redline_download, name="run_redline"),
    path("runs/<int:run_id>/rerun/", documents.run_rerun, name="run_rerun"),
    path("suggestions/<int:suggestion_id>/feedback/", documents.suggestion_feedback, name="suggestion_feedback"),
    # playbooks and rules
    path("playbooks/", playbooks.playbook_list, name="playbooks"),
    path("playbooks/new/", playbooks.playbook_new, name="playbook_new"),
    path("playbooks/import/", playbook_versions.playbook_import, name="playbook_import"),
    path("playbooks/<int:playbook_id>/", playbooks.playbook_detail, name="playbook_detail"),
    path("playbooks/<int:playbook_id>/export/", playbook_versions.playbook_export, name="playbook_export"),
    path("playbooks/<int:playbook_id>/versions/", playbook_versions.version_list, name="playbook_versions"),
    path("playbooks/<int:playbook_id>/versions/<int:number>/", playbook_versions.version_detail,
         name="playbook_version"),
    path("playbooks/<int:playbook_id>/versions/<int:number>/restore/", playbook_versions.version_restore,
         name="playbook_version_restore"),
    path("playbooks/<int:playbook_id>/rules/new/", playbooks.rule_new, name="rule_new"),
    path(_RULE, playbooks.rule_row, name="rule_row"),
    path(_RULE + "edit/", playbooks.rule_edit, name="rule_edit"),
    path(_RULE + "toggle/", playbooks.rule_toggle, name="rule_toggle"),
    path(_RULE + "move/", playbooks.rule_move_view, name="rule_move"),
    path(_RULE + "delete/", playbooks.rule_delete_view, name="rule_delete"),
    path(_RULE + "try/", playbooks.rule_try_view, name="rule_try"),
    # analytics and the rejections behind them
    path("analytics/", analytics.analytics, name="analytics"),
    path("analytics/export.csv", analytics.analytics_csv, name="analytics_csv"),
    path("rejections/", rejections.rejection_list, name="rejections"),
    path("rejections/<int:rejection_id>/", rejections.rejection_detail, name="rejection_detail"),
    # preferences
    path("preferences/", preferences.preferences, name="preferences"),
    path("preferences/preview/", preferences.preferences_preview, name="preferences_preview"),
    path("preferences/versions/<int:number>/", preferences.preferences_version, name="preferences_version"),
    path("preferences/versions/<int:number>/restore/", preferences.preferences_version_restore,
         name="preferences_version_restore"),
    # API keys
    path("keys/", keys.key_list, name="keys"),
    path("keys/new/", keys.key_create, name="key_create"),
    path("keys/<int:key_id>/revoke/", keys.key_revoke, name="key_revoke"),
    # the team and a new workspace's first playbook
    path("team/", team.team, name="team"),
    path("team/workspaces/new/", team.workspace_new, name="workspace_new"),
    path("team/members/add/", team.member_new, name="member_new"),
    path("team/members/new/", team.member_create, name="member_create"),
    path("team/members/<int:membership_id>/role/", team.member_role, name="member_role"),
    path("team/members/<int:membership_id>/remove/", team.member_delete, name="member_delete"),
    path("playbooks/install-default/", team.playbook_install_default, name="playbook_install_default"),
]

from django.apps import AppConfig


class DashboardConfig(AppConfig):
    """Server-rendered HTMX pages for admins and reviewers."""

    name = "dashboard"

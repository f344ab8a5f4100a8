from django.apps import AppConfig


class RedlineConfig(AppConfig):
    """The domain app: workspaces, documents, jobs and (later) runs and learning."""

    name = "redline"
    verbose_name = "Redline"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from .server import ratelimit  # noqa: F401  (connects the login-failure counter)
        from .services import documents, health, reaper, runs  # noqa: F401  (register job handlers and worker duties)

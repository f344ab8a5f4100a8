"""Django settings, read from environment variables.

Embedded defaults need nothing installed: SQLite, files and a generated secret
key under ``REDLINE_DATA_DIR`` (default ``./var``), jobs on an in-process worker
thread. Scale-out is configuration only: ``DATABASE_URL`` (PostgreSQL through
psycopg 3), ``REDIS_URL`` (cache and pub/sub) and ``CELERY_BROKER_URL``
(Celery workers). Every variable is documented in the README.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DATA_DIR = Path(env.str("REDLINE_DATA_DIR", default=str(BASE_DIR / "var"))).resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key() -> str:
    """Use SECRET_KEY when set; otherwise generate one once into the data dir."""
    if env.str("SECRET_KEY", default=""):
        return env.str("SECRET_KEY")
    path = DATA_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "ninja",
    "django_htmx",
    "template_partials",
    "redline",
    "dashboard.apps.DashboardConfig",
]

MIDDLEWARE = [
    "redline.server.proxies.forwarded_headers_middleware",  # forwarded headers only from trusted proxies, before all
    "redline.server.downloads.async_file_responses_middleware",  # it sees every file response, static ones too
    "django.middleware.security.SecurityMiddleware",
    "redline.server.security.security_headers_middleware",
    "redline.server.bodylimit.body_limit_middleware",
    "addin_api.middleware.api_error_shape_middleware",
    "redline.server.nul.nul_guard_middleware",  # after the body limit: a body is only read once it may be
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "redline.server.dbdown.DatabaseUnavailableMiddleware",  # the database away: 503 + Retry-After, not a 500
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "redline.urls"
WSGI_APPLICATION = "redline.wsgi.application"
ASGI_APPLICATION = "redline.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "dashboard.context.navigation",
            ],
        },
    },
]

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{DATA_DIR / 'redline.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL + a busy timeout let the in-process worker thread write while requests read.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 2)  # a host that drops packets
    # A connection pool per process: under ASGI every request runs on a thread of its own, so
    # without one each request pays for a new PostgreSQL connection (its latency, and a backend
    # process each). Pooled connections are checked before use, so a restarted database costs
    # no request an error. REDLINE_DB_POOL_MAX=0 turns the pool off (e.g. behind PgBouncer).
    _pool_max = env.int("REDLINE_DB_POOL_MAX", default=20)
    if _pool_max:
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            # How long a request waits for a connection: a database that is down answers 503 within it.
            "min_size": 1, "max_size": _pool_max, "timeout": env.float("REDLINE_DB_POOL_TIMEOUT", default=2.0),
            # psycopg's pool doubles the wait between attempts to reconnect (1, 2, 4, 8, 16 s ...) until it gives
            # up: after a 20 s outage a process kept answering 503 for up to 16 s more. Giving up after 5 s, the
            # next request starts again from a 1 s wait.
            "reconnect_timeout": 5.0,
        }
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True  # with a pool: ConnectionPool.check_connection
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")
CACHES = {
    "default": (
        {"BACKEND": "redline.server.cache_backend.TolerantRedisCache", "LOCATION": REDIS_URL,
         "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 2.0}}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "redline",
              "OPTIONS": {"MAX_ENTRIES": 200_000}}
    )
}

# Jobs: Celery when a broker is configured, otherwise the in-process worker thread.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# An unacknowledged job (its worker died) is redelivered after this long; keep it above the longest run.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT_S", default=3600)}
# Celery's default on a lost broker connection changes in Celery 6, so it is said here. A job running when
# the broker goes away carries on and records its outcome in the database; the message it cannot
# acknowledge comes back later and is dropped, the job being finished (or claimed: redline.jobs.leases).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# Every worker writes a heartbeat (the health check reads it) and reaps jobs whose lease lapsed this often.
REDLINE_WORKER_PULSE_S = env.float("REDLINE_WORKER_PULSE_S", default=5.0)
# A job's claim lasts this long; its worker renews it every third of it while the job runs, so a job whose
# worker was killed is resumed (or ended, after its last attempt) within a lease and a pulse.
REDLINE_JOB_LEASE_S = env.float("REDLINE_JOB_LEASE_S", default=30.0)
REDLINE_JOB_MAX_ATTEMPTS = env.int("REDLINE_JOB_MAX_ATTEMPTS", default=5)
# A running job with no progress event for this long (its worker alive but stuck) is ended as an error,
# by every worker's pulse about once a minute (and by manage.py reap_stale_runs).
REDLINE_STALE_RUN_MINUTES = env.float("REDLINE_STALE_RUN_MINUTES", default=30.0)

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
MEDIA_ROOT = DATA_DIR / "media"
MEDIA_URL = "/media/"
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
WHITENOISE_USE_FINDERS = True  # serve from static/ even before collectstatic

# Review providers. Keys stay on the server: never accepted from clients, never logged.
REDLINE_PROVIDER = env.str("REDLINE_PROVIDER", default="offline")
OPENAI_API_KEY = env.str("OPENAI_API_KEY", default="")
OPENAI_BASE_URL = env.str("OPENAI_BASE_URL", default="") or None
REDLINE_OPENAI_MODEL = env.str("REDLINE_OPENAI_MODEL", default="gpt-4o-mini")
REDLINE_OPENAI_TIMEOUT_S = env.float("REDLINE_OPENAI_TIMEOUT_S", default=60.0)
REDLINE_OPENAI_MAX_RETRIES = env.int("REDLINE_OPENAI_MAX_RETRIES", default=4)
# Model calls one run makes at once (an adaptive limit: lowered on 429/5xx, raised again after successes).
REDLINE_OPENAI_CONCURRENCY = env.int("REDLINE_OPENAI_CONCURRENCY", default=16)
# Model calls all the runs of one workspace make at once, per worker process (each process keeps its own limiter:
# N processes may make N times as many calls); a 429's Retry-After pauses the workspace's runs in that process.
REDLINE_OPENAI_WORKSPACE_CONCURRENCY = env.int("REDLINE_OPENAI_WORKSPACE_CONCURRENCY",
                                               default=REDLINE_OPENAI_CONCURRENCY)
# USD per million tokens (input, output) by model, for a run's estimated cost. REDLINE_MODEL_PRICES (JSON,
# {"model": [input, output]}) adds models or overrides these; a model with no price shows its cost as unknown.
REDLINE_MODEL_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60), "gpt-4o": (2.50, 10.00), "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60), "gpt-4.1": (2.00, 8.00),
    **{model: (float(prices[0]), float(prices[1]))
       for model, prices in env.json("REDLINE_MODEL_PRICES", default={}).items()},
}

# glibc malloc arenas per web server process (redline.server.malloc); 0 keeps glibc's default.
REDLINE_MALLOC_ARENAS = env.int("REDLINE_MALLOC_ARENAS", default=2)
# File uploads, and .docx reads, one process handles at once; more wait their turn (redline.server.admission).
REDLINE_DOCUMENT_CONCURRENCY = env.int("REDLINE_DOCUMENT_CONCURRENCY", default=1)
# Uploaded .docx files are read in child processes (redline.server.reader_pool), at this lower priority
# within this address space (MiB; 0 for no ceiling) and this many seconds per file.
REDLINE_READER_NICE = env.int("REDLINE_READER_NICE", default=5)
REDLINE_READER_MEMORY_MB = env.int("REDLINE_READER_MEMORY_MB", default=2048)
REDLINE_READER_TIMEOUT = env.float("REDLINE_READER_TIMEOUT", default=60.0)
# Uploads: the API reads .docx bodies up to this size; larger bodies are refused before reading.
REDLINE_MAX_UPLOAD_BYTES = env.int("REDLINE_MAX_UPLOAD_BYTES", default=50 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = REDLINE_MAX_UPLOAD_BYTES
# Every other API body (JSON: feedback, questions, preferences…) is refused above this.
REDLINE_MAX_JSON_BYTES = env.int("REDLINE_MAX_JSON_BYTES", default=1024 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

# Django's ModelBackend, refusing logins for addresses/usernames over the failure limit.
AUTHENTICATION_BACKENDS = ["redline.server.ratelimit.ThrottledModelBackend"]
# Failed logins and API-key authentications allowed per address (and username) per window.
REDLINE_AUTH_FAILURE_LIMIT = env.int("REDLINE_AUTH_FAILURE_LIMIT", default=10)
REDLINE_AUTH_FAILURE_WINDOW_S = env.int("REDLINE_AUTH_FAILURE_WINDOW_S", default=300)
# Failed sign-ins from one address (any usernames) before the address is locked: higher than the per-account
# limit, so one person's typos behind an office's one address do not lock out everyone behind it.
REDLINE_LOGIN_ADDRESS_FAILURE_LIMIT = env.int("REDLINE_LOGIN_ADDRESS_FAILURE_LIMIT", default=50)
# Addresses (or networks) of the reverse proxies in front of the web server, whose X-Forwarded-For
# names the client and whose X-Forwarded-Proto says HTTPS (redline.server.proxies; every forwarded header from
# any other peer is dropped). Default: none, so a client cannot choose the address
# it is counted under. Run uvicorn with --no-proxy-headers: this setting is the one place that decides.
REDLINE_TRUSTED_PROXIES = env.list("REDLINE_TRUSTED_PROXIES", default=[])

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
CSRF_FAILURE_VIEW = "dashboard.views.errors.csrf_failure"
LOGIN_URL = "dashboard:login"
LOGIN_REDIRECT_URL = "dashboard:home"
LOGOUT_REDIRECT_URL = "dashboard:login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Served over HTTPS (directly or behind a proxy that sets X-Forwarded-Proto): HSTS, HTTPS-only
# cookies, and plain HTTP redirected (except the health check, for load balancers).
REDLINE_TLS = env.bool("REDLINE_TLS", default=False)
if REDLINE_TLS:
    SECURE_HSTS_SECONDS = env.int("REDLINE_HSTS_SECONDS", default=31_536_000)
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^api/health$"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

"""Test settings: the product's settings with a throwaway data dir.

``REDLINE_TEST_BACKEND=postgres`` runs the suite against a real PostgreSQL
server started here (free loopback port, temp dir, stopped at exit), so every
database test runs on both SQLite and PostgreSQL without a different code path.
"""

from __future__ import annotations

import atexit
import os
import tempfile

_data_dir = tempfile.mkdtemp(prefix="redline-test-")
os.environ["REDLINE_DATA_DIR"] = _data_dir
os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production")
for _var in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
    os.environ.pop(_var, None)

TEST_BACKEND = os.environ.get("REDLINE_TEST_BACKEND", "sqlite")
if TEST_BACKEND == "postgres":
    from tests.servers import Postgres

    _pg = Postgres().start()
    atexit.register(_pg.stop)
    os.environ["DATABASE_URL"] = _pg.url

from redline.settings import *  # noqa: E402,F403
from redline.settings import DATABASES  # noqa: E402

if TEST_BACKEND == "sqlite":
    # A file (not :memory:) so the in-process worker thread sees committed rows.
    DATABASES["default"]["TEST"] = {"NAME": os.path.join(_data_dir, "test.sqlite3")}

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed; production keeps the defaults
# Every test client comes from 127.0.0.1: the auth-failure limit has its own tests (which lower it).
REDLINE_AUTH_FAILURE_LIMIT = 10_000

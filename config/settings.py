"""Settings, read from the environment in this one place.

Nothing set: the embedded default (SQLite, one process telling its own sockets of
changes in memory, eager Celery). ``DATABASE_URL`` and ``REDIS_URL`` switch to
PostgreSQL and Redis (pub/sub between server processes, cache and Celery broker).
See the README for every variable.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DJANGO_DEBUG", False)
# The key signs each phone's cookie (its seat). Without DJANGO_SECRET_KEY this
# public development key is used for tests and management commands, but a server
# not in debug mode refuses to start with it (config/asgi.py); `make run` makes a
# key once and keeps it in .segnalino-secret.
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-key-set-DJANGO_SECRET_KEY-in-production"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "") or DEVELOPMENT_SECRET_KEY
ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]
# Where phones open the app (invite links, QR codes): `make run` sets it to this
# machine's address on the local network (config/serve.py); a deployment sets it
# to its public address (https://segnalino.example). Empty: the address the
# request came in on. Its host is allowed and its origin trusted, with no editing.
SEGNALINO_PUBLIC_URL = os.environ.get("SEGNALINO_PUBLIC_URL", "").strip().rstrip("/")
if SEGNALINO_PUBLIC_URL:
    _public = urlsplit(SEGNALINO_PUBLIC_URL)
    if _public.hostname and _public.hostname not in ALLOWED_HOSTS:
        ALLOWED_HOSTS.append(_public.hostname)
    _origin = f"{_public.scheme}://{_public.netloc}"
    if _origin not in CSRF_TRUSTED_ORIGINS:
        CSRF_TRUSTED_ORIGINS.append(_origin)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "games",
    "companion",
]

MIDDLEWARE = [
    "companion.middleware.security_headers",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "companion.middleware.refuse_nul_bytes",
    "companion.middleware.throttle_admin_login",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        # Django's, leaving no reference cycle behind a page (config/template_backend.py).
        "BACKEND": "config.template_backend.DjangoTemplates",
        "NAME": "django",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
    {
        # The live frame's pieces, rendered after every tap that changes them
        # (config/jinja.py). Their own folder: neither engine finds the other's.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "pieces"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "config.jinja.environment"},
    },
]

# Database: SQLite by default; DATABASE_URL (postgres://…) for production.
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # Under ASGI every request runs its sync code in a thread of its own, so
    # persistent connections (CONN_MAX_AGE) are not reused across requests: each
    # action would open a PostgreSQL connection. A connection pool (psycopg_pool,
    # Django >= 5.1) hands them over instead. DB_POOL=0 turns it off.
    DB_POOL = os.environ.get("DB_POOL", "1") == "1"
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL,
            conn_max_age=0 if DB_POOL else int(os.environ.get("DB_CONN_MAX_AGE", "60")),
            # Without the pool: check a kept connection before reusing it.
            conn_health_checks=not DB_POOL,
        )
    }
    if DB_POOL and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Django's backend with a pool that replaces a connection killed while
        # idle, without a query per tap (config/dbpool.py).
        DATABASES["default"]["ENGINE"] = "config.postgresql"
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": int(os.environ.get("DB_POOL_MIN", "2")),
            "max_size": int(os.environ.get("DB_POOL_MAX", "16")),
            "timeout": 10,
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # IMMEDIATE takes the write lock when a transaction starts, so
            # concurrent actions on SQLite queue up instead of failing.
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

#: Threads that apply the taps phones send on their sockets (PostgreSQL only;
#: companion/consumers.py): a table's taps take turns, different tables' run side
#: by side. Each keeps a pooled connection from tap to tap, so there must be fewer
#: than the pool holds: the pages and the sockets' reads take theirs from the rest.
SEGNALINO_TAP_THREADS = int(os.environ.get("SEGNALINO_TAP_THREADS", "4"))
_pool = DATABASES["default"].get("OPTIONS", {}).get("pool")
if isinstance(_pool, dict) and SEGNALINO_TAP_THREADS >= _pool["max_size"]:
    raise ImproperlyConfigured(
        f"SEGNALINO_TAP_THREADS={SEGNALINO_TAP_THREADS} must be less than DB_POOL_MAX="
        f"{_pool['max_size']}: each tap thread keeps a pooled connection, and the pages "
        "need the others"
    )

# Redis: how server processes tell each other of changes (pub/sub, companion/live.py),
# the cache and the Celery broker, when REDIS_URL is set. Without it there is one
# server process, which needs no one to tell. Channels' channel layer is not used:
# sockets and the live path need none (benchmarks/floor.py configures its own).
REDIS_URL = os.environ.get("REDIS_URL", "")
#: Prefix of the pub/sub channels, so deployments, test runs and benchmarks can
#: share one Redis.
SEGNALINO_LIVE_PREFIX = os.environ.get("CHANNEL_PREFIX", "segnalino")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.SharedRedisCache",
            "LOCATION": REDIS_URL,
        }
    }
    CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
    CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_EAGER", False)
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_BEAT_SCHEDULE = {
    "close-abandoned-sessions": {
        "task": "companion.tasks.close_abandoned_sessions",
        "schedule": 3600.0,
    },
    "delete-old-sessions": {
        "task": "companion.tasks.delete_old_sessions",
        "schedule": 86400.0,
    },
}

# A phone's seat token lives in its Django session, read on every action. The
# session holds nothing but that token (and, for the admin, the login), so it
# travels in the cookie itself, signed with DJANGO_SECRET_KEY: no database or
# cache read per tap, and any worker process can read it.
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30
CSRF_FAILURE_VIEW = "companion.views.csrf_failure"
SESSION_COOKIE_SAMESITE = "Lax"
# Served over HTTPS (behind a proxy that terminates TLS and sets X-Forwarded-Proto):
# on when SEGNALINO_PUBLIC_URL is https, or SEGNALINO_HTTPS=1. Then cookies are
# secure, plain HTTP is redirected and browsers are told to stay on HTTPS (HSTS).
SEGNALINO_HTTPS = env_bool("SEGNALINO_HTTPS", SEGNALINO_PUBLIC_URL.startswith("https://"))
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", SEGNALINO_HTTPS)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = SEGNALINO_HTTPS
SECURE_HSTS_SECONDS = (
    int(os.environ.get("SEGNALINO_HSTS_SECONDS", "31536000")) if SEGNALINO_HTTPS else 0
)
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Requests bigger than this are refused before a view sees them.
DATA_UPLOAD_MAX_MEMORY_SIZE = 16 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("it", _("Italian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env_bool("SEGNALINO_MANIFEST_STATIC", not DEBUG)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG
# WhiteNoise hands Django a plain (not async) file iterator; under ASGI Django reads
# it in a thread and warns, once per process, on the console of `make run`. For a
# few small static files that phones cache, that is harmless: not shown.
warnings.filterwarnings(
    "ignore",
    message="StreamingHttpResponse must consume synchronous iterators",
    module="django.core.handlers.asgi",
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Segnalino's own knobs.
SEGNALINO_RATE_LIMITS = env_bool("SEGNALINO_RATE_LIMITS", True)  # companion/ratelimit.py
SEGNALINO_ADMIN_PATH = os.environ.get("SEGNALINO_ADMIN_PATH", "admin/").strip("/") + "/"
# Bytes a phone may send on the socket in one message: a tap carries a form, as
# big as a POST may be, and the path it would be posted to.
SEGNALINO_MAX_WS_FRAME = DATA_UPLOAD_MAX_MEMORY_SIZE + 1024
SEGNALINO_ABANDONED_AFTER_HOURS = int(os.environ.get("SEGNALINO_ABANDONED_AFTER_HOURS", "48"))
# Ended sessions are deleted (codes freed, nothing kept) this long after they end.
SEGNALINO_DELETE_AFTER_DAYS = int(os.environ.get("SEGNALINO_DELETE_AFTER_DAYS", "30"))

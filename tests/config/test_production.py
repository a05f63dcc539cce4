"""Production defaults: security headers on every answer, no inline script for them
to forbid, HTTPS settings that follow the public address, and no server without a
secret key of its own."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import phone
from tests.support.servers import REPO, server_env

pytestmark = pytest.mark.django_db


def test_every_page_says_what_the_browser_may_run_and_use(make_session):
    session = make_session()
    for path in ("/", "/cards/", f"/s/{session.code}/", "/no-such-page/"):
        response = phone("anyone").get(path)
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy, path
        assert "unsafe-eval" not in policy and "script-src 'self' 'unsafe-inline'" not in policy
        assert "frame-ancestors 'none'" in policy
        assert "ws://testserver" in policy  # the table's socket, on the same address
        assert "camera=()" in response["Permissions-Policy"]
        assert response["Referrer-Policy"] == "same-origin"
        assert response["X-Frame-Options"] == "DENY"


def test_no_template_runs_inline_script():
    # The policy allows the app's own script files only; an inline handler would
    # silently stop working in the browser.
    # (An hx-trigger filter in brackets is evaluated as a string: eval, also refused.)
    inline = re.compile(
        r"<script(?![^>]*\bsrc=)|\son[a-z]+=\"|\shx-on[:-]|hx-trigger=\"[^\"]*\[", re.IGNORECASE
    )
    offenders = [
        str(path.relative_to(REPO))
        for path in (REPO / "templates").rglob("*.html")
        if inline.search(path.read_text())
    ]
    assert offenders == []


def _settings_in_a_fresh_process(**env: str | None) -> dict:
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({k: getattr(s, k) for k in ('SECURE_SSL_REDIRECT', "
        "'SECURE_HSTS_SECONDS', 'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', "
        "'CSRF_TRUSTED_ORIGINS')}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=server_env(**env),
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_an_https_address_turns_on_secure_cookies_the_redirect_and_hsts():
    https = _settings_in_a_fresh_process(SEGNALINO_PUBLIC_URL="https://segnalino.example")
    assert https["SECURE_SSL_REDIRECT"] and https["SECURE_HSTS_SECONDS"] >= 31536000
    assert https["SESSION_COOKIE_SECURE"] and https["CSRF_COOKIE_SECURE"]
    assert "https://segnalino.example" in https["CSRF_TRUSTED_ORIGINS"]
    wifi = _settings_in_a_fresh_process(SEGNALINO_PUBLIC_URL="http://192.168.1.20:8000")
    assert not wifi["SECURE_SSL_REDIRECT"] and wifi["SECURE_HSTS_SECONDS"] == 0
    assert not wifi["SESSION_COOKIE_SECURE"]


def test_a_server_out_of_debug_mode_without_a_secret_key_refuses_to_start():
    env = server_env(DJANGO_DEBUG="0", DJANGO_SECRET_KEY=None)
    started = subprocess.run(
        [sys.executable, "-c", "import config.asgi"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    assert started.returncode != 0
    assert "Set DJANGO_SECRET_KEY" in started.stderr
    with_key = subprocess.run(
        [sys.executable, "-c", "import config.asgi"],
        cwd=REPO,
        env={**env, "DJANGO_SECRET_KEY": "a-key-of-its-own"},
        capture_output=True,
        text=True,
    )
    assert with_key.returncode == 0, with_key.stderr[-500:]


def test_the_admin_can_live_elsewhere():
    env = server_env(SEGNALINO_ADMIN_PATH="backstage-7f3a")
    code = (
        "import django; django.setup(); from django.urls import reverse; "
        "print(reverse('admin:index'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, check=True, capture_output=True, text=True
    )
    assert out.stdout.strip() == "/backstage-7f3a/"


def test_make_run_keeps_a_key_of_its_own(tmp_path, monkeypatch):
    from config import serve

    monkeypatch.delenv("DJANGO_SECRET_KEY", raising=False)
    monkeypatch.setattr(serve, "SECRET_FILE", Path(tmp_path) / ".segnalino-secret")
    first = serve.secret_key()
    assert len(first) >= 50 and first == serve.secret_key()
    assert (Path(tmp_path) / ".segnalino-secret").stat().st_mode & 0o077 == 0


def test_an_address_over_16_kb_gets_an_answer_not_a_dropped_connection():
    import socket
    from urllib.parse import urlsplit

    from tests.support.servers import running_server, sqlite_env

    with running_server(sqlite_env()) as base:
        parts = urlsplit(base)
        with socket.create_connection((parts.hostname, parts.port), timeout=10) as conn:
            conn.sendall(b"GET /cards/?q=" + b"a" * 20000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            answer = b""
            while chunk := conn.recv(4096):
                answer += chunk
    # daphne answers 414 (config/daphne_limits.py); uvicorn 400 (Invalid HTTP request).
    assert answer.startswith((b"HTTP/1.1 414", b"HTTP/1.1 400")), answer[:100]


def test_more_tap_threads_than_the_pool_can_spare_refuse_to_start():
    # Each tap thread keeps a pooled connection: as many threads as the pool holds
    # would leave the pages waiting for one.
    def started(threads: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-c", "import django; django.setup()"],
            cwd=REPO,
            env=server_env(
                DATABASE_URL="postgres://postgres@127.0.0.1:5432/segnalino",
                DB_POOL_MAX="8",
                SEGNALINO_TAP_THREADS=threads,
            ),
            capture_output=True,
            text=True,
        )

    refused = started("8")
    assert refused.returncode != 0
    assert "SEGNALINO_TAP_THREADS=8 must be less than DB_POOL_MAX=8" in refused.stderr
    assert started("7").returncode == 0, started("7").stderr[-500:]

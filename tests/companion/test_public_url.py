"""Invite links and QR codes point where another phone can open them."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
import segno
from django.test import Client

from tests.support.servers import REPO, server_env

pytestmark = pytest.mark.django_db


def qr_of(url: str) -> bytes:
    buffer = io.BytesIO()
    segno.make(url, error="m").save(
        buffer, kind="svg", scale=6, dark="#111", light="#fff", border=2, xmldecl=False
    )
    return buffer.getvalue()


def test_the_invite_and_qr_use_the_public_address_even_on_the_laptops_localhost(
    make_session, settings
):
    settings.SEGNALINO_PUBLIC_URL = "http://192.168.1.20:8000"
    session = make_session()
    page = Client().get(f"/s/{session.code}/").content.decode()
    invite = f"http://192.168.1.20:8000/j/{session.code}/"
    assert f'href="{invite}"' in page
    assert "http://testserver/j/" not in page
    assert f"http://192.168.1.20:8000/w/{session.spectator_key}/" in page
    assert Client().get(f"/s/{session.code}/qr.svg").content == qr_of(invite)


def test_without_a_public_address_links_follow_the_request(make_session, settings):
    settings.SEGNALINO_PUBLIC_URL = ""
    session = make_session()
    page = Client().get(f"/s/{session.code}/").content.decode()
    assert f'href="http://testserver/j/{session.code}/"' in page


def test_the_public_address_is_an_allowed_host_and_a_trusted_origin_without_editing():
    code = (
        "from django.conf import settings as s; "
        "print(s.ALLOWED_HOSTS); print(s.CSRF_TRUSTED_ORIGINS)"
    )
    env = server_env(SEGNALINO_PUBLIC_URL="https://segnalino.example/", DJANGO_ALLOWED_HOSTS=None)
    out = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "'segnalino.example'" in out.splitlines()[0]
    assert out.splitlines()[1] == "['https://segnalino.example']"

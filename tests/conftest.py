"""Fixtures shared across the suite: sessions created the way a phone creates them."""

from __future__ import annotations

import itertools
import os

import pytest
from django.test import Client
from hypothesis import settings as hypothesis_settings

from companion import services
from companion.identity import TOKEN_KEY

# config.asgi (imported by the socket tests) refuses to serve, out of debug mode,
# without a key of its own.
os.environ.setdefault("DJANGO_SECRET_KEY", "tests-in-process-key")

# Speed is measured in benchmarks/, never asserted by a test: no property test fails
# because one example took long on a loaded machine (hypothesis's default deadline is
# 200 ms an example). A test's own @settings keep this unless they say otherwise.
hypothesis_settings.register_profile("segnalino", deadline=None)
hypothesis_settings.load_profile("segnalino")

_keys = itertools.count()


def next_key() -> str:
    return f"test-key-{next(_keys)}"


class ShownRaw(AssertionError):
    """A float, decimal or date reached a template's ``{{ }}`` raw."""


@pytest.fixture(autouse=True)
def _no_raw_fractions_or_dates(monkeypatch):
    """Templates render without Django's localization (config/template_backend.py,
    config/jinja.py): the whole numbers they show are the same digits in every
    language. A float, a decimal or a date would not be, so any that a template
    shows raw fails the test that rendered it, whichever it is."""
    import datetime
    import decimal

    from django.template import base

    localize = base.localize

    def checked(value, use_l10n=None):
        if use_l10n is False and isinstance(
            value, float | decimal.Decimal | datetime.date | datetime.time
        ):
            raise ShownRaw(
                f"{value!r} shown raw in a template: format it on purpose (|floatformat, "
                "|date, |localize, or in the presenter); config/template_backend.py"
            )
        return localize(value, use_l10n=use_l10n)

    monkeypatch.setattr(base, "localize", checked)

    # The pieces (Jinja2, config/jinja.py) send what is not a string, a whole
    # number or None through ``localized``.
    from jinja2 import Undefined

    from config import jinja

    def refused(value):
        if isinstance(value, float | decimal.Decimal | datetime.date | datetime.time):
            raise ShownRaw(
                f"{value!r} shown raw in a piece: format it on purpose (in the presenter); "
                "config/jinja.py"
            )
        if callable(value) and not isinstance(value, Undefined):
            # Django's templates call what they find; Jinja2's write it as it is.
            raise ShownRaw(f"{value!r} shown, not called: write it with () in the piece")
        return value

    monkeypatch.setattr(jinja, "localized", refused)


@pytest.fixture(autouse=True)
def _plain_static_files(settings):
    """Tests render pages without running collectstatic first."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _eager_celery():
    """Tasks run in the test process even when REDIS_URL points Celery at Redis,
    so bots and deadlines are exercised and nothing is left queued on a shared broker."""
    from config.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture(autouse=True)
def _own_rate_counts(settings):
    """Each test counts its own requests against the per-address limits (every
    test phone is 127.0.0.1): a cache of the test's own, never a shared Redis."""
    import uuid

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-{uuid.uuid4().hex}",
        }
    }


@pytest.fixture(autouse=True)
def _no_server_beats(monkeypatch):
    """The server's heartbeat (a pong to a quiet socket once a second) would land
    between the messages a test reads off a socket one by one: off in-process, unless
    a test of the beat sets its own. Servers started as processes (browser tests)
    beat as in production."""
    monkeypatch.setattr("companion.consumers.BEAT_SECONDS", 3600.0)


@pytest.fixture(autouse=True)
def _tap_threads_give_back_their_connections():
    """A tap thread keeps its connection from one tap to the next; after each test
    the threads give theirs back and end, so no test inherits another's and the
    test database can be dropped at the end."""
    yield
    from companion import consumers

    consumers.release_tap_threads()


@pytest.fixture(autouse=True)
def _english():
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture
def make_session(db):
    """Create an Adrenaline session for the given characters; the host token is 'host'.
    Seats are named as the set-up form names them when no name is typed."""
    from games.adrenaline.rules import CHARACTER_NAMES

    def make(characters=("dstructor", "banshee", "dozer"), skulls=5, policy="table", **kw):
        return services.create_session(
            game="adrenaline",
            seat_names=[CHARACTER_NAMES[c] for c in characters],
            options={"characters": list(characters), "skulls": skulls, "first_player": 0},
            host_token="host",
            edit_policy=policy,
            **kw,
        )

    return make


@pytest.fixture
def catalogs(db):
    """The card catalogs, loaded the way `make run` loads them."""
    from games.catalog_loader import load_all

    load_all()


def make_duel(
    *,
    seed: int | None = None,
    turn_seconds: int = 0,
    bot: bool = False,
    mode: str = "online",
    hands: str = "tracked",
):
    """A Shazamm! duel (online unless ``mode="companion"``, played with the box):
    Anna (host, seat 0) against Marco or the bot (seat 1)."""
    session = services.create_session(
        game="shazamm",
        seat_names=["Anna", "Marco"],
        options={"variant": "standard", "hands": hands},
        host_token="anna",
        mode=mode,
        seed=seed,
        turn_seconds=turn_seconds,
    )
    services.claim_seat(session, 0, "anna")
    if bot:
        services.seat_bot(session, 1, "anna")
    else:
        services.claim_seat(session, 1, "marco")
    session.refresh_from_db()
    return session


def change_players(session, change) -> None:
    """Set a table's players up as a test needs them (weapons held, power-ups…):
    ``change(player)`` edits each player's part of the state in place, and the
    session moves on a revision, as any change does."""
    from companion.models import GameSession

    stored = GameSession.objects.get(pk=session.pk)
    state = stored.state
    for player in state["players"]:
        change(player)
    GameSession.objects.filter(pk=stored.pk).update(state=state, revision=stored.revision + 1)


def phone(token: str) -> Client:
    """A test client that is a phone with a fixed token in its Django session."""
    client = Client()
    session = client.session
    session[TOKEN_KEY] = token
    session.save()
    client.cookies["sessionid"] = session.session_key
    return client


@pytest.fixture
def host_phone(db) -> Client:
    return phone("host")


def shot(shooter: str, target: str, damage: int = 1, marks: int = 0) -> dict:
    return {
        "type": "shot",
        "shooter": shooter,
        "hits": [{"target": target, "damage": damage, "marks": marks}],
    }

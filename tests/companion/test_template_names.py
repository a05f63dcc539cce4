"""Every name a template writes is one its values have.

The templates treat a missing name as empty (``ChainableUndefined``, as Django's
do), so a value renamed in a presenter but not in a template that writes it renders
nothing and no test notices: a board's weapon buttons once posted an empty
``player`` that way, and every such tap was refused. Here the table is rendered with
an undefined that notes each missing name it writes."""

from __future__ import annotations

import jinja2
import pytest
from django.template import engines

from companion.models import GameSession
from companion.rendering import render_frames
from companion.selectors import viewer_for
from tests.conftest import change_players

#: Left out of live fragments on purpose: they are shared by the table's phones,
#: and ``app.js`` sends the CSRF token with each tap (config/jinja.py).
WRITTEN_EMPTY_ON_PURPOSE = {"csrf_input"}


@pytest.fixture
def missing_names():
    """The names rendered while missing, from now until the test ends."""
    written: list[str] = []

    class Noted(jinja2.ChainableUndefined):
        def __str__(self) -> str:
            written.append(str(self._undefined_name))
            return ""

    env = engines["jinja2"].env
    kept, env.undefined = env.undefined, Noted
    try:
        yield written
    finally:
        env.undefined = kept


def test_an_adrenaline_table_writes_no_missing_name(
    make_session, host_phone, catalogs, missing_names
):
    session = make_session(characters=("dstructor", "banshee", "dozer", "violet", "sprog"))

    def every_part_of_a_board_shown(player):  # gear, marks, damage
        player["weapons"] = [
            {"slug": "lock-rifle", "loaded": True},
            {"slug": "machine-gun", "loaded": False},
        ]
        player["powerups"] = [{"kind": "newton", "colour": "red"}, {"kind": None, "colour": None}]
        other = "banshee" if player["character"] != "banshee" else "dozer"
        player["marks"] = {other: 1}
        player["damage"] = [other, other]

    change_players(session, every_part_of_a_board_shown)
    host_phone.post(f"/s/{session.code}/seats/0/claim")

    page = host_phone.get(f"/s/{session.code}/")
    assert page.status_code == 200
    stored = GameSession.objects.get(pk=session.pk)
    seats = list(stored.seats.all())
    for token in ("host", "someone-watching"):  # a seated phone and a spectator's
        render_frames(stored, viewer_for(stored, seats, token), language="en", seats=seats)
    assert set(missing_names) <= WRITTEN_EMPTY_ON_PURPOSE, sorted(set(missing_names))


@pytest.mark.parametrize(
    ("game", "seats", "mode"),
    [
        ("shazamm", ["Anna", "Bruno"], "online"),
        ("shazamm", ["Anna", "Bruno"], "companion"),
        ("munchkin", ["Anna", "Bruno", "Carla"], "companion"),
        ("kablamo", ["Anna", "Bruno", "Carla"], "companion"),
        ("plastic-attack", ["Anna", "Bruno"], "online"),
    ],
)
def test_the_other_games_tables_write_no_missing_name(game, seats, mode, catalogs, missing_names):
    from companion import services
    from tests.conftest import phone

    session = services.create_session(
        game=game, seat_names=seats, options={}, host_token="host", mode=mode
    )
    host = phone("host")
    host.post(f"/s/{session.code}/seats/0/claim")
    assert host.get(f"/s/{session.code}/").status_code == 200
    stored = GameSession.objects.get(pk=session.pk)
    listed = list(stored.seats.all())
    for token in ("host", "someone-watching"):
        render_frames(stored, viewer_for(stored, listed, token), language="en", seats=listed)
    assert set(missing_names) <= WRITTEN_EMPTY_ON_PURPOSE, sorted(set(missing_names))

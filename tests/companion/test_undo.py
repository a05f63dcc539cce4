"""Undo as the phones use it: the button names what it takes back, and an undo
aimed at an action that is no longer the last one is refused and changes nothing.

Each phone reads its undo form from the page it was shown and posts those
fields, as the browser does.
"""

from __future__ import annotations

import html
import re

import pytest
from django.template.loader import render_to_string

from companion import services
from companion.checkpoints import replay_all
from companion.models import Action, Checkpoint, GameSession
from games.engine.registry import get_engine
from tests.conftest import next_key, phone, shot

pytestmark = pytest.mark.django_db

_FORM = re.compile(r'<div id="controls".*?</div>', re.S)
_BUTTON = re.compile(r"<button[^>]*\bdata-undo\b[^>]*>(.*?)</button>", re.S)


def undo_form(client, code: str, **headers) -> dict[str, str] | None:
    """What the phone's page shows of the undo button: its fields, its words."""
    page = client.get(f"/s/{code}/", **headers).content.decode()
    controls = _FORM.search(page)
    assert controls, "the page has no controls"
    button = _BUTTON.search(controls.group(0))
    if button is None:
        return None
    fields = dict(
        re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', controls.group(0))
    )
    tag = button.group(0)
    aria = re.search(r'aria-label="([^"]*)"', tag)
    return {
        **fields,
        "text": html.unescape(re.sub(r"<[^>]+>", "", button.group(1))).strip(),
        "aria": html.unescape(aria.group(1)) if aria else None,
        "title": html.unescape(re.search(r'title="([^"]*)"', tag).group(1)),
    }


def press(client, code: str, form: dict[str, str], **overrides):
    """Post the undo form as htmx does (only its fields, not the words)."""
    fields = {"key": form["key"], "expected": form["expected"], **overrides}
    fields = {name: value for name, value in fields.items() if value is not None}
    return client.post(f"/s/{code}/undo", fields, HTTP_HX_REQUEST="true")


def tap(session, shooter: str, target: str, token: str = "host", damage: int = 1) -> int:
    return services.submit_action(
        session, shot(shooter, target, damage), token=token, key=next_key()
    ).action.version


def end_turn(session, token: str = "host") -> int:
    return services.submit_action(
        session, {"type": "end_turn"}, token=token, key=next_key()
    ).action.version


def snapshot(session) -> tuple[int, dict, int]:
    session.refresh_from_db()
    return session.version, session.state, Action.objects.filter(session=session).count()


def message_of(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def table(make_session):
    """Three players, each on their own phone (seats 0, 1, 2)."""
    session = make_session(("dstructor", "banshee", "dozer"))
    phones = {}
    for index, name in enumerate(("dstructor", "banshee", "dozer")):
        services.claim_seat(session, index, f"phone-{name}")
        phones[name] = phone(f"phone-{name}")
    return session, phones


def test_the_button_names_the_action_it_will_undo(table):
    session, phones = table
    assert undo_form(phones["banshee"], session.code) is None  # nothing to undo yet
    version = tap(session, "dstructor", "dozer", token="phone-dstructor", damage=2)
    form = undo_form(phones["banshee"], session.code)
    assert form["text"] == "Undo: D-struct-OR hits Dozer: 2 damage."
    # The whole text, even if cut on screen: the button's name is its text (no
    # aria-label to say it again), and its tooltip.
    assert form["aria"] is None and form["title"] == form["text"]
    assert form["expected"] == str(version)


def test_the_button_speaks_the_phones_language(table):
    session, phones = table
    tap(session, "dstructor", "banshee", token="phone-dstructor")
    form = undo_form(phones["dozer"], session.code, HTTP_ACCEPT_LANGUAGE="it")
    assert form["text"] == "Annulla: D-struct-OR colpisce Banshee: 1 danno."


def test_an_action_with_no_sentence_is_named_by_its_number(table):
    session, _phones = table
    html_ = render_to_string(
        "companion/partials/controls.html",
        {"session": session, "can_edit": True, "undo_version": 7, "undo_label": ""},
    )
    assert ">Undo action #7</span>" in html_


def test_the_undo_button_is_short_on_a_phone():
    # At most two lines, then an ellipsis (tests/e2e/test_adrenaline_table.py sees it
    # at 360 px): a long sentence never makes the bar cover the table.
    css = open("static/css/app.css", encoding="utf-8").read()
    rule = re.search(r"\.undo-text\{([^}]*)\}", css)
    assert rule, "the undo button's text has no rule to cut it"
    assert "-webkit-line-clamp:2" in rule.group(1) and "overflow:hidden" in rule.group(1)


def test_undo_takes_back_exactly_the_action_it_named_and_then_names_the_one_before(table):
    session, phones = table
    tap(session, "dstructor", "dozer", token="phone-dstructor")
    tap(session, "dstructor", "banshee", token="phone-dstructor", damage=3)
    form = undo_form(phones["dozer"], session.code)
    assert form["text"] == "Undo: D-struct-OR hits Banshee: 3 damage."
    response = press(phones["dozer"], session.code, form)
    assert response.status_code == 200
    session.refresh_from_db()
    assert len(session.state["players"][1]["damage"]) == 0
    assert len(session.state["players"][2]["damage"]) == 1
    assert "Undid action #2." in response.content.decode()
    assert undo_form(phones["dozer"], session.code)["text"] == (
        "Undo: D-struct-OR hits Dozer: 1 damage."
    )


def test_an_undo_seen_before_another_phone_acted_is_refused_and_changes_nothing(table):
    """The issue's table: Dozer's phone shows "Undo: … hits Dozer", then Banshee's
    phone acts; Dozer's tap must not take Banshee's action back."""
    session, phones = table
    tap(session, "dstructor", "dozer", token="phone-dstructor")
    form = undo_form(phones["dozer"], session.code)  # what Dozer's phone shows
    end_turn(session, token="phone-dstructor")
    tap(session, "banshee", "dstructor", token="phone-banshee")  # the log moves on
    before = snapshot(session)
    response = press(phones["dozer"], session.code, form)
    assert response.status_code == 409
    assert "Someone else changed the game meanwhile, so nothing was undone" in message_of(response)
    assert response["HX-Retarget"] == "#messages"
    assert snapshot(session) == before


def test_an_undo_already_made_by_another_phone_is_not_made_again(table):
    """Two phones show the same button; one presses it with its own key: the
    other's press names an action no longer in effect and is refused."""
    session, phones = table
    tap(session, "dstructor", "dozer", token="phone-dstructor")
    tap(session, "dstructor", "banshee", token="phone-dstructor")
    form = undo_form(phones["dozer"], session.code)
    assert press(phones["banshee"], session.code, form, key="banshee-own-key").status_code == 200
    before = snapshot(session)
    response = press(phones["dozer"], session.code, form, key="dozer-own-key")
    assert response.status_code == 409
    assert snapshot(session) == before
    assert len(before[1]["players"][2]["damage"]) == 1  # the first hit still stands


def test_a_repeated_undo_returns_the_first_result_and_undoes_nothing_more(table):
    session, phones = table
    tap(session, "dstructor", "dozer", token="phone-dstructor")
    tap(session, "dstructor", "banshee", token="phone-dstructor")
    form = undo_form(phones["dozer"], session.code)
    first = press(phones["dozer"], session.code, form)
    assert first.status_code == 200
    after_first = snapshot(session)
    again = press(phones["dozer"], session.code, form)  # a retry: same key, same fields
    assert again.status_code == 200
    assert snapshot(session) == after_first
    assert 'data-damage="1"' in again.content.decode()  # Dozer's hit is still on the board
    # Another phone pressing the same button (its own key) is told the log moved on;
    # replaying the first phone's key gets it nothing (the key is not its own).
    other = press(phones["banshee"], session.code, form, key="banshee-own-key")
    assert other.status_code == 409
    replayed = press(phones["banshee"], session.code, form)
    assert replayed.status_code == 403
    assert snapshot(session) == after_first
    assert list(session.actions.values_list("kind", "undoes")) == [
        ("game", None),
        ("game", None),
        ("undo", 2),
    ]


@pytest.mark.parametrize(
    ("overrides", "status", "message"),
    [
        ({"expected": None}, 400, "does not say which action it takes back"),
        ({"expected": ""}, 400, "does not say which action it takes back"),
        ({"expected": "two"}, 400, "does not say which action it takes back"),
        ({"expected": "-2"}, 400, "does not say which action it takes back"),
        ({"expected": "2.0"}, 400, "does not say which action it takes back"),
        ({"expected": "２"}, 400, "does not say which action it takes back"),
        ({"expected": "9" * 40}, 400, "does not say which action it takes back"),
        ({"expected": "1"}, 409, "Someone else changed the game meanwhile"),
        ({"expected": "3"}, 409, "Someone else changed the game meanwhile"),
        ({"key": ""}, 400, "one-time key"),
        ({"key": "k" * 65}, 400, "one-time key"),
    ],
)
def test_bad_undo_input_gets_a_clear_4xx_and_changes_nothing(table, overrides, status, message):
    session, phones = table
    tap(session, "dstructor", "dozer", token="phone-dstructor")
    tap(session, "dstructor", "banshee", token="phone-dstructor")
    form = undo_form(phones["dozer"], session.code)
    before = snapshot(session)
    response = press(phones["dozer"], session.code, form, **overrides)
    assert response.status_code == status
    body = message_of(response)
    assert 'id="messages"' in body and 'class="error"' in body
    assert message in body
    assert snapshot(session) == before


def test_a_key_already_used_by_a_game_action_is_refused(table):
    session, phones = table
    services.submit_action(
        session, shot("dstructor", "dozer"), token="phone-dstructor", key="used-by-a-shot"
    )
    form = undo_form(phones["dozer"], session.code)
    before = snapshot(session)
    response = press(phones["dozer"], session.code, form, key="used-by-a-shot")
    assert response.status_code == 409
    assert "already used for another action" in message_of(response)
    assert snapshot(session) == before


def test_a_phone_without_a_seat_cannot_undo(table):
    session, phones = table
    tap(session, "dstructor", "dozer", token="phone-dstructor")
    form = undo_form(phones["dozer"], session.code)
    before = snapshot(session)
    stranger = phone("stranger")
    assert undo_form(stranger, session.code) is None  # no button for a phone without a seat
    response = press(stranger, session.code, form)
    assert response.status_code == 403
    assert "Take a seat" in message_of(response)
    assert snapshot(session) == before


def test_with_own_board_editing_a_phone_cannot_undo_another_players_action(make_session):
    session = make_session(policy="own")
    services.claim_seat(session, 0, "phone-dstructor")
    services.claim_seat(session, 2, "phone-dozer")
    tap(session, "dstructor", "dozer", token="phone-dstructor")
    form = undo_form(phone("phone-dozer"), session.code)
    before = snapshot(session)
    response = press(phone("phone-dozer"), session.code, form)
    assert response.status_code == 403
    assert "undoes only their own actions" in message_of(response)
    assert snapshot(session) == before
    assert press(phone("phone-dstructor"), session.code, form).status_code == 200


def test_nothing_left_to_undo_is_said(table):
    session, phones = table
    tap(session, "dstructor", "dozer", token="phone-dstructor")
    form = undo_form(phones["dozer"], session.code)
    assert press(phones["dozer"], session.code, form).status_code == 200
    response = press(phones["dozer"], session.code, {"key": "another", "expected": "1"})
    assert response.status_code == 409
    assert "There is nothing to undo." in message_of(response)


def test_without_javascript_the_undo_redirects_back_to_the_table(table):
    session, phones = table
    tap(session, "dstructor", "dozer", token="phone-dstructor")
    form = undo_form(phones["dozer"], session.code)
    response = phones["dozer"].post(
        f"/s/{session.code}/undo", {"key": form["key"], "expected": form["expected"]}
    )
    assert response.status_code == 302
    assert snapshot(session)[1]["players"][2]["damage"] == []


# ---------------------------------------------------------------- checkpoints


def test_a_long_game_keeps_checkpoints_and_undo_replays_only_from_the_last_one(
    make_session, monkeypatch
):
    session = make_session()
    engine = get_engine("adrenaline")
    for _ in range(100):  # cube +1/−1 pairs: a long game that never ends
        for delta in (1, -1):
            services.submit_action(
                session,
                {"type": "adjust", "player": "dozer", "field": "red", "delta": delta},
                token="host",
                key=next_key(),
            )
    tap(session, "dstructor", "dozer")
    versions = list(Checkpoint.objects.filter(session=session).values_list("version", flat=True))
    assert versions == [32, 64, 96, 128, 160, 192]

    applied = []
    original = type(engine).apply

    def counting(self, state, action, seat=None):
        applied.append(action)
        return original(self, state, action, seat)

    monkeypatch.setattr(type(engine), "apply", counting)
    response = press(phone("host"), session.code, undo_form(phone("host"), session.code))
    assert response.status_code == 200
    monkeypatch.undo()
    assert len(applied) == 200 - 192  # from the checkpoint at 192, not from the start
    session.refresh_from_db()
    assert session.state == replay_all(session, engine)
    assert session.state["players"][2]["damage"] == []


def test_a_checkpoint_an_undo_reached_behind_is_not_used(make_session):
    session = make_session()
    engine = get_engine("adrenaline")
    for _ in range(30):
        services.submit_action(
            session,
            {"type": "adjust", "player": "dozer", "field": "red", "delta": 1 if _ % 2 else -1},
            token="host",
            key=next_key(),
        )
    # Versions 31, 32 and 33 are hits; the checkpoint at 32 includes the first two.
    for _ in range(3):
        tap(session, "dstructor", "dozer")
    assert Checkpoint.objects.filter(session=session, version=32).exists()
    for _ in range(3):  # back past the checkpoint
        services.undo(session, token="host", key=next_key())
        session.refresh_from_db()
        assert session.state == replay_all(session, engine)
    assert session.state["players"][2]["damage"] == []
    tap(session, "dstructor", "dozer")
    services.undo(session, token="host", key=next_key())
    session.refresh_from_db()
    assert session.state == replay_all(session, engine)
    assert session.state["players"][2]["damage"] == []


def test_an_old_session_without_checkpoints_still_undoes(make_session):
    session = make_session()
    for _ in range(40):
        services.submit_action(
            session,
            {"type": "adjust", "player": "banshee", "field": "blue", "delta": 1 if _ % 2 else -1},
            token="host",
            key=next_key(),
        )
    tap(session, "dstructor", "dozer")
    Checkpoint.objects.filter(session=session).delete()
    services.undo(session, token="host", key=next_key())
    session.refresh_from_db()
    assert session.state == replay_all(session, get_engine("adrenaline"))
    assert GameSession.objects.get(pk=session.pk).state["players"][2]["damage"] == []

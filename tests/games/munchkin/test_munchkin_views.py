"""Munchkin Bites! on a phone, server side: the set-up form, every form on the board
posted as a phone posts it (fields read from the rendered HTML), bad input, undo
across a fight, and the history sentences in English and Italian."""

from __future__ import annotations

import itertools
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from companion import services
from companion.models import GameSession
from games.munchkin.rules import ENGINE
from games.munchkin.views import PRESENTER
from tests.conftest import phone
from tests.support.seeds import copied_runs, seeds_available

REPO = Path(__file__).resolve().parents[3]
_keys = itertools.count()


# ---------------------------------------------------------------- reading forms


class _Forms(HTMLParser):
    """Every <form> of a page: its fields as a browser would send them, its buttons."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict[str, Any]] = []
        self._form: dict[str, Any] | None = None
        self._select: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._form = {"attrs": a, "fields": {}, "buttons": [], "required": []}
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "input":
            kind = a.get("type", "text")
            if "name" not in a or (kind in ("checkbox", "radio") and "checked" not in a):
                return
            self._form["fields"][a["name"]] = a.get("value", "")
            if "required" in a:
                self._form["required"].append(a["name"])
        elif tag == "select" and "name" in a:
            self._select = {"name": a["name"], "first": None, "chosen": None}
        elif tag == "option" and self._select is not None:
            if self._select["first"] is None:
                self._select["first"] = a.get("value", "")
            if "selected" in a:
                self._select["chosen"] = a.get("value", "")
        elif tag == "button":
            self._form["buttons"].append(a)

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None and self._form is not None:
            chosen = self._select["chosen"]
            value = chosen if chosen is not None else self._select["first"]
            self._form["fields"][self._select["name"]] = value or ""
            self._select = None
        elif tag == "form":
            self._form = None


def forms_of(html: str) -> list[dict[str, Any]]:
    parser = _Forms()
    parser.feed(html)
    return parser.forms


def find(html: str, button: str, value: str | None = None) -> tuple[dict[str, Any], dict]:
    """The form holding the button with attribute ``button`` (= ``value``, if given)."""
    for form in forms_of(html):
        for attrs in form["buttons"]:
            if button in attrs and (value is None or attrs[button] == value):
                return form, attrs
    raise AssertionError(f"no button [{button}={value}] on the board")


def submit(client: Client, code: str, html: str, button: str, which: str | None = None, /, **fill):
    """Post the form of that button like htmx does: its fields, the button, a fresh key."""
    form, attrs = find(html, button, which)
    data = dict(form["fields"])
    for name, filled in fill.items():
        name = name.replace("__", ".")
        assert name in data, f"the form has no field {name}: {sorted(data)}"
        data[name] = str(filled)
    missing = [n for n in form["required"] if not data.get(n)]
    assert not missing, f"required fields left empty: {missing}"
    if attrs.get("name"):
        data[attrs["name"]] = attrs.get("value", "")
    data["key"] = f"mk-{next(_keys)}"
    assert form["attrs"]["hx-post"] == f"/s/{code}/act"
    return client.post(f"/s/{code}/act", data, HTTP_HX_REQUEST="true")


# ---------------------------------------------------------------- a table


def table(names=("Anna", "Bruno", "Carla"), *, seed: int = 5) -> GameSession:
    session = services.create_session(
        game="munchkin", seat_names=list(names), options={}, host_token="anna", seed=seed
    )
    services.claim_seat(session, 0, "anna")
    session.refresh_from_db()
    return session


def state_of(session: GameSession) -> dict[str, Any]:
    session.refresh_from_db()
    return session.state


class Phone:
    """Anna's phone: taps a button on the board it last saw, then sees the new board."""

    def __init__(self, session: GameSession) -> None:
        self.session = session
        self.client = phone("anna")
        self.html = self.client.get(f"/s/{session.code}/").content.decode()

    def tap(self, button: str, which: str | None = None, /, **fill) -> str:
        response = submit(self.client, self.session.code, self.html, button, which, **fill)
        assert response.status_code == 200, response.content.decode()[:500]
        self.html = response.content.decode()
        return self.html

    def post(self, **payload) -> Any:
        data = {k.replace("__", "."): v for k, v in payload.items()}
        data["key"] = f"mk-{next(_keys)}"
        response = self.client.post(f"/s/{self.session.code}/act", data, HTTP_HX_REQUEST="true")
        if response.status_code == 200:
            self.html = response.content.decode()
        return response


def shows(html: str, attribute: str, value: Any) -> bool:
    return f'{attribute}="{value}"' in html


# ---------------------------------------------------------------- set-up


@pytest.mark.django_db
def test_the_set_up_page_asks_for_three_to_six_names_and_the_first_player():
    body = Client().get("/new/munchkin/").content.decode()
    assert body.count('name="name_') == 6 and body.count('name="sex_') == 6
    assert 'name="first"' in body and 'name="host_seat"' in body
    assert "/rules/munchkin/#setup" in body


@pytest.mark.django_db
def test_the_set_up_form_creates_a_table_from_the_named_rows():
    client = Client()
    response = client.post(
        "/new/munchkin/",
        {
            "name_0": "Anna",
            "sex_0": "female",
            "name_1": "",
            "name_2": " Bruno  Rossi ",
            "sex_2": "male",
            "name_3": "Carla",
            "name_4": "Dario",
            "first": "3",
            "host_seat": "2",
        },
    )
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert [s.name for s in session.seats.all()] == ["Anna", "Bruno Rossi", "Carla", "Dario"]
    assert session.state["turn"]["seat"] == 2  # row 4 is the third named row
    assert [p["sex"] for p in session.state["players"]] == ["female", "male", None, None]
    assert session.seats.get(index=1).holder  # this phone sits as Bruno Rossi
    page = client.get(response["Location"]).content.decode()
    assert "Turn 1: <strong>Carla</strong>" in page
    assert page.count('class="card mk-player') == 4


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name_0": "Anna", "name_1": "Bruno"}, "3 to 6 players"),
        ({"name_0": "A", "name_1": "B", "name_2": "C", "first": "4"}, "Player 5 has no name"),
        ({"name_0": "A", "name_1": "B", "name_2": "C", "sex_1": "robot"}, "not a valid choice"),
        ({"name_0": "A", "name_1": "B", "name_2": "C", "first": "9"}, "not a valid choice"),
        ({"name_0": "A", "name_1": "B", "name_2": "C", "first": "x"}, "not a valid choice"),
    ],
)
@pytest.mark.django_db
def test_a_bad_set_up_says_why_and_creates_nothing(fields, message):
    response = Client().post("/new/munchkin/", fields)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not GameSession.objects.exists()


# ---------------------------------------------------------------- the board's forms


@pytest.mark.django_db
def test_level_and_gear_steppers_change_the_row_and_the_strength():
    session = table()
    anna = Phone(session)
    assert shows(anna.html, "data-level", 0) and shows(anna.html, "data-strength", 0)
    anna.tap("data-level-up", "1")
    anna.tap("data-level-up", "1")
    anna.tap("data-level-down", "1")
    anna.tap("data-gear-up", "1")
    html = anna.tap("data-gear-up", "1")
    assert '<output class="mk-value" data-level="1">2</output>' in html
    assert '<output class="mk-value" data-gear="1">+2</output>' in html
    assert '<strong data-strength="1">4</strong>' in html
    html = anna.tap("data-gear-down", "2")
    assert '<output class="mk-value" data-gear="2">-1</output>' in html
    assert '<strong data-strength="2">0</strong>' in html
    players = state_of(session)["players"]
    assert (players[1]["level"], players[1]["gear"], players[2]["gear"]) == (2, 2, -1)


@pytest.mark.django_db
def test_sex_races_half_breed_and_powers_from_the_edit_panel():
    session = table()
    anna = Phone(session)
    for _ in range(3):
        anna.tap("data-level-up", "0")
    # Sex: nobody set it at set-up, so both choices are offered; then it is a switch.
    assert 'data-sex="0"' not in anna.html
    anna.tap("data-set-sex", "0-female")
    assert state_of(session)["players"][0]["sex"] == "female"
    html = anna.tap("data-sex", "0")
    assert state_of(session)["players"][0]["sex"] == "male"
    assert "Switch to female" in html
    # Races: add one, play Half-Breed, add a second, discard one.
    anna.tap("data-add-race", "0", race="vampire")
    anna.tap("data-half-breed", "0")
    html = anna.tap("data-add-race", "0", race="mummy")
    player = state_of(session)["players"][0]
    assert player["races"] == ["vampire", "mummy"] and player["half_breed"]
    assert 'data-add-race="0"' not in html  # two races: no room for a third
    assert "Vampire" in html and "Mummy" in html and "Half-Breed" in html
    form, _ = find(html, "aria-label", "Discard Vampire (Anna)")
    anna.post(**form["fields"])
    assert state_of(session)["players"][0]["races"] == ["mummy"]
    # Powers: the rank total may not pass the level (4).
    anna.tap("data-add-power", "0", name="Bite", rank="3")
    html = anna.tap("data-add-power", "0", name="Fly", rank="1")
    assert "Powers (ranks 4 of 4):" in html
    assert "No room for a new power" in html
    assert [p["name"] for p in state_of(session)["players"][0]["powers"]] == ["Bite", "Fly"]
    form, _ = find(html, "aria-label", "Discard Bite (Anna)")
    assert form["fields"]["index"] == "0"
    anna.post(**form["fields"])
    assert [p["name"] for p in state_of(session)["players"][0]["powers"]] == ["Fly"]


@pytest.mark.django_db
def test_selling_items_and_dying_from_the_current_players_panel():
    session = table()
    anna = Phone(session)
    assert 'data-sell="0"' in anna.html and 'data-sell="1"' not in anna.html  # Anna's turn
    html = anna.tap("data-sell", "0", gold="2500")
    assert state_of(session)["players"][0]["level"] == 3
    anna.tap("data-gear-up", "0")
    html = anna.tap("data-died", "0")
    player = state_of(session)["players"][0]
    assert (player["deaths"], player["gear"], player["level"]) == (1, 0, 3)
    assert "died 1 time" in html
    assert "Anna sells items worth 2500 gold for 2 levels. 500 gold is lost" in html


@pytest.mark.django_db
def test_the_turn_guide_moves_through_the_phases_and_names_the_charity_receivers():
    session = table()
    anna = Phone(session)
    assert 'data-phase="kick_door"' in anna.html and "Kick open the door" in anna.html
    anna.tap("data-next-phase")
    anna.tap("data-next-phase")
    html = anna.tap("data-level-up", "0")
    html = anna.tap("data-next-phase")
    assert 'data-phase="charity"' in html
    assert "Extra cards are shared evenly by Bruno, Carla" in html
    assert "data-next-phase" not in html  # charity is the last phase
    html = anna.tap("data-end-turn")
    turn = state_of(session)["turn"]
    assert (turn["seat"], turn["phase"], turn["number"]) == (1, "kick_door", 2)
    assert "Turn 2: <strong>Bruno</strong>" in html


def phases_shown(html: str) -> str:
    return html[html.index('class="mk-phases"') :].split("</ol>")[0]


@pytest.mark.django_db
def test_looking_for_trouble_is_struck_out_only_when_the_door_held_a_monster():
    behind_the_door = Phone(table())
    html = behind_the_door.tap("data-fight", **{"monster__name": "Zombie", "monster__level": "3"})
    assert '<li class=" skipped">Look for trouble</li>' in phases_shown(html)
    # Nothing behind the door: Anna looks for trouble and fights there. That phase is
    # the one she is in, not one she skipped.
    looking = Phone(table())
    looking.tap("data-next-phase")
    html = looking.tap("data-fight", **{"monster__name": "Zombie", "monster__level": "3"})
    assert '<li class="current" aria-current="step">Look for trouble</li>' in phases_shown(html)
    assert "skipped" not in phases_shown(html)


@pytest.mark.django_db
def test_the_shared_die_shows_the_roll_and_who_rolled():
    session = table()
    anna = Phone(session)
    html = anna.tap("data-roll-button")
    roll = state_of(session)["last_roll"]
    assert roll["seat"] == 0
    assert f"Last roll: {roll['value']} (Anna)" in html
    assert f"Anna rolls the die: {roll['value']}." in html


@pytest.mark.django_db
def test_a_fight_adds_up_both_sides_and_says_who_is_winning():
    session = table()
    anna = Phone(session)
    anna.tap("data-level-up", "0")  # Anna: level 2
    html = anna.tap("data-fight", **{"monster__name": "Zombie", "monster__level": "3"})
    assert state_of(session)["combat"]["fighter"] == 0
    assert 'data-total="players">2</strong>' in html
    assert 'data-total="monsters">3</strong>' in html
    assert "Monsters winning by 1" in html
    # A helper: Bruno (level 1) makes it a tie, and a tie goes to the monsters.
    html = anna.tap("data-set-helper", seat="1")
    assert 'data-total="players">3</strong>' in html
    assert "Monsters winning: a tie goes to the monsters" in html
    # A one-shot bonus for the players, then an enhancer and an Evil Twin.
    html = anna.tap("data-bonus", "players", value="2", name="Potion")
    assert "Players winning by 2" in html
    html = anna.tap("data-enhance", "1", value="5", name="Ancient")
    assert 'data-total="monsters">8</strong>' in html
    html = anna.tap("data-twin", "1")
    assert 'data-total="monsters">16</strong>' in html  # the twin copies the enhancer
    html = anna.tap("data-enhance", "2", value="-3")
    assert 'data-total="monsters">10</strong>' in html  # twins share enhancers
    html = anna.tap("data-bonus", "monsters", value="1")
    assert 'data-total="monsters">11</strong>' in html
    html = anna.tap("data-addmonster", **{"monster__level": "1", "monster__escape": "-2"})
    assert 'data-total="monsters">12</strong>' in html
    assert "A Wandering Monster joins the fight" in html
    form, _ = find(html, "aria-label", "Remove monster 3 (Monster)")
    anna.post(**form["fields"])
    combat = state_of(session)["combat"]
    assert [m["id"] for m in combat["monsters"]] == [1, 2]
    assert combat["bonuses"] == {
        "players": [{"name": "Potion", "value": 2}],
        "monsters": [{"name": "", "value": 1}],
    }
    assert "End the fight: run away" in anna.html
    assert "Finish the fight before moving on." in anna.html


@pytest.mark.django_db
def test_winning_a_fight_gives_the_levels_and_the_history_says_so():
    session = table()
    anna = Phone(session)
    anna.tap("data-level-up", "0")
    html = anna.tap("data-fight", **{"monster__level": "1", "monster__levels": "2"})
    assert "End the fight: kill, +2 levels" in html
    html = anna.tap("data-resolve")
    assert state_of(session)["players"][0]["level"] == 4
    assert state_of(session)["combat"] is None
    assert "Anna goes up to level 4 (killed a monster)." in html
    assert "Last fight: Anna killed Monster." in html


@pytest.mark.django_db
def test_a_kill_that_reaches_level_10_ends_the_game_and_the_board_goes_read_only():
    session = table()
    anna = Phone(session)
    anna.post(type="level", seat="0", delta="8")
    anna.tap("data-fight", **{"monster__level": "1"})
    html = anna.tap("data-resolve")
    assert state_of(session)["over"] and state_of(session)["winners"] == [0]
    assert "Anna wins the game!" in html
    assert "Anna reaches level 10 and wins the game!" in html
    assert "data-level-up" not in html and "data-roll-button" not in html
    assert "/rules/munchkin/#winning" in html
    # The turn guide is gone: nobody kicks open another door.
    assert "mk-turn" not in html and "Kick open the door" not in html
    # The standings count levels, not points (Munchkin has none).
    page = anna.client.get(f"/s/{session.code}/").content.decode()
    assert "<strong>Anna</strong> &mdash; level 10" in page and " points<" not in page
    italian = anna.client.get(f"/s/{session.code}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "<strong>Anna</strong> &mdash; livello 10" in italian and " punti<" not in italian


@pytest.mark.django_db
def test_losing_a_fight_means_a_run_away_roll_per_runner_per_monster():
    session = table(seed=3)
    anna = Phone(session)
    anna.tap("data-fight", **{"monster__name": "Ghoul", "monster__level": "9"})
    anna.tap("data-set-helper", seat="2")
    anna.tap("data-addmonster", **{"monster__name": "Bat", "monster__level": "2"})
    html = anna.tap("data-resolve")
    combat = state_of(session)["combat"]
    assert combat["stage"] == "running" and combat["runners"] == [0, 2]
    assert 'data-run="0-1"' in html and 'data-run="2-2"' in html
    # A run-away modifier for Carla, then the rolls and the no-roll results.
    anna.tap("aria-label", "Raise Carla's run-away modifier")  # the button says which way
    assert state_of(session)["combat"]["run_bonus"]["helper"] == 1
    anna.tap("data-run", "0-1")
    run = state_of(session)["combat"]["runs"][0]
    assert run["mode"] == "roll" and run["total"] == run["roll"]
    anna.tap("data-run-escape", "0-2")
    anna.tap("data-run-caught", "2-1")
    html = anna.tap("data-run", "2-2")
    last = state_of(session)["last_combat"]
    assert state_of(session)["combat"] is None and last["result"] == "fled"
    assert [r["mode"] for r in last["runs"]] == ["roll", "escape", "caught", "roll"]
    assert last["runs"][3]["modifier"] == 1
    assert "Bad Stuff to apply:" in html and "<strong>Carla</strong> (Ghoul)" in html


@pytest.mark.django_db
def test_a_fight_can_be_called_off():
    session = table()
    anna = Phone(session)
    anna.tap("data-fight", **{"monster__level": "4"})
    html = anna.tap("data-cancel-fight")
    assert state_of(session)["combat"] is None
    assert "The fight is called off: nobody gains a level." in html
    assert "Last fight: Anna&#x27;s fight was called off." in html or (
        "Last fight: Anna's fight was called off." in html
    )


@pytest.mark.django_db
def test_undo_works_across_a_fight():
    session = table()
    anna = Phone(session)
    anna.tap("data-fight", **{"monster__level": "4"})
    anna.tap("data-enhance", "1", value="2")
    anna.tap("data-resolve")
    assert state_of(session)["combat"]["stage"] == "running"
    # Undo the resolve: back to the fight, enhancer and all, on the board too.
    session.refresh_from_db()
    last = session.actions.order_by("-version").first()
    response = anna.client.post(
        f"/s/{session.code}/undo",
        {"key": "undo-resolve", "expected": last.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    combat = state_of(session)["combat"]
    assert combat["stage"] == "fighting"
    assert combat["monsters"][0]["enhancers"] == [{"name": "", "value": 2}]
    assert "Monsters winning by 5" in response.content.decode()
    # Undo the fight itself (the enhancer first): no fight, the start form is back.
    for version in (last.version - 1, last.version - 2):
        response = anna.client.post(
            f"/s/{session.code}/undo",
            {"key": f"undo-{version}", "expected": version},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200
    assert state_of(session)["combat"] is None
    assert "data-fight" in response.content.decode()


@pytest.mark.django_db
def test_a_card_is_only_re_sent_when_what_it_shows_changes():
    session = table()
    anna = Phone(session)

    def keys(html: str) -> dict[str, str]:
        return dict(re.findall(r'id="(mk-[a-z0-9-]+)"[^>]*data-swap-key="([0-9a-f]+)"', html))

    before = keys(anna.html)
    assert set(before) == {"mk-fight", "mk-player-0", "mk-player-1", "mk-player-2"}
    after = keys(anna.tap("data-level-up", "1"))
    assert after["mk-player-1"] != before["mk-player-1"]
    assert after["mk-player-0"] == before["mk-player-0"]
    assert after["mk-fight"] == before["mk-fight"]
    fighting = keys(anna.tap("data-fight", **{"monster__level": "2"}))
    assert fighting["mk-fight"] != after["mk-fight"]
    # The fighter's row changes the totals, so the fight is re-sent too.
    again = keys(anna.tap("data-gear-up", "0"))
    assert again["mk-fight"] != fighting["mk-fight"]


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("payload", "status", "message"),
    [
        ({"type": "level", "seat": "0", "delta": "0"}, 400, "must not be zero"),
        ({"type": "level", "seat": "0", "delta": "-1"}, 409, "Anna is already at level 1."),
        ({"type": "level", "seat": "0", "delta": "9"}, 409, "only be reached by killing"),
        ({"type": "gear", "seat": "1", "delta": "lots"}, 400, "must be a whole number"),
        ({"type": "level", "seat": "7", "delta": "1"}, 400, "“player” must be between"),
        ({"type": "add_race", "seat": "0", "race": "elf"}, 400, "“race” is not a valid choice"),
        ({"type": "add_power", "seat": "0", "name": "Bite", "rank": "2"}, 409, "over level 1"),
        ({"type": "add_power", "seat": "0", "rank": "1"}, 400, "“name” is missing"),
        ({"type": "sell", "seat": "1", "gold": "1000"}, 409, "sold on your own turn"),
        ({"type": "sell", "seat": "0", "gold": "900"}, 409, "900 gold buys nothing"),
        ({"type": "fight", "seat": "0", "monster.level": "0"}, 400, "must be between 1 and 30"),
        ({"type": "fight", "seat": "0", "monster.name": "Bat"}, 400, "is missing"),
        ({"type": "enhance", "monster": "1", "value": "5"}, 409, "There is no fight going on."),
        ({"type": "resolve"}, 409, "There is no fight going on."),
        ({"type": "half_breed", "seat": "2", "on": "1"}, 409, "Carla is human"),
        ({"type": "dance"}, 400, "is not a valid choice"),
    ],
)
@pytest.mark.django_db
def test_bad_input_gets_a_clear_4xx_and_changes_nothing(payload, status, message):
    session = table()
    anna = Phone(session)
    response = anna.post(**{k.replace(".", "__"): v for k, v in payload.items()})
    body = response.content.decode()
    assert response.status_code == status, body
    assert 'class="error"' in body and response["HX-Retarget"] == "#messages"
    assert message in body.replace("&#x27;", "'").replace("&quot;", '"')
    session.refresh_from_db()
    assert session.version == 0


@pytest.mark.django_db
def test_rule_errors_are_translated_with_the_race_name_in_italian():
    session = table()
    anna = Phone(session)
    anna.post(type="add_race", seat="0", race="werewolf")
    with translation.override("it"):
        response = anna.client.post(
            f"/s/{session.code}/act",
            {"type": "add_race", "seat": "0", "race": "werewolf", "key": "it-1"},
            HTTP_HX_REQUEST="true",
            HTTP_ACCEPT_LANGUAGE="it",
        )
    assert response.status_code == 409
    assert "Licantropo" in response.content.decode()


# ---------------------------------------------------------------- history


def _event_samples() -> list[dict[str, Any]]:
    """One event of every type and every variant the engine produces."""
    monster = {"id": 1, "name": "Zombie", "level": 8, "levels": 1, "escape": 0}
    power = {"type": "power", "seat": 0, "name": "Bite", "rank": 2}
    return [
        {"type": "level", "seat": 0, "from": 3, "to": 4, "why": "kill"},
        {"type": "level", "seat": 1, "from": 3, "to": 4, "why": "helper"},
        {"type": "level", "seat": 0, "from": 3, "to": 5, "why": "sell"},
        {"type": "level", "seat": 0, "from": 3, "to": 4, "why": "adjust"},
        {"type": "level", "seat": 0, "from": 3, "to": 2, "why": "adjust"},
        {"type": "gear", "seat": 0, "from": 0, "to": 3, "why": "adjust"},
        {"type": "sex", "seat": 0, "from": None, "to": "female"},
        {"type": "sex", "seat": 0, "from": "female", "to": "male"},
        {"type": "race", "seat": 0, "op": "add", "race": "werewolf"},
        {"type": "race", "seat": 0, "op": "remove", "race": "mummy"},
        {"type": "half_breed", "seat": 0, "on": True},
        {"type": "half_breed", "seat": 0, "on": False},
        {**power, "op": "add", "why": "played"},
        {**power, "op": "remove", "why": "discarded"},
        {**power, "op": "remove", "why": "level_loss"},
        {**power, "op": "remove", "why": "race_loss"},
        {"type": "sell", "seat": 0, "gold": 1000, "levels": 1, "wasted": 0},
        {"type": "sell", "seat": 0, "gold": 2300, "levels": 2, "wasted": 300},
        {"type": "death", "seat": 0, "gear_lost": 4},
        {"type": "death", "seat": 0, "gear_lost": 0},
        {"type": "roll", "seat": 0, "value": 6},
        {"type": "roll", "seat": None, "value": 2},
        {"type": "phase", "seat": 0, "phase": "loot_room"},
        {"type": "turn", "seat": 1, "number": 2},
        {"type": "fight", "seat": 0, "monster": monster},
        {"type": "fight", "seat": 0, "monster": {**monster, "name": "", "levels": 2}},
        {"type": "monster", "monster": {**monster, "id": 2}, "wandering": True},
        {"type": "monster", "monster": {**monster, "id": 2}, "wandering": False},
        {"type": "twin", "monster": 3, "of": 1},
        {"type": "enhancer", "monsters": [1], "name": "Ancient", "value": 10},
        {"type": "enhancer", "monsters": [1, 3], "name": "", "value": -5},
        {"type": "monster_removed", "monster": 2, "name": "Bat"},
        {"type": "bonus", "side": "players", "name": "Potion", "value": 3},
        {"type": "bonus", "side": "players", "name": "", "value": 3},
        {"type": "bonus", "side": "monsters", "name": "Curse", "value": 2},
        {"type": "bonus", "side": "monsters", "name": "", "value": -2},
        {"type": "helper", "seat": 1, "previous": None},
        {"type": "helper", "seat": 2, "previous": 1},
        {"type": "helper", "seat": None, "previous": 2},
        {"type": "run_bonus", "seat": 0, "from": 0, "to": 1},
        {"type": "combat_won", "fighter": 0, "helper": 1, "players": 9, "monsters": 8, "levels": 1},
        {"type": "combat_lost", "fighter": 0, "helper": None, "players": 5, "monsters": 8},
        {"type": "combat_lost", "fighter": 0, "helper": None, "players": 8, "monsters": 8},
        *(
            {"type": "run", "seat": 0, "monster": 1, "mode": "roll", "roll": r, "modifier": m,
             "total": r + m, "escaped": r + m >= 5}
            for r, m in ((5, 0), (2, 0), (4, 1), (4, -1))
        ),
        {"type": "run", "seat": 0, "monster": 1, "mode": "escape", "roll": None, "modifier": 0,
         "total": None, "escaped": True},
        {"type": "run", "seat": 0, "monster": 1, "mode": "caught", "roll": None, "modifier": 0,
         "total": None, "escaped": False},
        {"type": "combat_end", "result": "won", "fighter": 0, "helper": None, "caught": []},
        {"type": "combat_end", "result": "fled", "fighter": 0, "helper": None, "caught": []},
        {"type": "combat_end", "result": "fled", "fighter": 0, "helper": 1,
         "caught": [{"seat": 0, "monster": 1}, {"seat": 1, "monster": 1}]},
        {"type": "combat_end", "result": "cancelled", "fighter": 0, "helper": None, "caught": []},
        {"type": "game_over", "winners": [0]},
        {"type": "game_over", "winners": [0, 1]},
    ]  # fmt: skip


EVENT_TYPES = {
    "level", "gear", "sex", "race", "half_breed", "power", "sell", "death", "roll",
    "phase", "turn", "fight", "monster", "twin", "enhancer", "monster_removed", "bonus",
    "helper", "run_bonus", "combat_won", "combat_lost", "run", "combat_end", "game_over",
}  # fmt: skip


def test_the_samples_cover_every_event_type_the_rules_document_lists():
    assert {e["type"] for e in _event_samples()} == EVENT_TYPES
    documented = (REPO / "docs" / "rules" / "munchkin.md").read_text(encoding="utf-8")
    events_section = documented.split("Events (all dicts with a `type`):")[1]
    listed = set(re.findall(r"`([a-z_]+)`", events_section))
    assert EVENT_TYPES <= listed


def test_a_game_played_through_the_engine_has_a_sentence_for_every_event():
    """A scripted table: every event the engine actually emits reads as a sentence."""
    state = ENGINE.new_state(["Anna", "Bruno", "Carla"], {}, seed=7)
    script = [
        {"type": "roll"},
        {"type": "sex", "seat": 0, "sex": "female"},
        {"type": "level", "seat": 0, "delta": 3},
        {"type": "gear", "seat": 0, "delta": 2},
        {"type": "add_race", "seat": 0, "race": "changeling"},
        {"type": "half_breed", "seat": 0},
        {"type": "add_race", "seat": 0, "race": "vampire"},
        {"type": "add_power", "seat": 0, "name": "Bite", "rank": 3},
        {"type": "remove_race", "seat": 0, "race": "vampire"},
        {"type": "add_power", "seat": 1, "name": "Howl", "rank": 1},
        {"type": "remove_power", "seat": 1, "index": 0},
        {"type": "sell", "seat": 0, "gold": 1500},
        {"type": "fight", "seat": 0, "monster": {"name": "Ghoul", "level": 20}},
        {"type": "helper", "seat": 1},
        {"type": "helper", "seat": 2},
        {"type": "helper", "seat": None},
        {"type": "add_monster", "monster": {"level": 2}},
        {"type": "evil_twin", "monster": 1},
        {"type": "enhance", "monster": 1, "value": 5, "name": "Ancient"},
        {"type": "remove_monster", "monster": 2},
        {"type": "bonus", "side": "players", "value": 2},
        {"type": "resolve"},
        {"type": "run_bonus", "seat": 0, "delta": 1},
        {"type": "run", "seat": 0, "monster": 1, "mode": "roll"},
        {"type": "run", "seat": 0, "monster": 3, "mode": "caught"},
        {"type": "next_phase"},
        {"type": "remove_race", "seat": 0, "race": "changeling"},
        {"type": "level", "seat": 0, "delta": -3},
        {"type": "die", "seat": 0},
        {"type": "next_phase"},
        {"type": "end_turn"},
        {"type": "fight", "seat": 1, "monster": {"level": 1}},
        {"type": "cancel_combat"},
        {"type": "level", "seat": 2, "delta": 8},
        {"type": "fight", "seat": 2, "monster": {"level": 1}},
        {"type": "resolve"},
    ]
    seen: set[str] = set()
    for payload in script:
        result = ENGINE.apply(state, ENGINE.parse_action(payload), 0)
        state = result.state
        for event in result.events:
            seen.add(event["type"])
            for language in ("en", "it"):
                with translation.override(language):
                    line = PRESENTER.describe(event, state, {})
                assert line and "%(" not in line, (language, event)
    assert seen <= EVENT_TYPES
    assert len(seen) >= 22, EVENT_TYPES - seen


@pytest.mark.parametrize("language", ["en", "it"])
def test_every_event_has_a_history_sentence(language):
    state = ENGINE.new_state(["Anna", "Bruno", "Carla"], {}, seed=1)
    names = {0: "Anna", 1: "Bruno", 2: "Carla"}
    with translation.override(language):
        lines = [PRESENTER.describe(e, state, names) for e in _event_samples()]
    for event, line in zip(_event_samples(), lines, strict=True):
        assert line, event
        assert "%(" not in line and "?" not in line, line
    assert len(set(lines)) == len(lines)  # every variant reads differently


def test_history_sentences_are_italian_in_italian():
    state = ENGINE.new_state(["Anna", "Bruno", "Carla"], {}, seed=1)
    names = {0: "Anna", 1: "Bruno", 2: "Carla"}
    with translation.override("en"):
        english = [PRESENTER.describe(e, state, names) for e in _event_samples()]
    with translation.override("it"):
        italian = [PRESENTER.describe(e, state, names) for e in _event_samples()]
    same = [en for en, it in zip(english, italian, strict=True) if en == it]
    assert same == []
    with translation.override("it"):
        assert (
            PRESENTER.describe(
                {"type": "level", "seat": 0, "from": 3, "to": 4, "why": "kill"}, state, names
            )
            == "Anna sale al livello 4 (ha ucciso un mostro)."
        )


def test_a_renamed_seat_is_named_in_the_history():
    state = ENGINE.new_state(["Anna", "Bruno", "Carla"], {}, seed=1)
    line = PRESENTER.describe({"type": "death", "seat": 1, "gear_lost": 0}, state, {1: "Bea"})
    assert line == "Bea dies."
    assert PRESENTER.describe({"type": "death", "seat": 2, "gear_lost": 0}, state, {}) == (
        "Carla dies."
    )


def _italian_entries() -> list[tuple[str, str]]:
    """(msgid, msgstr) of the Italian catalog entries used by Munchkin files."""
    po = (REPO / "locale" / "it" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    found = []
    for block in po.split("\n\n"):
        if "munchkin" not in block or block.startswith("#~"):
            continue
        strings = re.findall(r'^msg(id|str(?:\[\d\])?) "(.*)"((?:\n".*")*)', block, re.M)
        texts = {
            kind: first + "".join(re.findall(r'"(.*)"', rest)) for kind, first, rest in strings
        }
        found.append((texts.get("id", ""), " ".join(v for k, v in texts.items() if k != "id")))
    return found


def test_the_munchkin_strings_are_in_the_italian_catalog():
    entries = dict(_italian_entries())
    assert len(entries) > 100
    assert entries["Kick open the door"] == "Aprire la porta"
    assert all(entries.values())


@pytest.mark.skipif(not seeds_available(), reason="rulebook seeds not available")
def test_no_italian_munchkin_string_copies_the_rulebook():
    copied = {msgid: copied_runs(text) for msgid, text in _italian_entries()}
    assert {msgid: runs for msgid, runs in copied.items() if runs} == {}

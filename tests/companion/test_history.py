"""The history: each entry is worded from its row and from the part of the state its
game's sentences read (``Presenter.history_state``), so a live table words and
renders again only the entries that changed after a tap, and the words are the
same as from the whole state."""

from __future__ import annotations

import pytest

from companion import fragments, services
from companion.rendering import SHARED, render_part
from companion.selectors import HistoryEntry, Wording, history, undone_versions, viewer_for
from games.views import presenter_for, presenters
from tests.conftest import next_key, phone, shot

pytestmark = pytest.mark.django_db


def words_with_the_whole_state(session) -> list[tuple[str, ...]]:
    """The history's sentences as the game words them from the whole state."""
    presenter = presenter_for(session.game)
    names = {seat.index: seat.name for seat in session.seats.all()}
    rows = session.actions.order_by("-version")
    whole = (
        tuple(presenter.describe(event, session.state, names) for event in row.events)
        for row in rows
    )
    return [tuple(line for line in lines if line) for lines in whole]


def words_of_the_history(session) -> list[tuple[str, ...]]:
    seats = list(session.seats.all())
    entries = history(session, seats, undone_versions(session), limit=1000)
    return [entry.lines for entry in entries]


def test_after_a_tap_only_the_new_entry_is_worded(make_session, monkeypatch):
    session = make_session()
    for target in ("banshee", "dozer", "banshee"):
        services.submit_action(session, shot("dstructor", target), token="host", key=next_key())
    presenter = presenter_for("adrenaline")
    worded: list[dict] = []
    real = type(presenter).describe

    def counted(self, event, state, names=None):
        worded.append(event)
        return real(self, event, state, names)

    monkeypatch.setattr(type(presenter), "describe", counted)
    store = fragments.Store()

    def live_render() -> str:
        session.refresh_from_db()
        seats = list(session.seats.all())
        viewer = viewer_for(session, seats, "host")
        store.advance()
        return "".join(render_part(SHARED, session, seats, viewer, "en", pieces=store))

    live_render()
    # Every entry, the first time; the two alike (Banshee hit twice) worded once,
    # and the undo button takes the newest entry's words.
    assert [e["target"] for e in worded if e.get("type") == "damage"] == ["banshee", "dozer"]
    services.submit_action(session, shot("dstructor", "dozer"), token="host", key=next_key())
    worded.clear()
    html = live_render()
    # The new entry, worded once for itself and the undo button that names it: not
    # the three before.
    assert [e["target"] for e in worded if e.get("type") == "damage"] == ["dozer"]
    assert html.count("D-struct-OR hits Dozer: 1 damage.") >= 2  # entry and undo label


def test_an_entry_is_kept_by_its_row_and_all_its_wording_reads():
    # The entry's values are what it is kept by: never the whole state, and every
    # name and part of the state its sentences read.
    seen = presenter_for("shazamm").history_state({"names": ["Anna", "Bruno"], "deck": [1]})
    assert seen == {"names": ["Anna", "Bruno"]}

    def key(names: dict, seen: dict) -> bytes:
        entry = HistoryEntry(
            version=1,
            seat_name="Anna",
            events=({"type": "nothing"},),
            wording=Wording("shazamm", seen, names),
            undone=False,
            is_undo=False,
            undoes=None,
        )
        return fragments.key_of("companion/partials/history_entry.html", {"entry": entry}, "en")

    same = key({0: "Anna"}, seen)
    assert key({0: "Anna"}, dict(seen)) == same
    assert key({0: "Anne"}, seen) != same
    assert key({0: "Anna"}, {"names": ["Anna", "Bea"]}) != same


def test_an_entry_keyed_by_its_own_pickle_is_told_apart_from_every_other_piece():
    # An entry pickles itself once and its piece's key holds that pickle: the same
    # entry is the same piece, and nothing else (another name for it, the pickle
    # itself as a value, one more value, another template or language) is.
    def made(undone: bool = False) -> HistoryEntry:
        return HistoryEntry(
            version=1,
            seat_name="Anna",
            events=({"type": "nothing"},),
            wording=Wording("shazamm", {"names": ["Anna"]}, {0: "Anna"}),
            undone=undone,
            is_undo=False,
            undoes=None,
        )

    template = "companion/partials/history_entry.html"
    entry = made()
    key = fragments.key_of(template, {"entry": entry}, "en")
    assert fragments.key_of(template, {"entry": made()}, "en") == key
    others = [
        fragments.key_of(template, {"entry": made(undone=True)}, "en"),
        fragments.key_of(template, {"item": entry}, "en"),
        fragments.key_of(template, {"entry": entry.pickled()}, "en"),
        fragments.key_of(template, {"entry": entry, "more": 1}, "en"),
        fragments.key_of("companion/partials/other.html", {"entry": entry}, "en"),
        fragments.key_of(template, {"entry": entry}, "it"),
    ]
    assert key not in others and len(set(others)) == len(others)


def test_a_kept_rows_entry_is_made_again_when_its_names_or_its_undoing_change(make_session):
    # A live table keeps its log's rows from one tap to the next, and with them their
    # entries: the same entry (its key pickled once) while nothing it shows changed,
    # a new one with a new key when a player is renamed or the action is undone.
    session = make_session()
    services.submit_action(session, shot("dstructor", "dozer"), token="host", key=next_key())
    seats = list(session.seats.all())
    rows = list(session.actions.order_by("-version"))

    def entry(seats, undone=frozenset()) -> HistoryEntry:
        return history(session, seats, set(undone), rows=rows)[0]

    def key(entry: HistoryEntry) -> bytes:
        return fragments.key_of("companion/partials/history_entry.html", {"entry": entry}, "en")

    first = entry(seats)
    assert entry(list(session.seats.all())) is first
    undone = entry(seats, {first.version})
    assert undone is not first and undone.undone and key(undone) != key(first)
    seats[0].name = "Zed"  # the shooter's player, renamed
    renamed = entry(seats)
    assert renamed is not first and key(renamed) != key(first)
    assert renamed.wording.names[0] == "Zed" != first.wording.names[0]


@pytest.mark.parametrize("game", [p.slug for p in presenters()])
def test_every_game_declares_what_its_history_reads(game):
    assert callable(getattr(presenter_for(game), "history_state", None))


def test_adrenaline_words_moves_on_the_map_and_hits_as_from_the_whole_state(catalogs):
    session = services.create_session(
        game="adrenaline",
        seat_names=["Anna", "Bruno", "Carla"],
        options={"characters": ["dozer", "banshee", "violet"], "board": "small"},
        host_token="host",
    )
    services.submit_action(session, shot("dozer", "banshee"), token="host", key=next_key())
    services.submit_action(
        session,
        {"type": "move", "player": "banshee", "square": "1-1"},
        token="host",
        key=next_key(),
    )
    session.refresh_from_db()
    words = words_of_the_history(session)
    assert words == words_with_the_whole_state(session)
    assert any("red room" in line for lines in words for line in lines)


def test_kablamo_words_the_tables_own_bullets_as_from_the_whole_state(catalogs):
    from companion.models import GameSession

    anna = phone("anna")
    response = anna.post("/new/kablamo/", {"name_0": "Anna", "name_1": "Bruno"})
    code = response["Location"].rstrip("/").rsplit("/", 1)[1]
    for fields in (
        {"type": "add_bullet", "name": "Speed Load", "number": "12", "kind": "action"},
        {"type": "loaded", "seat": "0"},
        {"type": "loaded", "seat": "1"},
    ):
        answer = anna.post(f"/s/{code}/act", {"key": next_key(), **fields}, HTTP_HX_REQUEST="true")
        assert answer.status_code == 200, answer.content.decode()[:300]
    session = GameSession.objects.get(code=code)
    words = words_of_the_history(session)
    assert words == words_with_the_whole_state(session)
    assert any("Speed Load, number 12" in line for lines in words for line in lines)


def test_the_log_read_for_a_session_leaves_out_what_was_recorded_after_it(make_session):
    # A table rendering one revision reads the log as it was then: a tap (or an undo)
    # recorded since must wait for its own revision, not slip into this one.
    from companion.models import GameSession
    from companion.selectors import log_tail

    session = make_session()
    first = services.submit_action(
        session, shot("dstructor", "dozer"), token="host", key=next_key()
    )
    earlier = GameSession.objects.get(pk=session.pk)
    services.submit_action(session, shot("dstructor", "banshee"), token="host", key=next_key())
    services.undo(earlier, token="host", key=next_key())
    tail = log_tail(earlier)
    assert [row.version for row in tail.recent] == [first.action.version]
    assert tail.undone == frozenset()
    assert undone_versions(GameSession.objects.get(pk=session.pk)) == {2}

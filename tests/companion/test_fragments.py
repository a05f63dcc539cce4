"""Pieces rendered from their values alone: the values are the key, so a changed
value always re-renders, and a table keeps only what its last revision used."""

from __future__ import annotations

import pytest
from django.template import engines
from django.utils import translation

from companion import fragments
from companion.rendering import PERSONAL, SHARED, Cuts, cut, render_frames, render_part
from companion.selectors import viewer_for
from tests.conftest import next_key, shot
from tests.support.pieces import rendered_pieces

pytestmark = pytest.mark.django_db

ENTRY = "companion/partials/history_entry.html"


def entry(version: int, line: str) -> dict:
    return {
        "version": version,
        "seat_name": "Anna",
        "lines": (line,),
        "undone": False,
        "is_undo": False,
        "undoes": None,
    }


def test_the_same_values_are_rendered_once_and_a_changed_value_again(monkeypatch):
    renders = rendered_pieces(monkeypatch)
    store = fragments.Store()
    with fragments.using(store, "en"):
        first = fragments.render(ENTRY, {"entry": entry(1, "Banshee hits Dozer")})
        again = fragments.render(ENTRY, {"entry": entry(1, "Banshee hits Dozer")})
        changed = fragments.render(ENTRY, {"entry": entry(1, "Banshee hits Violet")})
        undone = {**entry(1, "Banshee hits Dozer"), "undone": True}
        english = fragments.render(ENTRY, {"entry": undone})
    with fragments.using(store, "it"):  # an Italian phone's part, same table
        italian = fragments.render(ENTRY, {"entry": undone})
    assert first == again and len(renders) == 4
    assert "Violet" in changed and "Violet" not in first
    assert italian != english  # the language is in the key
    assert "annullat" in italian.lower()  # rendered in Italian, kept apart


def test_a_piece_switched_to_another_language_inside_a_part_is_refused_not_kept():
    """The part's language is in every piece's key: a piece rendered while another
    language is active would be kept, and later sent, as the part's. It is refused
    at its render, before anything is kept."""
    store = fragments.Store()
    with fragments.using(store, "en"), translation.override("it"):
        with pytest.raises(fragments.LanguageSwitched):
            fragments.render(ENTRY, {"entry": entry(1, "one")})
    assert not store.current


def pieces_in(settings, tmp_path, **files: str) -> None:
    """Jinja2 pieces written for the test, found before the project's."""
    folder = tmp_path / "pieces"
    folder.mkdir()
    for name, text in files.items():
        (folder / name.replace("_html", ".html")).write_text(text)
    django, jinja = settings.TEMPLATES
    settings.TEMPLATES = [django, {**jinja, "DIRS": [folder, *jinja["DIRS"]]}]


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_live_parts_messages_come_from_its_languages_catalog_as_djangos_do(
    settings, tmp_path, monkeypatch, language
):
    # A revision's pieces translate dozens of messages: inside a live part they are
    # looked up in the part's catalog directly, not through Django's search for the
    # active language each time, and read exactly as Django's own gettext gives them.
    from config import jinja

    pieces_in(
        settings,
        tmp_path,
        said_html='<p>{{ _("Your board") }} · {% trans n=count %}{{ n }} power-up'
        "{% pluralize %}{{ n }} power-ups{% endtrans %}</p>",
    )
    fragments.template.cache_clear()
    with translation.override(language):
        by_django = fragments.render("said.html", {"count": 2})
        one = fragments.render("said.html", {"count": 1})

    def asked(*args: object) -> str:
        raise AssertionError("Django was asked for the active language")

    monkeypatch.setattr(jinja.translation, "gettext", asked)
    monkeypatch.setattr(jinja.translation, "ngettext", asked)
    with fragments.using(fragments.Store(), language):
        live = fragments.render("said.html", {"count": 2})
        live_one = fragments.render("said.html", {"count": 1})
    fragments.template.cache_clear()
    assert (live, live_one) == (by_django, one)
    assert ("La tua plancia" in live) == (language == "it")
    assert "2 power-ups" in live if language == "en" else "power-up" not in live


def test_a_table_keeps_only_what_its_last_revision_used():
    store = fragments.Store()
    with fragments.using(store, "en"):
        fragments.render(ENTRY, {"entry": entry(1, "one")})
        store.advance()
        fragments.render(ENTRY, {"entry": entry(2, "two")})
        store.advance()
    assert len(store.previous) == 1 and not store.current  # "one" is gone


def test_live_frames_with_and_without_the_store_are_the_same(make_session):
    session = make_session()
    services_post = __import__("companion.services", fromlist=["submit_action"])
    services_post.submit_action(session, shot("dstructor", "dozer"), token="host", key=next_key())
    session.refresh_from_db()
    seats = list(session.seats.all())
    viewer = viewer_for(session, seats, "host")
    plain = render_frames(session, viewer, language="en", seats=seats)
    store = fragments.Store()

    def kept() -> str:
        return "".join(
            "".join(render_part(part, session, seats, viewer, "en", pieces=store))
            for part in (PERSONAL, SHARED)
        )

    cold, warm = kept(), kept()
    assert cold == warm
    # A live table's renders mark the pieces that can be sent alone; what it sends
    # (the frame cut in fragments, markers stripped) is the plain render.
    assert fragments.OPEN in cold and fragments.OPEN not in plain
    sent = [piece.html for piece in cut(plain)]
    assert [piece.html for piece in cut(cold)] == sent
    assert store.current  # pieces were kept
    # As a live table cuts it, the shared part chunk by chunk: the same fragments.
    cuts = Cuts()
    for _ in range(2):
        live = [
            cuts.chunks(render_part(part, session, seats, viewer, "en", None, store))
            for part in (PERSONAL, SHARED)
        ]
        assert [piece.html for frame in live for piece in frame] == sent
        store.advance()
        cuts.advance()


def test_a_piece_of_a_full_page_gets_its_csrf_input_and_keys(make_session):
    from tests.conftest import phone

    session = make_session()
    page = phone("host").get(f"/s/{session.code}/").content.decode()
    board = page[page.index('id="player-dozer"') :]
    board = board[: board.index("</article>")]
    assert 'name="csrfmiddlewaretoken"' in board
    assert 'name="key" value=""' not in board


def test_a_piece_reused_whole_keeps_the_pieces_nested_in_it(settings, tmp_path, monkeypatch):
    # An unchanged player board is reused whole, so its gear panel is not looked
    # up; when the board then changes, the unchanged panel must still be there.
    pieces_in(
        settings,
        tmp_path,
        outer_html='<b>{{ n }}</b>{{ fragment("inner.html", m=m) }}',
        inner_html="<i>{{ m }}</i>",
    )
    renders = rendered_pieces(monkeypatch)
    store = fragments.Store()
    with fragments.using(store, "en"):
        fragments.render("outer.html", {"n": 1, "m": "gear"})
        for _ in range(3):  # revisions where the board does not change
            store.advance()
            fragments.render("outer.html", {"n": 1, "m": "gear"})
        store.advance()
        html = fragments.render("outer.html", {"n": 2, "m": "gear"})  # a damage
    assert "<i>gear</i>" in html and "<b>2</b>" in html
    assert renders == ["outer.html", "inner.html", "outer.html"]  # the panel once


def piece_of_a_page(source: str, **values) -> str:
    return engines["jinja2"].from_string(source).render(values)


def test_a_pieces_values_are_named():
    # A value without a name would never reach the piece (nor its key).
    with pytest.raises(TypeError):
        piece_of_a_page("{{ fragment(name, e) }}", name=ENTRY, e=entry(3, "x"))


def test_a_piece_is_named_and_given_its_values_by_the_template_around_it():
    html = piece_of_a_page(
        "{{ fragment(name, entry=e) }}|{{ fragment(name, entry=other) }}",
        name=ENTRY,
        e=entry(3, "Banshee hits Dozer"),
        other=entry(4, "Sprog"),
    )
    first, second = html.split("|")
    assert 'id="history-3"' in first and "Banshee hits Dozer" in first
    assert 'id="history-4"' in second and "Sprog" in second


def test_pieces_of_a_list_in_a_live_table_are_kept_one_by_one(monkeypatch):
    # A new item at the top renders that item alone; the others come from the store.
    renders = rendered_pieces(monkeypatch)
    source = (
        "{% call pieces() %}{% for entry in entries %}"
        "{{ fragment(name, entry=entry) }}{% endfor %}{% endcall %}"
    )
    store = fragments.Store()
    older = [entry(2, "two"), entry(1, "one")]
    with fragments.using(store, "en"):
        piece_of_a_page(source, name=ENTRY, entries=older)
        store.advance()
        html = piece_of_a_page(source, name=ENTRY, entries=[entry(3, "three"), *older])
    assert len(renders) == 3  # two, one, then three alone
    assert [html.index(f'id="history-{n}"') for n in (3, 2, 1)] == sorted(
        html.index(f'id="history-{n}"') for n in (3, 2, 1)
    )
    assert fragments.OPEN in html  # each entry can be sent alone


def test_a_template_edited_under_the_development_server_is_rendered_as_edited(settings, tmp_path):
    # Pieces' templates are found once per process; the autoreloader's word that a
    # file changed makes them found again, as Django's own cached loader does.
    from pathlib import Path

    from django.utils.autoreload import file_changed

    settings.DEBUG = True  # the development server's: Jinja2 checks a file it is asked for
    pieces_in(settings, tmp_path, edited_html="<p>{{ n }} before</p>")
    piece = tmp_path / "pieces" / "edited.html"
    assert fragments.render("edited.html", {"n": 1}) == "<p>1 before</p>"
    piece.write_text("<p>{{ n }} after</p>")
    assert fragments.render("edited.html", {"n": 1}) == "<p>1 before</p>"  # found once
    file_changed.send(sender=None, file_path=Path(piece))
    assert fragments.render("edited.html", {"n": 1}) == "<p>1 after</p>"


def _board_of(name: str, damage: list[str]) -> dict:
    """A Derived's function: plain values from its inputs alone."""
    _board_of.made.append(name)  # type: ignore[attr-defined]
    return {"name": name, "damage": len(damage)}


_board_of.made = []  # type: ignore[attr-defined]


def _other_board_of(name: str, damage: list[str]) -> dict:
    return {"name": name.upper(), "damage": -len(damage)}


def test_a_derived_piece_is_kept_by_its_inputs_and_its_values_made_only_to_render_it(
    settings, tmp_path, monkeypatch
):
    """A board's values worked out from the player's state (``Derived``): while the
    state is the same the store has the board, and the values are not even made;
    a changed input makes and renders them again, and so does another function
    of the same inputs (the function is in the key)."""
    pieces_in(settings, tmp_path, board_html="<b>{{ p.name }}: {{ p['damage'] }}</b>")
    renders = rendered_pieces(monkeypatch)
    _board_of.made.clear()  # type: ignore[attr-defined]
    store = fragments.Store()
    with fragments.using(store, "en"):
        first = fragments.render("board.html", {"p": fragments.Derived(_board_of, "Dozer", ["a"])})
        for _ in range(3):  # taps that leave Dozer's state as it was
            store.advance()
            again = fragments.render(
                "board.html", {"p": fragments.Derived(_board_of, "Dozer", ["a"])}
            )
        store.advance()
        hit = fragments.render(
            "board.html", {"p": fragments.Derived(_board_of, "Dozer", ["a", "b"])}
        )
        other = fragments.render(
            "board.html", {"p": fragments.Derived(_other_board_of, "Dozer", ["a", "b"])}
        )
    assert first == again == "<b>Dozer: 1</b>" and hit == "<b>Dozer: 2</b>"
    assert other == "<b>DOZER: -2</b>"
    assert _board_of.made == ["Dozer", "Dozer"]  # type: ignore[attr-defined]
    assert renders == ["board.html", "board.html", "board.html"]


def test_a_derived_shows_only_its_values_and_pickles_as_its_function_and_inputs():
    import pickle

    board = fragments.Derived(_board_of, "Dozer", ["a"])
    again = pickle.loads(pickle.dumps(board))  # its function and inputs: their values
    assert again == board._built() == {"name": "Dozer", "damage": 1}
    assert pickle.dumps(board) != pickle.dumps(fragments.Derived(_board_of, "Dozer", ["b"]))
    with pytest.raises(AttributeError):
        board.missing  # noqa: B018 (a name the values do not have)
    with pytest.raises(AttributeError):
        board._secret  # noqa: B018 (the object's own names are never the values')
    assert board.name == board["name"] == "Dozer"


def test_a_live_parts_urls_follow_the_script_prefix_in_force_as_it_starts(make_session):
    """Behind a proxy that serves the app under a path, every URL a live part
    writes carries it: the prefix in force when the part starts (read once there),
    and the next part reads it again."""
    from django.urls import get_script_prefix, set_script_prefix

    session = make_session()
    seats = list(session.seats.all())
    viewer = viewer_for(session, seats, "host")
    before = get_script_prefix()
    try:
        for prefix in ("/table/", "/"):
            set_script_prefix(prefix)
            store = fragments.Store()
            with fragments.using(store, "en"):  # as a live table renders its parts
                html = "".join(render_part(SHARED, session, seats, viewer, "en", pieces=store))
            assert f'hx-post="{prefix}s/{session.code}/act"' in html
            assert html.count("/table/s/") == (html.count("/s/") if prefix == "/table/" else 0)
    finally:
        set_script_prefix(before)

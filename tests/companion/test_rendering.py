"""Live frames rendered once per change: the caches never show one viewer another's frame."""

from __future__ import annotations

import pickle
from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.safestring import SafeString
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import rendering, services
from companion.fragments import marked
from companion.models import GameSession
from companion.selectors import viewer_for
from companion.tasks import close_abandoned_sessions
from tests.conftest import make_duel, next_key, phone, shot

pytestmark = pytest.mark.django_db


def _sit_everyone(session) -> list[str]:
    tokens = [f"phone-{i}" for i in range(len(session.seats.all()))]
    for index, token in enumerate(tokens):
        services.claim_seat(session, index, token)
    return tokens


def _frame(session, token: str, language: str = "en", *, spectator: bool = False) -> str:
    session.refresh_from_db()
    seats = list(session.seats.all())
    viewer = viewer_for(session, seats, token, spectator=spectator)
    return rendering.render_frames(session, viewer, language=language, seats=seats)


def _keys(session, token: str, *, spectator: bool = False):
    session.refresh_from_db()
    viewer = viewer_for(session, list(session.seats.all()), token, spectator=spectator)
    return rendering.part_keys(session, viewer, "en")


def test_seated_phones_share_the_board_unless_each_edits_only_their_own(make_session):
    shared = make_session()
    tokens = _sit_everyone(shared)
    assert len({_keys(shared, t).shared for t in tokens}) == 1
    assert len({_keys(shared, t).personal for t in tokens}) == len(tokens)
    own = make_session(policy="own")
    tokens = [f"own-{i}" for i in range(3)]
    for index, token in enumerate(tokens):
        services.claim_seat(own, index, token)
    assert len({_keys(own, t).shared for t in tokens}) == len(tokens)
    frames = {_frame(own, t) for t in tokens}
    assert len(frames) == len(tokens)


def test_a_seat_bound_game_renders_the_board_per_seat_derived_from_the_engine(catalogs):
    duel = make_duel(seed=0)
    watcher = _keys(duel, "", spectator=True)
    assert len({_keys(duel, "anna").shared, _keys(duel, "marco").shared, watcher.shared}) == 3


def test_the_board_follows_the_language_and_the_damage(make_session):
    session = make_session()
    tokens = _sit_everyone(session)
    english = _frame(session, tokens[1], "en")
    italian = _frame(session, tokens[1], "it")
    assert english != italian and "What happened" in english and "What happened" not in italian
    services.submit_action(session, shot("dstructor", "dozer", 2), token=tokens[0], key=next_key())
    after = _frame(session, tokens[1], "en")
    assert 'data-damage="2"' in after
    assert GameSession.objects.get(pk=session.pk).version == 1


def test_the_pick_up_list_escapes_every_weapon_name_it_writes(make_session, monkeypatch):
    # The <option>s reach the board as a plain string marked safe where it is
    # written (a SafeString in every board's key pickles four times slower): each
    # name is escaped when the list is built.
    from games.adrenaline import views

    monkeypatch.setattr(views, "_PICKUP_OPTIONS", {})
    monkeypatch.setattr(
        views, "weapons_by_name", lambda: [("odd", '<b>"Odd" & Co</b>'), ("zx-2", "ZX-2")]
    )
    session = make_session()
    tokens = _sit_everyone(session)
    frame = _frame(session, tokens[1], "en")
    assert '<option value="odd">&lt;b&gt;&quot;Odd&quot; &amp; Co&lt;/b&gt;</option>' in frame
    assert '<option value="zx-2">ZX-2</option>' in frame and "<b>" not in frame


def test_an_adrenaline_frame_stays_one_byte_a_character_in_both_languages(make_session):
    """Its typography (dashes, arrows, ellipses) is written as character references:
    one character past Latin-1 anywhere makes CPython keep all of a live part, and
    every piece and cut a table keeps of it, at two bytes a character (measured in
    benchmarks/README.md, issue 15, eighth pass). A phone reads the same text."""
    session = make_session()
    tokens = _sit_everyone(session)
    draw = {"type": "powerup", "player": "banshee", "op": "draw", "kind": "tagback"}
    services.submit_action(session, {**draw, "colour": "red"}, token=tokens[1], key=next_key())
    services.submit_action(
        session, shot("dstructor", "banshee", 2), token=tokens[0], key=next_key()
    )
    for language in ("en", "it"):
        for token in tokens[:2]:
            frame = _frame(session, token, language)
            assert "&mdash;" in frame and "&rarr;" in frame and "&hellip;" in frame
            assert max(frame) <= "\xff", sorted({c for c in frame if c > "\xff"})


def test_a_munchkin_fight_frame_stays_one_byte_a_character_in_both_languages():
    """Munchkin's menus and steppers write their signs in ASCII (``signed``) or as
    ``&minus;``, its ellipses as ``&hellip;``: a fight, its menus open, is one byte
    a character in English and Italian."""
    from tests.games.munchkin.test_munchkin_views import Phone, table

    session = table(seed=3)
    anna = Phone(session)
    anna.tap("data-fight", **{"monster__name": "Ghoul", "monster__level": "9"})
    anna.tap("data-set-helper", seat="2")
    for language in ("en", "it"):
        frame = _frame(session, "anna", language)
        assert 'value="-1">-1</option>' in frame and "&minus;" in frame and "&hellip;" in frame
        assert max(frame) <= "\xff", sorted({c for c in frame if c > "\xff"})


def test_a_shazamm_duel_frame_stays_one_byte_a_character_in_both_languages():
    """Shazamm!'s waiting lines write their ellipses as ``&hellip;`` (msgids too): a
    duel with one mage locked in is one byte a character for both seats."""
    session = make_duel(seed=3)
    services.claim_seat(session, 1, "marco")
    lock = {"type": "lock", "bid": 5, "spells": [], "clone": None}
    services.submit_action(session, lock, token="anna", key=next_key())
    for language in ("en", "it"):
        anna, marco = (_frame(session, token, language) for token in ("anna", "marco"))
        assert "&hellip;" in anna and "&hellip;" in marco
        for frame in (anna, marco):
            assert max(frame) <= "\xff", sorted({c for c in frame if c > "\xff"})


def test_a_full_page_makes_its_own_keys_and_csrf_input(make_session):
    session = make_session()
    tokens = _sit_everyone(session)
    _frame(session, tokens[0])  # a live frame leaves its keys empty
    client = phone(tokens[0])
    first = client.get(f"/s/{session.code}/").content.decode()
    second = client.get(f"/s/{session.code}/").content.decode()
    # Server-made one-time keys and a CSRF input in every form of the page.
    assert 'name="key" value=""' not in first
    assert 'name="csrfmiddlewaretoken"' in first
    keys = lambda html: [part.split('"')[0] for part in html.split('name="key" value="')[1:]]  # noqa: E731
    assert keys(first) and set(keys(first)).isdisjoint(keys(second))


def test_a_frame_splits_into_its_fragments_in_order():
    html = (
        '<div id="status" hx-swap-oob="true" data-version="3"></div>\n'
        '<section id="board" class="x" hx-swap-oob="true"><p data-id="no">a</p></section>'
        '<article hx-swap-oob="true" id="player-1"><b>1</b></article>'
    )
    pieces = rendering.fragments(html)
    assert [ident for ident, _ in pieces] == ["status", "board", "player-1"]
    # The blank between two fragments is neither's: each is the same HTML alone.
    assert "".join(piece for _, piece in pieces) == html.replace("</div>\n", "</div>")
    assert [rendering.fragments(piece) for _, piece in pieces] == [(p,) for p in pieces]


def _same(a: rendering.Frame, b: rendering.Frame) -> None:
    assert [(p.ident, p.html, p.digest, p.skeleton, p.nested) for p in a] == [
        (p.ident, p.html, p.digest, p.skeleton, p.nested) for p in b
    ]


def test_a_part_cut_as_its_template_writes_it_is_the_part_cut_whole(monkeypatch):
    # A live table cuts the shared part chunk by chunk: a board the store kept is
    # one chunk, found by the object; the text between (status, history) is read.
    track = marked('<p id="track-1" data-piece>3</p>')
    board = SafeString(f'  <article hx-swap-oob="true" id="player-1"><b>1</b>{track}</article>\n')
    chunks = [
        '<div id="status" hx-swap-oob="true">',
        "7",
        "</div>\n",
        board,
        "\n",
        SafeString('<section id="map" hx-swap-oob="true">m</section>'),
        '<section id="history" hx-swap-oob="true">h</section>',
    ]
    cuts = rendering.Cuts()
    first = cuts.chunks(chunks)
    _same(first, rendering.cut("".join(chunks)))
    assert [p.ident for p in first] == ["status", "player-1", "map", "history"]
    assert first[1].nested[0].ident == "track-1"
    # The next revision: the status changed, the board is the same object, not read.
    cuts.advance()
    read = []
    split = rendering._split
    monkeypatch.setattr(rendering, "_split", lambda html: read.append(html) or split(html))
    chunks[1] = "8"
    second = cuts.chunks(chunks)
    assert read and not any("player-1" in html for html in read)
    _same(second, rendering.cut("".join(chunks)))
    assert second[1] is first[1] and second[2] is first[2]


def test_text_after_a_kept_chunk_is_its_fragment_s_as_in_the_part_cut_whole():
    # Whatever follows a fragment up to the next one is that fragment's: a chunk
    # followed by more than blank is cut with it, as the whole part would be.
    chunks = [
        SafeString('<div id="a" hx-swap-oob="true">1</div>'),
        "<p>2</p>\n",
        '<div id="b" hx-swap-oob="true">3</div>',
    ]
    frame = rendering.Cuts().chunks(chunks)
    _same(frame, rendering.cut("".join(chunks)))
    assert frame[0].html == '<div id="a" hx-swap-oob="true">1</div><p>2</p>'
    # Text before the first fragment: not a frame of fragments, one piece, sent whole.
    chunks.insert(0, "stray")
    (whole,) = rendering.Cuts().chunks(chunks)
    assert whole.ident == "" and whole.html == "".join(chunks)


def test_only_changed_fragments_are_sent_again():
    shown = rendering.Shown()
    first = '<div id="a" hx-swap-oob="true">1</div><div id="b" hx-swap-oob="true">2</div>'
    cut = rendering.cut
    assert shown.everything(cut(first)) == first
    assert shown.changes(cut(first)) == ""
    changed = first.replace(">2<", ">3<")
    assert shown.changes(cut(changed)) == '<div id="b" hx-swap-oob="true">3</div>'
    assert shown.changes(cut("plain text")) == "plain text"  # not fragments: always sent


def test_renaming_a_seat_shows_on_the_boards_at_once(make_session):
    session = make_session()
    tokens = _sit_everyone(session)
    before = _frame(session, tokens[1])
    services.rename_seat(session, 2, "Zorro", "host")
    frame = _frame(session, tokens[1])
    assert "Zorro" in dict(rendering.fragments(frame))["player-dozer"]
    assert "Zorro" not in before


def test_a_board_names_who_damaged_and_marked_it_by_their_seat_as_the_history_does(
    make_session,
):
    session = make_session()
    tokens = _sit_everyone(session)
    services.rename_seat(session, 0, "Anna", "host")
    services.submit_action(
        session, shot("dstructor", "dozer", 2, 1), token=tokens[0], key=next_key()
    )
    frame = _frame(session, tokens[1])
    board = dict(rendering.fragments(frame))["player-dozer"]
    assert board.count('<span class="sr-only">Anna</span>') == 2  # two damage tokens
    assert "from Anna" in board
    assert "D-struct-OR" not in board
    assert "Anna hits Dozer" in frame  # the history's words for the same shot
    services.rename_seat(session, 0, "Bea", "host")
    renamed = dict(rendering.fragments(_frame(session, tokens[1])))["player-dozer"]
    assert "from Bea" in renamed and "Anna" not in renamed
    services.rename_seat(session, 0, "<b>Cy</b>", "host")  # a name is text, never markup
    marked = dict(rendering.fragments(_frame(session, tokens[1])))["player-dozer"]
    assert "from &lt;b&gt;Cy&lt;/b&gt;" in marked and "<b>Cy" not in marked


def test_every_change_a_phone_sees_bumps_the_revision(make_session):
    # Also what a tap worked out on the revision a table knows relies on
    # (services._submit_known): the revision moves with every change of the row or
    # its seats, so "still at revision R" means "the same row and seats".
    session = make_session()
    revisions = [GameSession.objects.get(pk=session.pk).revision]
    for change in (
        lambda: services.claim_seat(session, 0, "phone-0"),
        lambda: services.rename_seat(session, 1, "Bianca", "host"),
        lambda: services.submit_action(
            session, shot("dstructor", "dozer"), token="host", key=next_key()
        ),
        lambda: services.undo(session, token="host", key=next_key()),
        lambda: services.set_edit_policy(session, "own", "host"),
        lambda: services.free_seat(session, 0, "host"),
        lambda: services.end_session(session, "host"),
    ):
        change()
        revisions.append(GameSession.objects.get(pk=session.pk).revision)
    assert revisions == sorted(set(revisions)), revisions
    # A session nobody touched for long is closed by a task, not by a phone.
    idle = make_session()
    GameSession.objects.filter(pk=idle.pk).update(updated_at=timezone.now() - timedelta(days=30))
    assert close_abandoned_sessions() == 1
    assert GameSession.objects.get(pk=idle.pk).revision == idle.revision + 1


def test_a_board_shared_by_every_seat_never_sees_whose_phone_it_is(make_session, monkeypatch):
    # Safe by construction: a part rendered once for all seats is rendered for a
    # viewer without a seat, token or host flag, so a game's board cannot put
    # "you" (or anything else personal) into HTML other phones are sent.
    from games.adrenaline.views import PRESENTER

    session = make_session()
    tokens = _sit_everyone(session)
    seen = []
    real = PRESENTER.context

    def spying(session, view, viewer, seats, can_edit, last_events):
        seen.append(viewer)
        return real(session, view, viewer, seats, can_edit, last_events)

    monkeypatch.setattr(PRESENTER, "context", spying)
    frames = [_frame(session, token) for token in tokens]
    assert seen and all(v.seat is None and not v.token and not v.is_host for v in seen)
    assert all(v.can_act for v in seen)  # seated phones may still act
    shared = [f[f.index('id="board"') :] for f in frames]
    assert len(set(shared)) == 1  # every seat is sent the same board
    # Where each seat edits only its own board, the board is per seat and knows it.
    seen.clear()
    GameSession.objects.filter(pk=session.pk).update(edit_policy="own")
    _frame(session, tokens[1])
    assert seen[-1].seat == 1


def _live_frame(session, token: str, store) -> rendering.Frame:
    """What a live table cuts for one phone (with its store of pieces)."""
    session.refresh_from_db()
    seats = list(session.seats.all())
    viewer = viewer_for(session, seats, token)
    return tuple(
        piece
        for part in (rendering.PERSONAL, rendering.SHARED)
        for piece in rendering.cut(
            "".join(rendering.render_part(part, session, seats, viewer, "en", pieces=store))
        )
    )


def test_after_a_hit_a_phone_is_sent_the_damage_track_not_the_whole_board(make_session):
    from companion.fragments import Store

    session = make_session()
    tokens = _sit_everyone(session)
    store, shown = Store(), rendering.Shown()
    shown.everything(_live_frame(session, tokens[1], store))
    services.submit_action(session, shot("dstructor", "dozer", 2), token="host", key=next_key())
    store.advance()
    update = shown.changes(_live_frame(session, tokens[1], store))
    sent = dict(rendering.fragments(update))
    # Dozer's track goes alone, marked to be swapped in place; the board around it,
    # the gear and the other boards are not sent again.
    assert 'id="core-dozer"' in sent["core-dozer"] and 'data-damage="2"' in sent["core-dozer"]
    assert 'hx-swap-oob="true"' in sent["core-dozer"]
    assert "player-dozer" not in sent and "gear-dozer" not in sent
    assert not any(ident.startswith(("player-", "gear-")) for ident in sent)
    assert "history" in sent and "status" in sent
    # What the phone then holds is what a fresh page shows.
    assert 'data-damage="2"' in _frame(session, tokens[1])


def test_after_a_hit_only_the_hit_players_board_is_worked_out_again(make_session, monkeypatch):
    """A live table finds an unchanged board by its player's state: after a hit on
    Dozer, only Dozer's board values are made (the other four come from the store,
    their values never made), and the phone still gets exactly what a page shows."""
    from companion.fragments import Store
    from games.adrenaline import views

    made: list[str] = []
    hand = views._hand

    def counted(player: dict) -> tuple:
        made.append(player["character"])
        return hand(player)

    monkeypatch.setattr(views, "_hand", counted)  # called once per board made
    session = make_session()
    tokens = _sit_everyone(session)
    store, shown = Store(), rendering.Shown()
    shown.everything(_live_frame(session, tokens[1], store))
    everyone = [player["character"] for player in session.state["players"]]
    assert sorted(made) == sorted(everyone) and "dozer" in everyone  # the first frame: all
    made.clear()
    services.submit_action(session, shot("dstructor", "dozer", 2), token="host", key=next_key())
    store.advance()
    update = shown.changes(_live_frame(session, tokens[1], store))
    assert made == ["dozer"]
    assert 'data-damage="2"' in dict(rendering.fragments(update))["core-dozer"]


def test_when_the_board_around_a_piece_changes_the_whole_board_is_sent(make_session):
    from companion.fragments import Store

    session = make_session()
    tokens = _sit_everyone(session)
    store, shown = Store(), rendering.Shown()
    shown.everything(_live_frame(session, tokens[1], store))
    # The turn passes: the boards' own classes change (who is playing), so each
    # changed board is sent whole, with its pieces, never a piece alone.
    services.submit_action(session, {"type": "end_turn"}, token="host", key=next_key())
    store.advance()
    sent = dict(rendering.fragments(shown.changes(_live_frame(session, tokens[1], store))))
    boards = [ident for ident in sent if ident.startswith("player-")]
    assert boards, sorted(sent)
    for ident in boards:
        slug = ident.removeprefix("player-")
        assert f'id="core-{slug}"' in sent[ident] and f'id="gear-{slug}"' in sent[ident]
        assert f"core-{slug}" not in sent  # not twice
    assert "<!--piece" not in "".join(sent.values())
    assert "<!--/piece-->" not in "".join(sent.values())


def test_paying_a_cube_sends_that_players_cubes_not_their_weapons(make_session):
    from companion.fragments import Store

    session = make_session()
    tokens = _sit_everyone(session)
    store, shown = Store(), rendering.Shown()
    shown.everything(_live_frame(session, tokens[1], store))
    services.submit_action(
        session,
        {"type": "adjust", "player": "dozer", "field": "red", "delta": -1},
        token="host",
        key=next_key(),
    )
    store.advance()
    sent = dict(rendering.fragments(shown.changes(_live_frame(session, tokens[1], store))))
    # Pieces nested two deep (board → gear → cubes) go alone too.
    assert set(sent) >= {"ammo-dozer", "gear-sum-dozer"}
    assert '<output aria-label="red">0</output>' in sent["ammo-dozer"]
    assert "Cubes 0/1/1" in sent["gear-sum-dozer"]
    assert not {"player-dozer", "gear-dozer", "weapons-dozer", "powerups-dozer"} & set(sent)


def test_a_table_cuts_only_the_fragments_that_changed_and_forgets_old_ones():
    cuts = rendering.Cuts()
    first = '<div id="a" hx-swap-oob="true">1</div><div id="b" hx-swap-oob="true">2</div>'
    a1, b1 = rendering.cut(first, cuts)
    cuts.advance()
    a2, b2 = rendering.cut(first.replace(">2<", ">3<"), cuts)
    assert a2 is a1 and b2 is not b1 and "3" in b2.html  # "a" was not cut again
    cuts.advance()
    kept = {html for kept_here in cuts.previous for html in kept_here}
    assert b1.html not in kept and b2.html in kept  # "2" is gone


def test_a_fragment_that_changed_reuses_the_nested_pieces_that_did_not():
    cuts = rendering.Cuts()

    def history(*items: str) -> str:
        entries = "".join(marked(f'<li id="e{i}" data-piece>{i}</li>') for i in items)
        return f'<ol id="h" hx-swap-oob="true">{entries}</ol>'

    (first,) = rendering.cut(history("2", "1"), cuts)
    cuts.advance()
    (second,) = rendering.cut(history("3", "2", "1"), cuts)
    assert second is not first
    assert second.nested[1] is first.nested[0] and second.nested[2] is first.nested[1]


def test_a_cube_paid_by_the_shooter_leaves_the_shot_helper_alone_unless_a_scope_needs_it(
    make_session, monkeypatch
):
    """The shot helper is rendered again only when what it shows changes: the
    shooter's cubes show in it only as the colours a Targeting Scope can be paid
    with (a cube paid is the commonest tap; the helper is the costliest piece)."""
    from companion.fragments import Store
    from tests.support.pieces import rendered_pieces

    rendered = rendered_pieces(monkeypatch)
    session = make_session()
    tokens = _sit_everyone(session)
    store, shown = Store(), rendering.Shown()
    shown.everything(_live_frame(session, tokens[1], store))

    def act(action: dict) -> dict[str, str]:
        services.submit_action(session, action, token="host", key=next_key())
        store.advance()
        rendered.clear()
        return dict(rendering.fragments(shown.changes(_live_frame(session, tokens[1], store))))

    def pay(delta: int) -> dict[str, str]:
        return act({"type": "adjust", "player": "dstructor", "field": "red", "delta": delta})

    sent = pay(-1)  # D-struct-OR, on turn, holds no scope
    assert "ammo-dstructor" in sent
    assert "adrenaline/ammo.html" in rendered and "adrenaline/tools.html" not in rendered
    act({"type": "powerup", "player": "dstructor", "op": "draw", "kind": "scope", "colour": "blue"})
    sent = pay(1)  # now a red cube can pay for the scope: the helper offers it
    assert "adrenaline/tools.html" in rendered
    assert '<option value="red">' in sent["shot-tool"]
    sent = pay(-1)
    assert '<option value="red">' not in sent["shot-tool"]
    assert '<option value="blue">' in sent["shot-tool"]


# ---------------------------------------------------------------- feeds (the history)


def _feed(items: list[str], title: str = "What happened", length: int = 3) -> rendering.Frame:
    """A history-like fragment cut as a live table cuts it: a list of pieces."""
    entries = "".join(marked(f'<li id="e{i}" data-piece>{i}</li>') for i in items)
    return rendering.cut(
        f'<section id="h" hx-swap-oob="true"><h2>{title}</h2>'
        f'<ol id="h-list" data-feed="{length}">{entries}</ol></section>'
    )


def test_a_nested_piece_is_found_by_the_length_its_marker_gives():
    # The cut jumps over a nested piece by the length its opening marker carries
    # (pieces inside it included), and refuses a piece that does not close there.
    inner = marked('<b id="in" data-piece>1</b>')
    outer = marked(f'<p id="out" data-piece>{inner} and more</p>')
    (piece,) = rendering.cut(f'<div id="w" hx-swap-oob="true">{outer}</div>')
    assert [p.ident for p in piece.nested] == ["out"]
    assert [p.ident for p in piece.nested[0].nested] == ["in"]
    assert piece.html == (
        '<div id="w" hx-swap-oob="true"><p id="out" data-piece>'
        '<b id="in" data-piece>1</b> and more</p></div>'
    )
    with pytest.raises(ValueError):
        rendering.cut('<div id="w" hx-swap-oob="true"><!--piece 3-->abcdef<!--/piece--></div>')


def test_a_phones_part_kept_by_the_store_is_cut_once_while_it_is_the_same(monkeypatch):
    cuts = rendering.Cuts()
    part = SafeString('<section id="seats" hx-swap-oob="true"><p>Anna</p></section>')
    first = cuts.chunks([part])
    read: list[str] = []
    monkeypatch.setattr(rendering, "_split", lambda html: read.append(html) or ())
    cuts.advance()
    assert cuts.chunks([part]) == first  # not read again
    assert read == []
    monkeypatch.undo()
    other = SafeString(str(part))  # the same HTML, another object: read again
    assert other is not part
    assert cuts.chunks([other]) == first


def test_a_new_entry_of_a_feed_is_sent_alone_to_go_at_the_top():
    shown = rendering.Shown()
    shown.everything(_feed(["2", "1"]))
    update = shown.changes(_feed(["3", "2", "1"]))
    assert update == '<div hx-swap-oob="afterbegin:#h-list"><li id="e3" data-piece>3</li></div>'
    # Past its length the oldest goes (the phone drops it too): still only the new one.
    update = shown.changes(_feed(["5", "4", "3"]))
    assert update == (
        '<div hx-swap-oob="afterbegin:#h-list">'
        '<li id="e5" data-piece>5</li><li id="e4" data-piece>4</li></div>'
    )
    assert shown.changes(_feed(["5", "4", "3"])) == ""  # nothing new: nothing sent


def test_a_new_entry_and_a_changed_one_go_together():
    shown = rendering.Shown()
    shown.everything(_feed(["2", "1"]))
    frame = rendering.cut(
        '<section id="h" hx-swap-oob="true"><h2>What happened</h2><ol id="h-list" data-feed="3">'
        + marked('<li id="e3" data-piece>undo 2</li>')
        + marked('<li id="e2" class="undone" data-piece>2</li>')
        + marked('<li id="e1" data-piece>1</li>')
        + "</ol></section>"
    )
    update = shown.changes(frame)
    assert update.startswith('<div hx-swap-oob="afterbegin:#h-list"><li id="e3"')
    assert '<li id="e2" class="undone" data-piece hx-swap-oob="true">2</li>' in update
    assert 'id="e1"' not in update


@pytest.mark.parametrize(
    "after",
    [
        ["1", "2"],  # the order changed
        ["2"],  # an entry went without a new one
        ["3", "1"],  # one in the middle went
    ],
)
def test_a_feed_that_did_not_just_grow_at_the_top_is_sent_whole(after):
    shown = rendering.Shown()
    shown.everything(_feed(["2", "1"]))
    update = shown.changes(_feed(after))
    assert update.startswith('<section id="h" hx-swap-oob="true">')


def test_a_feed_whose_list_around_the_entries_changed_is_sent_whole():
    shown = rendering.Shown()
    shown.everything(_feed(["2", "1"]))
    update = shown.changes(_feed(["3", "2", "1"], title="Cosa è successo"))
    assert update.startswith('<section id="h" hx-swap-oob="true">')


def test_after_a_tap_the_history_sends_only_its_new_entry(make_session):
    from companion.fragments import Store

    session = make_session()
    tokens = _sit_everyone(session)
    services.submit_action(session, shot("dstructor", "dozer"), token="host", key=next_key())
    store, shown = Store(), rendering.Shown()
    full = "".join(p.html for p in _live_frame(session, tokens[1], store))
    assert 'id="history-list" data-feed="15"' in full
    shown.everything(_live_frame(session, tokens[1], store))
    services.submit_action(session, shot("dstructor", "banshee"), token="host", key=next_key())
    store.advance()
    update = shown.changes(_live_frame(session, tokens[1], store))
    assert 'id="history"' not in update and 'id="history-1"' not in update
    top = update[update.index('<div hx-swap-oob="afterbegin:#history-list">') :]
    assert top.count("<li") == 1 and 'id="history-2"' in top
    assert "D-struct-OR hits Banshee: 1 damage." in top


def test_a_piece_key_names_one_of_the_five_characters_by_slug_and_any_other_in_full():
    """A piece's key pickles its values: the five Adrenaline characters as their
    slugs, and a character that only shares a slug with one of them (another name,
    another colour) whole, so its board can never be taken for the other's."""
    from companion.fragments import key_of
    from games.adrenaline.views import CHARACTERS, Character

    dozer = CHARACTERS["dozer"]
    lookalike = Character("dozer", "Not Dozer", "green", "green")
    assert pickle.loads(pickle.dumps(dozer)) is dozer
    assert pickle.loads(pickle.dumps(lookalike)) == lookalike
    assert len(pickle.dumps(dozer)) < len(pickle.dumps(lookalike))
    template = "adrenaline/hit.html"
    assert key_of(template, {"who": dozer}, "en") != key_of(template, {"who": lookalike}, "en")


def _table_html(board: tuple[int, int, str], history: list[str], title: str) -> str:
    """A frame as a live table renders it: a status line, a board with two nested
    players (and a line of its own), a history feed."""
    one, two, line = board
    players = "".join(
        marked(f'<div id="p{i}" data-piece>damage {d}</div>') for i, d in ((1, one), (2, two))
    )
    entries = "".join(marked(f'<li id="e{i}" data-piece>{i}</li>') for i in history)
    return (
        f'<p id="status" hx-swap-oob="true">{title}</p>'
        f'<section id="board" hx-swap-oob="true"><h2>{line}</h2>{players}</section>'
        f'<section id="h" hx-swap-oob="true"><ol id="h-list" data-feed="3">{entries}</ol></section>'
    )


_revision = st.tuples(
    st.tuples(st.integers(0, 2), st.integers(0, 2), st.sampled_from(["Board", "Tavola"])),
    st.lists(st.sampled_from("12345"), max_size=3, unique=True),
    st.sampled_from(["Turn 1", "Turn 2"]),
)


@settings(max_examples=150, deadline=None)
@given(
    revisions=st.lists(_revision, min_size=1, max_size=8),
    joins=st.lists(st.integers(0, 7), min_size=1, max_size=4),
    full=st.sets(st.integers(0, 7), max_size=2),
)
def test_phones_sharing_their_tables_fragments_are_sent_what_each_would_be_sent_alone(
    revisions, joins, full
):
    # The table's phones share each revision's fragments (cut once, with the table's
    # cuts) and so the answers worked out on them; each phone, joined at its own
    # revision and sent everything again now and then (a reconnect), must be sent
    # exactly what it would be sent working everything out alone on its own copy.
    cuts = rendering.Cuts()
    phones = [(join, rendering.Shown(), rendering.Shown()) for join in joins]
    for number, revision in enumerate(revisions):
        html = _table_html(*revision)
        cuts.advance()
        shared = rendering.cut(html, cuts)
        for join, together, alone in phones:
            if number < join:
                continue
            own = rendering.cut(html)  # new pieces: nothing worked out on them yet
            if number == join or number in full:
                assert together.everything(shared) == alone.everything(own)
            else:
                assert together.changes(shared) == alone.changes(own)
            assert together.sent == alone.sent


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_hostile_seat_name_is_escaped_in_every_live_frame_kept_pieces_or_fresh(
    make_session, language
):
    # A live table writes a value through its own escape and keeps pieces (with
    # their marked copies) from one revision to the next: a seat named like markup
    # is written as text at every revision, and what the kept pieces make is what a
    # table rendering everything afresh makes.
    from companion.fragments import Store

    session = make_session()
    tokens = _sit_everyone(session)
    session.seats.filter(index=2).update(name='<script>alert("Dozer")</script>')

    def frame(store: Store) -> dict[str, str]:
        session.refresh_from_db()
        seats = list(session.seats.all())
        viewer = viewer_for(session, seats, tokens[1])
        return {
            piece.ident: piece.html
            for part in (rendering.PERSONAL, rendering.SHARED)
            for piece in rendering.cut(
                "".join(rendering.render_part(part, session, seats, viewer, language, pieces=store))
            )
        }

    kept = Store()
    first = frame(kept)
    services.submit_action(session, shot("dstructor", "dozer", 2), token="host", key=next_key())
    kept.advance()
    second = frame(kept)
    for html in ("".join(first.values()), "".join(second.values())):
        assert "<script>" not in html
        assert "&lt;script&gt;alert(&#34;Dozer&#34;)&lt;/script&gt;" in html
    assert second == frame(Store())

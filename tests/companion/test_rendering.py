"""Live frames rendered once per change: the caches never show one viewer another's frame."""

from __future__ import annotations

import pytest

from companion import rendering, services
from companion.models import GameSession
from tests.conftest import next_key, phone, shot

pytestmark = pytest.mark.django_db


def _sit_everyone(session) -> list[str]:
    tokens = [f"phone-{i}" for i in range(len(session.seats.all()))]
    for index, token in enumerate(tokens):
        services.claim_seat(session, index, token)
    return tokens


def test_primed_frames_match_frames_read_afresh(make_session, django_capture_on_commit_callbacks):
    session = make_session(policy="own")
    tokens = _sit_everyone(session)
    woken: list[tuple[str, str]] = []
    for token in tokens:
        listener = rendering.Listener(
            token, False, "en", wake=lambda stamp, token=token: woken.append((token, stamp))
        )
        rendering.socket_opened(session.pk, token, listener)
    try:
        stamps: list[str] = []
        real_prime = rendering.prime

        def spy(session, seats, stamp, row=None):
            stamps.append(stamp)
            real_prime(session, seats, stamp, row)

        rendering.prime = spy
        try:
            with django_capture_on_commit_callbacks(execute=True):
                services.submit_action(
                    session, shot("dstructor", "dozer"), token=tokens[0], key=next_key()
                )
        finally:
            rendering.prime = real_prime
        (stamp,) = stamps
        # Every socket of this process is told of the change directly, once.
        assert sorted(woken) == sorted((token, stamp) for token in tokens)
        for token in tokens:
            primed = rendering.cached_frames(session.pk, token, language="en", stamp=stamp)
            fresh = rendering.socket_frames(session.pk, token, language="en")
            assert primed == fresh
        # Each seat edits only its own board: the frames differ per seat.
        frames = {
            rendering.cached_frames(session.pk, t, language="en", stamp=stamp) for t in tokens
        }
        assert len(frames) == len(tokens)
    finally:
        for token in tokens:
            rendering.socket_closed(session.pk, token)


def test_a_memoised_board_follows_the_language_and_the_damage(make_session):
    session = make_session()
    tokens = _sit_everyone(session)
    english = rendering.socket_frames(session.pk, tokens[1], language="en")
    italian = rendering.socket_frames(session.pk, tokens[1], language="it")
    assert english != italian and "What happened" in english and "What happened" not in italian
    services.submit_action(session, shot("dstructor", "dozer", 2), token=tokens[0], key=next_key())
    after = rendering.socket_frames(session.pk, tokens[1], language="en")
    assert 'data-damage="2"' in after
    assert GameSession.objects.get(pk=session.pk).version == 1


def test_a_full_page_is_never_served_from_the_memo(make_session):
    session = make_session()
    tokens = _sit_everyone(session)
    rendering.socket_frames(session.pk, tokens[0], language="en")  # fills the memo
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
    assert "".join(piece for _, piece in pieces) == html


def test_only_changed_fragments_are_sent_again():
    shown = rendering.Shown()
    first = '<div id="a" hx-swap-oob="true">1</div><div id="b" hx-swap-oob="true">2</div>'
    assert shown.everything(first) == first
    assert shown.changes(first) == ""
    assert shown.changes(first.replace(">2<", ">3<")) == '<div id="b" hx-swap-oob="true">3</div>'
    assert shown.changes("plain text") == "plain text"  # not fragments: always sent


def test_renaming_a_seat_shows_on_the_boards_at_once(make_session):
    # A rename changes no version: the cached board must still follow it.
    session = make_session()
    tokens = _sit_everyone(session)
    rendering.socket_frames(session.pk, tokens[1], language="en")  # cache the board
    services.rename_seat(session, 2, "Zorro", "host")
    frame = rendering.socket_frames(session.pk, tokens[1], language="en")
    board = dict(rendering.fragments(frame))["player-dozer"]
    assert "Zorro" in board


def test_a_reused_personal_part_carries_each_new_version(make_session):
    session = make_session()
    tokens = _sit_everyone(session)
    first = rendering.socket_frames(session.pk, tokens[1], language="en")
    assert 'data-version="0"' in first
    for version in (1, 2):
        services.submit_action(session, shot("dstructor", "dozer"), token=tokens[0], key=next_key())
        frame = rendering.socket_frames(session.pk, tokens[1], language="en")
        assert f'data-version="{version}"' in frame and "\x00" not in frame
        assert (
            dict(rendering.fragments(frame))["seats"] == dict(rendering.fragments(first))["seats"]
        )

"""Two phones entering the same hit: the second is asked before it applies.

At a real table with "anyone edits", the shooter and the target both reach for
their phones. The phone that had not yet seen the first entry is told who recorded
it and what, and applies it only if the player says "record it again"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from companion import services
from companion.models import Action, GameSession
from tests.companion.test_socket_taps import answer_to, open_socket, seated, stored, tap
from tests.conftest import make_duel, phone
from tests.support.forms import form_values

HIT = {
    "type": "shot",
    "shooter": "dstructor",
    "hits.0.target": "dozer",
    "hits.0.damage": "2",
    "hits.0.marks": "1",
}


def post_hit(client, code: str, key: str, **extra: str):
    return client.post(f"/s/{code}/act", {**HIT, "key": key, **extra}, HTTP_HX_REQUEST="true")


def dozer(session: GameSession) -> tuple[int, int]:
    session.refresh_from_db()
    board = session.state["players"][2]
    return len(board["damage"]), sum(board["marks"].values())


@pytest.fixture
def table(make_session):
    session = make_session()
    services.claim_seat(session, 0, "anna")
    services.claim_seat(session, 1, "bruno")
    services.rename_seat(session, 1, "Bruno", "bruno")
    return session


@pytest.mark.django_db
def test_the_second_phone_is_asked_who_recorded_it_and_nothing_changes(table):
    assert post_hit(phone("bruno"), table.code, "b-1", seen="0").status_code == 200
    assert dozer(table) == (2, 1)

    response = post_hit(phone("anna"), table.code, "a-1", seen="0")
    body = response.content.decode()
    assert response.status_code == 409
    assert "Bruno just recorded this: D-struct-OR hits Dozer: 2 damage, 1 mark." in body
    assert "Record it again?" in body
    assert dozer(table) == (2, 1) and table.version == 1

    # The button sends the same hit again, with a fresh key and "again".
    again = dict(form_values(body))
    assert again["again"] == "1" and again["key"] == "" and "seen" not in again
    assert {k: again[k] for k in HIT} == HIT
    assert post_hit(phone("anna"), table.code, "a-2", again="1", seen="0").status_code == 200
    assert dozer(table) == (5, 1)  # 2 + 2, the first hit's mark turned into 1 more


@pytest.mark.django_db
def test_a_phone_that_saw_the_first_hit_is_not_asked(table):
    post_hit(phone("bruno"), table.code, "b-1", seen="0")
    assert post_hit(phone("anna"), table.code, "a-1", seen="1").status_code == 200
    assert dozer(table) == (5, 1)


@pytest.mark.django_db
def test_a_phone_repeating_its_own_hit_is_not_asked(table):
    # Two quick taps on the same phone: it knows it sent both.
    post_hit(phone("anna"), table.code, "a-1", seen="0")
    assert post_hit(phone("anna"), table.code, "a-2", seen="0").status_code == 200
    assert dozer(table) == (5, 1)


@pytest.mark.django_db
def test_a_different_hit_or_an_old_one_or_an_undone_one_is_not_asked(table):
    post_hit(phone("bruno"), table.code, "b-1", seen="0")
    other = post_hit(phone("anna"), table.code, "a-1", seen="0", **{"hits.0.damage": "1"})
    assert other.status_code == 200  # not the same hit

    Action.objects.filter(session=table).update(created_at=timezone.now() - timedelta(seconds=30))
    assert post_hit(phone("anna"), table.code, "a-2", seen="0").status_code == 200  # long ago

    services.undo(table, token="bruno", key="u-1")  # Bruno takes his (only) hit back…
    table.refresh_from_db()
    before = table.version
    post_hit(phone("bruno"), table.code, "b-2", seen=str(before))
    services.undo(table, token="bruno", key="u-2")
    assert post_hit(phone("anna"), table.code, "a-3", seen=str(before)).status_code == 200


@pytest.mark.django_db
def test_a_malformed_seen_version_is_refused_and_changes_nothing(table):
    response = post_hit(phone("anna"), table.code, "a-1", seen="1e9")
    assert response.status_code == 400 and "seen" in response.content.decode()
    assert dozer(table) == (0, 0)


@pytest.mark.django_db(transaction=True)
async def test_on_the_socket_the_refusal_carries_the_button_in_the_phones_language(make_session):
    session = await seated(make_session, "anna", "bruno")
    await sync_to_async(services.rename_seat)(session, 1, "Bruno", "bruno")
    bruno = await open_socket(session.code, "bruno")
    anna = await open_socket(session.code, "anna", lang="it")
    path = f"/s/{session.code}/act"
    await bruno.send_to(text_data=tap(path, {**HIT, "key": "b-1", "seen": "0"}))
    assert (await answer_to(bruno))["type"] == "done"
    await anna.send_to(text_data=tap(path, {**HIT, "key": "a-1", "seen": "0"}))
    answer = await answer_to(anna)
    assert answer["type"] == "refused" and answer["status"] == 409
    assert "Bruno" in answer["html"] and "data-again" in answer["html"]
    assert "Registralo di nuovo" in answer["html"]
    assert (await stored(session)).version == 1
    await anna.disconnect()
    await bruno.disconnect()


@pytest.mark.django_db
def test_with_hidden_cards_a_same_secret_move_is_never_compared_or_told():
    """Two mages locking in the same bid must not learn it from a "just recorded"."""
    duel = make_duel()
    lock = {"type": "lock", "bid": "5", "seen": "0"}
    first = phone("anna").post(
        f"/s/{duel.code}/act", {**lock, "key": "a-1"}, HTTP_HX_REQUEST="true"
    )
    assert first.status_code == 200
    second = phone("marco").post(
        f"/s/{duel.code}/act", {**lock, "key": "m-1"}, HTTP_HX_REQUEST="true"
    )
    body = second.content.decode()
    assert second.status_code == 200 and "just recorded" not in body
    duel.refresh_from_db()
    assert duel.version == 2

"""The action pipeline: apply, idempotency, undo, seats and who may edit."""

from __future__ import annotations

import pytest

from companion import services
from companion.errors import Conflict, Forbidden, NotFound
from companion.models import Action
from games.engine import InvalidInput, RuleError
from tests.conftest import next_key, shot

pytestmark = pytest.mark.django_db


def damage_of(session, index: int) -> int:
    session.refresh_from_db()
    return len(session.state["players"][index]["damage"])


def test_a_seated_phone_applies_an_action_and_the_version_moves_on(make_session):
    session = make_session()
    services.claim_seat(session, 1, "phone-b")
    applied = services.submit_action(
        session, shot("dstructor", "dozer", 2), token="phone-b", key=next_key()
    )
    assert applied.created and applied.action.version == 1
    assert damage_of(session, 2) == 2
    assert applied.action.seat == 1
    assert applied.action.events[0]["type"] == "damage"


def test_a_retried_request_with_the_same_key_applies_once(make_session):
    session = make_session()
    first = services.submit_action(session, shot("dstructor", "dozer"), token="host", key="k-1")
    again = services.submit_action(session, shot("dstructor", "dozer"), token="host", key="k-1")
    assert again.created is False and again.action.pk == first.action.pk
    assert damage_of(session, 2) == 1
    assert session.version == 1


def test_a_retry_the_rules_would_now_refuse_still_gets_the_first_result(make_session):
    session = make_session()
    cube = {"type": "adjust", "player": "dstructor", "field": "red", "delta": 1}
    last_key = None
    for _ in range(4):  # up to the most cubes of a colour a player may hold
        key = next_key()
        try:
            services.submit_action(session, cube, token="host", key=key)
        except RuleError:
            break
        last_key = key
    else:
        pytest.fail("no cube limit was reached")
    session.refresh_from_db()
    version = session.version
    again = services.submit_action(session, cube, token="host", key=last_key)
    assert again.created is False and again.action.version == version
    with pytest.raises(RuleError):  # a new tap is still refused
        services.submit_action(session, cube, token="host", key=next_key())


def test_a_retry_the_rules_would_allow_again_is_not_applied_twice(make_session):
    session = make_session()
    end_turn = {"type": "end_turn"}
    first = services.submit_action(session, end_turn, token="host", key="turn-1")
    again = services.submit_action(session, end_turn, token="host", key="turn-1")
    assert again.created is False and again.action.pk == first.action.pk
    session.refresh_from_db()
    assert session.version == 1 and session.state["current"] == 1


def test_undo_puts_the_board_back_and_stays_in_the_history(make_session):
    session = make_session()
    services.submit_action(session, shot("dstructor", "dozer", 2), token="host", key=next_key())
    services.submit_action(session, shot("dstructor", "banshee", 1), token="host", key=next_key())
    services.undo(session, token="host", key=next_key())
    session.refresh_from_db()
    assert len(session.state["players"][1]["damage"]) == 0
    assert len(session.state["players"][2]["damage"]) == 2
    services.undo(session, token="host", key=next_key())
    assert damage_of(session, 2) == 0
    kinds = list(session.actions.values_list("kind", "undoes"))
    assert kinds == [("game", None), ("game", None), ("undo", 2), ("undo", 1)]
    with pytest.raises(Conflict):
        services.undo(session, token="host", key=next_key())


def test_an_undo_aimed_at_an_action_that_is_no_longer_the_last_is_refused(make_session):
    session = make_session()
    first = services.submit_action(
        session, shot("dstructor", "dozer"), token="host", key=next_key()
    )
    services.submit_action(session, shot("dstructor", "banshee"), token="host", key=next_key())
    with pytest.raises(Conflict):
        services.undo(session, token="host", key=next_key(), expected=first.action.version)
    assert damage_of(session, 1) == 1


def test_a_phone_without_a_seat_cannot_change_the_game(make_session):
    session = make_session()
    with pytest.raises(Forbidden):
        services.submit_action(
            session, shot("dstructor", "dozer"), token="stranger", key=next_key()
        )
    assert damage_of(session, 2) == 0
    assert not Action.objects.exists()


def test_with_own_board_editing_a_seat_cannot_act_for_another_player(make_session):
    session = make_session(policy="own")
    services.claim_seat(session, 1, "phone-banshee")
    with pytest.raises(Forbidden):
        services.submit_action(
            session, shot("dstructor", "dozer"), token="phone-banshee", key=next_key()
        )
    services.claim_seat(session, 0, "phone-dstructor")
    services.submit_action(
        session, shot("dstructor", "dozer"), token="phone-dstructor", key=next_key()
    )
    assert damage_of(session, 2) == 1


def test_rule_and_input_errors_change_nothing(make_session):
    session = make_session()
    with pytest.raises(InvalidInput):
        services.submit_action(
            session, shot("dstructor", "dozer", 13), token="host", key=next_key()
        )
    with pytest.raises(RuleError):  # not Dozer's turn
        services.submit_action(session, shot("dozer", "banshee"), token="host", key=next_key())
    session.refresh_from_db()
    assert session.version == 0 and not Action.objects.exists()


def test_a_seat_taken_by_one_phone_cannot_be_claimed_by_another(make_session):
    session = make_session()
    services.claim_seat(session, 0, "phone-a")
    with pytest.raises(Conflict):
        services.claim_seat(session, 0, "phone-b")
    # the same phone reclaims its seat after a reload
    assert services.claim_seat(session, 0, "phone-a").holder == "phone-a"
    with pytest.raises(NotFound):
        services.claim_seat(session, 9, "phone-b")


def test_a_phone_moving_to_another_seat_frees_the_first(make_session):
    session = make_session()
    services.claim_seat(session, 0, "phone-a")
    services.claim_seat(session, 1, "phone-a")
    assert services.seat_of(session, "phone-a") == 1
    assert session.seats.get(index=0).is_free


def test_only_the_host_frees_other_seats_renames_and_ends(make_session):
    session = make_session()
    services.claim_seat(session, 0, "phone-a")
    with pytest.raises(Forbidden):
        services.free_seat(session, 0, "phone-b")
    with pytest.raises(Forbidden):
        services.end_session(session, "phone-a")
    services.rename_seat(session, 0, "  Anna   Bianchi ", "phone-a")
    assert session.seats.get(index=0).name == "Anna Bianchi"
    services.free_seat(session, 0, "host")
    assert session.seats.get(index=0).is_free
    services.end_session(session, "host")
    session.refresh_from_db()
    with pytest.raises(Conflict):
        services.submit_action(session, shot("dstructor", "dozer"), token="host", key=next_key())


def test_codes_are_short_unambiguous_and_found_whatever_the_case(make_session):
    session = make_session()
    assert len(session.code) == 5
    assert not set(session.code) & set("0O1IL2Z5S8B")
    assert services.get_session(f" {session.code.lower()} ").pk == session.pk
    with pytest.raises(NotFound):
        services.get_session("NOPE!")


def test_the_player_count_is_checked(db):
    from companion.errors import BadRequest

    with pytest.raises(BadRequest):
        services.create_session(
            game="adrenaline",
            seat_names=["a", "b"],
            options={"characters": ["dozer", "sprog"]},
            host_token="h",
        )
    with pytest.raises(NotFound):
        services.create_session(game="chess", seat_names=["a"], options={}, host_token="h")

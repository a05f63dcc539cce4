"""The shot helper's pre-fill, against what the rulebook's weapon cards say (seed 000):
who takes how much damage and how many marks, by the order the targets are picked."""

from __future__ import annotations

import pytest

from games.adrenaline.views import prefill
from games.models import Card

pytestmark = pytest.mark.django_db


def weapon(slug: str) -> dict:
    return Card.objects.get(game="adrenaline", slug=slug).data


def test_hellion_damages_only_its_target_and_marks_everyone_on_that_square(catalogs):
    # Raggio solare: 1 damage to the target, 1 mark to it and to everyone else there.
    assert prefill(weapon("hellion"), ["basic"], ["dozer", "violet"]) == {
        "dozer": (1, 1),
        "violet": (0, 1),
    }
    # Nano-tracer mode: the same, with 2 marks each.
    assert prefill(weapon("hellion"), ["nano-tracer"], ["dozer", "violet", "sprog"]) == {
        "dozer": (1, 2),
        "violet": (0, 2),
        "sprog": (0, 2),
    }


def test_machine_gun_gives_its_two_extra_damages_to_two_different_targets(catalogs):
    # Focus shot: +1 to one basic target; turret tripod: +1 to the *other* one and/or
    # 1 to a third player. With only two targets each ends on 2 (the card's own note).
    effects = ["basic", "focus-shot", "turret-tripod"]
    assert prefill(weapon("machine-gun"), effects, ["dozer", "violet"]) == {
        "dozer": (2, 0),
        "violet": (2, 0),
    }
    assert prefill(weapon("machine-gun"), effects, ["dozer", "violet", "sprog"]) == {
        "dozer": (2, 0),
        "violet": (2, 0),
        "sprog": (1, 0),
    }


@pytest.mark.parametrize(
    ("slug", "effect"), [("lock-rifle", "second-lock"), ("cyberblade", "slice-and-dice")]
)
def test_optional_effects_are_used_with_the_basic_effect(catalogs, slug, effect):
    # The card-parts rule: an optional effect comes in addition to the basic one.
    found = next(e for e in weapon(slug)["effects"] if e["slug"] == effect)
    assert found["kind"] == "optional" and found["requires"] == "basic"


def test_the_engine_charges_what_the_cards_say(catalogs):
    # The pure engine keeps its own copy of the costs (it reads no files): it must
    # be the catalog's, weapon by weapon and effect by effect.
    from games.adrenaline.rules import EFFECT_COSTS, WEAPONS

    cards = {c.slug: c.data for c in Card.objects.filter(game="adrenaline", kind="weapon")}
    assert set(cards) == set(WEAPONS) == set(EFFECT_COSTS)
    for slug, data in cards.items():
        assert tuple(data["reload_cost"]) == WEAPONS[slug], slug
        assert EFFECT_COSTS[slug] == {
            e["slug"]: tuple(e.get("extra_cost") or ()) for e in data["effects"]
        }, slug

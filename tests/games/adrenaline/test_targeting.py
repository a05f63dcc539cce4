"""Whom each weapon effect can hit: for every effect of the 21 weapons, a legal choice and
an illegal one with its reason, taken from the cards and notes of the weapons manual
(seed 000). Most examples use the small board:

    (0,0)B (0,1)B (0,2)B   .       doors: (0,0)|(1,0)  (0,2)|(1,2)  (1,1)|(2,1)
    (1,0)R (1,1)R (1,2)R (1,3)Y           (1,2)|(1,3)  (2,2)|(2,3)
      .    (2,1)W (2,2)W (2,3)Y

"me" is the shooter. On (1,2) they see blue (north door), red (their room) and yellow
(east door), but not white.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from games.adrenaline.arena import Direction, Square, load_board
from games.adrenaline.targeting import (
    RULES,
    Pick,
    Problem,
    Reason,
    Shot,
    check_targets,
    destinations,
    legal_aims,
    parse_aim,
    rule,
    struck,
    target_options,
)
from tests.support.catalog_data import GameData

N, E, S, W = Direction.NORTH, Direction.EAST, Direction.SOUTH, Direction.WEST


def sq(row: int, col: int) -> Square:
    return Square(row, col)


def shot(
    layout: str,
    *,
    board: str = "small",
    chosen: dict | None = None,
    aims: dict | None = None,
    moved: tuple[int, int] | None = None,
) -> Shot:
    """``shot("me=1,2 ann=0,0 bob=-")``: players and squares ("-": not on the board)."""
    positions: dict[str, Square | None] = {}
    for item in layout.split():
        name, _, where = item.partition("=")
        positions[name] = None if where == "-" else sq(*map(int, where.split(",")))
    return Shot(
        board=load_board(board),
        positions=positions,
        shooter="me",
        shooter_square=sq(*moved) if moved else None,
        chosen=chosen or {},
        aims=aims or {},
    )


@dataclass
class Case:
    weapon: str
    effect: str
    layout: str
    targets: tuple[str, ...]
    problems: list[tuple[str | None, Reason]] = field(default_factory=list)
    aim: object = None
    chosen: dict | None = None
    aims: dict | None = None
    moved: tuple[int, int] | None = None
    why: str = ""

    @property
    def legal(self) -> bool:
        return not self.problems

    def shot(self) -> Shot:
        return shot(self.layout, chosen=self.chosen, aims=self.aims, moved=self.moved)


def ok(weapon, effect, layout, *targets, **options) -> Case:
    return Case(weapon, effect, layout, targets, **options)


def bad(weapon, effect, layout, targets, *problems, **options) -> Case:
    return Case(weapon, effect, layout, tuple(targets), list(problems), **options)


CASES = [
    # Lock Rifle: visible; the second lock on someone else.
    ok("lock-rifle", "basic", "me=1,2 ann=0,0", "ann", why="blue, through my north door"),
    bad("lock-rifle", "basic", "me=1,2 cat=2,1", ["cat"], ("cat", Reason.NOT_VISIBLE)),
    ok("lock-rifle", "second-lock", "me=1,2 ann=0,0 bob=1,3", "bob", chosen={"basic": ["ann"]}),
    bad(
        "lock-rifle",
        "second-lock",
        "me=1,2 ann=0,0",
        ["ann"],
        ("ann", Reason.ALREADY_TARGETED),
        chosen={"basic": ["ann"]},
    ),
    # Machine Gun: one or two visible; focus on a basic target; tripod on the other or a new one.
    ok("machine-gun", "basic", "me=1,2 ann=0,0 bob=1,3", "ann", "bob"),
    bad(
        "machine-gun",
        "basic",
        "me=1,2 ann=0,0 cat=2,1",
        ["ann", "cat"],
        ("cat", Reason.NOT_VISIBLE),
    ),
    bad(
        "machine-gun",
        "basic",
        "me=1,2 ann=0,0 bob=1,3 dan=1,1",
        ["ann", "bob", "dan"],
        (None, Reason.TOO_MANY_TARGETS),
    ),
    ok(
        "machine-gun",
        "focus-shot",
        "me=1,2 ann=0,0 bob=1,3",
        "ann",
        chosen={"basic": ["ann", "bob"]},
    ),
    bad(
        "machine-gun",
        "focus-shot",
        "me=1,2 ann=0,0 bob=1,3 dan=1,1",
        ["dan"],
        ("dan", Reason.NOT_BASIC_TARGET),
        chosen={"basic": ["ann", "bob"]},
    ),
    bad(
        "machine-gun",
        "focus-shot",
        "me=1,2 ann=0,0 bob=1,3",
        ["ann"],
        ("ann", Reason.ALREADY_TARGETED),
        chosen={"basic": ["ann", "bob"], "turret-tripod": ["ann"]},
        why="the two extra damage go to two different players",
    ),
    ok(
        "machine-gun",
        "turret-tripod",
        "me=1,2 ann=0,0 bob=1,3 dan=1,1",
        "bob",
        "dan",
        chosen={"basic": ["ann", "bob"], "focus-shot": ["ann"]},
    ),
    ok(
        "machine-gun",
        "turret-tripod",
        "me=1,2 ann=0,0",
        "ann",
        chosen={"basic": ["ann"]},
        why="shot only one player: the tripod may still add 1 to them",
    ),
    bad(
        "machine-gun",
        "turret-tripod",
        "me=1,2 ann=0,0 bob=1,3",
        ["ann"],
        ("ann", Reason.ALREADY_TARGETED),
        chosen={"basic": ["ann", "bob"], "focus-shot": ["ann"]},
    ),
    bad(
        "machine-gun",
        "turret-tripod",
        "me=1,2 ann=0,0 bob=1,3 dan=1,1 eve=1,0",
        ["dan", "eve"],
        (None, Reason.ONE_OLD_AND_ONE_NEW),
        chosen={"basic": ["ann", "bob"]},
    ),
    # T.H.O.R.: each next target is seen by the previous one, all different.
    ok("thor", "basic", "me=1,3 ann=1,0", "ann"),
    bad("thor", "basic", "me=1,3 bob=0,1", ["bob"], ("bob", Reason.NOT_VISIBLE)),
    ok(
        "thor",
        "chain-reaction",
        "me=1,3 ann=1,0 bob=0,1",
        "bob",
        chosen={"basic": ["ann"]},
        why="I can't see blue from yellow, but ann sees it through her door",
    ),
    bad(
        "thor",
        "chain-reaction",
        "me=1,3 ann=1,0 cat=2,1",
        ["cat"],
        ("cat", Reason.NOT_SEEN_BY_PREVIOUS),
        chosen={"basic": ["ann"]},
    ),
    bad(
        "thor",
        "chain-reaction",
        "me=1,3 ann=1,0",
        ["ann"],
        ("ann", Reason.ALREADY_TARGETED),
        chosen={"basic": ["ann"]},
    ),
    ok(
        "thor",
        "high-voltage",
        "me=1,3 ann=1,0 bob=0,1 dan=0,2",
        "dan",
        chosen={"basic": ["ann"], "chain-reaction": ["bob"]},
    ),
    bad(
        "thor",
        "high-voltage",
        "me=1,3 ann=1,0 bob=0,1 cat=2,1",
        ["cat"],
        ("cat", Reason.NOT_SEEN_BY_PREVIOUS),
        chosen={"basic": ["ann"], "chain-reaction": ["bob"]},
    ),
    bad(
        "thor",
        "high-voltage",
        "me=1,3 ann=0,2 bob=0,1",
        ["ann"],
        ("ann", Reason.ALREADY_TARGETED),
        chosen={"basic": ["ann"], "chain-reaction": ["bob"]},
    ),
    bad(
        "thor",
        "high-voltage",
        "me=1,3 ann=1,0 dan=0,2",
        ["dan"],
        ("dan", Reason.NO_PREVIOUS_TARGET),
        chosen={"basic": ["ann"]},
        why="only after chain reaction",
    ),
    # Plasma Gun: glide first to bring a target into view.
    ok("plasma-gun", "basic", "me=2,1 ann=0,1", "ann", moved=(1, 0), why="after gliding to (1,0)"),
    bad("plasma-gun", "basic", "me=2,1 ann=0,1", ["ann"], ("ann", Reason.NOT_VISIBLE)),
    ok("plasma-gun", "phase-glide", "me=2,1 ann=0,1"),
    bad("plasma-gun", "phase-glide", "me=2,1 ann=0,1", ["ann"], (None, Reason.TOO_MANY_TARGETS)),
    ok("plasma-gun", "charged-shot", "me=1,2 ann=0,0", "ann", chosen={"basic": ["ann"]}),
    bad(
        "plasma-gun",
        "charged-shot",
        "me=1,2 ann=0,0 bob=1,3",
        ["bob"],
        ("bob", Reason.NOT_BASIC_TARGET),
        chosen={"basic": ["ann"]},
    ),
    # Whisper: visible and 2 or more moves away.
    ok("whisper", "basic", "me=1,2 bob=2,3", "bob", why="past the door square, same room"),
    bad(
        "whisper",
        "basic",
        "me=1,2 ann=1,3",
        ["ann"],
        ("ann", Reason.TOO_CLOSE),
        why="just beyond the door",
    ),
    ok("whisper", "basic", "me=0,0 ann=1,1", "ann", why="diagonal in sight through the door"),
    # Electroscythe: everyone else on my square.
    ok("electroscythe", "basic", "me=1,2 dan=1,2", "dan"),
    bad("electroscythe", "basic", "me=1,2 ann=1,3", ["ann"], ("ann", Reason.NOT_ON_YOUR_SQUARE)),
    ok("electroscythe", "reaper", "me=1,2 dan=1,2 eve=1,2", "dan", "eve"),
    bad("electroscythe", "reaper", "me=1,2 ann=1,1", ["ann"], ("ann", Reason.NOT_ON_YOUR_SQUARE)),
    # Tractor Beam: a target out of sight is fine if it can be pulled into sight.
    ok("tractor-beam", "basic", "me=1,2 cat=2,1", "cat", why="white is hidden; (1,1) is in sight"),
    bad(
        "tractor-beam",
        "basic",
        "me=0,1 bob=2,3",
        ["bob"],
        ("bob", Reason.CANNOT_MOVE_INTO_SIGHT),
        why="no blue square within 2 moves of (2,3)",
    ),
    ok("tractor-beam", "punisher", "me=1,2 bob=2,3", "bob"),
    bad("tractor-beam", "punisher", "me=1,2 ann=0,0", ["ann"], ("ann", Reason.TOO_FAR)),
    # Vortex Cannon: a visible vortex other than my square; targets on it or 1 move from it.
    ok(
        "vortex-cannon",
        "basic",
        "me=1,2 cat=2,1",
        "cat",
        aim=sq(1, 1),
        why="cat is 1 move (door) from it",
    ),
    bad(
        "vortex-cannon",
        "basic",
        "me=1,2 ann=0,0",
        ["ann"],
        ("ann", Reason.NOT_NEAR_VORTEX),
        aim=sq(1, 1),
    ),
    bad(
        "vortex-cannon",
        "basic",
        "me=1,2 dan=1,2",
        ["dan"],
        (None, Reason.ILLEGAL_AIM),
        aim=sq(1, 2),
    ),
    bad(
        "vortex-cannon",
        "basic",
        "me=1,2 cat=2,1",
        ["cat"],
        (None, Reason.ILLEGAL_AIM),
        aim=sq(2, 2),
    ),
    ok(
        "vortex-cannon",
        "black-hole",
        "me=1,2 cat=1,1 dan=1,2 eve=1,0",
        "dan",
        "eve",
        chosen={"basic": ["cat"]},
        aims={"basic": sq(1, 1)},
        why="one of them starts on my own square",
    ),
    bad(
        "vortex-cannon",
        "black-hole",
        "me=1,2 cat=1,1",
        ["cat"],
        ("cat", Reason.ALREADY_TARGETED),
        chosen={"basic": ["cat"]},
        aims={"basic": sq(1, 1)},
    ),
    # Furnace: a visible room not mine; or a square exactly 1 away.
    ok("furnace", "basic", "me=1,2 ann=1,3 bob=2,3", "ann", "bob", aim="yellow"),
    bad("furnace", "basic", "me=1,2 cat=2,1", ["cat"], (None, Reason.ILLEGAL_AIM), aim="white"),
    bad("furnace", "basic", "me=1,2 dan=1,0", ["dan"], ("dan", Reason.SAME_ROOM)),
    ok("furnace", "cozy-fire", "me=1,2 ann=1,3", "ann", aim=sq(1, 3)),
    bad("furnace", "cozy-fire", "me=1,2 dan=1,2", ["dan"], ("dan", Reason.ON_YOUR_SQUARE)),
    # Heatseeker: only players out of sight.
    ok("heatseeker", "basic", "me=1,2 cat=2,1", "cat"),
    bad("heatseeker", "basic", "me=1,2 ann=0,0", ["ann"], ("ann", Reason.VISIBLE)),
    # Hellion: visible, not on my square.
    ok("hellion", "basic", "me=1,2 ann=0,2 bob=0,2", "ann"),
    bad("hellion", "basic", "me=1,2 dan=1,2", ["dan"], ("dan", Reason.ON_YOUR_SQUARE)),
    ok("hellion", "nano-tracer", "me=1,2 ann=1,0", "ann", aim=sq(1, 0)),
    bad("hellion", "nano-tracer", "me=1,2 cat=2,1", ["cat"], ("cat", Reason.NOT_VISIBLE)),
    # Flamethrower: 1 or 2 squares in a line through doors, not walls; one target per square.
    ok("flamethrower", "basic", "me=1,2 ann=1,1 bob=1,0", "ann", "bob", aim=W),
    ok("flamethrower", "basic", "me=1,1 bob=1,3", "bob", why="out of sight, through the door"),
    bad(
        "flamethrower",
        "basic",
        "me=1,2 ann=1,1 eve=1,1",
        ["ann", "eve"],
        (None, Reason.SAME_SQUARE),
        aim=W,
    ),
    bad(
        "flamethrower",
        "basic",
        "me=1,2 cat=2,2",
        ["cat"],
        ("cat", Reason.NOT_IN_LINE),
        why="a wall",
    ),
    bad(
        "flamethrower",
        "basic",
        "me=1,2 ann=1,1 bob=0,2",
        ["ann", "bob"],
        (None, Reason.NO_SHARED_AIM),
    ),
    ok("flamethrower", "barbecue", "me=1,1 ann=1,2 bob=1,3", "ann", "bob", aim=E),
    bad("flamethrower", "barbecue", "me=1,1 ann=1,2", ["ann"], (None, Reason.ILLEGAL_AIM), aim=N),
    bad(
        "flamethrower", "barbecue", "me=1,1 dan=1,1", ["dan"], ("dan", Reason.ON_YOUR_SQUARE), aim=E
    ),
    # Grenade Launcher: a visible target; the extra grenade on any visible square.
    ok("grenade-launcher", "basic", "me=1,2 ann=0,0", "ann"),
    bad("grenade-launcher", "basic", "me=1,2 cat=2,1", ["cat"], ("cat", Reason.NOT_VISIBLE)),
    ok(
        "grenade-launcher",
        "extra-grenade",
        "me=1,2 dan=1,2",
        "dan",
        aim=sq(1, 2),
        why="my own square",
    ),
    bad(
        "grenade-launcher",
        "extra-grenade",
        "me=1,2 cat=2,2",
        ["cat"],
        (None, Reason.ILLEGAL_AIM),
        aim=sq(2, 2),
    ),
    # Rocket Launcher: visible, not on my square; the warhead hits the target's square.
    ok("rocket-launcher", "basic", "me=1,2 ann=0,0", "ann"),
    bad("rocket-launcher", "basic", "me=1,2 dan=1,2", ["dan"], ("dan", Reason.ON_YOUR_SQUARE)),
    ok(
        "rocket-launcher", "basic", "me=1,2 dan=1,2", "dan", moved=(1, 3), why="after a rocket jump"
    ),
    ok("rocket-launcher", "rocket-jump", "me=1,2"),
    bad(
        "rocket-launcher", "rocket-jump", "me=1,2 ann=1,3", ["ann"], (None, Reason.TOO_MANY_TARGETS)
    ),
    ok(
        "rocket-launcher",
        "fragmenting-warhead",
        "me=1,2 ann=0,2 bob=0,2",
        "ann",
        "bob",
        chosen={"basic": ["ann"]},
    ),
    bad(
        "rocket-launcher",
        "fragmenting-warhead",
        "me=1,2 ann=0,2 cat=0,1",
        ["cat"],
        ("cat", Reason.NOT_ON_TARGET_SQUARE),
        chosen={"basic": ["ann"]},
    ),
    # Railgun: a cardinal line through walls, my own square included.
    ok("railgun", "basic", "me=0,1 cat=2,1", "cat", aim=S, why="through the wall and the door"),
    ok("railgun", "basic", "me=0,1 dan=0,1", "dan", why="my own square counts"),
    bad("railgun", "basic", "me=0,1 bob=1,3", ["bob"], ("bob", Reason.NOT_IN_LINE)),
    ok("railgun", "piercing", "me=0,1 cat=2,1 dan=0,1", "cat", "dan", aim=S),
    bad(
        "railgun",
        "piercing",
        "me=0,1 cat=2,1 ann=0,0",
        ["cat", "ann"],
        (None, Reason.NO_SHARED_AIM),
    ),
    # Cyberblade: on my square; step between the two strikes.
    ok("cyberblade", "basic", "me=1,2 dan=1,2", "dan"),
    bad("cyberblade", "basic", "me=1,2 ann=1,3", ["ann"], ("ann", Reason.NOT_ON_YOUR_SQUARE)),
    ok("cyberblade", "shadowstep", "me=1,2"),
    bad("cyberblade", "shadowstep", "me=1,2 dan=1,2", ["dan"], (None, Reason.TOO_MANY_TARGETS)),
    ok(
        "cyberblade",
        "slice-and-dice",
        "me=1,2 dan=1,2 eve=1,1",
        "eve",
        chosen={"basic": ["dan"]},
        moved=(1, 1),
        why="hit, step, hit another",
    ),
    bad(
        "cyberblade",
        "slice-and-dice",
        "me=1,2 dan=1,2",
        ["dan"],
        ("dan", Reason.ALREADY_TARGETED),
        chosen={"basic": ["dan"]},
    ),
    # ZX-2: visible; the scanner up to three, in different rooms if you like.
    ok("zx-2", "basic", "me=1,2 bob=2,3", "bob"),
    bad("zx-2", "basic", "me=1,2 cat=2,2", ["cat"], ("cat", Reason.NOT_VISIBLE)),
    ok("zx-2", "scanner", "me=1,2 ann=0,0 bob=2,3 dan=1,0", "ann", "bob", "dan"),
    bad(
        "zx-2",
        "scanner",
        "me=1,2 ann=0,0 bob=2,3 dan=1,0 eve=1,1",
        ["ann", "bob", "dan", "eve"],
        (None, Reason.TOO_MANY_TARGETS),
    ),
    bad("zx-2", "scanner", "me=1,2 ann=0,0", ["ann", "ann"], ("ann", Reason.DUPLICATE_TARGET)),
    # Shotgun: on my square; or exactly 1 move away.
    ok("shotgun", "basic", "me=1,2 dan=1,2", "dan"),
    bad("shotgun", "basic", "me=1,2 ann=1,3", ["ann"], ("ann", Reason.NOT_ON_YOUR_SQUARE)),
    ok("shotgun", "long-barrel", "me=1,2 ann=1,3", "ann"),
    bad("shotgun", "long-barrel", "me=1,2 bob=2,3", ["bob"], ("bob", Reason.NOT_EXACTLY_ONE_AWAY)),
    # Power Glove: a player exactly 1 away; the rocket fist flies 1-2 squares in a line.
    ok("power-glove", "basic", "me=1,2 ann=1,3", "ann"),
    bad("power-glove", "basic", "me=1,2 bob=2,3", ["bob"], ("bob", Reason.NOT_EXACTLY_ONE_AWAY)),
    ok("power-glove", "rocket-fist", "me=1,2 ann=1,1 bob=1,0", "ann", "bob", aim=W),
    ok("power-glove", "rocket-fist", "me=1,2", aim=W, why="a flight punching nobody"),
    bad(
        "power-glove",
        "rocket-fist",
        "me=1,2 ann=1,1 eve=1,1",
        ["ann", "eve"],
        (None, Reason.SAME_SQUARE),
        aim=W,
    ),
    bad("power-glove", "rocket-fist", "me=1,2 cat=2,2", ["cat"], (None, Reason.ILLEGAL_AIM), aim=S),
    # Shockwave: up to 3, each exactly 1 away on different squares; tsunami hits them all.
    ok("shockwave", "basic", "me=1,2 ann=1,3 dan=1,1 eve=0,2", "ann", "dan", "eve"),
    bad("shockwave", "basic", "me=1,2 ann=1,3 bob=1,3", ["ann", "bob"], (None, Reason.SAME_SQUARE)),
    bad("shockwave", "basic", "me=1,2 bob=2,3", ["bob"], ("bob", Reason.NOT_EXACTLY_ONE_AWAY)),
    ok("shockwave", "tsunami", "me=1,2 ann=1,3 bob=1,3 dan=1,1", "ann", "bob", "dan"),
    bad("shockwave", "tsunami", "me=1,2 dan=1,2", ["dan"], ("dan", Reason.ON_YOUR_SQUARE)),
    # Sledgehammer: on my square.
    ok("sledgehammer", "basic", "me=1,2 dan=1,2", "dan"),
    bad("sledgehammer", "basic", "me=1,2 ann=1,3", ["ann"], ("ann", Reason.NOT_ON_YOUR_SQUARE)),
    ok("sledgehammer", "pulverize", "me=1,2 dan=1,2", "dan"),
    bad("sledgehammer", "pulverize", "me=1,2 ann=1,1", ["ann"], ("ann", Reason.NOT_ON_YOUR_SQUARE)),
]


def _case_id(case: Case) -> str:
    verdict = "legal" if case.legal else "illegal"
    return f"{case.weapon}:{case.effect}:{verdict}:{'+'.join(case.targets)}"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_effect_targets(case: Case):
    problems = check_targets(case.shot(), case.weapon, case.effect, case.targets, case.aim)
    expected = [Problem(player, reason) for player, reason in case.problems]
    assert problems == expected, case.why


def test_every_effect_of_every_weapon_has_a_rule_and_a_legal_and_an_illegal_example():
    catalog = {
        w["slug"]: [e["slug"] for e in w["effects"]] for w in GameData("adrenaline").cards("weapon")
    }
    assert {w: list(effects) for w, effects in RULES.items()} == catalog
    for weapon, effects in catalog.items():
        for effect in effects:
            kinds = {c.legal for c in CASES if (c.weapon, c.effect) == (weapon, effect)}
            assert kinds == {True, False}, (weapon, effect)


def test_how_many_targets_agrees_with_the_catalog():
    """Area effects hit everyone (catalog: no limit); moves target nobody (catalog: 0).
    Hellion picks one target; the catalog's "no limit" counts the marks on its square."""
    for card in GameData("adrenaline").cards("weapon"):
        for effect in card["effects"]:
            found = rule(card["slug"], effect["slug"])
            expected = effect["max_targets"]
            if card["slug"] == "hellion":
                assert (found.max_targets, expected) == (1, None)
            elif found.pick is Pick.AREA:
                assert expected is None, (card["slug"], effect["slug"])
            else:
                assert found.max_targets == expected, (card["slug"], effect["slug"])


# --- Options for a screen ---------------------------------------------------------------


def test_options_give_every_other_player_a_verdict():
    s = shot("me=1,2 ann=0,0 cat=2,1 gus=-")
    options = target_options(s, "lock-rifle", "basic")
    assert set(options) == {"ann", "cat", "gus"}
    assert options["ann"].ok and options["ann"].reason is None
    assert options["cat"].reason is Reason.NOT_VISIBLE
    assert options["gus"].reason is Reason.NOT_ON_BOARD


def test_a_move_only_effect_targets_nobody():
    assert target_options(shot("me=1,2 ann=1,3"), "plasma-gun", "phase-glide") == {}


def test_without_an_aim_a_player_is_reachable_if_some_aim_reaches_them():
    s = shot("me=1,2 ann=1,1 bob=0,2 cat=2,2 dan=1,2")
    options = target_options(s, "flamethrower", "basic")
    assert options["ann"].ok and options["bob"].ok
    assert options["cat"].reason is Reason.NOT_IN_LINE
    assert options["dan"].reason is Reason.ON_YOUR_SQUARE
    assert not target_options(s, "flamethrower", "basic", aim=W)["bob"].ok


def test_chain_reaction_without_a_first_target_says_so():
    options = target_options(shot("me=1,2 ann=0,0"), "thor", "chain-reaction")
    assert options["ann"].reason is Reason.NO_PREVIOUS_TARGET


def test_the_shooter_and_strangers_are_refused():
    s = shot("me=1,2 ann=0,0")
    assert check_targets(s, "zx-2", "basic", ["me"]) == [Problem("me", Reason.SHOOTER)]
    assert check_targets(s, "zx-2", "basic", ["zed"]) == [Problem("zed", Reason.UNKNOWN_PLAYER)]
    assert check_targets(s, "zx-2", "basic", []) == [Problem(None, Reason.NO_TARGET)]


def test_unknown_weapons_and_effects_are_refused_by_name():
    with pytest.raises(ValueError, match="unknown weapon 'bfg'"):
        rule("bfg", "basic")
    with pytest.raises(ValueError, match="shotgun has no effect 'reaper'"):
        rule("shotgun", "reaper")


def test_a_shooter_off_the_board_is_an_error():
    with pytest.raises(ValueError, match="not on the board"):
        target_options(shot("me=- ann=0,0"), "zx-2", "basic")


# --- Aims -------------------------------------------------------------------------------


def test_aims_of_each_kind():
    s = shot("me=1,2")
    assert legal_aims(s, "furnace", "basic") == ("blue", "yellow")  # not red, not white
    assert legal_aims(s, "furnace", "cozy-fire") == (sq(0, 2), sq(1, 1), sq(1, 3))
    assert legal_aims(s, "flamethrower", "basic") == (N, E, W)  # south is a wall
    assert legal_aims(s, "railgun", "basic") == (N, E, S, W)
    vortex = legal_aims(s, "vortex-cannon", "basic")
    assert sq(1, 2) not in vortex and sq(2, 2) not in vortex and sq(0, 0) in vortex
    grenade = legal_aims(s, "grenade-launcher", "extra-grenade")
    assert sq(1, 2) in grenade and sq(2, 1) not in grenade
    assert legal_aims(s, "hellion", "basic") == vortex
    assert legal_aims(s, "zx-2", "basic") == ()


def test_the_black_hole_opens_on_the_basic_vortex():
    s = shot("me=1,2", aims={"basic": sq(1, 1)})
    assert legal_aims(s, "vortex-cannon", "black-hole") == (sq(1, 1),)
    assert check_targets(s, "vortex-cannon", "black-hole", [], aim=sq(0, 0)) == [
        Problem(None, Reason.ILLEGAL_AIM)
    ]


def test_a_furnace_from_a_square_without_doors_has_no_room_to_aim_at():
    s = shot("me=0,1 ann=0,0 bob=1,1")
    assert legal_aims(s, "furnace", "basic") == ()
    options = target_options(s, "furnace", "basic")
    assert options["ann"].reason is Reason.SAME_ROOM
    assert options["bob"].reason is Reason.NOT_VISIBLE


# --- What an effect hits ----------------------------------------------------------------


def test_hellion_damages_its_target_and_marks_everyone_on_that_square():
    s = shot("me=1,2 ann=0,2 bob=0,2 cat=0,0")
    assert struck(s, "hellion", "basic", ["ann"]) == {"ann": 0, "bob": 1}


def test_barbecue_hits_the_first_square_harder_than_the_second():
    s = shot("me=1,1 ann=1,2 eve=1,2 bob=1,3 dan=1,1")
    assert struck(s, "flamethrower", "barbecue", aim=E) == {"ann": 0, "eve": 0, "bob": 1}
    with pytest.raises(ValueError, match="needs a direction"):
        struck(s, "flamethrower", "barbecue")
    with pytest.raises(ValueError, match="can't aim at 'N'"):
        struck(s, "flamethrower", "barbecue", aim=N)  # a wall


def test_furnace_and_cozy_fire_hit_a_whole_room_or_square():
    s = shot("me=1,2 ann=1,3 bob=2,3 dan=1,0 ann2=0,2")
    assert struck(s, "furnace", "basic", aim="yellow") == {"ann": 0, "bob": 0}
    assert struck(s, "furnace", "cozy-fire", aim=sq(0, 2)) == {"ann2": 0}


def test_an_extra_grenade_on_my_square_spares_me():
    s = shot("me=1,2 dan=1,2 eve=1,2 ann=1,3")
    assert struck(s, "grenade-launcher", "extra-grenade", aim=sq(1, 2)) == {"dan": 0, "eve": 0}


def test_fragmenting_warhead_hits_the_target_square_as_it_was():
    s = shot("me=1,2 ann=0,2 bob=0,2", chosen={"basic": ["ann"]})
    assert struck(s, "rocket-launcher", "fragmenting-warhead") == {"ann": 0, "bob": 0}


def test_electroscythe_and_tsunami_need_no_choice():
    s = shot("me=1,2 dan=1,2 ann=1,3 cat=2,2")
    assert struck(s, "electroscythe", "reaper") == {"dan": 0}
    assert struck(s, "shockwave", "tsunami") == {"ann": 0}
    assert struck(s, "plasma-gun", "phase-glide") == {}


# --- Moves ------------------------------------------------------------------------------


def test_shooter_moves():
    s = shot("me=2,1 ann=0,1")
    glide = destinations(s, "plasma-gun", "phase-glide")
    assert glide == {sq(1, 1), sq(2, 2), sq(1, 0), sq(1, 2), sq(2, 3)}
    assert sq(2, 1) not in glide  # a glide moves you
    assert destinations(s, "rocket-launcher", "rocket-jump") == glide
    assert destinations(s, "cyberblade", "shadowstep") == {sq(1, 1), sq(2, 2)}
    assert destinations(s, "power-glove", "basic") == {sq(1, 1), sq(2, 2)}


def test_rocket_fist_flies_in_a_straight_line_through_doors_only():
    s = shot("me=1,2")
    assert destinations(s, "power-glove", "rocket-fist", aim=W) == {sq(1, 1), sq(1, 0)}
    assert destinations(s, "power-glove", "rocket-fist", aim=N) == {sq(0, 2)}
    assert destinations(s, "power-glove", "rocket-fist", aim=S) == frozenset()


def test_target_moves():
    s = shot("me=1,2 ann=0,0 cat=2,1 dan=1,2 bob=2,3")
    # Tractor beam: 0-2 moves, ending where I can see.
    pulls = destinations(s, "tractor-beam", "basic", "cat")
    assert pulls == {sq(1, 1), sq(1, 0), sq(1, 2), sq(2, 3)}  # not white (2,1), (2,2)
    assert destinations(s, "tractor-beam", "basic", "ann") >= {sq(0, 0), sq(1, 0)}
    assert destinations(s, "tractor-beam", "punisher", "bob") == {sq(1, 2)}
    # One square, not through walls.
    assert destinations(s, "grenade-launcher", "basic", "ann") == {sq(0, 1), sq(1, 0)}
    assert destinations(s, "shotgun", "basic", "dan") == {sq(0, 2), sq(1, 1), sq(1, 3)}
    assert destinations(s, "rocket-launcher", "basic", "bob") == {sq(1, 3), sq(2, 2)}
    # Sledgehammer: 0, 1 or 2 squares, one direction, doors yes, walls no.
    assert destinations(s, "sledgehammer", "pulverize", "dan") == {
        sq(1, 2),
        sq(0, 2),
        sq(1, 3),
        sq(1, 1),
        sq(1, 0),
    }
    # Vortex: into the vortex.
    assert destinations(s, "vortex-cannon", "basic", "cat", aim=sq(1, 1)) == {sq(1, 1)}
    # Shockwave moves nobody.
    assert destinations(s, "shockwave", "basic", "dan") == frozenset()


def test_a_target_move_needs_the_target():
    with pytest.raises(ValueError, match="say which player"):
        destinations(shot("me=1,2"), "shotgun", "basic")


def test_every_pulled_target_ends_in_sight_on_every_board():
    """Tractor beam's promise, on all four boards, from every square to every square."""
    from games.adrenaline.arena import BOARD_IDS

    for board_id in BOARD_IDS:
        board = load_board(board_id)
        for mine in board.squares:
            for theirs in board.squares:
                s = Shot(board, {"me": mine, "x": theirs}, "me")
                for end in destinations(s, "tractor-beam", "basic", "x"):
                    assert board.can_see(mine, end)
                    assert board.distance(theirs, end) <= 2


def test_aims_posted_by_a_form_are_parsed_and_checked():
    s = shot("me=1,2")
    assert parse_aim(s, "vortex-cannon", "basic", "1-1") == sq(1, 1)
    assert parse_aim(s, "flamethrower", "basic", "W") == W
    assert parse_aim(s, "furnace", "basic", "yellow") == "yellow"
    for weapon, effect, text, message in [
        ("vortex-cannon", "basic", "1-2", "can't aim at '1-2'"),  # my own square
        ("vortex-cannon", "basic", "x", "not a square"),
        ("flamethrower", "basic", "S", "can't aim"),  # a wall
        ("flamethrower", "basic", "up", "not a direction"),
        ("furnace", "basic", "white", "can't aim"),
        ("zx-2", "basic", "1-1", "doesn't aim"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_aim(s, weapon, effect, text)

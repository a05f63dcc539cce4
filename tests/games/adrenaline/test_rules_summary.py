"""The Adrenaline rules summary (games/adrenaline/data/rules.json): every section the
board links to, in both languages, the numbers the engine plays by, and player-facing
text that is ours rather than the rulebook's."""

from games.adrenaline.rules import (
    FRENZY_VALUES,
    KILL_AT,
    MAX_CUBES,
    MAX_DAMAGE,
    MAX_MARKS,
    MAX_POWERUPS,
    MAX_WEAPONS,
    NORMAL_VALUES,
)
from tests.support import catalog_data as checks
from tests.support.catalog_data import LANGUAGES, GameData, needs_seeds
from tests.support.seeds import copied_runs

DATA = GameData("adrenaline")
rules = DATA.rules
catalog = DATA.catalog
text = DATA.section_text

REQUIRED_SECTIONS = [
    "turn",
    "damage",
    "marks",
    "scoring",
    "killshot",
    "frenzy",
    "ammo",
    "powerups",
    "end",
]


def dashed(values) -> str:
    return "-".join(map(str, values))


def test_every_section_in_both_languages_with_the_same_number_of_points():
    checks.assert_rules_summary_complete(
        rules(), "adrenaline", required=REQUIRED_SECTIONS, points=(3, 8)
    )


def test_points_fit_a_phone_screen():
    checks.assert_texts_fit(DATA.rules_texts())


def test_turn_has_two_actions_and_the_adrenaline_thresholds():
    turn = text("turn")
    assert "Take 2 actions" in turn
    assert "move 1, 2 or 3 squares" in turn
    assert "With 3 or more damage you may move up to 2" in turn
    assert "With 6 or more damage you may move 1 square before shooting" in turn
    assert "Fai 2 azioni" in text("turn", "it")


def test_damage_track_kill_and_overkill_match_the_engine():
    assert (KILL_AT, MAX_DAMAGE) == (11, 12)
    damage = text("damage")
    assert f"The {KILL_AT}th damage token is the killshot" in damage
    assert f"The {MAX_DAMAGE}th token is overkill" in damage
    assert f"room for {MAX_DAMAGE} tokens" in damage
    assert "1 mark" in damage
    damage_it = text("damage", "it")
    assert f"{KILL_AT}° segnalino" in damage_it
    assert f"{MAX_DAMAGE}° segnalino" in damage_it


def test_marks_cap_and_conversion():
    assert MAX_MARKS == 3
    marks = text("marks")
    assert f"at most {MAX_MARKS} marks" in marks
    assert "same player deals you damage" in marks
    assert "only gives marks converts nothing" in marks
    assert f"al massimo {MAX_MARKS} marchi" in text("marks", "it")


def test_board_values_match_the_engine():
    assert dashed(NORMAL_VALUES) == "8-6-4-2-1-1"
    for lang in LANGUAGES:
        assert dashed(NORMAL_VALUES) in text("scoring", lang)
    # a death covers the highest value left with a skull: the second death pays the rest
    assert f"second death pays {dashed(NORMAL_VALUES[1:])};" in text("scoring")
    assert f"seconda morte paga {dashed(NORMAL_VALUES[1:])};" in text("scoring", "it")
    scoring = text("scoring")
    assert "First blood" in scoring and "1 point" in scoring
    assert "first token came earlier ranks higher" in scoring
    assert "Double kill" in scoring and "1 extra point" in scoring


def test_kill_shot_track_and_overkill_tokens():
    track = text("killshot")
    assert "5 to 8 skulls" in track
    assert "2 of the killer's tokens" in track
    assert "final frenzy" in track


def test_frenzy_values_and_action_menus():
    assert dashed(FRENZY_VALUES) == "2-1-1-1"
    for lang in LANGUAGES:
        assert dashed(FRENZY_VALUES) in text("frenzy", lang)
    frenzy = text("frenzy")
    before = "2 actions, each one of move up to 4; move up to 2 and grab; move up to 1, reload"
    after = "1 action, either move up to 3 and grab, or move up to 2, reload and shoot"
    assert before in frenzy
    assert after in frenzy
    assert frenzy.index("Turns before the first player") < frenzy.index("The first player and")


def test_ammo_weapon_and_power_up_limits_match_the_engine():
    assert MAX_CUBES == MAX_WEAPONS == MAX_POWERUPS == 3
    assert f"at most {MAX_CUBES} of each colour" in text("ammo")
    assert f"at most {MAX_WEAPONS} weapons" in text("weapons")
    assert f"hold at most {MAX_POWERUPS}" in text("powerups")
    assert "minus the first cube" in text("weapons")


def test_the_four_power_ups_by_their_catalog_names():
    powerups = [c for c in catalog()["cards"] if c["kind"] == "powerup"]
    assert len(powerups) == 4
    for card in powerups:
        for lang in LANGUAGES:
            assert card["name"][lang] in text("powerups", lang), (card["slug"], lang)


def test_end_scoring_and_tie_break():
    end = text("end")
    assert "kill-shot track is scored like a board" in end
    assert "8, then 6, 4, 2, 1, 1" in end
    assert "scored more from the kill-shot track" in end


@needs_seeds
def test_rules_summary_is_not_copied_from_the_rulebooks():
    checks.assert_not_copied(DATA.rules_texts())


@needs_seeds
def test_copy_checker_spots_a_line_of_the_adrenaline_rulebook():
    line = "Puoi avere al massimo 3 potenziamenti in mano allo stesso tempo."
    assert copied_runs(line) == ["puoi avere al massimo 3 potenziamenti in mano allo stesso tempo"]

"""Static power/toughness changes conditioned on a life total (CR 611.3a, 613.4c, 119.1, 103.4):
the recogniser's readings of the real cards, the vocabulary's checks, and outcomes derived by
hand, both engines: the condition is read at the state-based check, after a lifelink gain
simultaneous with the damage (510.2, 120.3f, 704.3; Honor Troll's ruling)."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.errors import CaseError
from mtg_outcomes.model.vocab import parse_ability
from tests.helpers import both_engines, case_from, problems, reading


@pytest.mark.parametrize(("name", "ability"), [
    ("Honor Troll", {"pt": [2, 1], "to": "self", "if_life_at_least": 25}),
    ("Angel of Vitality", {"pt": [2, 2], "to": "self", "if_life_at_least": 25}),
    ("Leyline of Hope", {"pt": [2, 2], "to": "creatures you control", "if_life_at_least": {"starting_plus": 7}}),
    ("Serra Ascendant", {"pt": [5, 5], "grant": ["flying"], "to": "self", "if_life_at_least": 30}),
    ("Thraben Doomsayer", {"pt": [2, 2], "to": "other creatures you control", "if_life_at_most": 5}),
    ("Gavony Ironwright", {"pt": [1, 4], "to": "other creatures you control", "if_life_at_most": 5}),
])
def test_611_3a_life_conditioned_statics_are_read(name: str, ability: dict[str, object]) -> None:
    assert ability in reading(name).abilities


def test_life_condition_vocabulary() -> None:
    ab = parse_ability({"pt": [2, 1], "to": "self", "if_life_at_least": 25}, "p")
    assert ab.effect is not None and ab.effect.if_life_at_least == 25 and not ab.effect.life_from_start
    ab = parse_ability({"pt": [2, 2], "to": "creatures you control", "if_life_at_least": {"starting_plus": 7}}, "p")
    assert ab.effect is not None and ab.effect.if_life_at_least == 7 and ab.effect.life_from_start
    with pytest.raises(CaseError, match="goes with a pt: or grant:"):
        parse_ability({"prevent": "all", "to": "you", "if_life_at_least": 25}, "p")
    with pytest.raises(CaseError, match="starting_plus"):
        parse_ability({"pt": [1, 1], "to": "self", "if_life_at_least": {"start": 7}}, "p")


def test_103_4_the_starting_life_total_must_be_said() -> None:
    text = """
players: [{name: you, life: 27}, {name: A}]
battlefield:
  - {id: leyline, card: Leyline of Hope, controller: you}
actions: []
"""
    got = problems(text)
    assert got and got[0][0] == "players[0].starting_life" and "CR 103.4" in got[0][1]
    case_from(text.replace("life: 27}", "life: 27, starting_life: 20}").replace("{name: A}", "{name: A, starting_life: 20}"))


CHOSEN_BLOCK = """
players: [{name: you, life: LIFE}, {name: A}]
battlefield:
  - {id: giant, card: Hill Giant, controller: A, attacking: you}
  - {id: bears, card: Grizzly Bears, controller: A, attacking: you}
  - {id: troll, card: Honor Troll, controller: you}
  - {id: collar, card: Basilisk Collar, controller: you, attached_to: troll}
actions:
  - combat: {blocks: choose}
"""


@pytest.mark.parametrize(("life", "expected"), [
    # no block: 5 damage; block the Giant: 2 from the Bears, 2 + 1 gained at once (120.3f): 24 at
    # the check, short of 25, the 2/3 Troll dies to 3 (704.5g); block the Bears: 3 taken, 3 gained
    (23, {(18, False, False, False), (24, True, True, False), (23, False, False, True)}),
    # one more: blocking the Giant reaches 25 at the check: a 4/4 Troll survives 3 damage
    (24, {(19, False, False, False), (25, False, True, False), (24, False, False, True)}),
])
def test_704_3_honor_troll_reads_life_at_the_check(life: int, expected: set[tuple[object, ...]]) -> None:
    got = both_engines(CHOSEN_BLOCK.replace("LIFE", str(life)), "you.life", "troll.dies", "giant.dies", "bears.dies")
    assert got == expected


def test_life_conditioned_keyword_is_declined_by_cp_not_wrong() -> None:
    """Serra Ascendant's flying comes with 30 life: the CP model declines a keyword with a life
    condition (it reads keywords once per step); the graph engine answers."""
    from mtg_outcomes import enumerate_outcomes
    from mtg_outcomes.cp import cp_supported

    case = case_from("""
players: [{name: you, life: 29}, {name: A}]
battlefield:
  - {id: giant, card: Hill Giant, controller: A, attacking: you}
  - {id: serra, card: Serra Ascendant, controller: you, blocking: giant}
  - {id: collar, card: Basilisk Collar, controller: you, attached_to: serra}
actions:
  - combat: {}
""")
    assert "life condition" in (cp_supported(case) or "")
    # Serra Ascendant has lifelink itself; 1 + 1 (collar's is the same keyword, 702.15f) -> 30:
    # a 6/6 at the check with 3 damage survives; the Giant dies (deathtouch)
    got = {(dict(o.state)["you.life"], dict(o.state)["serra.dies"]) for o in enumerate_outcomes(case, engine="auto").outcomes}
    assert got == {(30, False)}

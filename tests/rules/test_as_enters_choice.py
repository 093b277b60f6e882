"""614.12, 607.2: a player chosen as a permanent enters, read later as "the chosen player":
"choose an opponent" (Guardian Archon) or "choose a player" (Stuffy Doll, True-Name Nemesis),
which may be its controller."""

from __future__ import annotations

from tests.helpers import both_engines, outcome_set, problems, reading

DOLL = """
players: [{name: A}, {name: B}, {name: C}]
battlefield:
  - {id: doll, card: CARD, controller: A, chosen: CHOSEN}
sources:
  - {id: bolt, card: Lightning Bolt, controller: B}
actions:
  - damage: [{from: bolt, to: doll, amount: 3}]
"""


def test_stuffy_doll_is_read_in_full() -> None:
    assert reading("Stuffy Doll").abilities == [
        {"as_enters": "choose_player"},
        {"trigger": "dealt_damage", "do": {"deal": "damage_dealt", "to": "chosen"}},
        {"activated": {"deal": 1, "to": "self"}, "cost": ["T"]}]


def test_614_12_a_player_may_be_its_controller() -> None:
    """Stuffy Doll chose A, its controller: the 3 it is dealt go to A (both engines)."""
    text = DOLL.replace("CARD", "Stuffy Doll").replace("CHOSEN", "A")
    assert both_engines(text, "A.life", "B.life", "C.life", "doll.damage") == {(17, 20, 20, 3)}


def test_614_12_an_opponent_may_not_be_its_controller() -> None:
    """A permanent whose text says "choose an opponent" can't have chosen its controller."""
    board = """
players: [{name: A}, {name: B}]
battlefield:
  - {id: archon, card: Guardian Archon, controller: A, chosen: A}
actions: []
"""
    assert ("battlefield[0].chosen", "the chosen player must be an opponent") in problems(board)


def test_614_12_entering_the_controller_chooses_among_whom_the_text_allows() -> None:
    """Entering during the case with no chosen:, the choice is its controller's, one branch per
    player it may choose: three for "a player", the two opponents for "an opponent"."""
    enter = """
players: [{name: A}, {name: B}, {name: C}]
actions:
  - enter: {id: x, card: CARD, controller: A}
"""
    doll = outcome_set(enter.replace("CARD", "Stuffy Doll") + "  - cast: {card: Lightning Bolt, controller: A, target: x}\n",
                       "A.life", "B.life", "C.life")
    assert doll == {(17, 20, 20), (20, 17, 20), (20, 20, 17)}
    # Guardian Archon: which opponent it chose shows in whose spells it has protection from later
    archon = outcome_set(enter.replace("CARD", "Guardian Archon") +
                         "  - activate: {id: x, target: x}\n  - cast: {card: Pyroclasm, controller: B}\n", "x.damage")
    assert archon == {(0,), (2,)}  # B chosen: protected from B's Pyroclasm; C chosen: dealt 2


def test_614_12_on_the_battlefield_the_choice_must_be_given() -> None:
    """Left out, "the chosen player" would name no one, silently (a Stuffy Doll passing its
    damage to nobody): chosen: is required, chosen: none says it chose no one (a copy made after
    it entered, the Guardian Archon rulings) and is only for such a permanent."""
    missing = DOLL.replace("CARD", "Stuffy Doll").replace(", chosen: CHOSEN", "")
    assert [p for p, _ in problems(missing)] == ["battlefield[0].chosen"]
    none = DOLL.replace("CARD", "Stuffy Doll").replace("CHOSEN", "none")
    assert outcome_set(none, "A.life", "B.life", "C.life", "doll.damage") == {(20, 20, 20, 3)}
    bears = DOLL.replace("CARD", "Grizzly Bears").replace("CHOSEN", "none")
    assert [p for p, _ in problems(bears)] == ["battlefield[0].chosen"]

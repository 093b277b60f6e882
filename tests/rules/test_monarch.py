"""The monarch (CR 724): becoming it, its end-step draw and combat damage taking it (724.2),
one monarch at a time (724.3), the monarch leaving the game (724.4)."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.errors import CaseErrors
from mtg_outcomes.model.recognise import read_face

from ..helpers import case_from, outcome_set

BASE = """
players:
  - {name: A}
  - {name: you}
  - {name: B}
battlefield:
  - {id: bear, name: Bear, controller: A, types: [creature], power: 2, toughness: 2, attacking: you}
"""


def test_724_2_combat_damage_to_the_monarch_takes_it_and_the_end_step_draws() -> None:
    text = BASE + """
actions:
  - {become_monarch: you}
  - end_step: {}
  - combat: {}
  - end_step: {}
"""
    # A's turn: the first end step isn't the monarch's (you), the second is A's after the Bear took it
    assert outcome_set(text, "you.monarch", "A.monarch", "you.cards_drawn", "A.cards_drawn") == {(False, True, 0, 1)}


def test_724_3_one_monarch_at_a_time() -> None:
    text = BASE.replace("{name: B}", "{name: B, monarch: true}") + """
actions:
  - {become_monarch: A}
"""
    assert outcome_set(text, "A.monarch", "B.monarch", "you.monarch") == {(True, False, False)}
    with pytest.raises(CaseErrors, match="only one player can be the monarch"):
        case_from(BASE.replace("{name: B}", "{name: B, monarch: true}").replace("{name: A}", "{name: A, monarch: true}"))


def test_724_4_the_monarch_leaving_passes_it_to_the_active_player() -> None:
    text = BASE.replace("{name: B}", "{name: B, monarch: true}") + """
actions:
  - leave_game: B
"""
    assert outcome_set(text, "A.monarch", "B.monarch") == {(True, False)}


def test_cp_continues_after_a_combat_step_with_a_monarch() -> None:
    """724.2 in the CP step: combat damage to the monarch triggers after state-based actions; the
    rules engine continues from each of the step's results (solver.cp.suffix), which tell apart
    each source's combat damage to each player. A 2-point shield and a blocker you choose against
    two attackers: the crown moves to A when some combat damage gets through to you, and stays
    when the blocked Wolf leaves only the Bear's 2, all prevented."""
    from mtg_outcomes.cp import cp_outcomes, cp_supported

    from ..cp.test_cp import assert_same

    text = BASE.replace("{name: you}", "{name: you, monarch: true}") + """
  - {id: wolf, name: Wolf, controller: A, types: [creature], power: 3, toughness: 3, attacking: you}
  - {id: wall, name: Wall, controller: you, types: [creature], power: 0, toughness: 4}
sources:
  - {id: salve, name: Salve, controller: you, types: [instant], colors: [white]}
effects:
  - {id: s, shield: 2, to: you, controller: you, source: salve}
actions:
  - combat: {blocks: choose}
"""
    case = case_from(text)
    assert cp_supported(case) is None
    assert assert_same(case) > 1
    got = {(o.values["you.monarch"], o.values["A.monarch"], o.values["you.life"]) for o in cp_outcomes(case).outcomes}
    assert got == {(False, True, 17), (False, True, 19), (True, False, 20)}
    two = case_from(text.replace("shield: 2", "shield: 5"))
    assert assert_same(two) >= 1
    assert {(o.values["you.monarch"], o.values["A.monarch"]) for o in cp_outcomes(two).outcomes} == {(True, False)}


def test_recognised_monarch_lines() -> None:
    """Thorn of the Black Rose: "Deathtouch" / "When this creature enters, you become the
    monarch."; Throne of the High City: "{T}: Add {C}." / "{4}, {T}, Sacrifice this land: You
    become the monarch.\""""
    thorn = read_face(find("Thorn of the Black Rose").face)
    assert thorn.understood and thorn.abilities == [{"trigger": "enters", "do": {"become_monarch": "you"}}]
    throne = read_face(find("Throne of the High City").face)
    assert throne.understood and throne.abilities == [
        {"mana": ["C"], "cost": ["T"]},
        {"activated": {"become_monarch": "you"}, "cost": [4, "T", {"sacrifice": "self"}]}]


def test_724_2_two_players_creatures_hit_the_monarch_two_triggers_named_apart() -> None:
    """Creatures of A and of B deal combat damage to the monarch at once (a damage: action: only
    the active player attacks, 506.2, so the two can't both be attackers): two of the monarch's
    triggers, both its controller's to order (603.3b); the last to resolve takes the crown. The
    two options share the trigger's source and ability, so each says its player: the witness
    names one option (it replays, in both engines)."""
    from mtg_outcomes import enumerate_outcomes
    from mtg_outcomes.cp import cp_supported

    from ..cp.test_cp import assert_same

    text = BASE.replace("{name: you}", "{name: you, monarch: true}") + """
  - {id: wolf, name: Wolf, controller: B, types: [creature], power: 3, toughness: 3}
actions:
  - damage: [{from: bear, to: you, amount: 2, combat: true}, {from: wolf, to: you, amount: 3, combat: true}]
"""
    case = case_from(text)
    res = enumerate_outcomes(case, engine="graph")
    assert {(o.values["A.monarch"], o.values["B.monarch"]) for o in res.outcomes} == {(True, False), (False, True)}
    assert {o.witness[0].picked for o in res.outcomes} == {"(monarch)#1@A", "(monarch)#1@B"}
    assert cp_supported(case) is None and assert_same(case) == 2

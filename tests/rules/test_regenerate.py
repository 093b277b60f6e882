"""Regeneration (CR 701.19a, 614.8): a shield replacing the next destruction of one permanent this
turn — by a destroy instruction (701.8a) or by lethal or deathtouch damage (704.5g-h), never a
toughness of 0 (704.5f) — with: all its damage removed, tapped, removed from combat (506.4: what
it blocked stays blocked). Outcomes derived by hand."""

from __future__ import annotations

import pytest

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.cp import cp_supported
from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.recognise import read_face

from ..helpers import case_from, outcome_set, problems

PLAYERS = "players:\n  - {name: you}\n  - {name: A}\n"
BEAR = "  - {id: bear, name: Test Bear, controller: A, types: [creature], power: 2, toughness: 2}\n"
SHIELD = "  - {id: r1, regenerate: true, to: bear, controller: A}\n"
BOLT = "sources:\n  - {id: bolt, name: Test Bolt, controller: you, colors: [red], types: [instant]}\n"


def test_701_19a_lethal_damage_destruction_is_regenerated() -> None:
    """3 damage to a 2/2 with a shield: instead of being destroyed (704.5g) all its damage is removed."""
    text = PLAYERS + "battlefield:\n" + BEAR + BOLT + "effects:\n" + SHIELD + \
        "actions:\n  - damage: [{from: bolt, to: bear, amount: 3}]\n"
    assert outcome_set(text, "bear.dies", "bear.damage") == {(False, 0)}
    assert outcome_set(text.replace(SHIELD, "").replace("effects:\n", ""), "bear.dies") == {(True,)}
    from mtg_outcomes.explain import replay

    case = case_from(text)
    (only,) = enumerate_outcomes(case, engine="graph").outcomes
    assert ("forced", "Test Bear is regenerated instead of destroyed: its damage removed, tapped, out of combat "
            "(701.19a)") in [(s.kind, s.words) for s in replay(case, only).steps]


def test_701_19a_a_shield_replaces_one_destruction() -> None:
    """Two lethal batches: one shield saves it once (it then dies), two shields twice."""
    text = PLAYERS + "battlefield:\n" + BEAR + BOLT + "effects:\n" + SHIELD + \
        "actions:\n  - damage: [{from: bolt, to: bear, amount: 3}]\n  - damage: [{from: bolt, to: bear, amount: 2}]\n"
    assert outcome_set(text, "bear.dies") == {(True,)}
    two = text.replace(SHIELD, SHIELD + SHIELD.replace("r1", "r2"))
    assert outcome_set(two, "bear.dies", "bear.damage") == {(False, 0)}


def test_704_5h_deathtouch_destruction_is_regenerated() -> None:
    """1 damage from a deathtouch source destroys it (704.5h): the shield replaces that too."""
    text = PLAYERS + "battlefield:\n" + BEAR + \
        "  - {id: viper, name: Test Viper, controller: you, types: [creature], power: 1, toughness: 1, keywords: [deathtouch]}\n" + \
        "effects:\n" + SHIELD + "actions:\n  - damage: [{from: viper, to: bear, amount: 1}]\n"
    assert outcome_set(text, "bear.dies", "bear.damage") == {(False, 0)}


def test_704_5f_zero_toughness_is_not_destruction() -> None:
    """A wither source's 2 gives the 2/2 two -1/-1 counters: toughness 0 puts it into the graveyard
    (704.5f), which is no destruction, so the shield can't replace it."""
    text = PLAYERS + "battlefield:\n" + BEAR + \
        "  - {id: w, name: Test Wither, controller: you, types: [creature], power: 2, toughness: 2, keywords: [wither]}\n" + \
        "effects:\n" + SHIELD + "actions:\n  - damage: [{from: w, to: bear, amount: 2}]\n"
    assert outcome_set(text, "bear.dies") == {(True,)}


def test_701_8a_a_destroy_instruction_is_regenerated() -> None:
    """"Destroy target creature" on a creature with a shield: it stays; one without dies."""
    text = PLAYERS + """battlefield:
  - {id: bear, name: Test Bear, controller: A, types: [creature], power: 2, toughness: 2,
     abilities: [{activated: {regenerate: true, to: self}, cost: [B]}]}
  - {id: rod, name: Test Rod, controller: you, types: [artifact], abilities: [{activated: {destroy: target}, target: creature, cost: [T]}]}
actions:
  - activate: {id: bear}
  - activate: {id: rod, target: bear}
"""
    assert outcome_set(text, "bear.dies") == {(False,)}
    assert outcome_set(text.replace("  - activate: {id: bear}\n", ""), "bear.dies") == {(True,)}


def test_701_19a_a_regenerated_blocker_leaves_combat_and_its_attacker_stays_blocked() -> None:
    """A 3/3 first striker blocked by a regenerating 2/2: the first-strike damage would destroy the
    blocker, it is regenerated and removed from combat, so it deals no regular damage; the attacker
    stays blocked (506.4), so none reaches A."""
    text = """players:
  - {name: you}
  - {name: A}
battlefield:
  - {id: knight, name: Test Knight, controller: you, types: [creature], power: 3, toughness: 3, attacking: A, keywords: [first strike]}
  - {id: bear, name: Test Bear, controller: A, types: [creature], power: 2, toughness: 2, blocking: knight}
effects:
""" + SHIELD + "actions:\n  - combat: {}\n"
    assert outcome_set(text, "bear.dies", "bear.damage", "knight.damage", "A.life") == {(False, 0, 0, 20)}


def test_702_19e_a_double_strike_trampler_whose_blocker_regenerated_assigns_to_the_player() -> None:
    """A 3/3 double strike trampler: first strike 2 (lethal) to the blocker and 1 to A, or 3 to the
    blocker; the blocker is regenerated and leaves combat, so the regular damage, with no blocker
    left, is all A's (702.19e): A at 16 or 17."""
    text = """players:
  - {name: you}
  - {name: A}
battlefield:
  - {id: knight, name: Test Knight, controller: you, types: [creature], power: 3, toughness: 3, attacking: A,
     keywords: [double strike, trample]}
  - {id: bear, name: Test Bear, controller: A, types: [creature], power: 2, toughness: 2, blocking: knight}
effects:
""" + SHIELD + "actions:\n  - combat: {}\n"
    assert outcome_set(text, "bear.dies", "A.life") == {(False, 16), (False, 17)}


def test_regenerate_is_created_by_a_resolving_ability_not_static() -> None:
    text = PLAYERS + """battlefield:
  - {id: bear, name: Test Bear, controller: A, types: [creature], power: 2, toughness: 2,
     abilities: [{regenerate: true, to: self}]}
"""
    assert problems(text)[0][0] == "battlefield[0].abilities[0]"
    group = PLAYERS + "battlefield:\n" + BEAR + "effects:\n  - {id: r1, regenerate: true, to: creatures, controller: A}\n"
    assert problems(group)[0][0] == "effects[0].to"


@pytest.mark.parametrize("batch", [
    "[{from: bolt, to: bear, amount: 3}]",
    "[{from: bolt, to: bear, amount: 1}]",
    "[{from: bolt, to: bear, amount: 3}, {from: bolt, to: A, amount: 2}]",
])
def test_cp_continues_a_step_with_a_regeneration_shield(batch: str) -> None:
    """The CP engine answers a step with a shield in force: the step's solutions are told apart by
    the damage each creature is dealt, and the rules engine, replaying each, regenerates (701.19a);
    the same outcomes as the graph engine, with the shield used only when lethal damage was dealt."""
    text = PLAYERS + "battlefield:\n" + BEAR + BOLT + "effects:\n" + SHIELD + \
        "actions:\n  - damage: " + batch + "\n  - damage: [{from: bolt, to: bear, amount: 2}]\n"
    case = case_from(text)
    assert cp_supported(case) is None
    graph = {o.state for o in enumerate_outcomes(case, engine="graph").outcomes}
    cp = {o.state for o in enumerate_outcomes(case, engine="cp").outcomes}
    assert cp == graph


def test_616_1_regeneration_beside_exile_instead_is_an_error() -> None:
    """Both replace what would happen to it (its controller's choice, 616.1): not modelled, said."""
    text = PLAYERS + "battlefield:\n" + BEAR + BOLT + "effects:\n" + SHIELD + \
        "  - {id: ex, exile_instead: true, to: bear, controller: you}\n" + \
        "actions:\n  - damage: [{from: bolt, to: bear, amount: 3}]\n"
    with pytest.raises(EngineError, match="616.1"):
        enumerate_outcomes(case_from(text), engine="graph")


@pytest.mark.parametrize("name, cost", [("Carnassid", [1, "G"]), ("Blight Mamba", [1, "G"]), ("Deepwood Ghoul", [{"pay_life": 2}])])
def test_701_19a_regenerate_lines_of_real_cards(name: str, cost: list[object]) -> None:
    r = read_face(find(name).face)
    assert {"activated": {"regenerate": True, "to": "self"}, "cost": cost} in r.abilities

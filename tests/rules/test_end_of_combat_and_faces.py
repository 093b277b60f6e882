"""The end of combat (CR 511.3, 506.4) and cards with a face the card data lacks (709, 712, 715)."""

from __future__ import annotations

import json

import pytest

from ..helpers import both_engines, case_from

_ALMS = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: beast, card: Alms Beast, controller: you, attacking: A}
  - {id: pinger, name: Test Pinger, controller: A, types: [creature], power: 1, toughness: 7, blocking: beast,
     abilities: [{activated: {deal: 1, to: target}, cost: [T], target: any}]}
actions:
  - combat: {}
"""


def test_a_blocker_has_lifelink_in_combat_only() -> None:
    """Alms Beast's blocker gains life for its combat damage (702.15b), not for a ping after the
    end of combat, when it is no longer blocking (511.3, 506.4)."""
    assert both_engines(_ALMS, "A.life") == {(21,)}
    assert both_engines(_ALMS + "  - activate: {id: pinger, target: you}\n", "A.life", "you.life") == {(21, 19)}


def test_an_attacker_blocked_by_it_has_lifelink() -> None:
    """"blocked by ~": the attacker Alms Beast blocks gains life for its combat damage (509.1g)."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: bear, name: Test Bear, controller: A, types: [creature], power: 2, toughness: 2, attacking: you}
  - {id: beast, card: Alms Beast, controller: you, blocking: bear}
  - {id: other, name: Test Other, controller: A, types: [creature], power: 2, toughness: 2, attacking: you}
actions:
  - combat: {}
"""
    # the blocked bear gains A 2; the unblocked one deals you 2 without lifelink
    assert both_engines(text, "A.life", "you.life") == {(22, 18)}


def test_after_combat_nothing_is_attacking() -> None:
    """An ability after combat that targets an attacking creature has no legal target (506.4,
    601.2c): it isn't activated, the bear is dealt nothing."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: bear, name: Test Bear, controller: A, types: [creature], power: 2, toughness: 2, attacking: you}
  - {id: pump, name: Test Ping Attacker, controller: you, types: [artifact],
     abilities: [{activated: {deal: 2, to: target}, target: {types: [creature], in_combat: [attacking]}}]}
actions:
  - combat: {}
  - activate: {id: pump, target: bear}
"""
    assert both_engines(text, "bear.damage", "bear.dies", "you.life") == {(0, False, 18)}


def test_card_with_a_missing_face_is_never_fully_understood(capsys: pytest.CaptureFixture[str]) -> None:
    from mtg_outcomes.cli import main

    assert main(["card", "Bonecrusher Giant"]) == 1
    out = capsys.readouterr().out
    assert "Stomp: not in the shipped card data" in out
    # Assault's own line is understood; Battery is missing, so the card is not
    assert main(["card", "Assault", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["understood"] is False and data["missing_faces"] == ["Battery"] and data["named_face"] == "Assault"
    # a transforming card's back face is read too (Garruk, the Veil-Cursed)
    assert main(["card", "Garruk Relentless", "--json"]) == 1
    names = [f["name"] for f in json.loads(capsys.readouterr().out)["faces"]]
    assert names == ["Garruk Relentless", "Garruk, the Veil-Cursed"]


def test_a_case_naming_a_card_with_a_missing_face_says_so() -> None:
    case = case_from("""
players: [{name: you}, {name: A}]
sources: [{id: s, card: Assault, controller: you}]
actions:
  - cast: {id: s, target: A}
""")
    assert any("lacks the text of its other face 'Battery'" in str(w) for w in case.warnings)


def test_card_says_why_a_line_is_not_understood(capsys: pytest.CaptureFixture[str]) -> None:
    """The nearest template and the words it could not read; a line's sentences read alone."""
    from mtg_outcomes.model.recognise.why import why_not_understood

    why = why_not_understood("Whenever an opponent sacrifices a creature, you gain that much life.", "Test Blood",
                             ["enchantment"])
    assert why[-1].startswith("nearest template: life_change_trigger") and "'sacrifices a creature'" in why[-1]
    why = why_not_understood("Flame Spill deals 4 damage to target creature. Excess damage is dealt to that "
                             "creature's controller instead.", "Flame Spill", ["sorcery"])
    assert why[0] == "sentence '~ deals 4 damage to target creature.': understood alone (spell_one_shot)"
    assert why[1].endswith(": not understood") and "Excess damage" in why[1]
    from mtg_outcomes.cli import main

    # (Honor Troll's line, the example here before, is read now: model.recognise.lifept)
    assert main(["card", "Blood Baron of Vizkopa"]) == 1
    assert "what it could not read: 'more life and an opponent has 10 or'" in capsys.readouterr().out

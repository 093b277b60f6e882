"""Tokens (CR 111): the ``create_tokens`` action, the tokens it creates as permanents, and the
recogniser's token phrases on real cards' Oracle text (abilities expected written by hand)."""

from __future__ import annotations

from typing import Any

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.recognise import read_face

from ..helpers import case_error as _error
from ..helpers import case_from, outcome_set

PLAYERS = """
players:
  - {name: you, life: 10}
  - {name: A, life: 20}
"""
T = "T"
SOLDIER = {"types": ["creature"], "subtypes": ["Soldier"], "colors": ["white"], "power": 1, "toughness": 1}




# ---- the vocabulary and the engine ------------------------------------------------------------

def test_111_10b_a_food_token_is_sacrificed_to_gain_3_life() -> None:
    """An action creating two Food tokens (111.1, 111.2); each has "{2}, {T}, Sacrifice this
    artifact: You gain 3 life." (111.10b), usable at once (an artifact: no summoning sickness, 302.6)."""
    text = PLAYERS + """
actions:
  - {create_tokens: 2, token: Food}
  - activate: {id: you-token1}
  - activate: {id: you-token2}
  - activate: {id: you-token2}
"""
    assert outcome_set(text, "you.life", "you-token1.dies", "you-token2.dies") == {(16, True, True)}


def test_111_3_a_creature_token_is_dealt_damage_and_has_its_keywords() -> None:
    """A 1/1 lifelink Soldier token: its damage gains its controller life (702.15), 1 damage to
    it is lethal (704.5g); created by a permanent's ability, its id names that permanent."""
    text = PLAYERS + """
battlefield:
  - id: maker
    name: Maker
    controller: you
    types: [artifact]
    abilities:
      - {activated: {create_tokens: 1, token: {types: [creature], subtypes: [Soldier], colors: [white], power: 1, toughness: 1, keywords: [lifelink]}}}
sources:
  - {id: ping, name: Ping, controller: A, types: [instant]}
actions:
  - activate: {id: maker}
  - damage: [{from: maker-token1, to: A, amount: 1}, {from: ping, to: maker-token1, amount: 1}]
"""
    assert outcome_set(text, "you.life", "A.life", "maker-token1.dies") == {(11, 19, True)}


def test_603_6a_tokens_created_at_once_enter_at_once() -> None:
    """Soul Warden sees each of the two Soldiers enter: two triggers, 2 life."""
    text = PLAYERS + """
battlefield:
  - {id: warden, card: Soul Warden, controller: you}
actions:
  - cast: {card: Raise the Alarm, controller: you}
"""
    assert outcome_set(text, "you.life", "raise-the-alarm-token2.dies") == {(12, False)}


def test_302_6_a_creature_token_is_summoning_sick() -> None:
    """An Eldrazi Spawn token's "Sacrifice this creature: Add {C}." has no {T}: usable at once;
    a {T} ability of a creature token that entered this turn is not (302.6)."""
    text = PLAYERS + """
actions:
  - {create_tokens: 1, token: {types: [creature], subtypes: [Elf], colors: [green], power: 1, toughness: 1, abilities: [{mana: [G], cost: [T]}]}}
  - tap_for_mana: you-token1
  - {create_tokens: 1, token: {types: [creature], subtypes: [Eldrazi, Spawn], colors: [], power: 0, toughness: 1, abilities: [{mana: [C], cost: [{sacrifice: self}]}]}}
  - tap_for_mana: you-token2
"""
    assert outcome_set(text, "you.mana", "you-token1.tapped", "you-token2.dies") == {(("C",), False, True)}


def test_graph_and_cp_agree_with_a_token_blocker() -> None:
    text = """
players:
  - {name: A}
  - {name: you}
battlefield:
  - {id: giant, name: Giant, controller: A, types: [creature], power: 3, toughness: 3, attacking: you}
actions:
  - {create_tokens: 2, token: {types: [creature], subtypes: [Soldier], colors: [white], power: 1, toughness: 1}}
  - combat: {blocks: choose}
"""
    fields = ("you.life", "giant.damage", "you-token1.dies", "you-token2.dies")
    graph = outcome_set(text, *fields)
    # no block; one Soldier blocks; both block and the Giant's 3 is divided as A chooses (510.1c):
    # all 3 to one of them (the other lives) or some to each (both die)
    assert graph == {(17, 0, False, False), (20, 1, True, False), (20, 1, False, True),
                     (20, 2, True, True), (20, 2, True, False), (20, 2, False, True)}
    assert outcome_set(text, *fields, engine="cp") == graph


def test_111_token_vocabulary_errors() -> None:
    base = PLAYERS + "actions:\n"
    assert "unknown predefined token 'Cake'" in _error(base + "  - {create_tokens: 1, token: Cake}\n")
    assert "create_tokens needs token:" in _error(base + "  - {create_tokens: 1}\n")
    assert "a creature token needs power: and toughness:" in _error(
        base + "  - {create_tokens: 1, token: {types: [creature], subtypes: [Bear]}}\n")
    assert "unknown keyword 'decayed'" in _error(
        base + "  - {create_tokens: 1, token: {types: [creature], power: 2, toughness: 2, keywords: [decayed]}}\n")
    # a rider that creates tokens without naming them: refused, not silently done as nothing
    assert "create_tokens needs token:" in _error(PLAYERS + """
effects:
  - {id: s, controller: you, shield: 1, to: you, then: {create_tokens: prevented}}
""")


SOLDIERS = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: b, name: Bear, controller: A, types: [creature], power: 2, toughness: 2}
effects:
  - {id: s, controller: you, shield: 3, to: you, then: {create_tokens: prevented,
     token: {types: [creature], subtypes: [Soldier], colors: [white], power: 1, toughness: 1}}}
actions:
  - damage: [{from: b, to: you, amount: 2}]
"""


def test_615_5_a_rider_creates_one_token_per_point_prevented() -> None:
    """docs/design.md's ``{create_tokens: prevented}`` rider with its token named (111.1): the shield
    prevents 2 of its 3, and the rider creates two 1/1 Soldiers under the effect's controller
    (111.2); the CP engine leaves the rider to the rules engine after the step, from what the
    shield prevented (solver.cp.suffix): the same outcomes."""
    from mtg_outcomes.cp import cp_supported

    fields = ("you.life", "s.remaining", "you-token1.dies", "you-token2.dies")
    assert outcome_set(SOLDIERS, *fields) == {(20, 1, False, False)}
    assert not any(k.startswith("you-token3") for o in enumerate_outcomes(case_from(SOLDIERS)).outcomes for k in o.values)
    assert cp_supported(case_from(SOLDIERS)) is None
    assert outcome_set(SOLDIERS, *fields, engine="cp") == {(20, 1, False, False)}


def test_615_5_a_token_rider_beside_another_rider_in_both_engines() -> None:
    """Two shields with riders over two events (615.7: the split is a choice): the token rider
    and a damage rider both happen after the batch, before state-based actions (615.5); the rules
    engine does both after the CP step. Graph == CP, witnesses replayed."""
    from ..cp.test_cp import assert_same

    text = SOLDIERS.replace("types: [creature], power: 2, toughness: 2}", """types: [creature], power: 2, toughness: 2}
  - {id: c, name: Cub, controller: A, types: [creature], power: 1, toughness: 3}""").replace(
        "actions:", "  - {id: t, controller: you, shield: 3, to: you, then: {deal: prevented, to: c}}\nactions:").replace(
        "amount: 2}]", "amount: 2}, {from: c, to: you, amount: 3}]")
    case = case_from(text)
    assert assert_same(case) > 1
    assert {o.values["c.dies"] for o in enumerate_outcomes(case, engine="cp").outcomes} == {True, False}


def test_a_token_id_names_a_creator_of_the_case() -> None:
    """``<creator>-token<n>`` is accepted where a permanent is named only for a creator the
    case has (a player or an object); anything else is an unknown id."""
    text = PLAYERS + "actions:\n  - {create_tokens: 1, token: Food}\n  - activate: {id: nobody-token1}\n"
    assert "unknown id 'nobody-token1'" in _error(text)
    case = case_from(PLAYERS + "actions:\n  - {create_tokens: 1, token: Food}\n")
    from mtg_outcomes.model.load.fields import field_problem

    assert field_problem(case, "you-token1.dies") == ""
    assert field_problem(case, "nobody-token1.dies") != ""


# ---- the recogniser on real cards ----------------------------------------------------------------

def _abilities(name: str) -> list[Any]:
    r = read_face(find(name).face)
    assert r.understood, [x.text for x in r.not_understood]
    return r.abilities


def test_enters_trigger_creates_a_food_token() -> None:
    """Canyon Crawler: "When this creature enters, create a Food token.\""""
    assert _abilities("Canyon Crawler") == [{"trigger": "enters", "do": {"create_tokens": 1, "token": "Food"}}]


def test_spell_creates_creature_tokens() -> None:
    """Raise the Alarm: "Create two 1/1 white Soldier creature tokens.\""""
    assert _abilities("Raise the Alarm") == [{"spell": {"create_tokens": 2, "token": SOLDIER}}]


def test_dies_trigger_creates_a_flying_token() -> None:
    """Doomed Traveler: "When this creature dies, create a 1/1 white Spirit creature token with flying.\""""
    spirit = {"types": ["creature"], "subtypes": ["Spirit"], "colors": ["white"], "power": 1, "toughness": 1,
              "keywords": ["flying"]}
    assert _abilities("Doomed Traveler") == [{"trigger": "dies", "do": {"create_tokens": 1, "token": spirit}}]


def test_spell_draws_and_creates_a_treasure() -> None:
    """Deadly Dispute: "As an additional cost to cast this spell, sacrifice an artifact or creature."
    (paid as it is cast, 601.2h) / "Draw two cards and create a Treasure token.\""""
    assert _abilities("Deadly Dispute") == [{"cast_cost": [{"sacrifice": ["artifacts", "creatures"]}]},
                                            {"spell": {"draw": 2, "who": "you"}},
                                            {"spell": {"create_tokens": 1, "token": "Treasure"}}]


def test_quoted_ability_of_the_tokens() -> None:
    """Dance with Devils: "Create two 1/1 red Devil creature tokens. They have 'When this token
    dies, it deals 1 damage to any target.'"; Dread Drone's Eldrazi Spawn: "They have 'Sacrifice
    this token: Add {C}.'\""""
    devil = {"types": ["creature"], "subtypes": ["Devil"], "colors": ["red"], "power": 1, "toughness": 1,
             "abilities": [{"trigger": "dies", "do": {"deal": 1, "to": "any"}}]}
    assert _abilities("Dance with Devils") == [{"spell": {"create_tokens": 2, "token": devil}}]
    spawn = {"types": ["creature"], "subtypes": ["Eldrazi", "Spawn"], "colors": [], "power": 0, "toughness": 1,
             "abilities": [{"mana": ["C"], "cost": [{"sacrifice": "self"}]}]}
    assert {"trigger": "enters", "do": {"create_tokens": 2, "token": spawn}} in _abilities("Dread Drone")


def test_tokens_with_unknown_abilities_are_not_understood() -> None:
    """"with decayed" (a keyword the tool doesn't know) leaves the line not understood."""
    from mtg_outcomes.model.recognise import read_text

    r = read_text("When this creature dies, create a 2/2 black Zombie creature token with decayed.", "X", ["creature"])
    assert not r.understood
    r = read_text("When this creature dies, create a 1/1 colorless Phyrexian Mite artifact creature token with "
                  "toxic 1 and \"This token can't block.\"", "X", ["creature"])
    assert not r.understood  # a block restriction is ignored only for written blocks, never on a token


def test_investigate_creates_a_clue() -> None:
    """Ballroom: "{T}: Add {W} or {B}." / "{4}, {T}: Investigate." (701.16a: create a Clue token,
    111.10f: "{2}, Sacrifice this artifact: Draw a card.")."""
    assert _abilities("Ballroom") == [{"mana": {"one_of": ["W", "B"]}, "cost": [T]},
                                      {"activated": {"create_tokens": 1, "token": "Clue"}, "cost": [4, T]}]
    text = PLAYERS + """
actions:
  - {create_tokens: 1, token: Clue}
  - activate: {id: you-token1}
"""
    assert outcome_set(text, "you.cards_drawn", "you-token1.dies") == {(1, True)}


def test_that_many_tokens_read_the_damage_dealt() -> None:
    """Old Gnawbone: "Whenever a creature you control deals combat damage to a player, create
    that many Treasure tokens." — 3 combat damage, 3 Treasures (the trigger's damage_dealt)."""
    assert _abilities("Old Gnawbone") == [{"trigger": "combat_damage_to_player", "from": "creatures you control",
                                           "do": {"create_tokens": "damage_dealt", "token": "Treasure"}}]
    text = """
players:
  - {name: you}
  - {name: A}
battlefield:
  - {id: gnaw, card: Old Gnawbone, controller: you}
  - {id: giant, name: Giant, controller: you, types: [creature], power: 3, toughness: 3, attacking: A}
actions:
  - combat: {}
"""
    assert outcome_set(text, "A.life", "gnaw-token3.dies", "gnaw-token3.tapped") == {(17, False, False)}


def test_end_step_trigger_if_you_gained_life() -> None:
    """Angelic Accord: "At the beginning of each end step, if you gained 4 or more life this turn,
    create a 4/4 white Angel creature token with flying." (an intervening if, 603.4)."""
    angel = {"types": ["creature"], "subtypes": ["Angel"], "colors": ["white"], "power": 4, "toughness": 4,
             "keywords": ["flying"]}
    assert _abilities("Angelic Accord") == [{"trigger": "end_step", "if": {"life_gained_at_least": 4},
                                             "do": {"create_tokens": 1, "token": angel}}]
    text = """
players:
  - {name: you, life_gained_this_turn: GAINED}
  - {name: A}
battlefield:
  - {id: accord, card: Angelic Accord, controller: you}
actions:
  - end_step: {}
  - {create_tokens: 1, token: Food}
"""
    # the Angel is the Accord's first token; the Food is you-token1 either way
    assert outcome_set(text.replace("GAINED", "4"), "accord-token1.dies", "you-token1.dies") == {(False, False)}
    # 3 gained: no trigger, so no Angel: the outcome has no accord-token1
    assert outcome_set(text.replace("GAINED", "3"), "accord-token1.dies", "you-token1.dies") == {(None, False)}

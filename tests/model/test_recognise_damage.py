"""The damage and trigger families' templates (model/recognise/damage.py, triggers.py, amounts.py): real
cards' Oracle text (the card data) against hand-written abilities, each valid vocabulary, and the
new amounts' semantics in both engines."""

from __future__ import annotations

from typing import Any

import pytest

from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.recognise import read_face
from mtg_outcomes.model.vocab import parse_ability
from tests.helpers import outcome_set

# (card, its Oracle text as the card data has it, the abilities its lines become)
CARDS: list[tuple[str, str, list[Any]]] = [
    ("Ground Assault", "Ground Assault deals damage to target creature equal to the number of lands you control.",
     [{"spell": {"deal": {"count": "lands you control"}, "to": "target"}, "target": "creature"}]),
    ("Welding Sparks", "Welding Sparks deals X damage to target creature, where X is 3 plus the number of artifacts you control.",
     [{"spell": {"deal": {"count": "artifacts you control", "plus": 3}, "to": "target"}, "target": "creature"}]),
    ("Gates Ablaze", "Gates Ablaze deals X damage to each creature, where X is the number of Gates you control.",
     [{"spell": {"deal": {"count": "gate permanents you control"}, "to": "creatures"}}]),
    ("Spikeshot Goblin", "{R}, {T}: This creature deals damage equal to its power to any target.",
     [{"activated": {"deal": {"power": "self"}, "to": "target"}, "target": "any", "cost": ["R", "T"]}]),
]


@pytest.mark.parametrize("name,text,expected", CARDS, ids=[c[0] for c in CARDS])
def test_real_card_lines(name: str, text: str, expected: list[Any]) -> None:
    face = find(name).face
    assert face["text"] == text
    reading = read_face(face)
    assert reading.understood, [r.text for r in reading.not_understood]
    assert reading.abilities == expected
    for i, ab in enumerate(reading.abilities):
        parse_ability(ab, f"abilities[{i}]")


def test_counted_amount_is_read_as_it_resolves() -> None:
    """608.2h: the number of lands you control when Ground Assault resolves; only yours, only lands."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: m, card: Mountain, controller: you}
  - {id: f, card: Forest, controller: you}
  - {id: bears, card: Grizzly Bears, controller: you}
  - {id: f2, card: Forest, controller: A}
  - {id: giant, card: Hill Giant, controller: A}
actions:
  - cast: {card: Ground Assault, controller: you, target: giant, responses: [{leave: f}]}
"""
    for engine in ("graph", "cp"):
        assert outcome_set(text, "giant.damage", "giant.dies", engine=engine) == {(1, False)}


def test_power_amount_of_a_sacrificed_creature_is_its_last_known_power() -> None:
    """"{R}, Sacrifice ~: It deals damage equal to its power" reads the power it last had (608.2h, 113.7a)."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - id: shade
    name: Test Shade
    controller: you
    power: 1
    toughness: 1
    counters: {+1/+1: 2}
    abilities:
      - {activated: {deal: {power: self}, to: target}, target: any, cost: [{sacrifice: self}]}
actions:
  - activate: {id: shade, target: A}
"""
    for engine in ("graph", "cp"):
        assert outcome_set(text, "A.life", engine=engine) == {(17,)}


@pytest.mark.parametrize("amount,reason", [
    ({"count": "you"}, "count: counts permanents"),
    ({"count": "lands you control", "minus": 1}, "unknown key"),
    ({"power": "enchanted creature"}, "power: self"),  # (self, target and itself are modelled)
    ({"count": "lands you control", "power": "self"}, "is {count: <selector>} or {power: self}"),
])
def test_bad_game_read_amounts(amount: Any, reason: str) -> None:
    from mtg_outcomes.model.errors import CaseError

    with pytest.raises(CaseError, match=reason.replace("{", r"\{").replace("}", r"\}")):
        parse_ability({"activated": {"deal": amount, "to": "you"}}, "abilities[0]")


ALSO_CARDS: list[tuple[str, str, list[Any]]] = [
    ("Goblin Artillery", "{T}: This creature deals 2 damage to any target and 3 damage to you.",
     [{"activated": {"deal": 2, "to": "target", "also": [{"deal": 3, "to": "you"}]}, "target": "any", "cost": ["T"]}]),
    ("Char", "Char deals 4 damage to any target and 2 damage to you.",
     [{"spell": {"deal": 4, "to": "target", "also": [{"deal": 2, "to": "you"}]}, "target": "any"}]),
    ("Forge Devil", "When this creature enters, it deals 1 damage to target creature and 1 damage to you.",
     [{"trigger": "enters", "target": "creature", "do": {"deal": 1, "to": "target", "also": [{"deal": 1, "to": "you"}]}}]),
    ("Sparksmith", "{T}: This creature deals X damage to target creature and X damage to you, where X is the number of "
     "Goblins on the battlefield.",
     [{"activated": {"deal": {"count": "goblin permanents"}, "to": "target",
                     "also": [{"deal": {"count": "goblin permanents"}, "to": "you"}]}, "target": "creature", "cost": ["T"]}]),
    ("Armadillo Cloak", "Enchant creature\nEnchanted creature gets +2/+2 and has trample.\n"
     "Whenever enchanted creature deals damage, you gain that much life.",
     [{"pt": [2, 2], "grant": ["trample"], "to": "enchanted creature"},
      {"trigger": "deals_damage", "from": "enchanted creature", "do": {"gain_life": "damage_dealt", "who": "you"}}]),
]


@pytest.mark.parametrize("name,text,expected", ALSO_CARDS, ids=[c[0] for c in ALSO_CARDS])
def test_real_card_lines_more(name: str, text: str, expected: list[Any]) -> None:
    test_real_card_lines(name, text, expected)


def test_also_damage_is_one_batch_in_both_engines() -> None:
    """Sparksmith counts every Goblin on the battlefield, itself and A's included (608.2h), and
    deals that much to its target and to you in one batch (120.2)."""
    text = """
players: [{name: you, life: 5}, {name: A}]
battlefield:
  - {id: smith, card: Sparksmith, controller: you}
  - {id: other, name: Test Goblin, controller: A, power: 1, toughness: 1, subtypes: [Goblin]}
  - {id: bears, card: Grizzly Bears, controller: A}
actions:
  - activate: {id: smith, target: bears}
"""
    for engine in ("graph", "cp"):
        assert outcome_set(text, "you.life", "bears.damage", "bears.dies", engine=engine) == {(3, 2, True)}


def test_also_part_has_no_target_of_its_own() -> None:
    from mtg_outcomes.model.errors import CaseError

    with pytest.raises(CaseError, match="no target of its own"):
        parse_ability({"activated": {"deal": 1, "to": "you", "also": [{"deal": 1, "to": "target"}]}, "target": "any"},
                      "abilities[0]")
    with pytest.raises(CaseError, match="a spell with targets:"):
        parse_ability({"spell": {"deal": 1, "to": "target", "also": [{"deal": 1, "to": "you"}]}, "target": "any",
                       "targets": {"min": 1, "max": 2}}, "abilities[0]")


CONTROLLER_CARDS: list[tuple[str, str, list[Any]]] = [
    ("Consign to the Pit", "Destroy target creature. Consign to the Pit deals 2 damage to that creature's controller.",
     [{"spell": {"destroy": "target"}, "target": "creature"}, {"spell": {"deal": 2, "to": "target's controller"}}]),
    ("Chandra's Outrage", "Chandra's Outrage deals 4 damage to target creature and 2 damage to that creature's controller.",
     [{"spell": {"deal": 4, "to": "target", "also": [{"deal": 2, "to": "target's controller"}]}, "target": "creature"}]),
    ("Careless Celebrant", "When this creature dies, it deals 2 damage to target creature or planeswalker an opponent controls.",
     [{"trigger": "dies", "target": ["creatures an opponent controls", "planeswalkers an opponent controls"],
       "do": {"deal": 2, "to": "target"}}]),
    ("Destructive Revelry", "Destroy target artifact or enchantment. Destructive Revelry deals 2 damage to that "
     "permanent's controller.",
     [{"spell": {"destroy": "target"}, "target": ["artifacts", "enchantments"]},
      {"spell": {"deal": 2, "to": "target's controller"}}]),
]


@pytest.mark.parametrize("name,text,expected", CONTROLLER_CARDS, ids=[c[0] for c in CONTROLLER_CARDS])
def test_real_card_lines_controller(name: str, text: str, expected: list[Any]) -> None:
    test_real_card_lines(name, text, expected)


@pytest.mark.parametrize("text", [
    # "that creature" is the entering one, no target: not the vocabulary's target's controller
    "Whenever another creature enters, this creature deals 1 damage to that creature's controller.",
    # the target may be a player: "that creature's controller" isn't always there
    "{T}: This creature deals 1 damage to any target and 1 damage to that creature's controller.",
])
def test_that_creatures_controller_needs_a_permanent_target(text: str) -> None:
    from mtg_outcomes.model.recognise import read_text

    assert read_text(text, "Test Card", ("creature",)).lines[0].status == "not understood"


def test_target_controller_in_both_engines() -> None:
    """Chandra's Outrage at A's Bears: 4 to the Bears and 2 to A, their controller (120.2, 608.2h)."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: bears, card: Grizzly Bears, controller: A}
actions:
  - cast: {card: Chandra's Outrage, controller: you, target: bears}
"""
    for engine in ("graph", "cp"):
        assert outcome_set(text, "A.life", "you.life", "bears.dies", engine=engine) == {(18, 20, True)}


SACRIFICE_CARDS: list[tuple[str, str, list[Any]]] = [
    ("Goblin Bombardment", "Sacrifice a creature: This enchantment deals 1 damage to any target.",
     [{"activated": {"deal": 1, "to": "target"}, "target": "any", "cost": [{"sacrifice": "creatures"}]}]),
    ("Barrage Ogre", "{T}, Sacrifice an artifact: This creature deals 2 damage to any target.",
     [{"activated": {"deal": 2, "to": "target"}, "target": "any", "cost": ["T", {"sacrifice": "artifacts"}]}]),
    ("Blazing Hellhound", "{1}, Sacrifice another creature: This creature deals 1 damage to any target.",
     [{"activated": {"deal": 1, "to": "target"}, "target": "any", "cost": [1, {"sacrifice": "other creatures"}]}]),
]


@pytest.mark.parametrize("name,text,expected", SACRIFICE_CARDS, ids=[c[0] for c in SACRIFICE_CARDS])
def test_real_card_lines_sacrifice(name: str, text: str, expected: list[Any]) -> None:
    test_real_card_lines(name, text, expected)


def test_sacrifice_a_creature_is_a_choice_and_needs_one() -> None:
    """701.21a, 601.2h: one creature of its controller's, their choice; with "another creature" not
    itself; with none to sacrifice the ability isn't activated."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: hound, card: Blazing Hellhound, controller: you}
  - {id: bears, card: Grizzly Bears, controller: you}
  - {id: giant, card: Hill Giant, controller: A}
actions:
  - activate: {id: hound, target: A}
"""
    for engine in ("graph", "cp"):
        assert outcome_set(text, "A.life", "bears.dies", "hound.dies", engine=engine) == {(19, True, False)}
    alone = text.replace("  - {id: bears, card: Grizzly Bears, controller: you}\n", "")
    assert outcome_set(alone, "A.life", "hound.dies") == {(20, False)}


def test_a_mana_ability_sacrificing_another_permanent_is_not_read() -> None:
    from mtg_outcomes.model.carddata import find as find_card
    from mtg_outcomes.model.errors import CaseError

    assert not read_face(find_card("Ashnod's Altar").face).understood
    with pytest.raises(CaseError, match="mana ability"):
        parse_ability({"mana": ["C", "C"], "cost": [{"sacrifice": "creatures"}]}, "abilities[0]")


@pytest.mark.parametrize("text,expected", [
    ("{T}, Sacrifice a Desert", ["T", {"sacrifice": "desert permanents"}]),
    ("Sacrifice an artifact or creature", [{"sacrifice": ["artifacts", "creatures"]}]),
    ("{1}, Sacrifice another creature or artifact", [1, {"sacrifice": ["other creatures", "other artifacts"]}]),
    ("Sacrifice two creatures", None),
])
def test_sacrifice_costs(text: str, expected: Any) -> None:
    from mtg_outcomes.model.recognise.base import cost

    assert cost(text) == expected

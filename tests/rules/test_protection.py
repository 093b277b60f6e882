"""Protection from a quality (CR 702.16a): damage from sources with it is prevented (702.16e, a
prevention effect, so 615.12 applies), it can't be the target of spells with it or abilities from
sources with it (702.16b), blocked by creatures with it (702.16f), enchanted or equipped by Auras or
Equipment with it (702.16c-d). Outcomes derived by hand."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.recognise.keywordlines import read_keywords

from ..helpers import outcome_set, problems

PLAYERS = "players:\n  - {name: A}\n  - {name: you}\n"
PRO_WHITE = "abilities: [{protection: {from: white sources}, to: self}]"


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_702_16e_damage_from_a_source_of_that_colour_is_prevented(engine: str) -> None:
    """A white and a red source deal 3 each at once to a 2/4 with protection from white: the
    white source's 3 is prevented, the red's 3 is dealt (not lethal); a second white event too."""
    text = PLAYERS + f"""
battlefield:
  - {{id: knight, name: Test Knight, controller: you, types: [creature], colors: [black], power: 2, toughness: 4, {PRO_WHITE}}}
  - {{id: w, name: White Source, controller: A, types: [creature], colors: [white], power: 3, toughness: 3}}
  - {{id: r, name: Red Source, controller: A, types: [creature], colors: [red], power: 3, toughness: 3}}
actions:
  - damage: [{{from: w, to: knight, amount: 3}}, {{from: r, to: knight, amount: 3}}]
"""
    assert outcome_set(text, "knight.damage", "knight.dies", engine=engine) == {(3, False)}
    both = text.replace("amount: 3}]", "amount: 3}, {from: w, to: knight, amount: 1}]")
    assert outcome_set(both, "knight.damage", engine=engine) == {(3,)}


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_615_12_protection_doesnt_prevent_damage_that_cant_be_prevented(engine: str) -> None:
    """702.16e is a prevention effect: "damage can't be prevented" (615.12) leaves the white
    source's 3 dealt, lethal for the 2/2 (704.5g), and its lifelink gains 3 (702.15b)."""
    text = PLAYERS + f"""
battlefield:
  - {{id: knight, name: Test Knight, controller: you, types: [creature], colors: [black], power: 2, toughness: 2, {PRO_WHITE}}}
  - {{id: w, name: White Source, controller: A, types: [creature], colors: [white], power: 3, toughness: 3, keywords: [lifelink]}}
effects:
  - {{id: nope, cant_be_prevented: true, controller: A}}
actions:
  - damage: [{{from: w, to: knight, amount: 3}}]
"""
    assert outcome_set(text, "knight.dies", "A.life", engine=engine) == {(True, 23)}
    assert outcome_set(text.replace("  - {id: nope, cant_be_prevented: true, controller: A}\n", "").replace(
        "effects:\n", ""), "knight.dies", "A.life", engine=engine) == {(False, 20)}


def test_702_16b_not_the_target_of_a_spell_with_that_quality() -> None:
    """Protection from instants: A's instant naming no target chooses among you and A only."""
    text = PLAYERS + """
battlefield:
  - {id: knight, name: Test Knight, controller: you, types: [creature], power: 2, toughness: 2,
     abilities: [{protection: {from: {types: [instant]}}, to: self}]}
actions:
  - cast: {card: Lightning Bolt, controller: A}
"""
    assert outcome_set(text, "A.life", "you.life", "knight.damage") == {(17, 20, 0), (20, 17, 0)}


def test_702_16b_nor_of_an_ability_from_a_source_with_it() -> None:
    """A white pinger's "{T}: deal 1 damage to any target" can't target a creature with protection
    from white; a red pinger's can."""
    pinger = "{{id: p, name: Pinger, controller: A, types: [creature], colors: [{c}], power: 1, toughness: 1, " \
             "abilities: [{{activated: {{deal: 1, to: target}}, target: creature, cost: [T]}}]}}"
    text = PLAYERS + f"""
battlefield:
  - {{id: knight, name: Test Knight, controller: you, types: [creature], power: 2, toughness: 2, {PRO_WHITE}}}
  - {pinger.format(c="white")}
actions:
  - activate: {{id: p}}
"""
    assert outcome_set(text, "knight.damage", "p.damage") == {(0, 1)}
    assert outcome_set(text.replace("[white]", "[red]"), "knight.damage", "p.damage") == {(1, 0), (0, 1)}


def test_702_16f_cant_be_blocked_by_creatures_with_that_quality() -> None:
    """Protection from Demons: A's Demon can't block it, A's Bear can (blocks chosen, 509.1)."""
    text = """players:
  - {name: you}
  - {name: A}
battlefield:
  - {id: knight, name: Test Knight, controller: you, types: [creature], power: 2, toughness: 2, attacking: A,
     abilities: [{protection: {from: {subtypes: [Demon]}}, to: self}]}
  - {id: demon, name: Test Demon, controller: A, types: [creature], subtypes: [Demon], power: 5, toughness: 5}
  - {id: bear, name: Test Bear, controller: A, types: [creature], subtypes: [Bear], power: 2, toughness: 2}
actions:
  - combat: {blocks: choose}
"""
    assert outcome_set(text, "A.life", "knight.dies", "bear.dies") == {(18, False, False), (20, True, True)}


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_702_16c_an_aura_with_that_quality_falls_off(engine: str) -> None:
    """The Bear gains protection from white (702.16c): the white Aura's "prevent 2 damage to
    enchanted creature" is put into the graveyard at the next check (704.5m), so A's 3 is dealt."""
    text = PLAYERS + """
battlefield:
  - {id: bear, name: Test Bear, controller: you, types: [creature], power: 2, toughness: 4}
  - {id: ward, name: Test Ward, controller: you, types: [enchantment], subtypes: [Aura], colors: [white],
     abilities: [{prevent: 2, to: enchanted creature}], attached_to: bear}
sources:
  - {id: blast, name: Test Blast, controller: A, colors: [red], types: [sorcery]}
actions:
  - create: {id: prot, protection: {from: white sources}, to: bear, controller: you}
  - damage: [{from: blast, to: bear, amount: 3}]
"""
    assert outcome_set(text, "bear.damage", "ward.dies", engine=engine) == {(3, True)}
    green = text.replace("from: white sources", "from: green sources")
    assert outcome_set(green, "bear.damage", "ward.dies", engine=engine) == {(1, False)}


def test_protection_from_names_a_quality_of_objects() -> None:
    text = PLAYERS + """
battlefield:
  - {id: knight, name: Test Knight, controller: you, types: [creature], power: 2, toughness: 2,
     abilities: [{protection: {from: opponents}, to: self}]}
"""
    assert problems(text)[0][0] == "battlefield[0].abilities[0].protection.from"
    both = text.replace("{from: opponents}", "{from: white sources, from_player: A}")
    assert problems(both)[0][0] == "battlefield[0].abilities[0].protection"


@pytest.mark.parametrize("line, quality", [
    ("Protection from white", "white sources"),
    ("First strike, protection from black and from red", ["black sources", "red sources"]),
    ("Trample, protection from artifacts", {"types": ["artifact"]}),
    ("Protection from Vampires, from Werewolves, and from Zombies",
     [{"subtypes": ["Vampire"]}, {"subtypes": ["Werewolf"]}, {"subtypes": ["Zombie"]}]),
])
def test_702_16a_protection_keyword_lines(line: str, quality: object) -> None:
    r = read_keywords(line)
    assert r is not None and r.status == "understood"
    assert r.abilities[-1] == {"protection": {"from": quality}, "to": "self"}


@pytest.mark.parametrize("line", ["Protection from multicolored", "Protection from everything",
                                  "Protection from the chosen color", "Protection from mana value 3 or greater"])
def test_protection_from_qualities_without_a_selector_is_not_understood(line: str) -> None:
    assert read_keywords(line) is None

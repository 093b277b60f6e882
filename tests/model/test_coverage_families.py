"""Families of lines added for breadth (issue 46), each read from real cards' Oracle text: the
abilities expected are written by hand from the text (not copied from the recogniser's output)."""

from __future__ import annotations

from typing import Any

import pytest

from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.recognise import IGNORED, UNDERSTOOD, read_face, read_text

from ..helpers import outcome_set, problems

T = "T"

# name -> (keywords, abilities)
READS: dict[str, tuple[list[str], list[Any]]] = {
    # "Whenever this creature or another creature dies, target player loses 1 life and you gain 1
    # life." (603.10a: itself too)
    "Blood Artist": ([], [{"trigger": "dies", "from": "creatures", "target": "player",
                           "do": [{"lose_life": 1, "who": "target"}, {"gain_life": 1, "who": "you"}]}]),
    # "Whenever this creature or another creature you control dies, each opponent loses 1 life and you gain 1 life."
    "Zulaport Cutthroat": ([], [{"trigger": "dies", "from": "creatures you control",
                                 "do": [{"lose_life": 1, "who": "opponents"}, {"gain_life": 1, "who": "you"}]}]),
    # "Whenever a creature an opponent controls dies, put a +1/+1 counter on Yahenni." / "Sacrifice
    # another creature: Yahenni gains indestructible until end of turn."
    "Yahenni, Undying Partisan": (["haste"], [
        {"trigger": "dies", "from": "creatures an opponent controls", "do": {"put_counters": {"+1/+1": 1}, "to": "self"}},
        {"activated": {"grant": ["indestructible"], "to": "self"}, "cost": [{"sacrifice": "other creatures"}]}]),
    # "Whenever another creature dies, you may gain 1 life."
    "Deathgreeter": ([], [{"trigger": "dies", "from": "other creatures", "do": {"may": {"gain_life": 1, "who": "you"}}}]),
    # "{T}: Add {B} or {R}. This land doesn't untap during your next untap step." (the next turn's
    # untap step is after the case, 502.3)
    # "Whenever a player casts a noncreature spell, Ruric Thar deals 6 damage to that player." (the caster, 601.2i)
    "Ruric Thar, the Unbowed": (["vigilance", "reach"], [{"trigger": "cast", "spells": "noncreature", "to": "each player",
                                                          "do": {"deal": 6, "to": "that player"}}]),
    # "At the beginning of each player's upkeep, that player loses 2 life and draws two cards." (503.1a)
    "Seizan, Perverter of Truth": ([], [{"trigger": "upkeep", "do": [{"lose_life": 2, "who": "that player"},
                                                                      {"draw": 2, "who": "that player"}]}]),
    # "Destroy all creatures. They can't be regenerated." (701.8a, 115.10, 701.19c)
    "Wrath of God": ([], [{"spell": {"destroy": "creatures", "cant_be_regenerated": True}}]),
    "Day of Judgment": ([], [{"spell": {"destroy": "creatures"}}]),
    # "Destroy target creature. It can't be regenerated."
    "Terminate": ([], [{"spell": {"destroy": "target", "cant_be_regenerated": True}, "target": "creature"}]),
    # "Destroy all artifacts, creatures, and enchantments."
    "Akroma's Vengeance": ([], [{"spell": {"destroy": ["artifacts", "creatures", "enchantments"]}}]),
    # "When Kokusho dies, each opponent loses 5 life. You gain life equal to the life lost this way."
    "Kokusho, the Evening Star": (["flying"], [{"trigger": "dies", "do": {"lose_life": 5, "who": "opponents",
                                                                        "then": {"gain_life": "life_lost_this_way"}}}]),
    # "{2}{B}: Each opponent loses 1 life. You gain life equal to the life lost this way."
    "Scholar of Athreos": ([], [{"activated": {"lose_life": 1, "who": "opponents", "then": {"gain_life": "life_lost_this_way"}},
                                 "cost": [2, "B"]}]),
    # "Sacrifice this creature: It deals 4 damage to target creature. Activate only as a sorcery." (602.5d)
    "Bloodpyre Elemental": ([], [{"activated": {"deal": 4, "to": "target"}, "target": "creature",
                                  "cost": [{"sacrifice": "self"}], "timing": "sorcery"}]),
    # "Whenever you gain life, put a +1/+1 counter on each creature you control." (no target, 115.10)
    "Archangel of Thune": (["flying", "lifelink"], [{"trigger": "gain_life", "do": {"put_counters": {"+1/+1": 1},
                                                                                    "to": "creatures you control"}}]),
    # "First strike" / "When this creature enters, it deals 1 damage to each opponent and each creature
    # and planeswalker they control."
    "Goblin Chainwhirler": (["first strike"], [{"trigger": "enters", "do": {"deal": 1, "to": [
        "opponents", "creatures an opponent controls", "planeswalkers an opponent controls"]}}]),
    # "Equipped creature gets +2/+2 and has protection from red and from blue." (702.16, 611.3a) / its
    # combat damage trigger / "Equip {2}" (ignored)
    "Sword of Fire and Ice": ([], [
        {"pt": [2, 2], "to": "equipped creature"},
        {"protection": {"from": ["red sources", "blue sources"]}, "to": "equipped creature"},
        {"trigger": "combat_damage_to_player", "from": "equipped creature", "target": "any",
         "do": [{"deal": 2, "to": "target"}, {"draw": 1, "who": "you"}]}]),
    # "Whenever this creature attacks, defending player loses 1 life and you gain 1 life." (508.1m, 506.2)
    "Agate-Blade Assassin": ([], [{"trigger": "attacks", "do": [{"lose_life": 1, "who": "that player"},
                                                                {"gain_life": 1, "who": "you"}]}]),
    # "Whenever this creature enters or attacks, create two 2/2 black Zombie creature tokens." (two events, 603.2)
    "Grave Titan": (["deathtouch"], [
        {"trigger": "enters", "do": {"create_tokens": 2, "token": {"types": ["creature"], "subtypes": ["Zombie"],
                                                                   "colors": ["black"], "power": 2, "toughness": 2}}},
        {"trigger": "attacks", "do": {"create_tokens": 2, "token": {"types": ["creature"], "subtypes": ["Zombie"],
                                                                    "colors": ["black"], "power": 2, "toughness": 2}}}]),
    # "Deathtouch" / "Whenever you draw a card, you gain 2 life." / "Whenever an opponent draws a card,
    # they lose 2 life." (121.2, 603.2)
    "Sheoldred, the Apocalypse": (["deathtouch"], [
        {"trigger": "draws", "do": {"gain_life": 2, "who": "you"}},
        {"trigger": "draws", "to": "opponents", "do": {"lose_life": 2, "who": "that player"}}]),
    # "Whenever an opponent draws a card, this enchantment deals 1 damage to that player."
    "Underworld Dreams": ([], [{"trigger": "draws", "to": "opponents", "do": {"deal": 1, "to": "that player"}}]),
    # "As an additional cost to cast this spell, sacrifice a creature." / "Destroy target creature." (601.2b, 601.2h)
    "Bone Splinters": ([], [{"cast_cost": [{"sacrifice": "creatures"}]}, {"spell": {"destroy": "target"}, "target": "creature"}]),
    # "Exile target creature. Its controller gains life equal to its power." (608.2h: as it last existed)
    "Swords to Plowshares": ([], [{"spell": {"exile": "target"}, "target": "creature"},
                                  {"spell": {"gain_life": {"power": "target"}, "who": "target's controller"}}]),
    "Lantern-Lit Graveyard": ([], [{"mana": ["C"], "cost": [T]}, {"mana": {"one_of": ["B", "R"]}, "cost": [T]}]),
}


@pytest.mark.parametrize("name", sorted(READS))
def test_reads(name: str) -> None:
    reading = read_face(find(name).face)
    assert reading.understood, [r.text for r in reading.not_understood]
    assert reading.abilities == READS[name][1]
    assert sorted(reading.keywords) == sorted(READS[name][0])


@pytest.mark.parametrize("line", [
    # a dies watcher whose instruction isn't in the vocabulary stays not understood
    "Whenever a creature you control dies, proliferate.",
    # "the life lost this way" reads a loss of life just before it
    "When Foo enters, you gain 2 life. You gain life equal to the life lost this way.",
    # the colour is chosen as it resolves: not a quality the line names
    "{T}: Target creature you control gains protection from the color of your choice until end of turn.",
    # a graveyard trigger that returns the card to the battlefield: a permanent entering, never ignored
    "At the beginning of your upkeep, return Foo from your graveyard to the battlefield.",
    # "it" after "equipped creature attacks" is the attacker, not the Equipment: not read
    "Whenever equipped creature attacks, it gets +2/+0 until end of turn.",
    # the turn's draws before the case aren't known
    "Whenever you draw your second card each turn, Foo deals 3 damage to any target.",
    # a choice between two costs isn't modelled
    "As an additional cost to cast this spell, pay 5 life or sacrifice a creature or enchantment.",
    # a land has no power: "its power" after a land target isn't read
    "Destroy target land. You gain life equal to its power.",
    # "that player" among other recipients isn't one player to rename: not read
    "Whenever an opponent casts a noncreature spell, Foo deals 1 damage to that player and each creature.",
    # "nontoken" isn't a selector the vocabulary has
    "Whenever another nontoken creature you control dies, draw a card.",
])
def test_not_read(line: str) -> None:
    (r,) = read_text(line, "Foo", ["sorcery" if "additional cost" in line or "its power" in line else "creature"]).lines
    assert r.status not in (UNDERSTOOD, IGNORED)


def test_or_another_needs_a_creature() -> None:
    """"~ or another creature" on a non-creature card isn't the card dying: not read."""
    (r,) = read_text("Whenever Foo or another creature dies, you gain 1 life.", "Foo", ["enchantment"]).lines
    assert r.status != UNDERSTOOD


TABLET = """players:
  - {name: you}
  - {name: A}
active: %s
battlefield:
  - {id: tablet, card: Copper Tablet, controller: you}
actions:
  - upkeep: {}
"""


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_that_player_is_the_active_player(engine: str) -> None:
    """Copper Tablet's "each player's upkeep ... to that player" (503.1a): the player whose upkeep it is."""
    assert outcome_set(TABLET % "A", "you.life", "A.life", engine=engine) == {(20, 19)}
    assert outcome_set(TABLET % "you", "you.life", "A.life", engine=engine) == {(19, 20)}


def test_that_player_needs_an_event_naming_one() -> None:
    """An enters trigger names no player: "that player" in it is refused, as before."""
    case = """players:
  - {name: you}
  - {name: A}
battlefield:
  - {id: x, name: X, controller: you, types: [creature], power: 1, toughness: 1,
     abilities: [{trigger: enters, do: {deal: 1, to: that player}}]}
"""
    assert any("that player" in reason for _, reason in problems(case))


SKELETONS = """players:
  - {name: you}
  - {name: A}
battlefield:
  - {id: skeletons, card: Drudge Skeletons, controller: you}
effects:
  - {id: shield, regenerate: true, to: skeletons, controller: you, source: skeletons}
actions:
  - cast: {card: %s, controller: A}
"""


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_701_19c_cant_be_regenerated(engine: str) -> None:
    """A regeneration shield replaces Day of Judgment's destruction (701.19a), not Wrath of God's (701.19c)."""
    assert outcome_set(SKELETONS % "Day of Judgment", "skeletons.dies", engine=engine) == {(False,)}
    assert outcome_set(SKELETONS % "Wrath of God", "skeletons.dies", engine=engine) == {(True,)}


def test_cant_be_regenerated_goes_with_a_destruction() -> None:
    """"It can't be regenerated." after damage (Incinerate's is another effect, for the turn) isn't read."""
    (r,) = read_text("Foo deals 3 damage to any target. It can't be regenerated.", "Foo", ["instant"]).lines
    assert r.status != UNDERSTOOD
    bad = """players:
  - {name: you}
battlefield:
  - {id: x, name: X, controller: you, types: [artifact], abilities: [{activated: {exile: target, cant_be_regenerated: true}, target: creature}]}
"""
    assert problems(bad)


PYRE = """players:
  - {name: you}
  - {name: A}
active: %s
battlefield:
  - {id: elemental, card: Bloodpyre Elemental, controller: you}
  - {id: giant, card: Hill Giant, controller: A}
actions:
%s
"""


@pytest.mark.parametrize("engine", ["graph", "cp"])
@pytest.mark.parametrize("active,actions,dies", [
    ("you", "  - activate: {id: elemental, target: giant}", True),  # a main phase of your turn
    ("A", "  - activate: {id: elemental, target: giant}", False),  # A's turn (307.1)
    ("you", "  - end_step: {}\n  - activate: {id: elemental, target: giant}", False),  # the end step
    ("you", "  - upkeep: {}\n  - activate: {id: elemental, target: giant}", False),  # the upkeep
    # in response to a Shock: the stack isn't empty
    ("you", "  - cast: {card: Shock, controller: you, target: A, responses: [{activate: {id: elemental, target: giant}}]}", False),
])
def test_307_1_activate_only_as_a_sorcery(engine: str, active: str, actions: str, dies: bool) -> None:
    assert outcome_set(PYRE % (active, actions), "giant.dies", engine=engine) == {(dies,)}


def test_timing_takes_sorcery_only() -> None:
    bad = """players:
  - {name: you}
battlefield:
  - {id: x, name: X, controller: you, types: [artifact], abilities: [{activated: {gain_life: 1}, timing: instant}]}
"""
    assert any(path.endswith("timing") for path, _ in problems(bad))


@pytest.mark.parametrize("text,types,expected", [
    ("{W}: Foo gains protection from black until end of turn.", ["creature"],
     [{"activated": {"protection": {"from": "black sources"}, "to": "self"}, "cost": ["W"]}]),
    ("Target creature gains protection from red until end of turn.", ["instant"],
     [{"spell": {"protection": {"from": "red sources"}, "to": "target"}, "target": "creature"}]),
    ("Enchanted creature has protection from artifacts.", ["enchantment"],
     [{"protection": {"from": {"types": ["artifact"]}}, "to": "enchanted creature"}]),
])
def test_protection_lines(text: str, types: list[str], expected: list[Any]) -> None:
    from mtg_outcomes.model.vocab import parse_ability

    (r,) = read_text(text, "Foo", types).lines
    assert r.status == UNDERSTOOD and list(r.abilities) == expected
    for j, ab in enumerate(r.abilities):
        parse_ability(ab, f"abilities[{j}]")


@pytest.mark.parametrize("name,line", [
    ("Eiganjo, Seat of the Empire", "Channel"),  # "Channel — {2}{W}, Discard this card: ..." (113.6)
    ("Ghor-Clan Rampager", "Bloodrush"),  # "Bloodrush — {R}{G}, Discard this card: ..."
    ("Adorned Pouncer", "Eternalize"),  # an ability of a card in a graveyard (702.129a)
    ("Honored Hydra", "Embalm"),  # (702.128a)
    ("Magma Phoenix", "{3}{R}{R}: Return"),  # an activated ability of a card in a graveyard (113.6)
    ("Aurora Eidolon", "Whenever you cast a multicolored spell"),  # a graveyard trigger returning it to a hand
])
def test_abilities_of_other_zones_are_ignored(name: str, line: str) -> None:
    reading = read_face(find(name).face)
    assert reading.understood
    (r,) = [r for r in reading.lines if r.text.startswith(line)]
    assert r.status == IGNORED and not r.abilities


def test_a_discard_cost_of_another_card_is_not_ignored() -> None:
    """"Discard a card" (not the card itself) is a cost paid from a hand the case doesn't track: not understood."""
    (r,) = read_text("{1}, Discard a card: Foo deals 1 damage to any target.", "Foo", ["creature"]).lines
    assert r.status not in (UNDERSTOOD, IGNORED)


ASSASSIN = '''players:
  - {name: you}
  - {name: A}
  - {name: B}
active: you
battlefield:
  - {id: assassin, card: Agate-Blade Assassin, controller: you, attacking: %s}
  - {id: jace, card: Jace Beleren, controller: B, loyalty: 3}
actions:
%s
'''


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_508_1m_attack_triggers_fire_on_declare_attackers(engine: str) -> None:
    """The trigger fires on declare_attackers: {} (defending player: the one attacked, or the
    planeswalker's controller, 506.2); written attacking: without it, it was declared before the case."""
    fields = ("you.life", "A.life", "B.life")
    assert outcome_set(ASSASSIN % ("A", "  - declare_attackers: {}"), *fields, engine=engine) == {(21, 19, 20)}
    assert outcome_set(ASSASSIN % ("jace", "  - declare_attackers: {}"), *fields, engine=engine) == {(21, 20, 19)}
    assert outcome_set(ASSASSIN % ("A", "  - combat: {}"), *fields, engine=engine) == {(20, 19, 20)}


@pytest.mark.parametrize("actions,blocking,why", [
    ("  - combat: {}\n  - declare_attackers: {}", "", "before combat"),
    ("  - declare_attackers: {}\n  - declare_attackers: {}", "", "once"),
    ("  - declare_attackers: {}\n  - combat: {}", ", blocking: assassin", "blocking: choose"),
    ("  - may: {declare_attackers: {}}", "", "top level"),
])
def test_declare_attackers_problems(actions: str, blocking: str, why: str) -> None:
    case = f'''players:
  - {{name: you}}
  - {{name: A}}
active: you
battlefield:
  - {{id: assassin, card: Agate-Blade Assassin, controller: you, attacking: A}}
  - {{id: elves, card: Llanowar Elves, controller: A{blocking}}}
actions:
{actions}
'''
    assert any(why in reason for _, reason in problems(case)), problems(case)


DREAMS = '''players:
  - {name: you}
  - {name: A}
battlefield:
  - {id: dreams, card: Underworld Dreams, controller: you}
actions:
  - {draw: 3, who: %s}
'''


def test_121_2_a_trigger_for_each_card_drawn() -> None:
    """Three cards drawn by A: three triggers, 3 damage; your own draws trigger nothing (an opponent's only)."""
    assert outcome_set(DREAMS % "A", "A.life", "A.cards_drawn") == {(17, 3)}
    assert outcome_set(DREAMS % "you", "you.life", "A.life") == {(20, 20)}


def test_draws_trigger_takes_to_only() -> None:
    bad = '''players:
  - {name: you}
battlefield:
  - {id: x, name: X, controller: you, types: [artifact], abilities: [{trigger: draws, from: creatures, do: {gain_life: 1}}]}
'''
    assert any(path.endswith("from") for path, _ in problems(bad))


COSTLY = '''players:
  - {name: you, life: %d}
  - {name: A}
battlefield:
%s
sources:
  - {id: rift, name: Rift, types: [sorcery], colors: [red], controller: you,
     abilities: [{cast_cost: [%s]}, {spell: {deal: 3, to: A}}]}
actions:
  - cast: rift
'''


@pytest.mark.parametrize("engine", ["graph", "cp"])
@pytest.mark.parametrize("life,perms,cost,expected", [
    # no land to sacrifice: the spell can't be cast (601.2h)
    (20, "  - {id: bears, card: Grizzly Bears, controller: you}", "{sacrifice: lands}", {(20, 20, False)}),
    (20, "  - {id: bears, card: Grizzly Bears, controller: you}", "{sacrifice: creatures}", {(20, 17, True)}),
    # 3 life paid (119.4); with 2 life it can't be paid
    (20, "  - {id: bears, card: Grizzly Bears, controller: you}", "{pay_life: 3}", {(17, 17, False)}),
    (2, "  - {id: bears, card: Grizzly Bears, controller: you}", "{pay_life: 3}", {(2, 20, False)}),
])
def test_601_2h_a_spells_additional_cost(engine: str, life: int, perms: str, cost: str, expected: set[Any]) -> None:
    assert outcome_set(COSTLY % (life, perms, cost), "you.life", "A.life", "bears.dies", engine=engine) == expected


def test_a_land_returned_leaves_the_battlefield() -> None:
    case = COSTLY % (20, "  - {id: bears, card: Grizzly Bears, controller: you}\n  - {id: land, card: Mountain, controller: you}",
                     "{return_to_hand: lands you control}")
    assert outcome_set(case, "A.life", "land.dies", "bears.dies") == {(17, False, False)}


def test_cast_cost_vocabulary() -> None:
    bad = COSTLY % (20, "  - {id: bears, card: Grizzly Bears, controller: you}", "T")
    assert any("cast_cost" in path for path, _ in problems(bad))


ALTAR = '''players:
  - {name: you}
  - {name: A}
battlefield:
  - {id: bears, card: Grizzly Bears, controller: you, counters: {+1/+1: 1}}
  - {id: altar, name: Altar, types: [artifact], controller: you,
     abilities: [{activated: {gain_life: sacrificed_toughness, who: you}, cost: [{sacrifice: creatures}]}]}
actions:
  - activate: {id: altar}
'''


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_608_2h_the_sacrificed_creatures_toughness(engine: str) -> None:
    """The creature sacrificed for the cost, as it last existed (a 3/3 with its counter): 3 life."""
    assert outcome_set(ALTAR, "you.life", "bears.dies", engine=engine) == {(23, True)}


def test_sacrificed_power_without_a_sacrifice_is_an_error() -> None:
    from mtg_outcomes.model.errors import EngineError

    case = ALTAR.replace("cost: [{sacrifice: creatures}]", "cost: [1]")
    with pytest.raises(EngineError, match="sacrificed_toughness"):
        outcome_set(case, "you.life")


def test_whenever_you_attack_triggers_once() -> None:
    """'Whenever you attack' (from: you): once for two attackers; 'a creature you control attacks': once each."""
    case = '''players:
  - {name: you}
  - {name: A}
active: you
battlefield:
  - {id: b1, card: Grizzly Bears, controller: you, attacking: A}
  - {id: b2, card: Grizzly Bears, controller: you, attacking: A}
  - {id: x, name: X, controller: you, types: [enchantment], abilities: [{trigger: attacks, from: %s, do: {gain_life: 1}}]}
actions:
  - declare_attackers: {}
'''
    assert outcome_set(case % "you", "you.life") == {(21,)}
    assert outcome_set(case % "creatures you control", "you.life") == {(22,)}

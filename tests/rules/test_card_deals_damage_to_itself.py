"""A target (or each creature) as the source of damage: "Target creature deals damage to itself
equal to its power" (CR 120.1: the creature deals it, so its own lifelink and deathtouch apply;
608.2h: its power read as the spell resolves) and "Each creature deals damage to itself equal to
its power" (120.2: all at once); the vocabulary's ``from: target`` / ``from: itself`` and
``{power: target}`` / ``{power: itself}``."""

from __future__ import annotations

from tests.helpers import outcome_set, problems, reading


def test_120_1_target_creature_deals_damage_to_itself() -> None:
    """Repentance: "Target creature deals damage to itself equal to its power."; Kiku, Night's
    Flower: "{2}{B}{B}, {T}: Target creature deals damage to itself equal to its power.\""""
    assert reading("Repentance").abilities == [
        {"spell": {"deal": {"power": "target"}, "to": "target", "from": "target"}, "target": "creature"}]
    assert reading("Kiku, Night's Flower").abilities == [
        {"activated": {"deal": {"power": "target"}, "to": "target", "from": "target"}, "target": "creature",
         "cost": [2, "B", "B", "T"]}]


def test_120_2_each_creature_deals_damage_to_itself() -> None:
    """Solar Blaze: "Each creature deals damage to itself equal to its power.\""""
    assert reading("Solar Blaze").abilities == [
        {"spell": {"deal": {"power": "itself"}, "to": "creatures", "from": "itself"}}]


WRACK = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: hawk, card: Vampire Nighthawk, controller: A}
  - {id: giant, card: Hill Giant, controller: A}
  - {id: bears, card: Grizzly Bears, controller: you}
actions:
  - cast: {card: Wrack with Madness, controller: you, target: TARGET}
"""


def test_702_15b_the_creature_is_the_source_its_lifelink_gains() -> None:
    """Vampire Nighthawk (2/3, deathtouch, lifelink) deals 2 to itself: A gains 2 and it dies
    (702.2b, 704.5h)."""
    assert outcome_set(WRACK.replace("TARGET", "hawk"), "A.life", "hawk.dies", "hawk.damage") == {(22, True, 2)}


def test_608_2h_power_read_as_it_resolves() -> None:
    """Hill Giant (3/3) deals 3 to itself and dies; pumped +2/+0 in response (a 5/3), it deals 5."""
    assert outcome_set(WRACK.replace("TARGET", "giant"), "giant.dies", "giant.damage") == {(True, 3)}
    pumped = WRACK.replace("target: TARGET}", "target: giant, responses: [{create: {pt: [2, 0], to: giant, "
                                              "controller: A, source: giant}}]}")
    assert outcome_set(pumped, "giant.dies", "giant.damage") == {(True, 5)}


def test_608_2b_target_gone_nothing_is_dealt() -> None:
    text = WRACK.replace("target: TARGET}", "target: bears, responses: [{leave: bears}]}")
    assert outcome_set(text, "bears.damage", "you.life", "A.life") == {(0, 20, 20)}


def test_120_2_each_creature_its_own_power_at_once() -> None:
    """Solar Blaze: the Bears (2/2) and the Giant (3/3) die; the Nighthawk deals 2 to itself with
    deathtouch (dies) and lifelink (A gains 2): one batch."""
    text = WRACK.replace("cast: {card: Wrack with Madness, controller: you, target: TARGET}",
                         "cast: {card: Solar Blaze, controller: you}")
    assert outcome_set(text, "bears.dies", "giant.dies", "giant.damage", "hawk.dies", "A.life") == {
        (True, True, 3, True, 22)}


def test_power_itself_without_from_itself_is_an_error() -> None:
    text = """
players: [{name: you}, {name: A}]
sources: [{id: s, name: Test Spell, controller: you, types: [sorcery], abilities: [{spell: {deal: {power: itself}, to: creatures}}]}]
actions:
  - cast: {id: s}
"""
    assert any("power: itself" in reason for _, reason in problems(text))

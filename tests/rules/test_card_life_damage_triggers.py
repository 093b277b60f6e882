"""Real cards' triggers on life gain and on damage to chosen recipients: "Whenever you gain life,
target opponent loses that much life" (CR 119.9, 603.3d) and "Whenever enchanted creature deals
damage to an opponent, ..." (603.2, 120.2: one damage event per recipient); the recogniser's
reading of the Oracle text (card data) and outcomes derived by hand."""

from __future__ import annotations

from tests.helpers import outcome_set, reading


def test_119_9_gain_life_trigger_that_much_to_target_opponent() -> None:
    """Sanguine Bond: "Whenever you gain life, target opponent loses that much life.\""""
    assert reading("Sanguine Bond").abilities == [
        {"trigger": "gain_life", "do": {"lose_life": "amount", "who": "target"}, "target": "opponent"}]


BOND = """
players: [{name: you, starting_life: 20}, {name: A, starting_life: 20}]
battlefield:
  - {id: bond, card: Sanguine Bond, controller: you}
  - {id: leyline, card: Leyline of Hope, controller: you}
actions:
  - gain_life: {who: you, amount: 3}
"""


def test_119_9_that_much_is_the_life_actually_gained() -> None:
    """Leyline of Hope makes the gain of 3 a gain of 4 (119.10): the Bond reads 4."""
    assert outcome_set(BOND, "you.life", "A.life") == {(24, 16)}


def test_119_7_no_gain_no_trigger() -> None:
    """A player who can't gain life gains none: no life-gain event, no trigger (119.7, 119.9)."""
    text = BOND.replace("  - {id: leyline, card: Leyline of Hope, controller: you}\n",
                        "  - {id: erebos, name: Test Ban, controller: A, types: [enchantment], abilities: [{cant_gain_life: opponents}]}\n")
    assert outcome_set(text, "you.life", "A.life") == {(20, 20)}


def test_603_2_deals_damage_to_an_opponent_trigger() -> None:
    """Curiosity: "Enchant creature" / "Whenever enchanted creature deals damage to an opponent, you may draw a card.\""""
    assert reading("Curiosity").abilities == [
        {"trigger": "deals_damage", "to": "opponents", "from": "enchanted creature", "do": {"may": {"draw": 1, "who": "you"}}}]


CURIOSITY = """
players: [{name: you}, {name: A}, {name: B}]
battlefield:
  - {id: bears, card: Grizzly Bears, controller: you}
  - {id: curiosity, card: Curiosity, controller: you, attached_to: bears}
  - {id: elves, card: Llanowar Elves, controller: A}
actions:
  - damage: DAMAGE
"""


def test_120_2_one_trigger_per_opponent_dealt_damage() -> None:
    """The Bears deal 1 to A and 1 to B at once: two damage events, two triggers, each a may."""
    text = CURIOSITY.replace("DAMAGE", "[{from: bears, to: A, amount: 1}, {from: bears, to: B, amount: 1}]")
    assert outcome_set(text, "you.cards_drawn") == {(0,), (1,), (2,)}


def test_603_2_damage_to_a_creature_or_yourself_is_no_trigger() -> None:
    """Damage to A's Elves, or to you (not an opponent), doesn't trigger "deals damage to an opponent"."""
    text = CURIOSITY.replace("DAMAGE", "[{from: bears, to: elves, amount: 2}, {from: bears, to: you, amount: 1}]")
    assert outcome_set(text, "you.cards_drawn", "elves.dies") == {(0, True)}


def test_603_2_a_to_filter_on_deals_damage_is_read() -> None:
    """An ad hoc ``{trigger: deals_damage, to: opponents}`` used to trigger on any damage its
    source dealt (the filter was accepted and not read)."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: pyro, name: Test Pinger, controller: you, types: [creature], power: 1, toughness: 1,
     abilities: [{trigger: deals_damage, to: opponents, do: {gain_life: damage_dealt, who: you}}]}
  - {id: elves, card: Llanowar Elves, controller: A}
actions:
  - damage: [{from: pyro, to: elves, amount: 1}]
  - damage: [{from: pyro, to: A, amount: 2}]
"""
    assert outcome_set(text, "you.life", "A.life") == {(22, 18)}

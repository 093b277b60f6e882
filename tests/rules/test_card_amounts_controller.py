"""Real cards' "for each" amounts (CR 608.2h) and "its controller loses N life" (608.2h, 608.2c):
the recogniser's reading of their Oracle text (card data) and the outcomes derived by hand."""

from __future__ import annotations

from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.recognise import read_face
from tests.helpers import outcome_set, reading

# --- "for each" (608.2h: the number read as the action resolves) -----------------------------------

def test_608_2h_gain_n_life_for_each_creature_you_control() -> None:
    """Festival of Trokin: "You gain 2 life for each creature you control.\""""
    assert reading("Festival of Trokin").abilities == [
        {"spell": {"gain_life": {"count": "creatures you control", "times": 2}, "who": "you"}}]


def test_608_2h_for_each_on_an_enters_trigger_and_a_target() -> None:
    """Dwarven Priest: "When this creature enters, you gain 1 life for each creature you
    control."; Bishop of the Bloodstained: "... target opponent loses 1 life for each Vampire you
    control."; Shepherd of Rot: "{T}: Each player loses 1 life for each Zombie on the battlefield.\""""
    assert reading("Dwarven Priest").abilities == [
        {"trigger": "enters", "do": {"gain_life": {"count": "creatures you control"}, "who": "you"}}]
    assert reading("Bishop of the Bloodstained").abilities == [
        {"trigger": "enters", "target": "opponent",
         "do": {"lose_life": {"count": "vampire permanents you control"}, "who": "target"}}]
    assert reading("Shepherd of Rot").abilities == [
        {"activated": {"lose_life": {"count": "zombie permanents"}, "who": "each player"}, "cost": ["T"]}]


def test_for_each_of_a_phrase_the_selectors_dont_read_is_not_understood() -> None:
    """Aerial Assault: "... You gain 1 life for each creature you control with flying." (no
    selector phrase for "creatures you control with flying": the line stays not understood)."""
    r = read_face(find("Aerial Assault").face)
    assert not r.understood


FESTIVAL = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: bears, card: Grizzly Bears, controller: you}
  - {id: forest, card: Forest, controller: you}
  - {id: giant, card: Hill Giant, controller: A}
actions:
  - cast: {card: Festival of Trokin, controller: you}
"""


def test_608_2h_festival_of_trokin_counts_only_your_creatures() -> None:
    """One creature of yours (the Forest and A's Giant don't count): 2 life."""
    assert outcome_set(FESTIVAL, "you.life", "A.life") == {(22, 20)}


def test_608_2h_the_count_is_read_as_it_resolves() -> None:
    """The Bears leave in response (before the spell resolves): no creature of yours, no life."""
    text = FESTIVAL.replace("cast: {card: Festival of Trokin, controller: you}",
                            "cast: {card: Festival of Trokin, controller: you, responses: [{leave: bears}]}")
    assert outcome_set(text, "you.life") == {(20,)}


# --- "its controller" (608.2h: the target's controller) ---------------------------------------------

def test_608_2h_its_controller_loses_life_after_destroy() -> None:
    """Sip of Hemlock: "Destroy target creature. Its controller loses 2 life."; Nature's Claim:
    "Destroy target artifact or enchantment. Its controller gains 4 life."; Vapor Snag: "Return
    target creature to its owner's hand. Its controller loses 1 life.\""""
    assert reading("Sip of Hemlock").abilities == [
        {"spell": {"destroy": "target"}, "target": "creature"},
        {"spell": {"lose_life": 2, "who": "target's controller"}}]
    assert reading("Nature's Claim").abilities == [
        {"spell": {"destroy": "target"}, "target": ["artifacts", "enchantments"]},
        {"spell": {"gain_life": 4, "who": "target's controller"}}]
    assert reading("Vapor Snag").abilities == [
        {"spell": {"return_to_hand": "target"}, "target": "creature"},
        {"spell": {"lose_life": 1, "who": "target's controller"}}]


def test_608_2c_that_creatures_controller_in_an_and_clause() -> None:
    """Rakdos Ickspitter: "{T}: This creature deals 1 damage to target creature and that
    creature's controller loses 1 life.\""""
    assert reading("Rakdos Ickspitter").abilities == [
        {"activated": [{"deal": 1, "to": "target"}, {"lose_life": 1, "who": "target's controller"}],
         "target": "creature", "cost": ["T"]}]


def test_its_controller_without_a_permanent_target_is_not_understood() -> None:
    """Countersquall: "Counter target noncreature spell. Its controller loses 2 life." (no
    countering in the vocabulary); a trigger's "its controller" names no target either: Sinister
    Possession's "Whenever enchanted creature attacks or blocks, its controller loses 2 life.\""""
    assert not read_face(find("Countersquall").face).understood
    assert not read_face(find("Sinister Possession").face).understood


SIP = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: myr, card: Darksteel Myr, controller: A}
  - {id: bears, card: Grizzly Bears, controller: A}
actions:
  - cast: {card: Sip of Hemlock, controller: you, target: TARGET}
"""


def test_701_8b_indestructible_target_its_controller_still_loses() -> None:
    assert outcome_set(SIP.replace("TARGET", "myr"), "A.life", "myr.dies") == {(18, False)}
    assert outcome_set(SIP.replace("TARGET", "bears"), "A.life", "bears.dies") == {(18, True)}


def test_608_2b_target_gone_no_one_loses_life() -> None:
    """The Bears leave before Sip of Hemlock resolves: its only target is illegal, the spell does
    nothing, A loses no life."""
    text = SIP.replace("target: TARGET}", "target: bears, responses: [{leave: bears}]}")
    assert outcome_set(text, "A.life", "you.life") == {(20, 20)}

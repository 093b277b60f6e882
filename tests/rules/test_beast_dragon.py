"""Questing Beast's trigger targeting a permanent of the player it dealt combat damage to (510.3a,
603.3d) and its "to an opponent" filter; Stormbreath Dragon's damage equal to each opponent's hand
size (402.1, 608.2h), the hands said by the case and tracked through draws (121.1): readings of the
real cards, outcomes derived by hand, both engines; the refusals that keep a count honest."""

from __future__ import annotations

from mtg_outcomes.model.selectors import parse_selector
from tests.helpers import both_engines, outcome_set, problems, reading


def test_that_player_controls_is_the_triggers_player() -> None:
    sel = parse_selector("planeswalkers that player controls")
    assert sel.controller == "that_player" and sel.mentions("that_player") and sel.refs() == ()
    assert parse_selector({"types": ["planeswalker"], "controller": "that player"}).controller == "that_player"


def test_questing_beast_is_read_in_full() -> None:
    assert reading("Questing Beast").abilities[-1] == {
        "trigger": "combat_damage_to_player", "to": "opponents", "do": {"deal": "damage_dealt", "to": "target"},
        "target": "planeswalkers that player controls"}


BEAST = """
players: [{name: you}, {name: A}, {name: B}]
battlefield:
  - {id: beast, card: Questing Beast, controller: you, attacking: A}
  - {id: jace, card: Jace Beleren, controller: A, loyalty: 5}
  - {id: other, card: Chandra Nalaar, controller: B, loyalty: 6}
actions:
  - combat: {}
"""


def test_510_3a_the_target_is_among_the_damaged_players_planeswalkers() -> None:
    # 4 to A; the trigger's only legal target is A's Jace (B's Chandra isn't that player's): 5 -> 1
    assert both_engines(BEAST, "A.life", "jace.loyalty", "other.loyalty") == {(16, 1, 6)}


def test_603_3d_no_planeswalker_of_that_player_no_trigger_damage() -> None:
    text = BEAST.replace("controller: A, loyalty: 5", "controller: B, loyalty: 5")
    assert outcome_set(text, "A.life", "jace.loyalty", "other.loyalty") == {(16, 5, 6)}


def test_combat_damage_redirected_to_its_controller_isnt_to_an_opponent() -> None:
    """Questing Beast's 4 redirected to you by a redirection of A's (614.9): still combat damage
    (510.2) to a player, but not to an opponent of the Beast's controller: no trigger."""
    text = """
players: [{name: P}, {name: A}]
battlefield:
  - {id: beast, card: Questing Beast, controller: P, attacking: A}
  - {id: jace, card: Jace Beleren, controller: P, loyalty: 5}
effects:
  - {id: back, controller: A, redirect: P, to: A, from: beast}
actions:
  - combat: {}
"""
    assert outcome_set(text, "P.life", "A.life", "jace.loyalty") == {(16, 20, 5)}


DRAGON = """
players: [{name: you, hand: 2}, {name: A, hand: 4}]
battlefield:
  - {id: dragon, card: Stormbreath Dragon, controller: you}
actions:
  - DRAW
  - activate: {id: dragon}
"""


def test_402_1_monstrous_dragon_deals_each_opponents_hand_size() -> None:
    assert reading("Stormbreath Dragon").abilities[-1] == {"trigger": "becomes_monstrous",
                                                          "do": {"deal": "cards_in_hand", "to": "opponents"}}
    # A draws 3 first (121.1): 7 cards, 7 damage
    assert both_engines(DRAGON.replace("DRAW", "{draw: 3, who: A}"), "A.life", "you.life") == {(13, 20)}


def test_402_1_a_hand_size_is_never_a_silent_zero() -> None:
    got = problems(DRAGON.replace("{name: A, hand: 4}", "{name: A}").replace("DRAW", "{draw: 1, who: you}"))
    assert [p for p, _ in got] == ["players[1].hand"] and "CR 402.1" in got[0][1]


def test_601_2a_a_spell_cast_makes_the_casters_hand_unknown() -> None:
    import pytest

    from mtg_outcomes import enumerate_outcomes
    from mtg_outcomes.model import EngineError
    from tests.helpers import case_from

    text = DRAGON.replace("DRAW", "cast: {id: bolt, card: Lightning Bolt, controller: A, target: you}")
    with pytest.raises(EngineError, match="601.2a"):
        enumerate_outcomes(case_from(text), engine="graph")


def test_a_card_whose_hand_effect_is_ignored_is_refused_when_hands_are_read() -> None:
    text = DRAGON.replace("DRAW", "{draw: 1, who: you}").replace(
        "battlefield:\n", "battlefield:\n  - {id: arch, card: Archaeomancer, controller: A}\n")
    got = problems(text)
    assert got and got[0][0] == "battlefield[0].card" and "acts on a hand" in got[0][1]


def test_may_have_it_deal_to_target_creature_that_player_controls() -> None:
    """Skirk Commando: "Whenever ~ deals combat damage to a player, you may have it deal 2 damage
    to target creature that player controls." Unblocked at A: 2 to A, then (your choice) 2 to A's
    Bears (they die) or not; your own Bears are no target (not that player's)."""
    assert reading("Skirk Commando").abilities[0] == {
        "trigger": "combat_damage_to_player", "to": "each player", "do": {"may": {"deal": 2, "to": "target"}},
        "target": "creatures that player controls"}
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: commando, card: Skirk Commando, controller: you, attacking: A}
  - {id: theirs, card: Grizzly Bears, controller: A}
  - {id: mine, card: Grizzly Bears, controller: you}
actions:
  - combat: {}
"""
    assert both_engines(text, "A.life", "theirs.dies", "mine.dies") == {(18, True, False), (18, False, False)}


def test_613_1f_equipped_creature_loses_flying() -> None:
    assert reading("Magebane Armor").abilities[:2] == [{"pt": [2, 4], "to": "equipped creature"},
                                                        {"lose": ["flying"], "to": "equipped creature"}]


def test_a_permanent_entering_makes_its_owners_hand_unknown() -> None:
    """``enter:`` doesn't say where the permanent came from (its owner's hand, maybe): A's count
    is no longer known, so the Dragon's read of it is an error (402.1), never a guess."""
    import pytest

    from mtg_outcomes import enumerate_outcomes
    from mtg_outcomes.model import EngineError
    from tests.helpers import case_from

    text = DRAGON.replace("DRAW", "enter: {id: newbear, card: Grizzly Bears, controller: A}")
    with pytest.raises(EngineError, match="402.1"):
        enumerate_outcomes(case_from(text), engine="graph")

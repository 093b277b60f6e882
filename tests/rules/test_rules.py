"""Unit tests of the rules semantics, one rule each, named by CR number."""

from __future__ import annotations

from ..helpers import outcome_set

PLAYERS = """
players:
  - {name: you, life: 20}
  - {name: A, life: 20}
"""


def test_616_1_affected_player_orders_doubler_and_shield() -> None:
    # Dictate of the Twin Gods + a 1-point shield against 2 damage: 4-1=3 or (2-1)*2=2
    text = PLAYERS + """
battlefield:
  - {id: dictate, card: Dictate of the Twin Gods, controller: A}
sources:
  - {id: s, name: Shock, controller: A, types: [instant], colors: [red]}
effects:
  - {id: g, shield: 1, to: you, controller: you}
actions:
  - damage: [{from: s, to: you, amount: 2}]
"""
    assert outcome_set(text, "you.life") == {(17,), (18,)}


def test_614_5_two_doublers_apply_once_each() -> None:
    text = PLAYERS + """
battlefield:
  - {id: d1, card: Furnace of Rath, controller: A}
  - {id: d2, card: Furnace of Rath, controller: A}
sources:
  - {id: s, name: Shock, controller: A, types: [instant]}
actions:
  - damage: [{from: s, to: you, amount: 2}]
"""
    assert outcome_set(text, "you.life") == {(12,)}


def test_120_8_zero_damage_is_not_doubled_and_triggers_nothing() -> None:
    # all 2 prevented first: the doubler has no event to double; Boros Reckoner doesn't trigger
    text = PLAYERS + """
battlefield:
  - {id: dictate, card: Dictate of the Twin Gods, controller: A}
  - {id: rk, card: Boros Reckoner, controller: you}
sources:
  - {id: s, name: Shock, controller: A, types: [instant]}
effects:
  - {id: g, shield: 2, to: rk, controller: you}
actions:
  - damage: [{from: s, to: rk, amount: 2}]
"""
    # order shield first: 0 damage, nothing fires; doubler first: 4-2 = 2 dealt, Reckoner deals 2
    got = outcome_set(text, "rk.damage", "A.life")
    assert (0, 20) in got
    assert (2, 18) in got or (2, 20) in got


def test_615_7_shield_split_across_simultaneous_attackers() -> None:
    text = PLAYERS + """
battlefield:
  - {id: thief, card: Scroll Thief, controller: A}
  - {id: mastodon, card: Siege Mastodon, controller: A}
effects:
  - {id: s1, shield: 3, to: you, controller: you, then: {deal: prevented, to: A}}
actions:
  - damage: [{from: thief, to: you, amount: 1, combat: true}, {from: mastodon, to: you, amount: 3, combat: true}]
"""
    assert outcome_set(text, "you.life", "A.life", "A.cards_drawn", "s1.remaining") == {
        (19, 17, 0, 0),  # 1 from the Thief and 2 from the Mastodon: the Thief deals no damage
        (19, 17, 1, 0),  # 3 from the Mastodon: the Thief connects and its controller draws
    }


def test_615_7_shield_always_prevents_as_much_as_it_can() -> None:
    text = PLAYERS + """
sources:
  - {id: a, name: Spark A, controller: A, types: [instant]}
  - {id: b, name: Spark B, controller: A, types: [instant]}
effects:
  - {id: s1, shield: 3, to: you, controller: you}
actions:
  - damage: [{from: a, to: you, amount: 3}, {from: b, to: you, amount: 3}]
"""
    # every split prevents exactly 3: you take 3 in all of them, shield used up
    assert outcome_set(text, "you.life", "s1.remaining") == {(17, 0)}


def test_615_10_static_prevention_applies_to_each_event() -> None:
    text = PLAYERS + """
battlefield:
  - {id: cleric, name: Test Cleric, controller: you, types: [creature], subtypes: [Cleric], power: 1, toughness: 5}
  - {id: bear, card: Grizzly Bears, controller: you}
  - {id: dd, card: Daunting Defender, controller: you}
sources:
  - {id: pyro, name: Pyroclasm, controller: A, types: [sorcery], colors: [red]}
actions:
  - damage: [{from: pyro, to: cleric, amount: 2}, {from: pyro, to: bear, amount: 2}, {from: pyro, to: dd, amount: 2}]
"""
    assert outcome_set(text, "cleric.damage", "bear.dies", "dd.damage") == {(1, True, 1)}


def test_615_12_unpreventable_damage_keeps_shield_and_rider_does_nothing() -> None:
    text = PLAYERS + """
battlefield:
  - {id: cbp, name: Test Unpreventable, controller: A, types: [enchantment], abilities: [{cant_be_prevented: true}]}
sources:
  - {id: s, name: Shock, controller: A, types: [instant]}
effects:
  - {id: s1, shield: 3, to: you, controller: you, then: {deal: prevented, to: A}}
actions:
  - damage: [{from: s, to: you, amount: 2}]
"""
    assert outcome_set(text, "you.life", "A.life", "s1.remaining") == {(18, 20, 3)}


def test_614_9_redirection_to_a_permanent_that_left_does_nothing() -> None:
    text = PLAYERS + """
battlefield:
  - {id: giant, card: Palisade Giant, controller: you}
sources:
  - {id: s, name: Shock, controller: A, types: [instant]}
actions:
  - damage: [{from: s, to: you, amount: 2}]
  - leave: giant
  - damage: [{from: s, to: you, amount: 2}]
"""
    assert outcome_set(text, "you.life", "giant.damage") == {(18, 2)}


def test_702_15e_lifelink_gain_per_source_and_704_lethal_damage() -> None:
    text = PLAYERS + """
battlefield:
  - {id: w, card: Wurmcoil Engine, controller: A}
  - {id: bear, card: Grizzly Bears, controller: you}
actions:
  - damage: [{from: w, to: bear, amount: 6, combat: true}]
"""
    assert outcome_set(text, "A.life", "A.life_gained", "bear.dies") == {(26, 6, True)}


def test_120_3_infect_gives_poison_and_counters() -> None:
    text = PLAYERS + """
battlefield:
  - {id: m, name: Test Infector, controller: A, types: [creature], power: 2, toughness: 2, keywords: [infect]}
  - {id: bear, card: Grizzly Bears, controller: you}
actions:
  - damage: [{from: m, to: you, amount: 2, combat: true}, {from: m, to: bear, amount: 1, combat: true}]
"""
    assert outcome_set(text, "you.life", "you.poison", "bear.counters.-1/-1", "bear.dies") == {(20, 2, 1, False)}


def test_702_2_deathtouch_any_damage_is_lethal() -> None:
    text = PLAYERS + """
battlefield:
  - {id: m, name: Test Deathtoucher, controller: A, types: [creature], power: 1, toughness: 1, keywords: [deathtouch]}
  - {id: big, name: Test Wall, controller: you, types: [creature], power: 0, toughness: 8}
actions:
  - damage: [{from: m, to: big, amount: 1, combat: true}]
"""
    assert outcome_set(text, "big.dies") == {(True,)}


def test_810_9_two_headed_giant_shared_life() -> None:
    text = """
format: two-headed-giant
players:
  - {name: P1, team: 1}
  - {name: P2, team: 1}
  - {name: Q1, team: 2}
  - {name: Q2, team: 2}
sources:
  - {id: s, name: Flame Rift, controller: P1, types: [sorcery]}
actions:
  - damage: [{from: s, to: Q1, amount: 4}, {from: s, to: Q2, amount: 4}]
"""
    assert outcome_set(text, "team2.life", "Q1.life_lost", "Q2.life") == {(22, 4, 22)}


def test_510_1c_attacker_divides_among_blockers() -> None:
    text = PLAYERS + """
battlefield:
  - {id: atk, name: Test Attacker, controller: A, types: [creature], power: 4, toughness: 3, attacking: you}
  - {id: b1, name: Test B1, controller: you, types: [creature], power: 0, toughness: 3, blocking: atk}
  - {id: b2, name: Test B2, controller: you, types: [creature], power: 0, toughness: 1, blocking: atk}
actions:
  - combat: {}
"""
    assert outcome_set(text, "b1.damage", "b2.damage") == {(4, 0), (3, 1), (2, 2), (1, 3), (0, 4)}


def test_702_19b_trample_needs_lethal_on_every_blocker() -> None:
    text = PLAYERS + """
battlefield:
  - {id: atk, name: Test Trampler, controller: A, types: [creature], power: 6, toughness: 6, keywords: [trample], attacking: you}
  - {id: b1, card: Grizzly Bears, controller: you, blocking: atk}
  - {id: b2, name: Test Three, controller: you, types: [creature], power: 0, toughness: 3, blocking: atk}
actions:
  - combat: {}
"""
    got = outcome_set(text, "b1.damage", "b2.damage", "you.life")
    assert (2, 3, 19) in got and (6, 0, 20) in got
    assert all(life == 20 or (d1 >= 2 and d2 >= 3) for d1, d2, life in got)
    # the 7 divisions of 6 between the blockers, plus lethal to both (2 and 3) and 1 to you
    assert len(got) == 8


def test_115_one_shot_to_any_target_is_its_controllers_choice() -> None:
    text = PLAYERS + """
battlefield:
  - {id: bear, card: Grizzly Bears, controller: you}
sources:
  - {id: bolt, card: Lightning Bolt, controller: A}
actions:
  - {deal: 3, from: bolt, to: any}
"""
    assert outcome_set(text, "you.life", "A.life", "bear.dies") == {(17, 20, False), (20, 17, False), (20, 20, True)}


def test_worship_needs_a_creature() -> None:
    base = """
players: [{name: you, life: 3}, {name: A}]
battlefield:
  - {id: w, card: Worship, controller: you}
%s
sources: [{id: s, name: Blaze, controller: A, types: [sorcery]}]
actions: [{damage: [{from: s, to: you, amount: 5}]}]
"""
    with_bear = base % "  - {id: bear, card: Grizzly Bears, controller: you}"
    assert outcome_set(with_bear, "you.life", "you.lost") == {(1, False)}
    assert outcome_set(base % "", "you.life", "you.lost") == {(-2, True)}


def test_800_4a_a_player_who_loses_leaves_with_their_permanents() -> None:
    text = """
players: [{name: you}, {name: A, life: 1}, {name: B}]
battlefield:
  - {id: ward, name: Test Ward, controller: A, types: [enchantment], abilities: [{prevent: 1}]}
sources: [{id: bolt, card: Lightning Bolt, controller: B}]
actions:
  - damage: [{from: bolt, to: A, amount: 3}]
  - damage: [{from: bolt, to: you, amount: 3}]
"""
    assert outcome_set(text, "A.lost", "you.life") == {(True, 17)}


# ---------------------------------------------------------------------------------------------
# X in enters-the-battlefield abilities (CR 107.3m, the exception to 107.3i)


def test_107_3m_enters_trigger_reads_the_spells_x() -> None:
    text = PLAYERS + """
battlefield:
  - {id: bear, card: Grizzly Bears, controller: A}
actions:
  - enter: {id: anguish, name: X Flare, types: [enchantment], colors: [red], abilities: [{trigger: enters, do: {deal: X, to: any}}], controller: you, x: 3}
"""
    # any target: A, you, or the Bears (3 damage is lethal to a 2/2)
    assert outcome_set(text, "A.life", "you.life", "bear.dies") == {
        (17, 20, False), (20, 17, False), (20, 20, True)}


def test_107_3m_no_spell_means_x_is_0() -> None:
    # put onto the battlefield without being cast (no x:): the trigger deals 0, which is no damage (120.8)
    text = PLAYERS + """
actions:
  - enter: {id: anguish, name: X Flare, types: [enchantment], colors: [red], abilities: [{trigger: enters, do: {deal: X, to: any}}], controller: you}
"""
    assert outcome_set(text, "A.life", "you.life", "A.damage_taken", "you.damage_taken") == {(20, 20, 0, 0)}


def test_107_3m_enters_with_counters_reads_the_spells_x() -> None:
    text = PLAYERS + """
actions:
  - enter: {id: ballista, card: Walking Ballista, controller: you, x: 2}
"""
    assert outcome_set(text, "ballista.counters.+1/+1", "ballista.dies") == {(2, False)}


def test_107_3m_enters_with_x_0_is_a_0_0_that_dies() -> None:
    text = PLAYERS + """
actions:
  - enter: {id: ballista, card: Walking Ballista, controller: you, x: 0}
"""
    assert outcome_set(text, "ballista.counters.+1/+1", "ballista.dies") == {(0, True)}  # 704.5f


def test_107_3i_the_permanents_own_x_is_0() -> None:
    # the same X outside an enters ability (an end-step trigger of the same permanent) reads 0
    text = PLAYERS + """
actions:
  - enter:
      id: echo
      name: Test Echo of X
      controller: you
      types: [enchantment]
      x: 3
      abilities:
        - {trigger: enters, do: {lose_life: X, who: opponents}}
        - {trigger: end_step, do: {lose_life: X, who: opponents}}
  - end_step: {}
"""
    assert outcome_set(text, "A.life") == {(17,)}


def test_603_2_enters_trigger_fires_only_for_its_own_permanent() -> None:
    # an enters trigger of a permanent already on the battlefield doesn't fire for another one
    text = PLAYERS + """
battlefield:
  - {id: old, name: Test Old Echo, controller: you, types: [enchantment], abilities: [{trigger: enters, do: {lose_life: 5, who: opponents}}]}
actions:
  - enter: {id: ballista, card: Walking Ballista, controller: you, x: 1}
  - leave: old
  - enter: {id: old, name: Test Old Echo, controller: you, types: [enchantment], abilities: [{trigger: enters, do: {lose_life: 5, who: opponents}}]}
"""
    assert outcome_set(text, "A.life") == {(15,)}  # only the returned Echo's own entering


def test_107_3m_enters_trigger_damage_meets_a_shield() -> None:
    text = PLAYERS + """
effects:
  - {id: g, shield: 2, to: you, controller: you}
actions:
  - enter: {id: anguish, name: X Flare, types: [enchantment], controller: A, x: 5, abilities: [{trigger: enters, do: {deal: X, to: opponents}}]}
"""
    assert outcome_set(text, "you.life", "g.remaining") == {(17, 0)}  # 615.7


def test_602_2_remove_counter_cost_is_paid_and_the_ability_still_resolves() -> None:
    # the last counter pays for the ping; the 0/0 Ballista dies before the ping resolves, which
    # still deals its damage; a later activation can't happen
    text = PLAYERS + """
actions:
  - enter: {id: ballista, card: Walking Ballista, controller: you, x: 1}
  - activate: {id: ballista, target: A}
  - activate: {id: ballista, target: A}
"""
    assert outcome_set(text, "A.life", "ballista.dies", "ballista.counters.+1/+1") == {(19, True, 0)}


def test_601_2h_a_cost_that_cant_be_paid_stops_the_activation() -> None:
    text = PLAYERS + """
battlefield:
  - id: pinger
    name: Test Pinger
    controller: you
    power: 1
    toughness: 1
    abilities: [{activated: {deal: 1, to: target}, target: any, cost: [{remove_counters: {+1/+1: 1}}]}]
actions:
  - activate: {id: pinger, target: A}
"""
    assert outcome_set(text, "A.life", "pinger.dies") == {(20, False)}


def test_119_4_pay_life_cost_needs_enough_life() -> None:
    base = """
players: [{name: you, life: %d}, {name: A}]
battlefield:
  - {id: rod, name: Test Rod, controller: you, types: [artifact], abilities: [{activated: {deal: 3, to: target}, target: any, cost: [1, {pay_life: 3}]}]}
actions:
  - activate: {id: rod, target: A}
"""
    assert outcome_set(base % 20, "you.life", "A.life") == {(17, 17)}
    assert outcome_set(base % 2, "you.life", "A.life") == {(2, 20)}


def test_107_5_tap_cost_once_and_302_6_not_while_summoning_sick() -> None:
    # {T}: the untapped Pyromancer pings once (a second activation finds it tapped); one that
    # entered this turn can't pay {T} at all (302.6), one with haste can
    text = PLAYERS + """
battlefield:
  - {id: old, card: Prodigal Pyromancer, controller: you}
actions:
  - activate: {id: old, target: A}
  - activate: {id: old, target: A}
  - enter: {id: new, card: Prodigal Pyromancer, controller: you}
  - activate: {id: new, target: A}
  - enter: {id: hasty, card: Prodigal Pyromancer, controller: you, keywords: [haste]}
  - activate: {id: hasty, target: A}
"""
    assert outcome_set(text, "A.life") == {(18,)}


# ---------------------------------------------------------------------------------------------
# the game ends when a player loses a two-player game (104.2a, 104.3); multiplayer goes on (800.4)


def test_104_2a_two_player_game_ends_before_the_next_action() -> None:
    text = PLAYERS.replace("{name: you, life: 20}", "{name: you, life: 2}") + """
sources: [{id: bolt, card: Lightning Bolt, controller: A}]
actions:
  - damage: [{from: bolt, to: you, amount: 3}]
  - gain_life: {amount: 5, who: you}
  - damage: [{from: bolt, to: A, amount: 3}]
"""
    assert outcome_set(text, "you.life", "you.lost", "A.life") == {(-1, True, 20)}


def test_104_2a_no_trigger_resolves_after_the_game_ends() -> None:
    """Scroll Thief connects for the last point of your life: its draw trigger never resolves."""
    text = PLAYERS.replace("{name: you, life: 20}", "{name: you, life: 1}") + """
battlefield:
  - {id: thief, card: Scroll Thief, controller: A, attacking: you}
actions:
  - combat: {}
"""
    assert outcome_set(text, "you.lost", "A.cards_drawn") == {(True, 0)}
    assert outcome_set(text, "you.lost", "A.cards_drawn", engine="cp") == {(True, 0)}


def test_104_3a_leaving_a_two_player_game_loses_it() -> None:
    text = PLAYERS + """
sources: [{id: bolt, card: Lightning Bolt, controller: A}]
actions:
  - leave_game: you
  - damage: [{from: bolt, to: A, amount: 3}]
"""
    assert outcome_set(text, "you.lost", "A.life", "A.lost") == {(True, 20, False)}


# ---------------------------------------------------------------------------------------------
# activations: targets (601.2c) and a source of your choice (615.9, 609.7a) left to the controller


def test_601_2c_missing_target_is_the_controllers_choice() -> None:
    text = PLAYERS + """
battlefield:
  - {id: archon, card: Vengeful Archon, controller: you}
  - {id: walker, name: Test Walker, controller: A, types: [planeswalker], loyalty: 5}
sources: [{id: bolt, card: Lightning Bolt, controller: A}]
actions:
  - activate: {id: archon, x: 2}
  - damage: [{from: bolt, to: you, amount: 2}]
"""
    # target A, the planeswalker, or yourself (your shield is used up by then, so you take the 2)
    assert outcome_set(text, "you.life", "A.life", "walker.loyalty") == {(20, 18, 5), (20, 20, 3), (18, 20, 5)}


def test_615_9_source_of_your_choice_is_chosen_among_matching_sources() -> None:
    text = PLAYERS + """
battlefield:
  - {id: cop, card: "Circle of Protection: Red", controller: you}
  - {id: red, name: Red Ogre, controller: A, types: [creature], colors: [red], power: 3, toughness: 3}
  - {id: green, name: Green Ogre, controller: A, types: [creature], colors: [green], power: 3, toughness: 3}
actions:
  - activate: {id: cop}
  - damage: [{from: red, to: you, amount: 3}, {from: green, to: you, amount: 3}]
"""
    # only the red Ogre can be chosen: its damage is prevented; the green Ogre's never is
    assert outcome_set(text, "you.life") == {(17,)}


def test_609_7a_a_named_source_that_doesnt_match_is_an_error() -> None:
    import pytest

    from mtg_outcomes.model import EngineError

    text = PLAYERS + """
battlefield:
  - {id: cop, card: "Circle of Protection: Red", controller: you}
  - {id: green, name: Green Ogre, controller: A, types: [creature], colors: [green], power: 3, toughness: 3}
actions:
  - activate: {id: cop, source: green}
"""
    with pytest.raises(EngineError, match="not a legal choice"):
        outcome_set(text, "you.life")


# ---------------------------------------------------------------------------------------------
# may: wraps any action (docs/design.md "Actions"); an illegal one leaves only "no"


def test_may_wraps_a_one_shot_action() -> None:
    text = PLAYERS + """
battlefield: [{id: pyro, card: Prodigal Pyromancer, controller: you}]
actions:
  - may: {deal: 2, to: A, from: pyro}
"""
    assert outcome_set(text, "A.life") == {(18,), (20,)}


def test_may_wraps_an_activation_and_a_mana_ability() -> None:
    text = PLAYERS + """
battlefield:
  - {id: pyro, card: Prodigal Pyromancer, controller: you}
  - {id: forest, card: Forest, controller: you}
actions:
  - may: {activate: {id: pyro, target: A}}
  - may: {tap_for_mana: forest}
"""
    assert outcome_set(text, "A.life", "you.mana") == {(19, ("G",)), (19, ()), (20, ("G",)), (20, ())}


def test_302_6_may_on_an_illegal_activation_leaves_only_no() -> None:
    text = PLAYERS + """
battlefield:
  - {id: elf, card: Llanowar Elves, controller: you, summoning_sick: true}
  - {id: pyro, card: Prodigal Pyromancer, controller: you, summoning_sick: true}
actions:
  - may: {tap_for_mana: elf}
  - may: {activate: {id: pyro, target: A}}
"""
    assert outcome_set(text, "A.life", "you.mana") == {(20, ())}


def test_may_chooser_is_the_named_objects_controller_or_by() -> None:
    from mtg_outcomes.decision import Decision
    from mtg_outcomes.engine import advance
    from mtg_outcomes.state import initial_state

    from ..helpers import case_from

    base = PLAYERS + """
battlefield: [{id: pyro, card: Prodigal Pyromancer, controller: A}]
actions:
"""
    for action, chooser in (("  - may: {activate: {id: pyro, target: you}}", "A"),
                            ("  - {may: {lose_life: {amount: 1, who: you}}, by: you}", "you")):
        state, table = initial_state(case_from(base + action + "\n"))
        d = advance(state, table)
        assert isinstance(d, Decision) and (d.kind, d.chooser) == ("may", chooser)


# ---------------------------------------------------------------------------------------------
# casting spells (601.2c targets, 608.2 resolution)


def test_608_2_a_cast_spell_that_creates_a_shield() -> None:
    text = PLAYERS + """
sources:
  - {id: salve, name: Salve, controller: you, types: [instant], colors: [white], abilities: [{spell: {shield: 3, to: target}, target: player}]}
  - {id: bolt, card: Lightning Bolt, controller: A}
actions:
  - cast: {id: salve, target: you}
  - damage: [{from: bolt, to: you, amount: 5}]
"""
    assert outcome_set(text, "you.life") == {(18,)}


def test_601_2c_a_spell_with_no_legal_target_cant_be_cast() -> None:
    from mtg_outcomes import enumerate_outcomes
    from mtg_outcomes.explain import replay

    from ..helpers import case_from

    text = PLAYERS + """
effects:
  - {id: mask, shroud: true, to: each player, controller: you}
actions:
  - cast: {card: Lightning Bolt, controller: A}
"""
    case = case_from(text)
    [o] = enumerate_outcomes(case).outcomes
    assert (o.values["you.life"], o.values["A.life"]) == (20, 20)
    assert any("can't be cast: there is no legal target (601.2c)" in s.words for s in replay(case, o).steps)

"""Life (CR 119): life-gain replacements, "can't lose life" / "your life total can't change",
Phyrexian Unlife, life total setting. One rule each, named by CR number."""

from __future__ import annotations

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.cp.plan import cp_supported
from mtg_outcomes.explain import replay

from ..helpers import both_engines, case_from, outcome_set, problems

PLAYERS = """
players:
  - {name: A, life: 20, starting_life: 20}
  - {name: you, life: 20, starting_life: 20}
"""

LION = "{id: lion, name: Test Lifelink Lion, controller: A, types: [creature], power: 3, toughness: 3, keywords: [lifelink], attacking: you}"




# ---- life-gain replacements (119.10, 616.1) -----------------------------------------------


def test_616_1_gaining_player_orders_life_gain_replacements() -> None:
    text = PLAYERS + f"""
battlefield:
  - {{id: leyline, card: Leyline of Hope, controller: A}}
  - {{id: boon, card: Boon Reflection, controller: A}}
  - {LION}
actions:
  - combat: {{}}
"""
    # Leyline first: (3 + 1) x 2 = 8; Boon Reflection first: 3 x 2 + 1 = 7
    assert outcome_set(text, "A.life", "A.life_gained", "you.life") == {(28, 8, 17), (27, 7, 17)}


def test_616_1_life_gain_order_is_said_in_the_witness() -> None:
    text = PLAYERS + f"""
battlefield:
  - {{id: leyline, card: Leyline of Hope, controller: A}}
  - {{id: boon, card: Boon Reflection, controller: A}}
  - {LION}
actions:
  - combat: {{}}
"""
    case = case_from(text)
    result = enumerate_outcomes(case, engine="graph")
    words = {o.values["A.life"]: [s.words for s in replay(case, o).steps] for o in result.outcomes}
    assert "A applies Leyline of Hope first to A's life gain: 3 becomes 4" in words[28]
    assert "A applies Boon Reflection first to A's life gain: 3 becomes 6" in words[27]
    assert {(w.chooser, w.kind, w.at) for o in result.outcomes for w in o.witness} == {("A", "order", "A gains life")}


def test_614_5_two_leylines_each_apply_once() -> None:
    text = PLAYERS + """
battlefield:
  - {id: l1, card: Leyline of Hope, controller: you}
  - {id: l2, card: Leyline of Hope, controller: you}
actions:
  - gain_life: {amount: 3, who: you}
"""
    assert outcome_set(text, "you.life") == {(25,)}


def test_702_15e_each_lifelink_source_is_one_life_gain_event() -> None:
    # two lifelinkers: +1 each; one lifelinker dealing damage to two blockers: +1 once
    text = PLAYERS + f"""
battlefield:
  - {{id: leyline, card: Leyline of Hope, controller: A}}
  - {{id: cat, name: Cat, controller: A, types: [creature], power: 2, toughness: 2, keywords: [lifelink], attacking: you}}
  - {LION}
  - {{id: b1, name: Wall 1, controller: you, types: [creature], power: 0, toughness: 5, blocking: lion}}
  - {{id: b2, name: Wall 2, controller: you, types: [creature], power: 0, toughness: 5, blocking: lion}}
actions:
  - combat: {{}}
"""
    assert outcome_set(text, "A.life") == {(20 + 3 + 4,)}


def test_119_9_gaining_0_life_is_not_replaced() -> None:
    text = PLAYERS + """
battlefield:
  - {id: leyline, card: Leyline of Hope, controller: you}
actions:
  - gain_life: {amount: 0, who: you}
"""
    assert outcome_set(text, "you.life") == {(20,)}


def test_119_7_cant_gain_life_makes_a_gain_replacement_do_nothing() -> None:
    text = PLAYERS + """
battlefield:
  - {id: leyline, card: Leyline of Hope, controller: you}
effects:
  - {id: nogain, cant_gain_life: opponents, controller: A}
actions:
  - gain_life: {amount: 3, who: you}
"""
    assert outcome_set(text, "you.life", "you.life_gained") == {(20, 0)}


def test_810_9_a_teammates_gain_doesnt_meet_your_leyline() -> None:
    text = """
format: two-headed-giant
players:
  - {name: you, team: 1, starting_life: 30}
  - {name: B, team: 1, starting_life: 30}
  - {name: A, team: 2, starting_life: 30}
  - {name: C, team: 2, starting_life: 30}
battlefield:
  - {id: leyline, card: Leyline of Hope, controller: you}
actions:
  - gain_life: {amount: 3, who: B}
  - gain_life: {amount: 3, who: you}
"""
    # B's 3 goes to the team as it is (Leyline of Hope ruling, 2024-09-20); yours becomes 4
    assert outcome_set(text, "team1.life", "B.life_gained", "you.life_gained") == {(37, 3, 4)}


def test_119_10_gain_life_trigger_sees_the_replaced_amount_once() -> None:
    text = PLAYERS + """
battlefield:
  - {id: boon, card: Boon Reflection, controller: you}
  - id: ajani
    name: Test Pridemate
    controller: you
    types: [creature]
    power: 2
    toughness: 2
    abilities:
      - {trigger: gain_life, do: {deal: amount, to: A}}
actions:
  - gain_life: {amount: 2, who: you}
"""
    # one life-gain event of 4: the trigger fires once and reads 4
    assert outcome_set(text, "you.life", "A.life") == {(24, 16)}


def test_life_gain_replacements_are_modelled_by_cp() -> None:
    text = PLAYERS + f"""
battlefield:
  - {{id: boon, card: Boon Reflection, controller: A}}
  - {LION}
actions:
  - combat: {{}}
"""
    case = case_from(text)
    assert cp_supported(case) is None
    cp = {o.state for o in enumerate_outcomes(case, engine="cp").outcomes}
    assert cp == {o.state for o in enumerate_outcomes(case, engine="graph").outcomes}
    assert {dict(s)["A.life"] for s in cp} == {26}  # Boon Reflection doubles the lifelink gain of 3


def test_life_gain_replacement_vocabulary_is_checked() -> None:
    text = PLAYERS + """
battlefield:
  - {id: x, name: X, controller: you, types: [enchantment], abilities: [{gain_life_times: 5, to: you}]}
  - {id: y, name: Y, controller: you, types: [enchantment], abilities: [{gain_life_plus: 1, to: you, combat: true}]}
"""
    got = problems(text)
    assert ("battlefield[0].abilities[0].gain_life_times", "gain_life_times must be 2, 3 or 4") in got
    assert ("battlefield[1].abilities[0].combat", "combat goes with effects on damage, not gain_life_plus") in got


# ---- "can't lose life", "your life total can't change" (119.7, 119.8) -----------------------


def test_119_8_damage_is_still_dealt_to_a_player_whose_life_cant_change() -> None:
    text = PLAYERS + f"""
battlefield:
  - {{id: emperion, card: Platinum Emperion, controller: you}}
  - {LION}
  - id: watcher
    name: Test Watcher
    controller: you
    types: [enchantment]
    abilities:
      - {{trigger: dealt_damage, to: you, do: {{draw: 1, who: you}}}}
actions:
  - combat: {{}}
"""
    # no life lost, but the damage is dealt: lifelink gains, a "dealt damage" trigger triggers
    assert outcome_set(text, "you.life", "you.life_lost", "you.damage_taken", "A.life", "you.cards_drawn") == {
        (20, 0, 3, 23, 1)}


def test_119_8_cant_lose_life_still_gains() -> None:
    text = PLAYERS + """
effects:
  - {id: safe, cant_lose_life: you, controller: you}
actions:
  - lose_life: {amount: 5, who: you}
  - gain_life: {amount: 2, who: you}
"""
    assert outcome_set(text, "you.life", "you.life_lost", "you.life_gained") == {(22, 0, 2)}


def test_119_7_life_cant_change_stops_gains_and_their_replacements() -> None:
    text = PLAYERS + """
battlefield:
  - {id: emperion, card: Platinum Emperion, controller: you}
  - {id: boon, card: Boon Reflection, controller: you}
actions:
  - gain_life: {amount: 2, who: you}
"""
    assert outcome_set(text, "you.life", "you.life_gained") == {(20, 0)}


def test_119_8_a_player_who_cant_lose_life_cant_pay_life() -> None:
    text = PLAYERS + """
battlefield:
  - {id: emperion, card: Platinum Emperion, controller: you}
  - id: pyro
    name: Test Life Pinger
    controller: you
    types: [artifact]
    abilities:
      - {activated: {deal: 1, to: target}, target: player, cost: [{pay_life: 1}]}
actions:
  - activate: {id: pyro, target: A}
"""
    case = case_from(text)
    result = enumerate_outcomes(case, engine="graph")
    assert {(o.values["A.life"], o.values["you.life"]) for o in result.outcomes} == {(20, 20)}
    steps = [s.words for s in replay(case, result.outcomes[0]).steps]
    assert any("can't lose life, so can't pay 1 life (119.8" in w for w in steps)


def test_810_9h_a_teammate_who_cant_lose_life_covers_the_team() -> None:
    text = """
format: two-headed-giant
players:
  - {name: A, team: 2}
  - {name: C, team: 2}
  - {name: you, team: 1}
  - {name: B, team: 1}
battlefield:
  - {id: emperion, card: Platinum Emperion, controller: you}
sources:
  - {id: rift, name: Flame Rift, controller: A, types: [sorcery]}
actions:
  - damage: [{from: rift, to: you, amount: 4}, {from: rift, to: B, amount: 4}, {from: rift, to: A, amount: 4}]
"""
    assert outcome_set(text, "team1.life", "team2.life", "B.damage_taken") == {(30, 26, 4)}


def test_life_total_cant_change_is_modelled_by_cp() -> None:
    text = PLAYERS + f"""
battlefield:
  - {{id: emperion, card: Platinum Emperion, controller: you}}
  - {LION}
actions:
  - combat: {{}}
"""
    case = case_from(text)
    assert cp_supported(case) is None
    cp = {o.state for o in enumerate_outcomes(case, engine="cp").outcomes}
    assert cp == {o.state for o in enumerate_outcomes(case, engine="graph").outcomes}
    assert {dict(s)["you.life"] for s in cp} == {20}


def test_player_effects_take_their_players_as_value() -> None:
    text = PLAYERS + """
effects:
  - {id: e, cant_lose_life: you, to: A, controller: you}
"""
    assert problems(text) == [("effects[0].to", "cant_lose_life names its players itself (cant_lose_life: you), not with to:")]


# ---- Phyrexian Unlife: no loss for 0 or less life (704.5a), conditional infect ---------------

UNLIFE = "{id: unlife, card: Phyrexian Unlife, controller: you}"


def test_704_5a_no_loss_for_0_life_and_infect_only_once_at_0() -> None:
    # at 3 life two simultaneous 2-damage sources are both life loss (the condition is read as
    # the damage is dealt); the next damage, at -1, is poison
    text = """
players:
  - {name: A}
  - {name: you, life: 3}
battlefield:
  - """ + UNLIFE + """
sources:
  - {id: s1, name: Spark 1, controller: A, types: [instant]}
  - {id: s2, name: Spark 2, controller: A, types: [instant]}
  - {id: s3, name: Spark 3, controller: A, types: [instant]}
actions:
  - damage: [{from: s1, to: you, amount: 2}, {from: s2, to: you, amount: 2}]
  - damage: [{from: s3, to: you, amount: 3}]
"""
    assert outcome_set(text, "you.life", "you.poison", "you.lost") == {(-1, 3, False)}


def test_704_5a_at_0_life_you_lose_once_unlife_leaves() -> None:
    text = """
players:
  - {name: A}
  - {name: you, life: 0}
battlefield:
  - """ + UNLIFE + """
actions:
  - leave: unlife
"""
    assert outcome_set(text, "you.lost") == {(True,)}


def test_119_4_at_0_life_no_life_can_be_paid() -> None:
    text = """
players:
  - {name: A}
  - {name: you, life: 0}
battlefield:
  - """ + UNLIFE + """
  - {id: pyro, name: Test Life Pinger, controller: you, types: [artifact], abilities: [{activated: {deal: 1, to: target}, target: player, cost: [{pay_life: 1}]}]}
actions:
  - activate: {id: pyro, target: A}
"""
    assert outcome_set(text, "A.life", "you.life") == {(20, 0)}


def test_810_8a_no_loss_for_0_life_covers_the_team() -> None:
    text = """
format: two-headed-giant
players:
  - {name: A, team: 2}
  - {name: C, team: 2}
  - {name: you, team: 1}
  - {name: B, team: 1}
battlefield:
  - {id: unlife, card: Phyrexian Unlife, controller: B}
sources:
  - {id: rift, name: Flame Rift, controller: A, types: [sorcery]}
actions:
  - damage: [{from: rift, to: you, amount: 20}, {from: rift, to: B, amount: 15}]
"""
    # the team goes to -5 and doesn't lose (810.8a's Transcendence example)
    assert outcome_set(text, "team1.life", "you.lost", "B.lost") == {(-5, False, False)}


def test_a_case_may_start_at_0_life_only_under_such_an_effect() -> None:
    bad = """
players:
  - {name: A}
  - {name: you, life: -2}
battlefield:
  - {id: unlife, card: Phyrexian Unlife, controller: A}
"""
    assert [p for p, _ in problems(bad)] == ["players[1].life"]
    good = bad.replace("controller: A}", "controller: you}")
    assert outcome_set(good + "actions: []\n", "you.life") == {(-2,)}


def test_unlife_is_modelled_by_cp() -> None:
    text = """
players:
  - {name: A}
  - {name: you, life: 3}
battlefield:
  - """ + UNLIFE + """
sources:
  - {id: s1, name: Spark 1, controller: A, types: [instant]}
actions:
  - damage: [{from: s1, to: you, amount: 2}]
"""
    case = case_from(text)
    assert cp_supported(case) is None
    cp = {o.state for o in enumerate_outcomes(case, engine="cp").outcomes}
    assert cp == {o.state for o in enumerate_outcomes(case, engine="graph").outcomes}
    assert {(dict(s)["you.life"], dict(s)["you.lost"]) for s in cp} == {(1, False)}


# ---- life total setting (119.5, 810.9c-d) ---------------------------------------------------


def test_119_5_setting_a_lower_life_total_is_losing_the_difference() -> None:
    text = """
players:
  - {name: A, life: 12}
  - {name: you, life: 5}
  - {name: B}
sources:
  - {id: repay, card: Repay in Kind, controller: A}
actions:
  - {set_life: lowest_life_total, who: each player, from: repay}
"""
    assert outcome_set(text, "A.life", "A.life_lost", "B.life", "B.life_lost", "you.life_lost") == {(5, 7, 5, 15, 0)}


def test_119_5_setting_a_higher_life_total_is_a_gain_that_replacements_modify() -> None:
    text = PLAYERS.replace("{name: you, life: 20,", "{name: you, life: 5,") + """
battlefield:
  - {id: leyline, card: Leyline of Hope, controller: you}
  - id: pride
    name: Test Pridemate
    controller: you
    types: [creature]
    power: 2
    toughness: 2
    abilities:
      - {trigger: gain_life, do: {deal: amount, to: A}}
actions:
  - {set_life: 10, who: you}
"""
    assert outcome_set(text, "you.life", "you.life_gained", "A.life") == {(11, 6, 14)}


def test_119_8_a_life_total_that_cant_change_isnt_set() -> None:
    text = PLAYERS + """
battlefield:
  - {id: emperion, card: Platinum Emperion, controller: you}
actions:
  - {set_life: 10, who: you}
  - {set_life: 30, who: each player}
"""
    assert outcome_set(text, "you.life", "A.life") == {(20, 30)}


def test_810_9c_setting_one_players_life_uses_the_teams_total() -> None:
    text = """
format: two-headed-giant
players:
  - {name: you, team: 1}
  - {name: B, team: 1}
  - {name: A, team: 2, life: 20}
  - {name: C, team: 2, life: 20}
actions:
  - {set_life: 10, who: A}
"""
    assert outcome_set(text, "team2.life", "A.life_lost", "C.life_lost") == {(10, 10, 0)}


def test_810_9d_the_team_chooses_whose_life_total_is_set() -> None:
    text = """
format: two-headed-giant
players:
  - {name: you, team: 1, life: 13}
  - {name: B, team: 1, life: 13}
  - {name: A, team: 2, life: 21}
  - {name: C, team: 2, life: 21}
sources:
  - {id: repay, card: Repay in Kind, controller: you}
actions:
  - {set_life: lowest_life_total, who: each player, from: repay}
"""
    case = case_from(text)
    result = enumerate_outcomes(case, engine="graph")
    got = {(o.values["team2.life"], o.values["A.life_lost"], o.values["C.life_lost"]) for o in result.outcomes}
    assert got == {(13, 8, 0), (13, 0, 8)}
    assert {(w.chooser, w.kind) for o in result.outcomes for w in o.witness} == {("you", "choose"), ("A", "choose")}


# ---- fractions of life, "the life lost this way" (119.3, 810.9a) ----------------------------


def test_119_3_a_third_of_their_life_rounded_up() -> None:
    text = """
players:
  - {name: you, life: 13}
  - {name: A, life: 1}
  - {name: B, life: 9}
actions:
  - enter: {id: ravager, card: Dire Fleet Ravager, controller: you}
"""
    assert outcome_set(text, "you.life", "A.life", "B.life") == {(8, 0, 6)}


def test_810_9a_each_member_loses_a_third_of_the_team_total_as_it_was() -> None:
    text = """
format: two-headed-giant
players:
  - {name: you, team: 1, life: 13}
  - {name: B, team: 1, life: 13}
  - {name: A, team: 2}
  - {name: C, team: 2}
actions:
  - {lose_life: half_up(life_total), who: each player}
"""
    # each member reads the team's total before any of it is lost: 7 + 7 and 15 + 15
    assert outcome_set(text, "team1.life", "team2.life", "you.life_lost") == {(-1, 0, 7)}


def test_107_1b_half_of_a_negative_life_total_is_nothing() -> None:
    text = """
players:
  - {name: A}
  - {name: you, life: -10}
battlefield:
  - {id: unlife, card: Phyrexian Unlife, controller: you}
actions:
  - {lose_life: half_up(life_total), who: you}
"""
    assert outcome_set(text, "you.life", "you.life_lost") == {(-10, 0)}


def test_119_8_life_lost_this_way_counts_only_life_actually_lost() -> None:
    text = """
players:
  - {name: you}
  - {name: A}
  - {name: B}
battlefield:
  - {id: emperion, card: Platinum Emperion, controller: B}
sources:
  - {id: exsang, card: Exsanguinate, controller: you}
actions:
  - {lose_life: 3, who: opponents, from: exsang, then: {gain_life: life_lost_this_way}}
"""
    # B's life total can't change: only A's 3 is lost this way
    assert outcome_set(text, "you.life", "A.life", "B.life") == {(23, 17, 20)}


def test_810_9_life_lost_this_way_by_each_opponent_in_two_headed_giant() -> None:
    text = """
format: two-headed-giant
players:
  - {name: you, team: 1, starting_life: 30}
  - {name: B, team: 1, starting_life: 30}
  - {name: A, team: 2, starting_life: 30}
  - {name: C, team: 2, starting_life: 30}
actions:
  - {lose_life: 2, who: opponents, then: {gain_life: life_lost_this_way}}
"""
    assert outcome_set(text, "team1.life", "team2.life", "you.life_gained") == {(34, 26, 4)}


def test_life_lost_this_way_is_read_only_after_a_lose_life() -> None:
    text = PLAYERS + """
actions:
  - {gain_life: life_lost_this_way, who: you}
  - {lose_life: 1, who: A, then: {draw: life_lost_this_way}}
"""
    got = problems(text)
    assert ("actions[0].gain_life", "life_lost_this_way is read only in the then: of a lose_life action") in got
    assert ("actions[1].then", "a lose_life action's then: is {gain_life: life_lost_this_way} (who: defaults to you)") in got


def test_800_4a_for_each_player_counts_the_players_still_in_the_game() -> None:
    text = """
players:
  - {name: you}
  - {name: A}
  - {name: B}
sources:
  - {id: bene, card: Benediction of Moons, controller: you}
actions:
  - {gain_life: player_count, who: you, from: bene}
  - leave_game: B
  - {gain_life: player_count, who: you, from: bene}
"""
    assert outcome_set(text, "you.life") == {(25,)}


def test_119_10_life_gained_for_each_player_is_one_event() -> None:
    text = """
format: two-headed-giant
players:
  - {name: you, team: 1, starting_life: 30}
  - {name: B, team: 1, starting_life: 30}
  - {name: A, team: 2, starting_life: 30}
  - {name: C, team: 2, starting_life: 30}
battlefield:
  - {id: leyline, card: Leyline of Hope, controller: you}
actions:
  - {gain_life: player_count, who: you}
"""
    assert outcome_set(text, "team1.life", "you.life_gained") == {(35, 5)}


def test_704_3_a_sparing_creature_dying_with_you_at_0_loses_at_the_next_check() -> None:
    """A creature's "you don't lose for 0 or less life" spares you at the check where it dies, not
    at the next one (704.3); the CP model reads who is spared at the step's check, and the rules
    engine does the next (solver.cp.suffix): both engines agree."""
    text = """
players:
  - {name: you, life: 3}
  - {name: A}
battlefield:
  - {id: ghost, name: Guardian, controller: you, types: [creature], power: 1, toughness: 1, abilities: [{no_loss_for_0_life: you}]}
sources:
  - {id: quake, name: Quake, controller: A, types: [sorcery]}
actions:
  - damage: [{from: quake, to: you, amount: 5}, {from: quake, to: ghost, amount: 5}]
"""
    assert both_engines(text, "you.life", "you.lost", "ghost.dies") == {(-2, True, True)}


def test_704_5a_cant_lose_game_spares_life_and_poison_and_cp_agrees() -> None:
    """Platinum Angel, out of the damage's reach: no loss at -1 life and 10 poison (704.5a, 704.5c)."""
    text = """
players:
  - {name: A}
  - {name: you, life: 2, poison: 8}
battlefield:
  - {id: angel, card: Platinum Angel, controller: you}
sources:
  - {id: s, name: Spark, controller: A, types: [instant]}
  - {id: t, name: Blight, controller: A, types: [instant], keywords: [infect]}
actions:
  - damage: [{from: s, to: you, amount: 3}, {from: t, to: you, amount: 2}]
"""
    case = case_from(text)
    assert cp_supported(case) is None
    for engine in ("graph", "cp"):
        [out] = enumerate_outcomes(case, engine=engine).outcomes
        assert (out.values["you.life"], out.values["you.poison"], out.values["you.lost"]) == (-1, 10, False)


def test_603_3_cant_gain_creature_dead_before_a_trigger_gain_resolves() -> None:
    """A "players can't gain life" creature that dies in the step's check no longer stops a
    damage_prevented trigger's gain, which resolves after that check (603.3, 704.3): the rules engine
    resolves it after the CP step (solver.cp.suffix), and both engines agree."""
    text = """
players:
  - {name: A}
  - {name: you}
battlefield:
  - {id: fero, name: Ferocidon, controller: you, types: [creature], power: 3, toughness: 3, abilities: [{cant_gain_life: players}]}
  - {id: watcher, name: Watcher, controller: you, types: [enchantment], abilities: [{trigger: damage_prevented, do: {gain_life: prevented, who: you}}]}
sources:
  - {id: s, name: Spark, controller: A, types: [instant]}
effects:
  - {id: p4, shield: 4, to: you, controller: you, source: s}
actions:
  - damage: [{from: s, to: you, amount: 2}, {from: s, to: fero, amount: 3}]
"""
    assert both_engines(text, "you.life", "you.life_gained", "fero.dies") == {(22, 2, True)}


def test_704_5c_a_case_may_start_with_lethal_poison_only_if_you_cant_lose() -> None:
    board = """
players:
  - {name: A}
  - {name: you, life: 2, poison: 12}
battlefield:
  - {id: angel, card: %s, controller: you}
sources:
  - {id: s, name: Spark, controller: A, types: [instant]}
actions:
  - damage: [{from: s, to: you, amount: 3}]
"""
    assert outcome_set(board % "Platinum Angel", "you.life", "you.lost") == {(-1, False)}
    [(path, reason)] = problems(board % "Phyrexian Unlife")
    assert path == "players[1].poison" and "704.5c" in reason

"""Unit tests of counters (CR 122): put-counters actions, prevention riders that put counters,
damage replaced by counters and -1/-1 counter replacements; one rule each, named by CR number."""

from __future__ import annotations

from ..helpers import both_engines, case_from, outcome_set, problems
from ..helpers import case_error as _error

PLAYERS = """
players:
  - {name: you, life: 20}
  - {name: A, life: 20}
"""




def test_122_1a_put_counters_action_raises_toughness() -> None:
    """Walking Ballista's {4}: the +1/+1 counter it puts makes 1 damage not lethal (704.5g)."""
    text = PLAYERS + """
battlefield:
  - {id: ballista, card: Walking Ballista, controller: you, counters: {+1/+1: 1}}
sources:
  - {id: s, name: Ping, controller: A, types: [instant]}
actions:
  - activate: {id: ballista, ability: 2}
  - activate: {id: ballista, ability: 2}
  - damage: [{from: s, to: ballista, amount: 2}]
"""
    assert outcome_set(text, "ballista.counters.+1/+1", "ballista.dies") == {(3, False)}


def test_122_1_put_counters_as_an_action_on_a_named_permanent() -> None:
    text = PLAYERS + """
battlefield:
  - {id: bear, name: Bear, controller: you, types: [creature], power: 2, toughness: 2}
sources:
  - {id: s, name: Shock, controller: A, types: [instant]}
actions:
  - {put_counters: {+1/+1: 2}, to: bear}
  - damage: [{from: s, to: bear, amount: 3}]
"""
    assert outcome_set(text, "bear.counters.+1/+1", "bear.dies") == {(2, False)}


def test_122_1_put_counters_needs_one_kind_and_to() -> None:
    base = PLAYERS + """
battlefield:
  - {id: bear, name: Bear, controller: you, types: [creature], power: 2, toughness: 2}
actions:
"""
    assert "actions[0]: put_counters needs to:" in _error(base + "  - {put_counters: {+1/+1: 1}}\n")
    assert "actions[0].put_counters: name exactly one counter kind" in _error(
        base + "  - {put_counters: {+1/+1: 1, -1/-1: 1}, to: bear}\n")


# ---- prevention riders that put counters (615.5) -------------------------------------------

SQUIRE = "{id: squire, name: Squire, controller: you, types: [creature], power: 1, toughness: 1}"
TEST_OF_FAITH = "{id: tof, controller: you, shield: 3, to: squire, then: {put_counters: {+1/+1: prevented}, to: squire}}"


def test_615_5_counters_rider_happens_with_the_prevention_before_sba() -> None:
    """Test of Faith (ruling 2004-12-01): a 1/1 dealt 6 ends a 4/4 with 3 damage, alive."""
    text = PLAYERS + f"""
battlefield:
  - {SQUIRE}
sources:
  - {{id: s, name: Blast, controller: A, types: [sorcery]}}
effects:
  - {TEST_OF_FAITH}
actions:
  - damage: [{{from: s, to: squire, amount: 6}}]
"""
    assert outcome_set(text, "squire.damage", "squire.counters.+1/+1", "squire.dies") == {(3, 3, False)}


def test_615_5_counters_rider_counts_each_use_of_the_shield() -> None:
    """The shield lasts the turn: 2 damage then 2 more: 2 + 1 prevented, 3 counters, 1 damage."""
    text = PLAYERS + f"""
battlefield:
  - {SQUIRE}
sources:
  - {{id: s, name: Blast, controller: A, types: [sorcery]}}
effects:
  - {TEST_OF_FAITH}
actions:
  - damage: [{{from: s, to: squire, amount: 2}}]
  - damage: [{{from: s, to: squire, amount: 2}}]
"""
    assert outcome_set(text, "squire.damage", "squire.counters.+1/+1", "squire.dies") == {(1, 3, False)}


def test_615_5_cp_counts_a_counters_riders_toughness_before_sba() -> None:
    """Test of Faith in the CP engine: the counters put as the damage is prevented raise the
    toughness the state-based check reads (613.4c, 704.5g: solver.sba.lethal's thresholds)."""
    text = PLAYERS + f"""
battlefield:
  - {SQUIRE}
sources:
  - {{id: s, name: Blast, controller: A, types: [sorcery]}}
effects:
  - {TEST_OF_FAITH}
actions:
  - damage: [{{from: s, to: squire, amount: 6}}]
"""
    assert both_engines(text, "squire.damage", "squire.counters.+1/+1", "squire.dies") == {(3, 3, False)}


def test_615_5_cp_removes_counters_before_sba_and_never_below_none() -> None:
    """Protean Hydra's rider in the CP engine: "remove that many" removes all 2 of its counters
    when 3 is prevented (never below none), a 0/0 that dies (704.5f); Phantom Tiger's one counter
    for two sources at once (one rider for the simultaneous events, 615.5)."""
    text = PLAYERS + """
battlefield:
  - {id: hydra, name: Hydra, controller: you, types: [creature], power: 0, toughness: 0, counters: {+1/+1: 2},
     abilities: [{prevent: all, to: self, then: {remove_counters: {+1/+1: that_damage}, to: self}}]}
  - {id: tiger, name: Tiger, controller: you, types: [creature], power: 1, toughness: 0, counters: {+1/+1: 2},
     abilities: [{prevent: all, to: self, then: {remove_counters: {+1/+1: 1}, to: self}}]}
sources:
  - {id: s, name: Blast, controller: A, types: [sorcery]}
actions:
  - damage: [{from: s, to: hydra, amount: 3}, {from: s, to: tiger, amount: 2}, {from: s, to: tiger, amount: 2}]
"""
    assert both_engines(text, "hydra.counters.+1/+1", "hydra.dies", "tiger.counters.+1/+1", "tiger.dies") == {(0, True, 1, False)}


def test_615_5_cp_puts_minus_counters_before_sba() -> None:
    """Phyrexian Hydra's "prevent that damage. Put a -1/-1 counter on this creature for each 1
    damage prevented this way" in the CP engine: the counters lower the toughness the state-based
    check reads (613.4c, 704.5f); graph == CP, witnesses replayed. A 7/7 with four -1/-1 counters
    dies to a Bolt's 3 (no damage marked), one with five +1/+1 counters doesn't (the pairs come
    off after the step, 704.5q: the rules engine continues); a Vizier of Remedies (614.1a, each
    putting one fewer) is declined by name."""
    from mtg_outcomes.cp import cp_supported

    from ..cp.test_cp import assert_same

    def case(counters: str, vizier: bool = False) -> str:
        extra = "\n  - {id: vizier, card: Vizier of Remedies, controller: you}" if vizier else ""
        return PLAYERS + f"""
battlefield:
  - {{id: hydra, card: Phyrexian Hydra, controller: you, counters: {counters}}}{extra}
sources:
  - {{id: bolt, name: Bolt, controller: A, types: [instant], colors: [red]}}
actions:
  - damage: [{{from: bolt, to: hydra, amount: 3}}]
"""
    fields = ("hydra.damage", "hydra.counters.-1/-1", "hydra.dies")
    assert cp_supported(case_from(case("{-1/-1: 4}"))) is None
    assert assert_same(case_from(case("{-1/-1: 4}"))) == 1
    assert both_engines(case("{-1/-1: 4}"), *fields) == {(0, 7, True)}
    assert cp_supported(case_from(case("{+1/+1: 5}"))) is None
    assert assert_same(case_from(case("{+1/+1: 5}"))) == 1
    assert both_engines(case("{+1/+1: 5}"), "hydra.counters.+1/+1", "hydra.counters.-1/-1", "hydra.dies") == {(2, 0, False)}
    assert "fewer -1/-1 counters" in str(cp_supported(case_from(case("{-1/-1: 4}", vizier=True))))


# ---- damage replaced by counters (614.1a, 616.1) ----------------------------------------------

HYDRA = "{id: hydra, card: Phytohydra, controller: you}"


def test_614_1a_damage_replaced_by_counters_is_not_dealt() -> None:
    """No damage is dealt: no damage marked, no lifelink gain, no -1/-1 counters from wither."""
    text = PLAYERS + f"""
battlefield:
  - {HYDRA}
sources:
  - {{id: s, name: Leech, controller: A, types: [creature], power: 3, toughness: 3, keywords: [lifelink, wither]}}
actions:
  - damage: [{{from: s, to: hydra, amount: 3}}]
"""
    assert outcome_set(text, "hydra.damage", "hydra.counters.+1/+1", "hydra.counters.-1/-1", "A.life") == {
        (0, 3, 0, 20)}


def test_616_1_controller_orders_shield_and_damage_to_counters() -> None:
    """Phytohydra ruling (2005-10-01): its controller chooses which effect applies first."""
    text = PLAYERS + f"""
battlefield:
  - {HYDRA}
sources:
  - {{id: s, name: Blast, controller: A, types: [sorcery]}}
effects:
  - {{id: g, controller: you, shield: 2, to: hydra}}
actions:
  - damage: [{{from: s, to: hydra, amount: 3}}]
"""
    assert outcome_set(text, "hydra.counters.+1/+1", "g.remaining") == {(1, 0), (3, 2)}


def test_614_1a_cp_puts_damage_as_counters_in_the_order_its_controller_chooses() -> None:
    """Phytohydra in the CP engine: the replacement is one of the event's ordered effects (616.1,
    solver.rules.amounts.ToCounters), the amount it replaced put as +1/+1 counters, none dealt: with a
    shield of 2 and a +1 (the add applies to the damage, 614.1a) both orders are outcomes."""
    text = PLAYERS + f"""
battlefield:
  - {HYDRA}
sources:
  - {{id: s, name: Blast, controller: A, types: [sorcery]}}
effects:
  - {{id: g, controller: you, shield: 2, to: hydra}}
  - {{id: plus, controller: A, add: 1, to: hydra}}
actions:
  - damage: [{{from: s, to: hydra, amount: 3}}]
"""
    assert both_engines(text, "hydra.counters.+1/+1", "hydra.damage", "g.remaining") == {
        (1, 0, 0), (2, 0, 0), (3, 0, 2), (4, 0, 2)}


def test_614_1a_cp_declines_damage_as_counters_on_two_permanents_of_one_effect() -> None:
    from mtg_outcomes.cp import cp_supported
    case = case_from(PLAYERS + """
battlefield:
  - {id: b1, name: Bear, controller: you, types: [creature], power: 2, toughness: 2}
  - {id: b2, name: Bear, controller: you, types: [creature], power: 2, toughness: 2}
  - {id: aura, name: Growth Field, controller: you, types: [enchantment],
     abilities: [{damage_to_counters: +1/+1, to: creatures you control}]}
sources:
  - {id: s, name: Blast, controller: A, types: [sorcery]}
actions:
  - damage: [{from: s, to: b1, amount: 1}, {from: s, to: b2, amount: 1}]
""")
    assert "damage replaced by counters on 2 permanents" in (cp_supported(case) or "")


# ---- -1/-1 counter replacements (614.1a, 614.5) ----------------------------------------------

VIZIER = "{id: vizier, card: Vizier of Remedies, controller: you}"
OGRE = "{id: ogre, name: Ogre, controller: you, types: [creature], power: 3, toughness: 3}"


def test_614_1a_fewer_counters_from_wither_damage() -> None:
    text = PLAYERS + f"""
battlefield:
  - {VIZIER}
  - {OGRE}
sources:
  - {{id: w, name: Witherer, controller: A, types: [creature], power: 3, toughness: 3, keywords: [wither]}}
actions:
  - damage: [{{from: w, to: ogre, amount: 3}}]
"""
    assert outcome_set(text, "ogre.counters.-1/-1", "ogre.dies") == {(2, False)}


def test_614_1a_fewer_counters_once_for_a_batch_of_wither_and_infect_sources() -> None:
    """Vizier ruling (2017-04-18): 2 wither + 2 infect at once is one event: 3 counters, not 2."""
    text = PLAYERS + f"""
battlefield:
  - {VIZIER}
  - {OGRE}
sources:
  - {{id: w, name: Witherer, controller: A, types: [creature], power: 2, toughness: 2, keywords: [wither]}}
  - {{id: i, name: Infecter, controller: A, types: [creature], power: 2, toughness: 2, keywords: [infect]}}
actions:
  - damage: [{{from: w, to: ogre, amount: 2}}, {{from: i, to: ogre, amount: 2}}]
"""
    assert outcome_set(text, "ogre.counters.-1/-1", "ogre.dies") == {(3, True)}


def test_614_5_each_vizier_makes_one_fewer_and_a_put_counters_action_is_replaced() -> None:
    text = PLAYERS + f"""
battlefield:
  - {VIZIER}
  - {{id: v2, card: Vizier of Remedies, controller: you}}
  - {OGRE}
actions:
  - {{put_counters: {{-1/-1: 3}}, to: ogre}}
"""
    assert outcome_set(text, "ogre.counters.-1/-1", "ogre.dies") == {(1, False)}


def test_614_1a_fewer_counters_only_on_creatures_you_control() -> None:
    text = PLAYERS + f"""
battlefield:
  - {VIZIER}
  - {{id: brute, name: Brute, controller: A, types: [creature], power: 3, toughness: 3}}
actions:
  - {{put_counters: {{-1/-1: 2}}, to: brute}}
"""
    assert outcome_set(text, "brute.counters.-1/-1") == {(2,)}


def test_614_1a_cp_models_fewer_counters() -> None:
    """The Witherer's 3 become 2 counters on the Ogre (3/3): it lives, in both engines (one rule,
    solver.results.fewer_counters)."""
    from mtg_outcomes import enumerate_outcomes
    from mtg_outcomes.cp import cp_supported
    case = case_from(PLAYERS + f"""
battlefield:
  - {VIZIER}
  - {OGRE}
sources:
  - {{id: w, name: Witherer, controller: A, types: [creature], power: 3, toughness: 3, keywords: [wither]}}
actions:
  - damage: [{{from: w, to: ogre, amount: 3}}]
""")
    assert cp_supported(case) is None
    cp = {o.state for o in enumerate_outcomes(case, engine="cp").outcomes}
    assert cp == {o.state for o in enumerate_outcomes(case, engine="graph").outcomes}
    assert {(dict(s)["ogre.counters.-1/-1"], dict(s)["ogre.dies"]) for s in cp} == {(2, False)}


# ---- +1/+1 and -1/-1 counters remove each other (704.5q) ---------------------------------------

def test_704_5q_plus_and_minus_counters_remove_each_other() -> None:
    """Test of Faith against 5 wither damage: 3 +1/+1 and 2 -1/-1 counters, then one +1/+1 left."""
    text = PLAYERS + f"""
battlefield:
  - {SQUIRE}
sources:
  - {{id: w, name: Witherer, controller: A, types: [creature], power: 5, toughness: 5, keywords: [wither]}}
effects:
  - {TEST_OF_FAITH}
actions:
  - damage: [{{from: w, to: squire, amount: 5}}]
"""
    assert outcome_set(text, "squire.counters.+1/+1", "squire.counters.-1/-1", "squire.dies") == {(1, 0, False)}


def test_704_5q_cp_continues_after_wither_on_a_creature_with_plus_counters() -> None:
    """The CP model doesn't take pairs of counters off itself: the rules engine continues after
    the step and does it in its state-based check (704.5q), from the counts the step's solutions
    are told apart by (solver.cp.suffix). Graph == CP, witnesses replayed: wither on a 2/2 with
    two +1/+1 counters behind a shield split (615.7), and Test of Faith's rider putting +1/+1
    counters on a creature wither damages (615.5)."""
    from mtg_outcomes.cp import cp_outcomes, cp_supported

    from ..cp.test_cp import assert_same

    case = case_from(PLAYERS + """
battlefield:
  - {id: bear, name: Bear, controller: you, types: [creature], power: 2, toughness: 2, counters: {+1/+1: 2}}
sources:
  - {id: w, name: Witherer, controller: A, types: [creature], power: 3, toughness: 3, keywords: [wither]}
  - {id: v, name: Vine, controller: A, types: [creature], power: 2, toughness: 2, keywords: [wither]}
effects:
  - {id: s, shield: 2, to: bear, controller: you}
actions:
  - damage: [{from: w, to: bear, amount: 3}, {from: v, to: bear, amount: 2}]
""")
    assert cp_supported(case) is None
    assert assert_same(case) == 1
    (o,) = cp_outcomes(case).outcomes
    assert (o.values["bear.counters.+1/+1"], o.values["bear.counters.-1/-1"], o.values["bear.dies"]) == (0, 1, False)
    faith = case_from(PLAYERS + f"""
battlefield:
  - {SQUIRE}
sources:
  - {{id: w, name: Witherer, controller: A, types: [creature], power: 5, toughness: 5, keywords: [wither]}}
effects:
  - {TEST_OF_FAITH}
actions:
  - damage: [{{from: w, to: squire, amount: 5}}]
""")
    assert cp_supported(faith) is None
    assert assert_same(faith) == 1


def test_122_1_counters_with_rules_meaning_the_tool_does_not_model_are_refused() -> None:
    """A shield counter (122.1c) or a +1/+0 counter (122.1a) would otherwise be kept and ignored:
    the Bears would die to the Bolt a shield counter prevents."""
    board = """
players:
  - {name: A}
  - {name: B}
battlefield:
  - {id: bears, card: Grizzly Bears, controller: A, counters: {%s: 1}}
sources:
  - {id: bolt, card: Lightning Bolt, controller: B}
actions:
  - damage: [{from: bolt, to: bears, amount: 3}]
"""
    [(path, reason)] = problems(board % "shield")
    assert path == "battlefield[0].counters.shield" and "122.1c" in reason
    [(path, reason)] = problems(board % "+1/+0")
    assert path == "battlefield[0].counters.+1/+0" and "122.1a" in reason
    put = board.replace("  - damage:", "  - {put_counters: {shield: 1}, to: bears}\n  - damage:") % "quest"
    assert [p for p, _ in problems(put)] == ["actions[0].put_counters.shield"]

"""Unit tests of the rules-breadth vocabulary: prevention riders and 615.12, counters removed by a
prevention, conditional triggers, subtype selectors; one rule each, named by CR number."""

from __future__ import annotations

from ..conftest import ROOT
from ..helpers import case_error as _error
from ..helpers import case_from, outcome_set

PLAYERS = """
players:
  - {name: A, life: 20}
  - {name: you, life: 20}
"""




# ---- 615.12: riders with unpreventable damage ----------------------------------------------------

BLAST = "{id: blast, name: Blast, controller: A, types: [sorcery]}"
UNPREVENTABLE = "{id: nope, cant_be_prevented: true, from: blast, controller: A}"


def _rider_case(rider: str, unpreventable: bool, amount: int = 3) -> str:
    effects = [f"{{id: s1, shield: 2, to: you, controller: you, then: {rider}}}"]
    if unpreventable:
        effects.insert(0, UNPREVENTABLE)
    return PLAYERS + f"""
sources:
  - {BLAST}
effects:
""" + "".join(f"  - {e}\n" for e in effects) + f"""
actions:
  - damage: [{{from: blast, to: you, amount: {amount}}}]
"""


def test_615_12_plain_rider_happens_when_damage_cant_be_prevented() -> None:
    text = _rider_case("{draw: 1, who: you}", unpreventable=True)
    assert outcome_set(text, "you.life", "you.cards_drawn", "s1.remaining") == {(17, 1, 2)}


def test_615_12_if_prevented_rider_needs_damage_prevented() -> None:
    text = _rider_case("{draw: 1, who: you, if_prevented: true}", unpreventable=True)
    assert outcome_set(text, "you.life", "you.cards_drawn", "s1.remaining") == {(17, 0, 2)}
    text = _rider_case("{draw: 1, who: you, if_prevented: true}", unpreventable=False)
    assert outcome_set(text, "you.life", "you.cards_drawn", "s1.remaining") == {(19, 1, 0)}


def test_615_12_amount_riders_still_do_nothing_with_nothing_prevented() -> None:
    """Vengeful Archon's "that much" with unpreventable damage: 0 damage is no damage (120.8)."""
    text = _rider_case("{deal: prevented, to: A}", unpreventable=True)
    assert outcome_set(text, "you.life", "A.life", "A.damage_taken") == {(17, 20, 0)}


def test_615_12_if_prevented_must_be_true_or_false() -> None:
    assert "if_prevented: expected true or false" in _error(_rider_case("{draw: 1, if_prevented: 1}", False))


def _graph_equals_cp(text: str) -> int:
    """Both engines' outcome sets on ``text``, equal; how many there are."""
    from mtg_outcomes import enumerate_outcomes
    from mtg_outcomes.cp import cp_supported
    case = case_from(text)
    assert cp_supported(case) is None, cp_supported(case)
    graph, cp = ({o.state for o in enumerate_outcomes(case, engine=e).outcomes} for e in ("graph", "cp"))
    assert graph == cp
    return len(graph)


def test_615_12_cp_takes_a_rider_that_happens_with_nothing_prevented() -> None:
    """The CP engine applies 615.12 as solver.damage._rider_happens does: a plain rider takes place
    on damage that can't be prevented, an ``if_prevented`` one only when something was prevented."""
    for rider in ("{draw: 1, who: you}", "{draw: 1, who: you, if_prevented: true}", "{gain_life: 2, who: you}"):
        for unpreventable in (True, False):
            assert _graph_equals_cp(_rider_case(rider, unpreventable)) == 1


# ---- 615.5, 615.12: a prevention that removes counters ------------------------------------------

FLOCK = ("{id: flock, name: Flock, controller: you, types: [creature], power: 0, toughness: 0, "
         "counters: {+1/+1: 3}, abilities: [{prevent: all, to: self, then: {remove_counters: {+1/+1: 1}, to: self}}]}")
HYDRA = ("{id: hydra, name: Hydra, controller: you, types: [creature], power: 0, toughness: 0, "
         "counters: {+1/+1: 4}, abilities: [{prevent: all, to: self, then: {remove_counters: {+1/+1: that_damage}, to: self}}]}")


def test_615_5_remove_a_counter_once_per_batch() -> None:
    """Phantom Flock: several sources at once, one counter (the Phantom Tiger ruling)."""
    text = PLAYERS + f"""
battlefield:
  - {FLOCK}
sources:
  - {BLAST}
  - {{id: bolt, name: Bolt, controller: A, types: [instant]}}
actions:
  - damage: [{{from: blast, to: flock, amount: 2}}, {{from: bolt, to: flock, amount: 3}}]
  - damage: [{{from: bolt, to: flock, amount: 1}}]
"""
    assert outcome_set(text, "flock.counters.+1/+1", "flock.damage", "flock.dies") == {(1, 0, False)}


def test_615_12_remove_counters_with_unpreventable_damage() -> None:
    """Protean Hydra: unpreventable damage is dealt and that many counters go before SBA."""
    text = PLAYERS + f"""
battlefield:
  - {HYDRA}
sources:
  - {BLAST}
effects:
  - {UNPREVENTABLE}
actions:
  - damage: [{{from: blast, to: hydra, amount: 1}}]
"""
    assert outcome_set(text, "hydra.counters.+1/+1", "hydra.damage", "hydra.dies") == {(3, 1, False)}


def test_122_remove_more_counters_than_it_has() -> None:
    text = PLAYERS + f"""
battlefield:
  - {HYDRA}
sources:
  - {BLAST}
actions:
  - damage: [{{from: blast, to: hydra, amount: 7}}]
"""
    assert outcome_set(text, "hydra.counters.+1/+1", "hydra.damage", "hydra.dies") == {(0, 0, True)}


def test_122_remove_counters_action_and_loyalty_refused() -> None:
    text = PLAYERS + f"""
battlefield:
  - {FLOCK}
actions:
  - {{remove_counters: {{+1/+1: 2}}, to: flock}}
"""
    assert outcome_set(text, "flock.counters.+1/+1", "flock.dies") == {(1, False)}
    assert "putting or removing loyalty counters is not modelled" in _error(
        text.replace("{+1/+1: 2}, to: flock", "{loyalty: 2}, to: flock"))


def test_615_5_that_damage_only_in_a_prevention_rider() -> None:
    assert "that_damage is read only in the then: of a prevention effect" in _error(PLAYERS + """
actions:
  - {lose_life: that_damage, who: A}
""")


def test_615_5_cp_removes_counters_as_the_rules_engine_does() -> None:
    """Protean Hydra in the CP engine: "that many" is what was prevented, or (615.12) what would
    have been; never more counters than it has (Phantom Flock: one per batch)."""
    for amount in (2, 7):
        for effects in ("", f"effects:\n  - {UNPREVENTABLE}\n"):
            assert _graph_equals_cp(PLAYERS + f"""
battlefield:
  - {HYDRA}
  - {FLOCK}
sources:
  - {BLAST}
{effects}actions:
  - damage: [{{from: blast, to: hydra, amount: {amount}}}, {{from: blast, to: flock, amount: 1}}]
""") == 1


# ---- 603.2, 603.4: triggers with a threshold or an intervening "if" ------------------------------

def _threshold(trigger: str, batches: list[str]) -> str:
    return PLAYERS + f"""
battlefield:
  - {{id: mag, name: Mag, controller: you, types: [enchantment], abilities: [{trigger}]}}
  - {{id: b1, name: B1, controller: you, types: [creature], power: 2, toughness: 2}}
  - {{id: b2, name: B2, controller: you, types: [creature], power: 2, toughness: 2}}
actions:
""" + "".join(f"  - damage: {b}\n" for b in batches)


PAIN = "{trigger: dealt_damage, to: opponents, min_damage: 3, do: {lose_life: 1, who: that player}}"


def test_603_2_threshold_counts_one_source_at_one_time() -> None:
    two_sources = "[{from: b1, to: A, amount: 2}, {from: b2, to: A, amount: 2}]"
    assert outcome_set(_threshold(PAIN, [two_sources]), "A.life") == {(16,)}
    assert outcome_set(_threshold(PAIN, ["[{from: b1, to: A, amount: 2}]", "[{from: b1, to: A, amount: 1}]"]), "A.life") == {(17,)}
    # one source, one batch, two events to the same player: 3 at once
    same = "[{from: b1, to: A, amount: 2}, {from: b1, to: A, amount: 1}]"
    assert outcome_set(_threshold(PAIN, [same]), "A.life") == {(16,)}
    three = "[{from: b1, to: A, amount: 3}, {from: b2, to: A, amount: 4}]"
    assert outcome_set(_threshold(PAIN, [three]), "A.life") == {(11,)}  # two triggers
    twins = "[{from: b1, to: A, amount: 3}, {from: b2, to: A, amount: 3}]"
    assert outcome_set(_threshold(PAIN, [twins]), "A.life") == {(12,)}  # two alike triggers, both resolve


def test_603_2_threshold_on_deals_damage_reads_damage_dealt() -> None:
    trig = "{trigger: deals_damage, from: b1, min_damage: 3, do: {gain_life: 5, who: you}}"
    assert outcome_set(_threshold(trig, ["[{from: b1, to: A, amount: 2}]"]), "you.life") == {(20,)}
    assert outcome_set(_threshold(trig, ["[{from: b1, to: A, amount: 3}]"]), "you.life") == {(25,)}


def test_603_4_intervening_if_is_checked_again_on_resolution() -> None:
    """Two end-step triggers of yours: "if you have 10 or less life, gain 5" and "gain 3". Put the
    plain one on top and the first is no longer true as it resolves: 12; the other order, 17."""
    text = PLAYERS.replace("{name: you, life: 20}", "{name: you, life: 9}") + """
battlefield:
  - {id: t1, name: T1, controller: you, types: [enchantment], abilities: [{trigger: end_step, if: {life_at_most: 10}, do: {gain_life: 5, who: you}}]}
  - {id: t2, name: T2, controller: you, types: [enchantment], abilities: [{trigger: end_step, do: {gain_life: 3, who: you}}]}
actions:
  - end_step: {}
"""
    assert outcome_set(text, "you.life") == {(12,), (17,)}
    assert outcome_set(text.replace("life: 9}", "life: 11}", 1), "you.life") == {(14,)}  # never triggers


def test_603_4_two_opponents_each_losing_one_is_not_enough() -> None:
    text = """
players:
  - {name: you}
  - {name: A, life_lost_this_turn: 1}
  - {name: B, life_lost_this_turn: 1}
battlefield:
  - {id: asc, name: Asc, controller: you, types: [enchantment], counters: {quest: 0},
     abilities: [{trigger: end_step, if: {who: opponents, life_lost_at_least: 2}, do: {put_counters: {quest: 1}, to: self}}]}
actions:
  - end_step: {}
"""
    assert outcome_set(text, "asc.counters.quest") == {(0,)}
    assert outcome_set(text.replace("{name: B, life_lost_this_turn: 1}", "{name: B, life_lost_this_turn: 2}"),
                       "asc.counters.quest") == {(1,)}


def test_603_4_opponents_end_step_only() -> None:
    """Luminarch Ascension: "at the beginning of each opponent's end step, if you didn't lose life"."""
    luminarch = ("{trigger: end_step, turn: opponents, if: {life_lost_at_most: 0}, "
                 "do: {put_counters: {quest: 1}, to: self}}")
    base = """
players:
  - {name: A}
  - {name: you}
battlefield:
  - {id: asc, name: Asc, controller: you, types: [enchantment], counters: {quest: 0}, abilities: [LUM]}
actions:
  - end_step: {}
""".replace("LUM", luminarch)
    assert outcome_set(base, "asc.counters.quest") == {(1,)}  # A's end step
    assert outcome_set(base + "active: you\n", "asc.counters.quest") == {(0,)}
    assert outcome_set(base.replace("{name: you}", "{name: you, life_lost_this_turn: 1}"), "asc.counters.quest") == {(0,)}


def test_603_4_condition_and_threshold_errors() -> None:
    assert "min_damage goes with" in _error(_threshold("{trigger: end_step, min_damage: 3, do: {draw: 1}}", []).replace("actions:\n", "actions: []\n"))
    assert "exactly one of" in _error(_threshold("{trigger: end_step, if: {who: you}, do: {draw: 1}}", []).replace("actions:\n", "actions: []\n"))
    assert "must be at least 1" in _error(_threshold("{trigger: dealt_damage, min_damage: 0, do: {draw: 1}}", []).replace("actions:\n", "actions: []\n"))


def test_603_4_cp_continues_a_threshold_trigger_after_the_step() -> None:
    """A combat damage trigger with a threshold (603.4) is left to the rules engine after the CP
    step (solver.cp.suffix): 3 combat damage from b1 meets min_damage 3 and draws, in both engines."""
    from mtg_outcomes.cp import cp_supported
    trig = "{trigger: combat_damage_to_player, from: b1, min_damage: 3, do: {draw: 1, who: you}}"
    text = _threshold(trig, ["[{from: b1, to: A, amount: 3, combat: true}]"])
    assert cp_supported(case_from(text)) is None
    assert outcome_set(text, "you.cards_drawn", "A.life", engine="cp") \
        == outcome_set(text, "you.cards_drawn", "A.life") == {(1, 17)}
    short = _threshold(trig, ["[{from: b1, to: A, amount: 2, combat: true}]"])
    assert outcome_set(short, "you.cards_drawn", engine="cp") == {(0,)}
def test_603_4_cp_continues_a_threshold_trigger() -> None:
    """The CP engine leaves a threshold trigger to the rules engine after its step
    (solver.cp.suffix): the same outcomes as the graph."""
    from mtg_outcomes import enumerate_outcomes
    from mtg_outcomes.cp import cp_outcomes, cp_supported
    trig = "{trigger: combat_damage_to_player, from: b1, min_damage: 3, do: {draw: 1, who: you}}"
    case = case_from(_threshold(trig, ["[{from: b1, to: A, amount: 3, combat: true}]"]))
    assert cp_supported(case) is None
    cp = cp_outcomes(case)
    assert cp.complete and cp.stats["suffix_roots"] >= 1
    assert {o.state for o in cp.outcomes} == {o.state for o in enumerate_outcomes(case, engine="graph").outcomes}


# ---- 205.3: subtype selectors -------------------------------------------------------------------

def test_205_3_subtype_phrases_parse() -> None:
    from mtg_outcomes.model.selectors import parse_selector
    s = parse_selector("Clerics you control")
    assert (s.kind, s.noun, s.subtypes, s.controller) == ("objects", "permanent", ("cleric",), "you")
    s = parse_selector("each Goblin")
    assert (s.kind, s.noun, s.subtypes) == ("objects", "permanent", ("goblin",))
    s = parse_selector("other Elves you control")
    assert (s.other, s.subtypes) == (True, ("elf",))
    s = parse_selector("Cleric creatures an opponent controls")
    assert (s.noun, s.subtypes, s.controller) == ("creature", ("cleric",), "opponents")
    # a bare word or a card name stays a name or id, as before
    assert parse_selector("bears").kind == "ref"
    assert parse_selector("Goblin Guide").kind == "ref"


def test_205_3_subtypes_come_from_the_card_data_type_line() -> None:
    text = PLAYERS + """
battlefield:
  - {id: seeker, card: Story Seeker, controller: you}
  - {id: bears, card: Grizzly Bears, controller: you}
  - {id: piker, card: Goblin Piker, controller: A}
sources:
  - {id: s, name: Quake, controller: A, types: [sorcery]}
actions:
  - {deal: 1, to: each Goblin, from: s}
  - {deal: 3, to: Dwarves an opponent controls, from: s}
  - {deal: 1, to: Bear creatures an opponent controls, from: s}
"""
    assert outcome_set(text, "seeker.dies", "bears.damage", "piker.damage") == {(True, 1, 1)}


def test_205_3_subtype_list_matches_the_card_data() -> None:
    import gzip
    import json

    from mtg_outcomes.model.subtypes import SUBTYPES, derive_subtypes
    data = ROOT / "model" / "carddata" / "cards.jsonl.gz"
    with gzip.open(data, "rt", encoding="utf-8") as f:
        derived = derive_subtypes(json.loads(line) for line in f)
    assert {s.lower() for s in derived} == SUBTYPES


# ---- 616.1: optional effects ("you may prevent ...") --------------------------------------------

def test_616_1_may_prevent_is_the_controllers_choice() -> None:
    text = PLAYERS + f"""
battlefield:
  - {{id: ward, name: Ward, controller: you, types: [enchantment], abilities: [{{prevent: 2, to: each player, may: true}}]}}
sources:
  - {BLAST}
actions:
  - damage: [{{from: blast, to: you, amount: 3}}, {{from: blast, to: A, amount: 3}}]
"""
    assert outcome_set(text, "you.life", "A.life") == {(19, 19), (19, 17), (17, 19), (17, 17)}
    assert outcome_set(text.replace(", may: true", ""), "you.life", "A.life") == {(19, 19)}


def test_616_1_declined_may_has_no_rider() -> None:
    text = PLAYERS + f"""
sources:
  - {BLAST}
effects:
  - {{id: s1, shield: 2, to: you, controller: you, may: true, then: {{draw: 1, who: you}}}}
actions:
  - damage: [{{from: blast, to: you, amount: 3}}]
"""
    assert outcome_set(text, "you.life", "you.cards_drawn", "s1.remaining") == {(19, 1, 0), (17, 0, 2)}


def test_616_1_may_errors_and_cp() -> None:
    from mtg_outcomes.cp import cp_supported
    assert "may goes with an effect that modifies damage" in _error(PLAYERS + """
effects:
  - {id: e, cant_gain_life: you, controller: you, may: true}
""")
    text = PLAYERS + f"""
sources:
  - {BLAST}
effects:
  - {{id: s1, shield: 2, to: you, controller: you, may: true}}
actions:
  - damage: [{{from: blast, to: you, amount: 3}}]
"""
    assert "optional effects" in (cp_supported(case_from(text)) or "")


def _gideon(perms: str) -> str:
    return PLAYERS + f"""
battlefield:
{perms}
sources:
  - {{id: gs, name: GS, controller: you, types: [instant], abilities: [{{spell: {{redirect: chosen, to: [you, permanents you control]}}, choose: creatures you control}}]}}
  - {BLAST}
actions:
  - cast: gs
  - damage: [{{from: blast, to: you, amount: 3}}]
"""


def test_608_2c_chosen_as_it_resolves_and_redirected_whole() -> None:
    perms = ("  - {id: b1, name: B1, controller: you, types: [creature], power: 2, toughness: 2, keywords: [hexproof]}\n"
             "  - {id: b2, name: B2, controller: you, types: [creature], power: 5, toughness: 5}")
    assert outcome_set(_gideon(perms), "you.life", "b1.damage", "b2.damage") == {(20, 3, 0), (20, 0, 3)}


def test_608_2c_nothing_to_choose_creates_no_effect() -> None:
    perms = "  - {id: ench, name: E, controller: you, types: [enchantment]}"
    assert outcome_set(_gideon(perms), "you.life") == {(17,)}


def test_608_2c_choose_needs_an_effect() -> None:
    assert "choose: goes with an ability that creates an effect" in _error(PLAYERS + """
sources:
  - {id: gs, name: GS, controller: you, types: [instant], abilities: [{spell: {deal: 1, to: A}, choose: creatures you control}]}
""")


# ---- 105.3, 613.1e, 615.9: colour-changing effects ------------------------------------------------

COP = "{id: cop, name: CoP, controller: you, types: [enchantment], abilities: [{activated: {shield: all, next_time: true, to: you, from: red sources, source_choice: chosen_source}}]}"
STRIKER = "{id: striker, name: Striker, controller: A, types: [creature], colors: [red], power: 2, toughness: 2}"


def test_615_9_shield_rechecks_the_colour_when_damage_would_be_dealt() -> None:
    text = PLAYERS + f"""
battlefield:
  - {COP}
  - {STRIKER}
actions:
  - activate: {{id: cop, source: striker}}
  - create: {{id: w, becomes_color: [blue], to: striker, controller: A}}
  - damage: [{{from: striker, to: you, amount: 2}}]
"""
    assert outcome_set(text, "you.life") == {(18,)}
    assert outcome_set(text.replace("[blue]", "[red, blue]"), "you.life") == {(20,)}  # still red
    assert outcome_set(text.replace("  - create: {id: w, becomes_color: [blue], to: striker, controller: A}\n", ""),
                       "you.life") == {(20,)}


def test_613_7_latest_colour_change_wins_and_selectors_read_it() -> None:
    text = PLAYERS + f"""
battlefield:
  - {STRIKER}
  - {{id: ward, name: Ward, controller: A, types: [enchantment], abilities: [{{prevent: 1, to: blue creatures}}]}}
sources:
  - {BLAST}
actions:
  - create: {{id: w1, becomes_color: [blue], to: striker, controller: A}}
  - create: {{id: w2, becomes_color: [], to: striker, controller: A}}
  - damage: [{{from: blast, to: striker, amount: 1}}]
"""
    assert outcome_set(text, "striker.damage") == {(1,)}  # colourless now: no prevention
    assert outcome_set(text.replace("  - create: {id: w2, becomes_color: [], to: striker, controller: A}\n", ""),
                       "striker.damage") == {(0,)}


def test_105_3_becomes_color_errors_and_cp() -> None:
    from mtg_outcomes.cp import cp_supported
    base = PLAYERS + f"""
battlefield:
  - {STRIKER}
effects:
  - {{id: w, becomes_color: [blue], to: EFFECT_TO, controller: A}}
"""
    assert "becomes_color needs to: an id, target or self" in _error(base.replace("EFFECT_TO", "red creatures"))
    assert "expected a list of colours" in _error(base.replace("[blue]", "[purple]").replace("EFFECT_TO", "striker"))
    assert "static colour-changing ability is not modelled" in _error(PLAYERS + """
battlefield:
  - {id: e, name: E, controller: A, types: [enchantment], abilities: [{becomes_color: [blue], to: self}]}
""")
    case = case_from(base.replace("EFFECT_TO", "striker") + f"""
sources:
  - {BLAST}
actions:
  - damage: [{{from: blast, to: you, amount: 1}}]
""")
    # the CP model reads the colour at the step's start through solver.characteristics (613.1e)
    from mtg_outcomes.api import enumerate_outcomes
    assert cp_supported(case) is None
    graph, cp = (enumerate_outcomes(case, engine=e) for e in ("graph", "cp"))
    assert {tuple(sorted(o.values.items())) for o in graph.outcomes} == {tuple(sorted(o.values.items())) for o in cp.outcomes}


def test_615_9_a_spell_turns_its_target_blue() -> None:
    """Cerulean Wisps-like ("target creature becomes blue until end of turn") after the choice."""
    text = PLAYERS + f"""
battlefield:
  - {COP}
  - {STRIKER}
sources:
  - {{id: wisps, name: Wisps, controller: A, types: [instant], abilities: [{{spell: {{becomes_color: [blue], to: target}}, target: creature}}]}}
actions:
  - activate: {{id: cop, source: striker}}
  - cast: {{id: wisps, target: striker}}
  - damage: [{{from: striker, to: you, amount: 2}}]
"""
    assert outcome_set(text, "you.life") == {(18,)}

"""Spells with several targets and divided damage (CR 601.2c-d, 608.2b, 115.3), cast by name."""

from __future__ import annotations

import pytest

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.explain import replay
from mtg_outcomes.model.errors import EngineError

from ..helpers import case_from, outcome_set, problems

PLAYERS = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: bears, card: Grizzly Bears, controller: you}
"""




def test_601_2d_named_targets_and_division_are_one_cast() -> None:
    """``targets:`` and ``divide:`` as announced: no decision, each target dealt its share."""
    text = PLAYERS + """
actions:
  - cast: {card: Forked Bolt, controller: A, targets: [you, bears], divide: {you: 1, bears: 1}}
"""
    case = case_from(text)
    [o] = enumerate_outcomes(case).outcomes
    assert (o.values["you.life"], o.values["bears.damage"], o.values["bears.dies"]) == (19, 1, False)


def test_601_2d_missing_division_is_the_casters_choice_in_words() -> None:
    """Arc Lightning at two named targets: 2+1 or 1+2 (each at least 1), a decision said in words."""
    text = PLAYERS + """
actions:
  - cast: {card: Arc Lightning, controller: A, targets: [you, bears]}
"""
    case = case_from(text)
    result = enumerate_outcomes(case)
    assert {(o.values["you.life"], o.values["bears.dies"]) for o in result.outcomes} == {(18, False), (19, True)}
    words = [s.words for o in result.outcomes for s in replay(case, o).steps]
    assert "A casts Arc Lightning targeting you and Grizzly Bears, dividing 1 to you and 2 to Grizzly Bears" in words


def test_115_3_missing_targets_are_distinct_sets_of_the_allowed_sizes() -> None:
    """Forked Bolt with three legal targets: 3 single targets (2 each) and 3 pairs (1 each), never
    the same target twice."""
    out = outcome_set(PLAYERS + """
actions:
  - cast: {card: Forked Bolt, controller: A}
""", "you.life", "A.life", "bears.damage")
    assert out == {(18, 20, 0), (20, 18, 0), (20, 20, 2), (19, 19, 0), (19, 20, 1), (20, 19, 1)}


def test_608_2b_an_illegal_target_gets_none_and_the_rest_keep_their_share() -> None:
    out = outcome_set(PLAYERS + """
actions:
  - cast: {card: Arc Lightning, controller: A, targets: [you, bears], divide: {you: 1, bears: 2},
           responses: [{leave: bears}]}
""", "you.life", "bears.damage")
    assert out == {(19, 0)}


def test_608_2b_every_target_illegal_the_spell_does_nothing_not_even_its_draw() -> None:
    text = PLAYERS + """
actions:
  - cast: {card: Electrolyze, controller: you, targets: [bears], divide: {bears: 2}, responses: [{leave: bears}]}
"""
    case = case_from(text)
    [o] = enumerate_outcomes(case).outcomes
    assert o.values["you.cards_drawn"] == 0
    assert any("doesn't resolve" in s.words and "(608.2b)" in s.words for s in replay(case, o).steps)


def test_615_7_the_targets_damage_is_one_batch_so_a_shield_is_split_by_choice() -> None:
    """One simultaneous batch (120.2): a 1-point shield over you and your Bears against 1 to each
    is applied to the damage the affected player chooses (615.7), not to whichever came first."""
    out = outcome_set(PLAYERS + """
effects:
  - {id: s1, shield: 1, to: [you, bears], controller: you}
actions:
  - cast: {card: Forked Bolt, controller: A, targets: [you, bears], divide: {you: 1, bears: 1}}
""", "you.life", "bears.damage", "s1.remaining")
    assert out == {(20, 1, 0), (19, 0, 0)}


def test_targets_list_of_one_is_target_for_a_single_target_spell() -> None:
    a = outcome_set(PLAYERS + "actions:\n  - cast: {card: Lightning Bolt, controller: A, targets: [bears]}\n", "bears.dies")
    b = outcome_set(PLAYERS + "actions:\n  - cast: {card: Lightning Bolt, controller: A, target: bears}\n", "bears.dies")
    assert a == b == {(True,)}


def test_ad_hoc_divided_spell_in_the_vocabulary() -> None:
    out = outcome_set(PLAYERS + """
sources:
  - {id: fb, name: Split Shot, controller: A, types: [sorcery],
     abilities: [{spell: {deal: X, to: target, divided: true}, target: any, targets: {min: 1, max: any}}]}
actions:
  - cast: {id: fb, x: 3, targets: [you, A, bears], divide: {you: 1, A: 1, bears: 1}}
""", "you.life", "A.life", "bears.damage")
    assert out == {(19, 19, 1)}


@pytest.mark.parametrize("cast,path,reason", [
    ("{card: Forked Bolt, controller: A, targets: [you, you]}", "actions[0].cast.targets", "named twice"),
    ("{card: Forked Bolt, controller: A, targets: [you, bears, A]}", "actions[0].cast.targets", "1 to 2 targets, not 3"),
    ("{card: Forked Bolt, controller: A, targets: [you, bears], divide: {you: 2, bears: 1}}", "actions[0].cast.divide",
     "gives 3 damage, but Forked Bolt deals 2"),
    ("{card: Forked Bolt, controller: A, targets: [you, bears], divide: {you: 2, bears: 0}}", "actions[0].cast.divide.bears",
     "at least 1"),
    ("{card: Forked Bolt, controller: A, targets: [you, bears], divide: {you: 2}}", "actions[0].cast.divide", "exactly the targets"),
    ("{card: Lightning Bolt, controller: A, targets: [you], divide: {you: 3}}", "actions[0].cast.divide", "doesn't divide"),
    ("{card: Lightning Bolt, controller: A, targets: [you, bears]}", "actions[0].cast.targets", "has 1 target, not 2"),
    ("{card: Forked Bolt, controller: A, target: you, targets: [you]}", "actions[0].cast.targets", "not both"),
])
def test_bad_targets_and_divisions_are_errors(cast: str, path: str, reason: str) -> None:
    got = problems(PLAYERS + f"actions:\n  - cast: {cast}\n")
    assert any(p == path and reason in r for p, r in got), got


def test_divided_outside_a_ranged_spell_is_an_error() -> None:
    got = problems(PLAYERS + """
sources:
  - {id: s, name: S, controller: A, types: [instant], abilities: [{spell: {deal: 2, to: target, divided: true}, target: any}]}
""")
    assert any("needs targets:" in r for _, r in got), got
    got = problems(PLAYERS + "actions:\n  - {deal: 2, to: you, divided: true}\n")
    assert any(p.endswith("divided") for p, _ in got), got


def test_too_many_ways_to_cast_is_an_error_not_a_hang() -> None:
    """Pyrotechnics-like 40 damage among any number of 20 targets: counted before any is built."""
    bears = "".join(f"  - {{id: b{i}, card: Grizzly Bears, controller: A}}\n" for i in range(18))
    text = "players: [{name: you}, {name: A}]\nbattlefield:\n" + bears + """
sources:
  - {id: p, name: Big Pyro, controller: you, types: [sorcery],
     abilities: [{spell: {deal: 40, to: target, divided: true}, target: any, targets: {min: 1, max: any}}]}
actions:
  - cast: p
"""
    with pytest.raises(EngineError, match="ways"):
        enumerate_outcomes(case_from(text))


def test_a_cast_choice_is_replayed_by_its_key() -> None:
    out = outcome_set(PLAYERS + """
actions:
  - cast: {card: Forked Bolt, controller: A}
choices:
  A: [you=1; bears=1]
""", "you.life", "bears.damage")
    assert out == {(19, 1)}

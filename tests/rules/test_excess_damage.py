"""Excess damage dealt to another permanent or player instead (CR 120.4a): the split is made
first, from lethal damage (marked damage, other damage at the same time, deathtouch), loyalty or
defense, before replacement and prevention effects apply to each part (120.4b)."""

from __future__ import annotations

import pytest
import yaml

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.cp import cp_supported
from mtg_outcomes.model import parse_case
from mtg_outcomes.model.errors import CaseErrors

from ..helpers import case_from, outcome_set

HEAD = """\
id: inline
players:
  - {name: you}
  - {name: A}
sources:
  - {id: spill, name: Flame Spill, controller: you, types: [instant], colors: [red]}
  - {id: bolt, name: Lightning Bolt, controller: you, types: [instant], colors: [red]}
battlefield:
  - {id: bear, name: Bear, controller: A, types: [creature], power: 2, toughness: 2}
  - {id: walker, name: Walker, controller: A, types: [planeswalker], loyalty: 3}
"""


def test_lethal_to_the_creature_the_rest_to_its_controller() -> None:
    text = HEAD + "actions:\n  - damage: [{from: spill, to: bear, amount: 4, excess_to: A}]\n"
    assert outcome_set(text, "A.life", "bear.damage", "bear.dies") == {(18, 2, True)}


def test_deathtouch_makes_one_lethal() -> None:
    text = HEAD.replace("colors: [red]}\n  - {id: bolt", "colors: [red], keywords: [deathtouch]}\n  - {id: bolt") \
        + "actions:\n  - damage: [{from: spill, to: bear, amount: 4, excess_to: A}]\n"
    assert outcome_set(text, "A.life", "bear.damage", "bear.dies") == {(17, 1, True)}


def test_a_planeswalkers_excess_is_past_its_loyalty() -> None:
    text = HEAD + "actions:\n  - damage: [{from: spill, to: walker, amount: 5, excess_to: A}]\n"
    assert outcome_set(text, "A.life", "walker.dies") == {(18, True)}


def test_other_damage_at_the_same_time_counts() -> None:
    """The Bolt's 1 to the Bear in the same batch leaves 1 lethal: 3 of the 4 is excess."""
    text = HEAD + "actions:\n  - damage: [{from: bolt, to: bear, amount: 1}, {from: spill, to: bear, amount: 4, excess_to: A}]\n"
    assert outcome_set(text, "A.life", "bear.damage") == {(17, 2)}


def test_the_split_comes_before_replacement_effects() -> None:
    """120.4a then 120.4b: Dictate of the Twin Gods doubles each part, 2 and 2 become 4 and 4."""
    text = HEAD + "  - {id: dictate, card: Dictate of the Twin Gods, controller: you}\n" \
        + "actions:\n  - damage: [{from: spill, to: bear, amount: 4, excess_to: A}]\n"
    assert outcome_set(text, "A.life", "bear.damage") == {(16, 4)}


@pytest.mark.parametrize("events", [
    "[{from: spill, to: bear, amount: 4, excess_to: A}]",
    "[{from: bolt, to: bear, amount: 1}, {from: spill, to: bear, amount: 4, excess_to: A}]",
])
@pytest.mark.parametrize("extra", ["", "  - {id: dictate, card: Dictate of the Twin Gods, controller: you}\n"])
def test_cp_models_the_split_the_rules_engine_made(events: str, extra: str) -> None:
    """The split is made from state before the batch's events exist (solver.damage.excess_split,
    the graph engine's rule), so the CP step starts from the split events: same outcomes."""
    case = case_from(HEAD + extra + f"actions:\n  - damage: {events}\n")
    assert cp_supported(case) is None
    cp = {o.state for o in enumerate_outcomes(case, engine="cp").outcomes}
    assert cp == {o.state for o in enumerate_outcomes(case, engine="graph").outcomes}


@pytest.mark.parametrize(("event", "path", "reason"), [
    ("{from: spill, to: A, amount: 4, excess_to: you}", "actions[0].damage[0].excess_to", "'A' is a player"),
    ("{from: spill, to: bear, amount: 4, excess_to: ghost}", "actions[0].damage[0].excess_to", "unknown id 'ghost'"),
    ("{from: spill, to: bear, amount: 4, excess_to: bear}", "actions[0].damage[0].excess_to", "another permanent or player"),
    ("{from: spill, to: bear, amount: 4, excess_to: 3}", "actions[0].damage[0].excess_to", "expected the player or permanent"),
    ("{from: spill, to: bear, amount: 4, excess_to: A}, {from: bolt, to: bear, amount: 3, excess_to: A}",
     "actions[0].damage[1].excess_to", "two excess-damage events"),
])
def test_excess_to_is_checked(event: str, path: str, reason: str) -> None:
    with pytest.raises(CaseErrors) as exc:
        parse_case(yaml.safe_load(HEAD + f"actions:\n  - damage: [{event}]\n"), "<inline>")
    found = [(e.path, e.reason) for e in exc.value.errors]
    assert any(p == path and reason in r for p, r in found), found

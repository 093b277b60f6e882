"""Unit tests of counters (CR 122): put-counters actions, prevention riders that put counters,
damage replaced by counters and -1/-1 counter replacements; one rule each, named by CR number."""

from __future__ import annotations

import pytest

from model.errors import CaseErrors

from .helpers import case_from, outcome_set

PLAYERS = """
players:
  - {name: you, life: 20}
  - {name: A, life: 20}
"""


def _error(text: str) -> str:
    with pytest.raises(CaseErrors) as exc:
        case_from(text)
    return str(exc.value)


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

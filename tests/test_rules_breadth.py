"""Unit tests of the rules-breadth vocabulary: prevention riders and 615.12, counters removed by a
prevention, conditional triggers, subtype selectors; one rule each, named by CR number."""

from __future__ import annotations

import pytest

from model.errors import CaseErrors

from .helpers import case_from, outcome_set

PLAYERS = """
players:
  - {name: A, life: 20}
  - {name: you, life: 20}
"""


def _error(text: str) -> str:
    with pytest.raises(CaseErrors) as exc:
        case_from(text)
    return str(exc.value)


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


def test_615_12_cp_declines_a_rider_that_happens_with_nothing_prevented() -> None:
    from solver.cp import cp_supported
    assert "CR 615.12" in (cp_supported(case_from(_rider_case("{draw: 1, who: you}", False))) or "")
    assert cp_supported(case_from(_rider_case("{draw: 1, who: you, if_prevented: true}", False))) is None

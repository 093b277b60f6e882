"""A condition on its controller's life total (CR 119.1, 611.3a), once for both engines: the
range of life totals in which an effect with ``if_life_at_most`` / ``if_life_at_least`` applies.
The graph engine compares a life total now (solver.rules); the CP model makes the same
comparison a literal on the life total at the step's state-based check (solver.cp.lifept)."""

from __future__ import annotations

from mtg_outcomes.model.types import EffectSpec

from .state import Table

__all__ = ["has_life_condition", "life_range", "life_holds"]


def has_life_condition(spec: EffectSpec) -> bool:
    return spec.if_life_at_most is not None or spec.if_life_at_least is not None


def life_range(spec: EffectSpec, table: Table, controller: str) -> tuple[int | None, int | None]:
    """(at least, at most) as life totals: "at least N life more than your starting life total"
    is the controller's starting life total (103.4, said in the case) plus N."""
    low = spec.if_life_at_least
    if low is not None and spec.life_from_start:
        start = next(p.starting_life for p in table.case.players if p.name == controller)
        assert start is not None  # (model.vocab.lifecond.needs_starting_life: the case says it)
        low = start + low
    return low, spec.if_life_at_most


def life_holds(spec: EffectSpec, table: Table, controller: str, life: int) -> bool:
    """Whether the condition holds at this life total (in Two-Headed Giant the team's, 810.9a,
    which every member's ``life`` holds)."""
    low, high = life_range(spec, table, controller)
    return (low is None or life >= low) and (high is None or life <= high)

"""A solution hint for optimisation: the least damage each event can take, shields spent where
they prevent most (615.7), so the first solution is near the optimum."""

from __future__ import annotations

import math
from itertools import permutations
from typing import Any

from .step import _apply, _PEvent, _Plan
from .units import _Unit


def _greedy_hint(m: Any, plan: _Plan, units: list[_Unit]) -> None:
    """Hint the block encodings with a choice: event by event, the order of the non-shield
    effects (616.1; every order when there are at most five, else the listed one), the block
    where the shields go and how much they prevent there that leave the least damage, with the
    fewest shield points for it (the affected player makes these choices; earliest in listed
    order on a tie), the events where a point of shield saves most first and the shields that
    reach fewest events first, each filled up before the next (615.7: a shield that takes less
    than it is offered must end up used). The first solve then starts from a good solution,
    which matters when a hundred events share twenty shields: a shield point spent where a
    prevention would have taken the last point anyway (a prevent-1 after the shields) is lost to
    the next event."""
    remaining = dict(plan.shields)
    block_units = {u.events[0]: u for u in units if u.slots is not None}
    reach = {key: sum(any(i.key == key for i in pe.effects) for pe in plan.events) for key in plan.shields}

    def gain(pe: _PEvent) -> int:  # what a point of shield saves there at most: the multipliers' product
        return math.prod(int(i.spec.value) for i in pe.effects if i.spec.kind == "multiply")

    def run(pe: _PEvent, plain: list[int], order: tuple[int, ...], at: int, take: int) -> tuple[int, int]:
        """The damage left and the shield points used with ``take`` points in block ``at``."""
        amount, used = pe.ev.amount, 0
        for b in range(len(plain) + 1):
            if b == at:
                used = min(take, max(amount, 0))
                amount -= used
            if b < len(plain) and amount > 0:  # 120.8: nothing applies to 0 damage
                amount = _apply(plan, pe.effects[plain[order[b]]], amount)
        return amount, used

    # the events where a point of shield saves most take first (a stable order otherwise)
    for e in sorted(range(len(plan.events)), key=lambda e: -gain(plan.events[e])):
        pe = plan.events[e]
        unit = block_units.get(e)
        if unit is None or unit.slots is None or pe.assigned:
            continue
        effs, plain = pe.effects, unit.plain
        # the shields that reach fewest events take first (the others can still go elsewhere)
        placed = sorted(unit.placed, key=lambda p: reach[effs[p[0]].key])
        have = sum(remaining[effs[j].key] for j, *_ in placed)
        k = len(plain)
        best: tuple[int, int, tuple[int, ...], int] | None = None
        for order in (permutations(range(k)) if k <= 5 else [tuple(range(k))]):
            for at in range(k + 1):
                for take in range(have + 1):
                    left, used = run(pe, plain, order, at, take)
                    if best is None or (left, used) < best[:2]:
                        best = (left, used, order, at)
                    if used < take:
                        break  # more points find nothing left to prevent
        assert best is not None
        _, used, order, at = best
        amount = pe.ev.amount
        for b in range(at):
            if amount > 0:
                amount = _apply(plan, effs[plain[order[b]]], amount)
        for j, y, none, w in placed:
            key = effs[j].key
            take = min(remaining[key], used)
            offered = amount
            remaining[key] -= take
            used -= take
            amount -= take
            applied = offered > 0 and take > 0
            for b, lit in enumerate(y):
                m.add_hint(lit, b == at and (applied or (offered > 0 and remaining[key] == 0)))
            m.add_hint(none, offered <= 0 or (take == 0 and remaining[key] > 0))
            m.add_hint(w, applied and amount == 0 and remaining[key] > 0)
            m.add_hint(unit.shares[key], take)
        for b, row in enumerate(unit.slots):
            for q, lit in enumerate(row):
                m.add_hint(lit, order[b] == q)

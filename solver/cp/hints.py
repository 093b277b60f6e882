"""Solution hints for the block encodings: the least damage each event can take, shields spent
where they prevent most (615.7), so an optimisation's first solution is near the optimum; and the
far end, the most damage, a seed for the aimed enumeration (solver.cp.sweep)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import permutations
from typing import TYPE_CHECKING, cast

from mtg_outcomes.model.effects import EffectKind

from ..rules.shields import room
from .step import PlannedEvent, StepPlan, apply_rule
from .units import Unit

if TYPE_CHECKING:
    from .cptypes import Model, Var


def _run(plan: StepPlan, pe: PlannedEvent, plain: list[int], order: tuple[int, ...], at: int, take: int) -> tuple[int, int]:
    """The damage left and the shield points used with ``take`` points in block ``at``."""
    amount, used = pe.ev.amount, 0
    for b in range(len(plain) + 1):
        if b == at:
            used = min(take, max(amount, 0))
            amount -= used
        if b < len(plain) and amount > 0:  # 120.8: nothing applies to 0 damage
            amount = apply_rule(plan, pe.effects[plain[order[b]]], amount)
    return amount, used


def _orders(k: int) -> list[tuple[int, ...]]:
    """The orders of ``k`` non-shield effects a hint tries (616.1): every one up to five, else
    the listed one."""
    return list(permutations(range(k))) if k <= 5 else [tuple(range(k))]


def _reach(plan: StepPlan) -> dict[str, int]:
    """How many of the step's events each shield can apply to: the ones that reach fewest take
    first (the others can still go elsewhere)."""
    return {key: sum(any(i.key == key for i in pe.effects) for pe in plan.events) for key in plan.shields}


def greedy_hint(m: Model, plan: StepPlan, units: list[Unit]) -> None:
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
    reach = _reach(plan)

    def gain(pe: PlannedEvent) -> int:  # what a point of shield saves there at most: the multipliers' product
        return math.prod(int(i.spec.value) for i in pe.effects if i.spec.kind == EffectKind.MULTIPLY)

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
        for order in _orders(k):
            for at in range(k + 1):
                for take in range(have + 1):
                    left, used = _run(plan, pe, plain, order, at, take)
                    if best is None or (left, used) < best[:2]:
                        best = (left, used, order, at)
                    if used < take:
                        break  # more points find nothing left to prevent
        assert best is not None
        _, used, order, at = best
        takes: dict[str, int] = {}
        for j, *_ in placed:
            key = effs[j].key
            takes[key] = room(remaining[key], used)
            remaining[key] -= takes[key]
            used -= takes[key]
        for var, value in _event_hints(plan, e, unit, placed, order, at, takes, remaining):
            m.add_hint(var, value)


def _event_hints(plan: StepPlan, e: int, unit: Unit, placed: list[tuple[int, list[Var], Var, Var]],
                 order: tuple[int, ...], at: int, takes: dict[str, int],
                 remaining: dict[str, int]) -> list[tuple[Var, int]]:
    """The hint of event ``e``'s block encoding for a choice: its non-shield effects in
    ``order``, the shields in block ``at`` (in the order of ``placed``) taking ``takes``, each
    then with ``remaining`` left (615.7: one that took less than it was offered is used up)."""
    effs = plan.events[e].effects
    amount = plan.events[e].ev.amount
    for b in range(at):
        if amount > 0:
            amount = apply_rule(plan, effs[unit.plain[order[b]]], amount)
    pairs: list[tuple[Var, int]] = []
    for j, y, none, w in placed:
        key = effs[j].key
        take = takes.get(key, 0)
        offered, amount = amount, amount - take
        applied = offered > 0 and take > 0
        pairs.extend((lit, int(b == at and (applied or (offered > 0 and remaining[key] == 0)))) for b, lit in enumerate(y))
        pairs.append((none, int(offered <= 0 or (take == 0 and remaining[key] > 0))))
        pairs.append((w, int(applied and amount == 0 and remaining[key] > 0)))
        pairs.append((cast("Var", unit.shares[key]), take))  # (block mode: a share is a variable)
    pairs.extend((lit, int(order[b] == q)) for b, row in enumerate(unit.slots or ()) for q, lit in enumerate(row))
    return pairs


def far_hint(plan: StepPlan, units: list[Unit]) -> list[tuple[Var, int]]:
    """A choice at the other end of the outcomes from :func:`greedy_hint`'s: the most damage,
    as (literal or variable, value) pairs for the block encodings. Shield points must still be
    spent (615.7: used up, or all that was offered taken), so they go where they cost least:
    first whole events (each prevention that would have applied after the shields then finds 0
    and applies to nothing, 120.8; a prevent-1 after them is wasted), cheapest per point first,
    then what is left after every other effect (a point there costs one damage). Hinted, an
    enumeration's aimed solves reach the outcomes where you take the most damage from a
    solution near them, which a hint at the least damage leaves far off (solver.cp.sweep)."""
    remaining = dict(plan.shields)
    block_units = {u.events[0]: u for u in units if u.slots is not None}
    reach = _reach(plan)
    keys: dict[int, list[str]] = {}  # event -> the keys of its shields, fewest events reached first
    chosen: dict[int, tuple[tuple[int, ...], int, dict[str, int]]] = {}  # event -> order, block, takes
    costs = []
    for e, pe in enumerate(plan.events):
        unit = block_units.get(e)
        if unit is None or unit.slots is None or pe.assigned:
            continue
        k, plain = len(unit.plain), unit.plain
        keys[e] = sorted((pe.effects[j].key for j, *_ in unit.placed), key=lambda key: reach[key])
        orders = _orders(k)
        most = max(orders, key=lambda o: _run(plan, pe, plain, o, k, 0)[0])
        left = _run(plan, pe, plain, most, k, 0)[0]
        chosen[e] = (most, k, {})
        # the most points that leave nothing (every point the block is offered: 120.8, nothing
        # after them applies to 0), the preventions after them wasted: the least lost per point
        zero: tuple[int, tuple[int, ...], int] | None = None
        for order in orders:
            for at in range(k + 1):
                need = _run(plan, pe, plain, order, at, 10**9)[1]
                if zero is None or need > zero[0]:
                    zero = (need, order, at)
        if zero is not None and zero[0] > 0:  # (none lost where the effects after would leave 0 anyway)
            costs.append((left / zero[0], e, zero))
    for ratio, e, (need, order, at) in sorted(costs, key=lambda c: (c[0], c[1])):
        if ratio >= 1:
            break  # a point after every other effect costs one damage: no dearer than that
        if sum(remaining[key] for key in keys[e]) < need:
            continue
        takes: dict[str, int] = {}
        for key in keys[e]:
            takes[key] = room(remaining[key], need - sum(takes.values()))
            remaining[key] -= takes[key]
        chosen[e] = (order, at, takes)
    for e, (order, at, takes) in chosen.items():  # what is left, after every other effect
        if takes:
            continue
        left = _run(plan, plan.events[e], block_units[e].plain, order, at, 0)[0]
        for key in keys[e]:
            take = room(remaining[key], left - sum(takes.values()))
            if take > 0:
                takes[key] = take
                remaining[key] -= take
    return [pair for e, (order, at, takes) in chosen.items()
            for pair in _event_hints(plan, e, block_units[e], block_units[e].placed, order, at, takes, remaining)]


def hint_solution(m: Model, values: Sequence[int]) -> None:
    """Hint ``m``'s first variables with ``values`` (a solution's, in the order of the model's
    variables; those made since keep none): the next solve starts from it."""
    m.clear_hints()
    hint = m.proto.solution_hint
    hint.vars.extend(range(len(values)))
    hint.values.extend(values)

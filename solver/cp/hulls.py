"""Redundant cuts on the damage events end with, as a function of what their shields prevent
(CR 615.7, 616.1): what CP-SAT's linear relaxation can't see through the orders and the
"as much as it can" disjunctions, so that the least and the most damage are proved and the
enumeration's last run ("no other outcome") ends (the 100-attacker bench board).

For one event and each total ``t`` its shields prevent, the most and the least damage it can end
with are found by walking every order of its other effects (an optional one applied or not) and
every split of ``t`` among the places a shield can stand between them, each place taking at most
the damage left there (615.7; the shields' sizes and "as much as it can" left out: a relaxation,
so the bounds hold for every legal result). Damage at 0 stays 0: no effect applies to it (120.8,
615.1). The most, as a function of ``t``, lies under its upper concave hull; the least above its
lower convex hull. For events whose damage and shares a table sums (solver.cp.encodings), the
sum lies under the hull of the sums: the events' hull edges taken in order of slope (the
sup-convolution of concave functions). Each hull edge is one linear constraint.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import permutations
from typing import TYPE_CHECKING

from mtg_outcomes.model.effects import EffectKind

from ..rules.amounts import rule_of
from ..rules.effects import Instance
from .step import PlannedEvent, StepPlan, apply_rule, upper_bound

if TYPE_CHECKING:
    from .cptypes import Expr, Model

HULL_WORK = 300_000  # steps (orders x places x states x shares) one event's hull may cost; beyond, no cuts

Point = tuple[int, int]
Hull = tuple[tuple[Point, ...], tuple[Point, ...]]  # the upper and the lower hull's vertices, by t


def add_cuts(m: Model, plan: StepPlan, events: list[PlannedEvent], damage: Expr, prevented: Expr) -> None:
    """Add to ``m`` the cuts bounding ``damage`` (the events' total) by ``prevented`` (the total
    their shields prevent); none when an event's hull is unknown (too costly, or an effect whose
    amount isn't a rule)."""
    hulls = [event_hull(plan, pe) for pe in events]
    if not hulls or any(h is None for h in hulls):
        return
    for upper in (True, False):
        start, edges = _convolved([h[0] if upper else h[1] for h in hulls if h is not None], upper)
        t, d = start
        if not edges:
            m.add(damage <= d) if upper else m.add(damage >= d)
        for dt, dd in edges:
            if upper:
                m.add(dt * damage <= dt * d + dd * (prevented - t))
            else:
                m.add(dt * damage >= dt * d + dd * (prevented - t))
            t, d = t + dt, d + dd


def event_hull(plan: StepPlan, pe: PlannedEvent) -> Hull | None:
    """The event's hulls (module docstring), found once for alike events (``plan.hulls``)."""
    effs = pe.effects
    plain = [i for i in effs if i.spec.kind != EffectKind.SHIELD]
    if any(rule_of(i.spec) is None for i in plain):
        return None
    ub = upper_bound(pe.ev.amount, effs)
    # the damage is at most ub wherever a shield stands: t at most (places) * ub
    most = min(sum(plan.shields[i.key] for i in effs if i.spec.kind == EffectKind.SHIELD), (len(plain) + 1) * ub)
    key = (pe.ev.amount, tuple(i.key for i in plain), most)
    if key not in plan.hulls:
        if math.factorial(len(plain)) * (len(plain) + 1) * (ub + 1) ** 2 * (most + 1) > HULL_WORK:
            plan.hulls[key] = None
        else:
            plan.hulls[key] = _hull(plan, pe, plain, most)
    return plan.hulls[key]


def _hull(plan: StepPlan, pe: PlannedEvent, plain: list[Instance], most: int) -> Hull:
    lo: dict[int, int] = {}
    hi: dict[int, int] = {}
    for order in permutations(plain):
        states = {(pe.ev.amount, 0)}  # (damage left, prevented by shields so far)
        for b in range(len(order) + 1):
            states = {(a - x, u + x) for a, u in states for x in range(min(a, most - u) + 1)}  # the shields here
            if b == len(order):
                break
            done = {(apply_rule(plan, order[b], a) if a > 0 else 0, u) for a, u in states}
            states = done | states if order[b].spec.may else done
        for a, u in states:
            lo[u] = min(lo.get(u, a), a)
            hi[u] = max(hi.get(u, a), a)
    return _vertices(sorted(hi.items()), upper=True), _vertices(sorted(lo.items()), upper=False)


def _vertices(points: list[Point], upper: bool) -> tuple[Point, ...]:
    """The vertices of the upper (concave) or lower (convex) hull of ``points``, sorted by x
    (Andrew's monotone chain)."""
    hull: list[Point] = []
    for p in points:
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            cross = (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1)
            if (cross >= 0) if upper else (cross <= 0):
                hull.pop()  # hull[-1] lies on or under (over) the line from hull[-2] to p
            else:
                break
        hull.append(p)
    return tuple(hull)


def _convolved(hulls: list[tuple[Point, ...]], upper: bool) -> tuple[Point, list[Point]]:
    """The hull of the sums: its first vertex and its edges (dt, dd), those of every hull in
    order of slope (the steepest rise first for an upper hull, the steepest fall first for a
    lower one), edges of one slope joined."""
    start = (sum(h[0][0] for h in hulls), sum(h[0][1] for h in hulls))
    edges = [(b[0] - a[0], b[1] - a[1]) for h in hulls for a, b in zip(h, h[1:], strict=False)]
    edges.sort(key=lambda e: Fraction(e[1], e[0]), reverse=upper)
    joined: list[Point] = []
    for dt, dd in edges:
        if joined and Fraction(dd, dt) == Fraction(joined[-1][1], joined[-1][0]):
            joined[-1] = (joined[-1][0] + dt, joined[-1][1] + dd)
        else:
            joined.append((dt, dd))
    return start, joined

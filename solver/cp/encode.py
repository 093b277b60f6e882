"""The CP-SAT model of one step (docs/engines.md), built in named steps: each event's choices as a
table, a tree's table or a slot encoding (616.1, 615.7: solver.cp.encodings), combat division and
trample (510.1, 702.19b: solver.cp.assign), the shields' 615.7 condition over the whole step
(solver.rules.shields), the results of the damage and its riders (120.3, 615.5:
solver.cp.tally), the players' totals and losses, triggers and the permanents' deaths (810.9,
704.5: solver.cp.checks)."""

from __future__ import annotations

import math
from collections.abc import Hashable
from types import ModuleType
from typing import TYPE_CHECKING

from ..limits import Deadline
from ..results import Part, event_results, gain_replacements
from ..rules.shields import used_up_constraint
from ..select import controller_of, has_keyword
from ..state import Event
from . import tables
from .assign import combat_assignments
from .bounds import fits as _fits
from .checks import auras, game_over, permanents, players, triggers
from .encodings import encode_slots, encode_tables, encode_tree
from .hints import greedy_hint
from .literals import at_least
from .step import PlannedEvent, StepPlan, shield_groups, upper_bound
from .tables import Rows, is_const
from .tally import (
    Sums,
    Tally,
    batch_results,
    counters_instead,
    floored_losses,
    gain_events,
    riders,
    state_after,
)
from .units import BuiltModel, Unit

if TYPE_CHECKING:
    from .cptypes import Expr, Model
    from .units import Output

_BUILDING = "building the CP model"


def build_model(plan: StepPlan, cp: ModuleType, deadline: Deadline | None = None) -> BuiltModel:
    """The CP model of the planned batch. Raises :class:`LimitReached` when ``deadline`` passes."""
    m: Model = cp.CpModel()
    picks, dealt, declared = combat_assignments(m, plan)
    units, big = _encode_events(m, plan, dealt, deadline)
    if deadline is not None:
        deadline.check(_BUILDING)
    greedy_hint(m, plan, units)
    prevented: Sums = {}
    for unit in units:
        for key, amount in [*unit.shares.items(), *unit.prevented.items()]:
            prevented.setdefault(key, []).append(amount)
    outputs: dict[str, Output] = {}
    _shields(m, plan, units, prevented, outputs)
    # results (120.3, 120.4c); lifelink is one life-gain event per source (702.15e); riders happen
    # right after the prevention, before state-based actions (615.5)
    t = Tally(m, plan, big, prevented)
    batch_results(t, units)
    gains = gain_events(t)
    counters_instead(t)
    riders(t)
    floored_losses(t)
    combat_sum = {k: sum(v) for k, v in t.combat_to.items()}
    lost = players(t, outputs)
    over = game_over(t, lost)
    fired = triggers(t, outputs, lost, over, combat_sum)
    auras(t, outputs, permanents(t, outputs), over)
    bound = t.big * 4 + sum(abs(v) for v in plan.base.values() if isinstance(v, int)) + 16
    # every other variable is a function of the tables' rows (docs/design.md): at most their product
    solutions = None if any(u.slots is not None for u in units) or any(len(p) > 1 for p in picks) else \
        math.prod(len(u.top) for u in units)
    hidden = state_after(t, gains) if plan.suffix else {}
    built = BuiltModel(m, units, combat_sum, outputs, bound, picks, over, solutions, gains, fired, hidden)
    if plan.blocks is not None:  # what the witness reads of the declaration and the divisions
        built.declared, built.divided = declared, dealt
    return built


def _encode_events(m: Model, plan: StepPlan, dealt: dict[tuple[str, str], Expr],
                   deadline: Deadline | None) -> tuple[list[Unit], int]:
    """Each event's choices as units, and a bound on the damage they deal (solver.cp.bounds):
    a redirected event as its tree's table (614.9), an event whose amount is a division choice
    (510.1c) or whose table is too big as a slot encoding, and the rest as tables, those whose
    results only matter through their sum grouped into one (120.3, :func:`_group_key`)."""
    big = 1
    pairs = {(tr.source, tr.player) for tr in plan.triggers}
    groups: dict[Hashable, list[int]] = {}
    group_rows: dict[Hashable, list[Rows]] = {}
    units: list[Unit] = []
    tabled: dict[tuple[int, tuple[str, ...]], Rows | None] = {}
    memos: dict[tuple[str, ...], tables.Memo] = {}  # events with the same effects share what follows an amount
    for e, pe in enumerate(plan.events):
        if deadline is not None:
            deadline.check(_BUILDING)
        big += upper_bound(pe.ev.amount, pe.effects)
        _fits(big)
        if pe.tree is not None:  # a redirection applies: a table of its tree's results (614.9)
            unit = encode_tree(m, plan, pe, e, dealt.get((pe.ev.source, pe.ev.recipient), pe.ev.amount))
            big += max(sum(row[1:1 + len(pe.tree.columns)]) for row in pe.tree.rows)
            units.append(unit)
            continue
        if pe.assigned:  # its amount is a division choice: the slot encoding takes a variable amount
            amount = dealt[(pe.ev.source, pe.ev.recipient)]
            units.append(encode_slots(m, plan, pe, e, upper_bound(pe.ev.amount, pe.effects), amount))
            continue
        same = (pe.ev.amount, tuple(i.key for i in pe.effects))  # identical events have the same results
        if same not in tabled:
            tabled[same] = tables.event_rows(plan, pe, deadline=deadline, memo=memos.setdefault(same[1], {}))
        rows = tabled[same]
        if rows is None:
            units.append(encode_slots(m, plan, pe, e, upper_bound(pe.ev.amount, pe.effects)))
            continue
        sig = _group_key(plan, pe, pairs)
        groups.setdefault(sig, []).append(e)
        group_rows.setdefault(sig, []).append(rows)
    for memo in memos.values():  # freed now: tables.event_rows' recursive closure holds it in a cycle
        memo.clear()
    if groups:
        units.extend(encode_tables(m, plan, list(groups.values()), list(group_rows.values()), deadline))
    return units, big


def _group_key(plan: StepPlan, pe: PlannedEvent, pairs: set[tuple[str, str]]) -> Hashable:
    """Events whose results only matter through their sum share a table (CR 120.3, 702.15e): two
    events are summed only when their results are the same (results.event_results: which parts,
    for whom, per point; infect, wither, deathtouch and as_though included; lifelink's
    controller, or the source too when life-gain replacements make its gain its own event,
    702.15e, 119.10). Each source's damage is its own when triggers read it per source (603.2),
    when the rules engine continues after the step (solver.cp.suffix), and when a result counts
    once per event dealt (toxic's poison, 120.3g, which a sum can't tell; deathtouch's flag is
    one either way)."""
    table, state = plan.table, plan.state
    src, rcp = pe.ev.source, pe.ev.recipient
    ctrl = controller_of(state, table, src) if has_keyword(state, table, src, "lifelink") else None
    link: str | tuple[str, str] | None = ctrl
    if ctrl is not None and gain_replacements(state, table, ctrl, src):
        link = (ctrl, src)
    results = event_results(state, table, Event(src, rcp, 1, pe.ev.combat))
    counted = any(r.once for r in results if r.part is not Part.DEATHTOUCHED)
    shape = tuple((r.part, r.who, r.per_point, r.once) for r in results if r.part is not Part.LIFELINK)
    return (rcp, link, shape, (src, pe.ev.combat) if (src, rcp) in pairs or plan.suffix or counted else None)


def _shields(m: Model, plan: StepPlan, units: list[Unit], prevented: Sums, outputs: dict[str, Output]) -> None:
    """615.7 over the whole step: a shield prevents as much as it can, min(remaining, damage where
    it was applied): either it is used up, or it took all it was offered at every event it was
    applied to (solver.rules.shields.used_up_constraint; a table settles this itself for the
    shields applied to its events alone: no flag then); what each has left in the outputs; and a
    one-instance shield is used up once it prevented damage (615.8; solver.damage.apply_effect)."""
    totals: dict[str, Expr] = {}
    for key, r in plan.shields.items():
        if not any(key in u.shares for u in units):
            continue
        total = sum(u.shares[key] for u in units if key in u.shares)
        if not is_const(total):
            m.add(total <= r)
            totals[key] = total
        outputs[f"{key}.remaining"] = ("int", r - total)
        used_up_constraint(m, total, r, [u.full[key] for u in units if key in u.full], at_least)
    _shield_bounds(m, plan, units, totals)
    for key in sorted(plan.once):
        if key in prevented:
            outputs[f"{key}.remaining"] = ("int", 1 - at_least(m, sum(prevented[key]), 1))


def _shield_bounds(m: Model, plan: StepPlan, units: list[Unit], totals: dict[str, Expr]) -> None:
    """What the rules imply of the shields' totals (``totals``: what each prevented), said for
    the relaxation (solver.cp.step.shortfall): what the shields with the same events can keep
    between them; and keeping any ends each of those events at 0 (615.7), so ``short * hit +
    most * kept <= most * short``, ``hit`` the damage of the units holding only those events
    and ``most`` the most it can be."""
    for members, events, short in shield_groups(plan, list(totals)):
        kept = sum(plan.shields[k] for k in members) - sum(totals[k] for k in members)
        m.add(kept <= short)
        inside = [u for u in units if u.hits is None and u.events and set(u.events) <= events]
        hit = sum(sum(d for _, d in u.dealt) if u.dealt else u.final for u in inside)
        most = sum(upper_bound(plan.events[e].ev.amount, plan.events[e].effects) for u in inside for e in u.events)
        if short > 0 and most > 0 and not is_const(hit):
            m.add(short * hit + most * kept <= most * short)

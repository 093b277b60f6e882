"""The CP-SAT model of one step: tables or block encodings per event, combat division and
trample, results (solver.results), state-based actions (solver.sba), draw triggers."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from ..amounts import Multiply
from ..limits import Deadline
from ..results import Part, event_results, gain_replacements, gain_rule
from ..rules import (
    Instance,
)
from ..sba import attachment_kind
from ..sba import lethal as lethal_thresholds
from ..select import controller_of, has_keyword
from ..state import Event
from . import tables
from .plan import _apply, _PEvent, _Plan, _rule, _upper, tracked
from .tables import Layers, Rows, Seq, _is_const, _layout

_BUILDING = "building the CP model"


@dataclass
class _Unit:
    """Events encoded together: one event as a slot permutation, or groups of events whose
    results only matter through their sums (per group), as one table of their distinct results."""

    events: list[int]  # indices into plan.events (table mode: in the order of ``layers``)
    final: Any  # block mode: the damage dealt
    dealt: list[tuple[int, Any]] = field(default_factory=list)  # table mode: (a group's first event, its damage)
    shares: dict[str, Any] = field(default_factory=dict)  # shield key -> damage it prevented
    full: dict[str, Any] = field(default_factory=dict)  # shield key -> took all it was offered
    prevented: dict[str, Any] = field(default_factory=dict)  # prevention with a rider -> amount
    slots: list[list[Any]] | None = None  # block mode: x[b][q], slot b holds non-shield q
    plain: list[int] = field(default_factory=list)  # block mode: the non-shield effects' indices
    placed: list[tuple[int, list[Any], Any, Any]] = field(default_factory=list)  # (j, y[b], none, w)
    columns: list[Any] = field(default_factory=list)  # table mode: the table's variables
    layers: Layers = field(default_factory=list)  # table mode: the merge's back pointers
    top: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict)  # table row -> its row in layers[-1]
    rows: list[Rows] = field(default_factory=list)  # per member: its own results
    enter: Any = 0  # block mode: the amount the event starts with (a variable for a division choice)
    # tree mode (a redirection applies, solver.cp.trees): (event, final recipient, damage dealt)
    hits: list[tuple[int, str, Any]] | None = None
    uses: dict[str, Any] = field(default_factory=dict)  # block mode: an optional effect's key -> applied


@dataclass
class _Built:
    model: Any
    units: list[_Unit]
    combat_to: dict[tuple[str, str], Any]  # (source, player) -> combat damage dealt
    outputs: dict[str, tuple[str, Any]]  # field -> ("int" | "opt" | "bool", expr or constant)
    bound: int  # every output lies in [-bound, bound]
    picks: list[list[Any]] = field(default_factory=list)  # per plan.assigns: a literal per option
    over: Any = False  # the game ended at the step's state-based actions (104.2a)
    # how many solutions the model has at most, when every choice is a table's row (None: unknown)
    solutions: int | None = None
    # lifelink's gain events with life-gain replacements (119.10), in the graph engine's order:
    # (gaining player, source, the gain before them, the replacements' keys, (order, literal) per order)
    gains: list[tuple[str, str, Any, tuple[str, ...], list[tuple[tuple[int, ...], Any]]]] = field(default_factory=list)


def _encode_tables(m: Any, plan: _Plan, groups: list[list[int]], rows: list[list[Rows]],
                   deadline: Deadline | None = None) -> list[_Unit]:
    """One table of the distinct results of every group of events whose results only matter
    through their sums (a column of damage per group; each shield's share and each rider's
    prevention summed over all of them, CR 615.7): the solutions are then (nearly) the outcomes.
    When it would be too big, a table per group, then per event, then the slot encoding."""
    order = sorted(range(len(groups)), key=lambda g: -len(groups[g]))  # the DP's states stay fewer
    idx = [i for g in order for i in groups[g]]
    own = [r for g in order for r in rows[g]]
    columns = [c for c, g in enumerate(order) for _ in groups[g]]
    members = [plan.events[i] for i in idx]
    shields, riders = _layout(plan, members)
    inside = set(idx)
    decided = frozenset(k for k in shields if all(
        e in inside for e, pe in enumerate(plan.events) if any(i.key == k for i in pe.effects)))
    merged = tables._merge(plan, members, own, shields, riders, deadline, columns, decided)
    if merged is None:
        if len(groups) > 1:
            return [u for g, r in zip(groups, rows, strict=True) for u in _encode_tables(m, plan, [g], [r], deadline)]
        if len(idx) > 1:
            return [u for i, r in zip(idx, own, strict=True) for u in _encode_tables(m, plan, [[i]], [[r]], deadline)]
        return [_encode_blocks(m, plan, members[0], idx[0], _upper(members[0].ev.amount, members[0].effects))]
    layers, top = merged
    unit = _Unit(idx, 0, layers=layers, top=top, rows=own)
    firsts = [groups[g][0] for g in order]
    ubs = [sum(_upper(plan.events[i].ev.amount, plan.events[i].effects) for i in groups[g]) for g in order]
    open_ = [k for k in shields if k not in decided]  # their 615.7 condition is the model's
    if len(top) == 1:
        row = next(iter(top))  # no choice changes anything here: constants
        unit.dealt = list(zip(firsts, row, strict=False))
        n = len(firsts)
        for i, key in enumerate(shields):
            unit.shares[key] = row[n + i]
        for i, key in enumerate(open_):
            unit.full[key] = bool(row[n + len(shields) + i])
        for i, key in enumerate(riders):
            unit.prevented[key] = row[n + len(shields) + len(open_) + i]
        return [unit]
    tag = f"g{idx[0]}"
    cols = []
    for e, ub in zip(firsts, ubs, strict=True):
        unit.dealt.append((e, m.new_int_var(0, ub, f"d{tag}_{e}")))
        cols.append(unit.dealt[-1][1])
    for key in shields:
        unit.shares[key] = m.new_int_var(0, plan.shields[key], f"t{tag}_{key}")
        cols.append(unit.shares[key])
    for key in open_:
        unit.full[key] = m.new_bool_var(f"f{tag}_{key}")
        cols.append(unit.full[key])
    for key in riders:
        unit.prevented[key] = m.new_int_var(0, sum(ubs), f"p{tag}_{key}")
        cols.append(unit.prevented[key])
    m.add_allowed_assignments(cols, sorted(top))
    unit.columns = cols
    return [unit]


def _encode_tree(m: Any, plan: _Plan, pe: _PEvent, e: int, amount: Any) -> _Unit:
    """A redirected event (CR 614.9) as one table of its tree's distinct results
    (solver.cp.trees): the amount it starts with (a division choice's, 510.1c), the damage each
    of its final events deals, each shield's share and whether it took all it was offered
    (615.7), and what each tracked prevention prevented (615.5)."""
    tree = pe.tree
    assert tree is not None
    rows = sorted(tree.rows)
    nc, ns, nt = len(tree.columns), len(tree.shields), len(tree.tracked)
    unit = _Unit([e], 0, hits=[], top={row: row for row in rows})
    if len(rows) == 1:  # no choice changes anything here: constants
        row = rows[0]
        values: list[Any] = list(row)
        for i in range(ns):
            values[1 + nc + ns + i] = bool(row[1 + nc + ns + i])
    else:
        tag = f"r{e}"
        top = [max(row[c] for row in rows) for c in range(len(rows[0]))]
        enter = m.new_int_var(min(row[0] for row in rows), top[0], f"a{tag}")
        m.add(enter == amount)
        values = [enter]
        values += [m.new_int_var(0, top[1 + c], f"d{tag}_{c}") for c in range(nc)]
        values += [m.new_int_var(0, plan.shields[key], f"t{tag}_{key}") for key in tree.shields]
        values += [m.new_bool_var(f"f{tag}_{key}") for key in tree.shields]
        values += [m.new_int_var(0, top[1 + nc + 2 * ns + i], f"p{tag}_{key}") for i, key in enumerate(tree.tracked)]
        m.add_allowed_assignments(values, rows)
        unit.columns = values
    assert unit.hits is not None
    unit.hits.extend((e, r, values[1 + c]) for c, (_, r) in enumerate(tree.columns))
    for i, key in enumerate(tree.shields):
        unit.shares[key] = values[1 + nc + i]
        unit.full[key] = values[1 + nc + ns + i]
    for i, key in enumerate(tree.tracked):
        unit.prevented[key] = values[1 + nc + 2 * ns + i]
    assert len(values) == 1 + nc + 2 * ns + nt
    return unit


def _sequences(unit: _Unit, values: tuple[int, ...]) -> dict[int, Seq]:
    """Each member event's sequence for the table row ``values`` (following back pointers)."""
    out: dict[int, Seq] = {}
    key = unit.top[values] if unit.columns else next(iter(unit.top.values()))
    for pos in range(len(unit.events) - 1, -1, -1):
        prev, own = unit.layers[pos][key]
        out[unit.events[pos]] = unit.rows[pos][own]
        key = prev
    return out


def _encode_blocks(m: Any, plan: _Plan, pe: _PEvent, e: int, ub: int, amount: Any = None) -> _Unit:
    """An event with too many orders to table: the non-shield effects' order as a slot
    permutation (slot b holds effect q when x[b][q], CR 616.1), and each shield placed in one
    of the blocks between them, or after the damage reached 0 (then it never applies, 120.8).

    Shields only subtract, so their order inside a block changes nothing but who "took all it
    was offered": a shield applied while damage is left either uses itself up overall, or is
    the one shield that brings the event to 0 (it goes last in its block) (615.7).
    """
    effs = pe.effects
    plain = [j for j, i in enumerate(effs) if i.spec.kind != "shield"]
    shields = [j for j, i in enumerate(effs) if i.spec.kind == "shield"]
    k = len(plain)
    first = pe.ev.amount if amount is None else amount  # a division choice's amount (510.1c)
    enter: list[Any] = [first] + [m.new_int_var(0, ub, f"u{e}_{b + 1}") for b in range(k)]
    leave: list[Any] = [m.new_int_var(0, ub, f"v{e}_{b}") for b in range(k + 1)]
    x = [[m.new_bool_var(f"x{e}_{b}_{q}") for q in range(k)] for b in range(k)]
    for b in range(k):
        m.add_exactly_one(x[b])
        m.add_exactly_one([x[bb][b] for bb in range(k)])
    out = _Unit([e], leave[k], slots=x, plain=plain, enter=first)
    for q, j in enumerate(plain):
        inst = effs[j]
        vin = m.new_int_var(0, ub, f"in{e}_{j}")
        vout = m.new_int_var(0, ub, f"out{e}_{j}")
        _transform(m, plan, inst, vin, vout, ub, out, f"{e}_{j}")
        for b in range(k):
            m.add(vin == leave[b]).only_enforce_if(x[b][q])
            m.add(enter[b + 1] == vout).only_enforce_if(x[b][q])
        if tracked(plan, inst):
            out.prevented[inst.key] = vin - vout
    # identical effects without riders commute: fix their relative order (symmetry)
    for q1 in range(k):
        for q2 in range(q1 + 1, k):
            a, c = effs[plain[q1]].spec, effs[plain[q2]].spec
            untracked = not tracked(plan, effs[plain[q1]]) and not tracked(plan, effs[plain[q2]])
            if untracked and (a.kind, a.value, a.may) == (c.kind, c.value, c.may) and not a.may:
                m.add(sum(b * x[b][q1] for b in range(k)) < sum(b * x[b][q2] for b in range(k)))
    parts: list[list[Any]] = [[] for _ in range(k + 1)]
    zeroing = []
    for j in shields:
        key = effs[j].key
        cap = min(plan.shields[key], ub)
        y = [m.new_bool_var(f"y{e}_{j}_{b}") for b in range(k + 1)]
        none, w = m.new_bool_var(f"n{e}_{j}"), m.new_bool_var(f"w{e}_{j}")
        m.add_exactly_one([*y, none])
        t = m.new_int_var(0, cap, f"t{e}_{j}")
        share = [m.new_int_var(0, cap, f"t{e}_{j}_{b}") for b in range(k + 1)]
        m.add(sum(share) == t)
        for b in range(k + 1):
            m.add(share[b] == 0).only_enforce_if(~y[b])
            m.add(enter[b] >= 1).only_enforce_if(y[b])  # applied only while damage is left
            m.add(leave[b] == 0).only_enforce_if([w, y[b]])  # the zeroing shield
            parts[b].append(share[b])
        m.add(t == 0).only_enforce_if(none)
        m.add(leave[k] == 0).only_enforce_if(none)  # never applied: the damage reached 0
        m.add_implication(w, ~none)
        zeroing.append(w)
        out.shares[key] = t
        out.full[key] = _either(m, [none, w])
        out.placed.append((j, y, none, w))
    if len(zeroing) > 1:
        m.add_at_most_one(zeroing)
    for b in range(k + 1):
        m.add(leave[b] == enter[b] - sum(parts[b]))
    floor = _floor_without_shields(plan, pe, plain) if amount is None else None
    if floor is not None and shields and floor > 0:
        # a redundant cut that shows the LP what a point of shield is worth, so optima are
        # proved (the 100-attacker bench case): every other effect but +N is monotone and
        # changes a difference by at most its factor (x2: 2, the rest: 1), so t prevented
        # anywhere lowers the damage dealt by at most t times the product of the multipliers
        lip = math.prod(int(effs[j].spec.value) for j in plain if effs[j].spec.kind == "multiply")
        m.add(leave[k] >= floor - lip * sum(out.shares.values()))
    return out


def _floor_without_shields(plan: _Plan, pe: _PEvent, plain: list[int]) -> int | None:
    """The least damage any order of the event's non-shield effects leaves (CR 616.1), or None
    when that isn't a valid floor to cut with (+N jumps at 0, 120.8) or too costly to find."""
    effs = pe.effects
    if len(plain) > 6 or any(effs[j].spec.kind == "add" or effs[j].spec.may for j in plain):
        return None  # (declining an optional x2 lowers the damage: no floor from the orders)
    best = None
    for order in permutations(plain):
        amount = pe.ev.amount
        for j in order:
            if amount <= 0:
                break
            amount = _apply(plan, effs[j], amount)
        best = amount if best is None else min(best, amount)
    return best


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


def _build(plan: _Plan, cp: Any, deadline: Deadline | None = None) -> _Built:
    """The CP model of the planned batch. Raises :class:`LimitReached` when ``deadline`` passes."""
    m = cp.CpModel()
    table, state = plan.table, plan.state
    big = 1
    pairs = {(tr.source, tr.player) for tr in plan.triggers}
    groups: dict[Any, list[int]] = {}
    group_rows: dict[Any, list[Rows]] = {}
    units: list[_Unit] = []
    tabled: dict[tuple[Any, ...], Rows | None] = {}
    picks, dealt = _assignments(m, plan)
    for e, pe in enumerate(plan.events):
        if deadline is not None:
            deadline.check(_BUILDING)
        big += _upper(pe.ev.amount, pe.effects)
        if pe.tree is not None:  # a redirection applies: a table of its tree's results (614.9)
            unit = _encode_tree(m, plan, pe, e, dealt.get((pe.ev.source, pe.ev.recipient), pe.ev.amount))
            big += max(sum(row[1:1 + len(pe.tree.columns)]) for row in pe.tree.rows)
            units.append(unit)
            continue
        if pe.assigned:  # its amount is a division choice: the slot encoding takes a variable amount
            amount = dealt[(pe.ev.source, pe.ev.recipient)]
            units.append(_encode_blocks(m, plan, pe, e, _upper(pe.ev.amount, pe.effects), amount))
            continue
        same = (pe.ev.amount, tuple(i.key for i in pe.effects))  # identical events have the same results
        if same not in tabled:
            tabled[same] = tables._results(plan, pe, deadline=deadline)
        rows = tabled[same]
        if rows is None:
            units.append(_encode_blocks(m, plan, pe, e, _upper(pe.ev.amount, pe.effects)))
            continue
        # events whose results only matter through their sum share a table (CR 120.3, 702.15e)
        src, rcp = pe.ev.source, pe.ev.recipient
        link: Any = controller_of(state, table, src) if has_keyword(state, table, src, "lifelink") else None
        if link is not None and gain_replacements(state, table, link, src):
            link = (link, src)  # its gain is its own event, modified (702.15e, 119.10): not summed with others'
        sig = (rcp, link, tuple(has_keyword(state, table, src, k) for k in ("infect", "wither", "deathtouch")),
               (src, pe.ev.combat) if (src, rcp) in pairs else None)
        groups.setdefault(sig, []).append(e)
        group_rows.setdefault(sig, []).append(rows)
    if groups:
        units.extend(_encode_tables(m, plan, list(groups.values()), list(group_rows.values()), deadline))
    if deadline is not None:
        deadline.check(_BUILDING)
    _greedy_hint(m, plan, units)
    prevented: dict[str, list[Any]] = {}
    for unit in units:
        for key, amount in [*unit.shares.items(), *unit.prevented.items()]:
            prevented.setdefault(key, []).append(amount)
    outputs: dict[str, tuple[str, Any]] = {}
    # 615.7: a shield prevents as much as it can, min(remaining, damage where it was applied):
    # either it is used up, or it took all it was offered at every event it was applied to
    # (a table settles this itself for the shields applied to its events alone: no flag then)
    for key, r in plan.shields.items():
        if not any(key in u.shares for u in units):
            continue
        total = sum(u.shares[key] for u in units if key in u.shares)
        if not _is_const(total):
            m.add(total <= r)
        outputs[f"{key}.remaining"] = ("int", r - total)
        fulls = [u.full[key] for u in units if key in u.full]
        used_up = _at_least(m, total, r) if fulls else True
        for full in fulls:
            lits = [lit for lit in (full, used_up) if lit is not False]
            if not any(lit is True for lit in lits):
                m.add_bool_or(lits)
    # a one-instance shield is used up once it prevented damage (615.8; solver.damage.apply_effect)
    for key in sorted(plan.once):
        if key in prevented:
            outputs[f"{key}.remaining"] = ("int", 1 - _at_least(m, sum(prevented[key]), 1))
    # results (120.3, 120.4c); lifelink is one life-gain event per source (702.15e)
    loss: dict[str, list[Any]] = {}
    gain: dict[str, list[Any]] = {}
    poison: dict[str, list[Any]] = {}
    taken: dict[str, list[Any]] = {}
    drawn: dict[str, list[Any]] = {}
    marked: dict[str, list[Any]] = {}
    counters: dict[str, list[Any]] = {}
    deathtouch: dict[str, list[Any]] = {}
    loyalty: dict[str, list[Any]] = {}
    defense: dict[str, list[Any]] = {}
    combat_to: dict[tuple[str, str], list[Any]] = {}

    buckets = {Part.DAMAGE_TAKEN: taken, Part.LIFE_LOSS: loss, Part.POISON: poison, Part.MARKED: marked,
               Part.MINUS_COUNTERS: counters, Part.DEATHTOUCHED: deathtouch, Part.LOYALTY_LOSS: loyalty,
               Part.DEFENSE_LOSS: defense}

    linked: dict[tuple[str, str], list[Any]] = {}  # (source, its controller) -> lifelink gain (702.15e)
    batch_loss: dict[str, list[Any]] = {}  # the step's own batch's life loss (a floor's, solver.results.deal)
    floor_gain: dict[str, list[Any]] = {}  # its riders' life gain for their controller (the same event)

    def hit(source: str, recipient: str, amount: Any, combat: bool, batch: bool = False) -> None:
        """The results of one event of ``amount`` damage (120.3): the parts results.event_results
        names, on the model's variables (a part's ``once`` counts only if damage is dealt)."""
        dealt: Any = None
        for r in event_results(state, table, Event(source, recipient, 1, combat)):
            value = r.per_point * amount
            if r.once:
                if dealt is None:
                    dealt = _at_least(m, amount, 1)
                value = value + r.once * dealt
            if r.part is Part.COMBAT_TO_PLAYER:
                combat_to.setdefault((source, r.who), []).append(value)
            elif r.part is Part.LIFELINK:
                if r.who not in plan.cant_gain:
                    linked.setdefault((source, r.who), []).append(value)
            elif r.part is Part.LIFE_LOSS and batch:
                batch_loss.setdefault(r.who, []).append(value)
            else:
                buckets[r.part].setdefault(r.who, []).append(value)

    for unit in units:
        if unit.hits is not None:  # each final event of a redirected one, to its recipient
            for e, recipient, amount in unit.hits:
                ev = plan.events[e].ev
                hit(ev.source, recipient, amount, ev.combat, True)  # the batch's own event (a floor applies)
            continue
        for e, amount in unit.dealt or [(unit.events[0], unit.final)]:
            ev = plan.events[e].ev
            hit(ev.source, ev.recipient, amount, ev.combat, True)
    gains = _gain_events(m, plan, linked, gain, big)
    # riders happen right after the prevention, before state-based actions (615.5)
    for rd in plan.riders:
        done = sum(prevented.get(rd.key, []))
        coef, const = rd.amount
        if const:
            pos = m.new_bool_var(f"rp_{rd.key}")
            m.add(done >= 1).only_enforce_if(pos)
            m.add(done == 0).only_enforce_if(~pos)
            then: Any = coef * done + const * pos
        else:
            then = coef * done
        bound = big * max(coef, 1) + const
        big += bound
        rules = dict(rd.modified)
        for who in rd.recipients:
            if rd.kind == "deal":
                dealt = then
                if who in rules:  # the rider's own event, modified by its one effect
                    dealt = m.new_int_var(0, rules[who].upper(bound), f"rd_{rd.key}_{who}")
                    rules[who].encode(m, then, dealt, f"rd_{rd.key}_{who}")
                    big += rules[who].upper(bound)
                hit(rd.source, who, dealt, False)
                for (_src, ctrl), values in linked.items():  # (a rider's own lifelink: no replacement in force)
                    gain.setdefault(ctrl, []).extend(values)
                linked.clear()
            elif rd.kind == "lose_life":
                loss.setdefault(who, []).append(then)
            elif rd.kind == "gain_life":
                if who not in plan.cant_gain:
                    gain.setdefault(who, []).append(then)
                if rd.own_gain:
                    floor_gain.setdefault(who, []).append(then)
            else:
                drawn.setdefault(who, []).append(then)
    for name in sorted(batch_loss):
        n = sum(batch_loss[name])
        if name in plan.floors:  # solver.results.floored_loss: min(n, max(0, life + gains - floor))
            room = state.player(name).life + sum(floor_gain.get(name, [])) - plan.floors[name]
            if _is_const(n) and _is_const(room):
                n = min(int(n), max(0, int(room)))
            else:
                hi = big + abs(state.player(name).life)
                above = m.new_int_var(0, hi, f"room_{name}")
                m.add_max_equality(above, [0, room])
                kept = m.new_int_var(0, big, f"floored_{name}")
                m.add_min_equality(kept, [n, above])
                n = kept
        loss.setdefault(name, []).append(n)
    for name in plan.cant_lose:  # 119.8: the loss doesn't happen (solver.results.change_life)
        loss.pop(name, None)
    combat_sum = {k: sum(v) for k, v in combat_to.items()}
    lost: dict[str, Any] = {}
    two_headed = plan.table.two_headed
    for p in state.players:
        # 810.9: each player's damage, life loss and gain are applied to the team's shared total
        team = [q.name for q in state.players if q.team == p.team] if two_headed and p.team is not None else [p.name]
        base_life = plan.base[f"{p.name}.life"]
        life = base_life - sum(x for q in team for x in loss.get(q, [])) + sum(x for q in team for x in gain.get(q, []))
        pois = plan.base[f"{p.name}.poison"] + sum(x for q in team for x in poison.get(q, []))
        outputs[f"{p.name}.life"] = ("int", life)
        outputs[f"{p.name}.poison"] = ("int", pois)
        outputs[f"{p.name}.life_lost"] = ("int", plan.base[f"{p.name}.life_lost"] + sum(loss.get(p.name, [])))
        outputs[f"{p.name}.life_gained"] = ("int", plan.base[f"{p.name}.life_gained"] + sum(gain.get(p.name, [])))
        outputs[f"{p.name}.damage_taken"] = ("int", plan.base[f"{p.name}.damage_taken"] + sum(taken.get(p.name, [])))
        # 704.5a, 704.5c
        limit = 15 if two_headed else 10  # 704.5c, 704.6b (810.8c-d: a team loses together)
        dead = [] if p.name in plan.no_loss else [_at_most(m, life, 0)]  # 704.5a, unless (Phyrexian Unlife)
        lost[p.name] = True if p.lost else _either(m, [*dead, _at_least(m, pois, limit)])
        outputs[f"{p.name}.lost"] = ("bool", lost[p.name])
        if p.team is not None:
            outputs[f"team{p.team}.life"] = ("int", life)
            outputs[f"team{p.team}.poison"] = ("int", pois)
    # draw triggers resolve after state-based actions; a player who left draws nothing (800.4a),
    # and after a player loses a two-player game nothing resolves at all (104.2a, engine.game_over)
    over = False if plan.multiplayer else _either(m, list(lost.values()))
    for tr in plan.triggers:
        dealt = combat_sum.get((tr.source, tr.player), 0)
        fire = _at_least(m, dealt, 1)
        coef, const = tr.amount
        amount = coef * dealt + (const * fire if not _is_const(fire) else const * int(fire))
        # a trigger whose controller lost a multiplayer game ceases to exist with them (800.4a)
        ctrl_left = lost.get(tr.controller, False) if plan.multiplayer else False
        for q in tr.who:
            left = _either(m, [lost[q], ctrl_left]) if plan.multiplayer else over
            if _is_const(left) and not left:
                drawn.setdefault(q, []).append(amount)
            elif not _is_const(left):
                z = m.new_int_var(0, big * max(coef, 1) + const, f"draw_{tr.watcher}_{q}")
                m.add(z == amount).only_enforce_if(~left)
                m.add(z == 0).only_enforce_if(left)
                drawn.setdefault(q, []).append(z)
    for p in state.players:
        outputs[f"{p.name}.cards_drawn"] = ("int", plan.base[f"{p.name}.cards_drawn"] + sum(drawn.get(p.name, [])))
    # creatures: marked damage, -1/-1 counters, and dying (704.5f, 704.5g, 704.5h); planeswalkers
    # and battles: loyalty and defense removed (120.3c, 120.3h), and dying at 0 (704.5i, 704.5v)
    for cid in sorted(set(marked) | set(counters) | set(deathtouch) | set(loyalty) | set(defense)):
        perm = state.perm(cid)
        assert perm is not None
        dmg = perm.damage + sum(marked.get(cid, []))
        put: Any = sum(counters.get(cid, []))  # one event per permanent (solver.results.deal)
        if plan.fewer.get(cid):  # Vizier of Remedies: max(0, n - k) (results.fewer_counters)
            if _is_const(put):
                put = max(0, int(put) - plan.fewer[cid])
            else:
                fewer = m.new_int_var(0, big, f"fewer_{cid}")
                m.add_max_equality(fewer, [0, put - plan.fewer[cid]])
                put = fewer
        minus = perm.counter("-1/-1") + put
        outputs[f"{cid}.damage"] = ("int", dmg)
        if cid in counters or "-1/-1" in dict(perm.counters):
            outputs[f"{cid}.counters.-1/-1"] = ("opt" if "-1/-1" not in dict(perm.counters) else "int", minus)
        have = {Part.MARKED: dmg, Part.MINUS_COUNTERS: minus,
                Part.DEATHTOUCHED: int(perm.deathtouched) + sum(deathtouch.get(cid, []))}
        reasons = [bool(plan.base[f"{cid}.dies"])] + [  # the graph engine's rule: sba.lethal
            _at_least(m, sum(have[p] for p in th.parts), th.at_least) for th in lethal_thresholds(table, perm, state)]
        if cid in loyalty:
            left = perm.loyalty - sum(loyalty[cid])
            outputs[f"{cid}.loyalty"] = ("int", left)
            reasons.append(_at_most(m, left, 0))
        if cid in defense:
            left = perm.defense - sum(defense[cid])
            outputs[f"{cid}.defense"] = ("int", left)
            reasons.append(_at_most(m, left, 0))
        outputs[f"{cid}.dies"] = ("bool", _either(m, reasons))
    # 704.5m: an Aura on a creature that dies goes to its owner's graveyard at the next check,
    # unless the game ended at this one (104.2a; a multiplayer game with Auras is declined by
    # solver.cp.plan); an Equipment only becomes unattached (704.5n), which no field shows
    for aura in state.perms:
        host = aura.attached_to
        if not aura.present or host is None or attachment_kind(table, aura) != "aura" or f"{host}.dies" not in outputs:
            continue
        gone = _and_not(m, outputs[f"{host}.dies"][1], over)
        before = outputs.get(f"{aura.id}.dies", ("bool", bool(plan.base[f"{aura.id}.dies"])))[1]
        outputs[f"{aura.id}.dies"] = ("bool", _either(m, [before, gone]))
    bound = big * 4 + sum(abs(v) for v in plan.base.values() if isinstance(v, int)) + 16
    # every other variable is a function of the tables' rows (design.md): at most their product
    solutions = None if any(u.slots is not None for u in units) or any(len(p) > 1 for p in picks) else \
        math.prod(len(u.top) for u in units)
    return _Built(m, units, combat_sum, outputs, bound, picks, over, solutions, gains)


def _gain_events(m: Any, plan: _Plan, linked: dict[tuple[str, str], list[Any]], gain: dict[str, list[Any]],
                 big: int) -> list[tuple[str, str, Any, tuple[str, ...], list[tuple[tuple[int, ...], Any]]]]:
    """Lifelink's gain, one event per source (702.15e), into ``gain``; an event that life-gain
    replacement effects modify (solver.results.gain_replacements) gets one literal per order of
    them, the gaining player's choice (616.1), each applied by its rule (results.gain_rule; 0
    stays 0: gaining 0 is no event, 119.9). In sorted (source, player) order, as the graph asks."""
    out = []
    for (src, who), values in sorted(linked.items()):
        total = sum(values)
        reps = gain_replacements(plan.state, plan.table, who, src)
        if not reps:
            gain.setdefault(who, []).append(total)
            continue
        rules = [gain_rule(i) for i in reps]
        hi = big
        for r in sorted(rules, key=lambda r: isinstance(r, Multiply)):
            hi = r.upper(hi)
        final = m.new_int_var(0, hi, f"gain_{src}_{who}")
        orders = []
        for order in permutations(range(len(reps))):
            lit = m.new_bool_var(f"gorder_{src}_{who}_{''.join(map(str, order))}")
            now: Any = m.new_constant(int(total)) if _is_const(total) else total
            for k in order:
                nxt = m.new_int_var(0, hi, "")
                rules[k].encode(m, now, nxt, f"g{src}{who}{k}")
                now = nxt
            m.add(final == now).only_enforce_if(lit)
            orders.append((order, lit))
        m.add_exactly_one([lit for _, lit in orders])
        gain.setdefault(who, []).append(final)
        out.append((who, src, total, tuple(i.key for i in reps), orders))
    linked.clear()
    return out


def _assignments(m: Any, plan: _Plan) -> tuple[list[list[Any]], dict[tuple[str, str], Any]]:
    """Combat damage division (CR 510.1c-d): one literal per option of each combatant (exactly one
    holds), the amount each (creature, recipient) pair is assigned, and trample's condition on
    the whole assignment (702.19b, 510.1e): a trampler assigns to the player only if each of its
    blockers is assigned lethal damage in total (deathtouch: 1), damage already marked counted."""
    picks: list[list[Any]] = []
    dealt: dict[tuple[str, str], Any] = {}
    for a in plan.assigns:
        lits = [m.new_bool_var(f"assign_{a.creature}_{k}") for k in range(len(a.options))] if len(a.options) > 1 else [True]
        if len(lits) > 1:
            m.add_exactly_one(lits)
        picks.append(lits)
        for lit, opt in zip(lits, a.options, strict=True):
            for r, n in opt:
                dealt[(a.creature, r)] = dealt.get((a.creature, r), 0) + (n * lit if lit is not True else n)
    for trampler, player, blocker, conditions in plan.trample:
        to_player = dealt.get((trampler, player), 0)
        if _is_const(to_player):
            continue
        # 702.19b: damage to the player needs lethal damage assigned to the blocker (combat.lethal_conditions)
        met = [_at_least(m, sum(v for (src, r), v in dealt.items() if r == blocker and (c.sources is None or src in c.sources)),
                         c.at_least) for c in conditions]
        if any(x is True for x in met):
            continue
        lits = [x for x in met if x is not False]
        tramples = _at_least(m, to_player, 1)
        if lits:
            m.add_bool_or(lits).only_enforce_if(tramples)
        else:
            m.add(to_player == 0)
    return picks, dealt


def _at_least(m: Any, expr: Any, k: int) -> Any:
    """A literal equivalent to ``expr >= k`` (or a Python bool when ``expr`` is constant)."""
    if _is_const(expr):
        return int(expr) >= k
    b = m.new_bool_var("")
    m.add(expr >= k).only_enforce_if(b)
    m.add(expr <= k - 1).only_enforce_if(~b)
    return b


def _at_most(m: Any, expr: Any, k: int) -> Any:
    if _is_const(expr):
        return int(expr) <= k
    b = m.new_bool_var("")
    m.add(expr <= k).only_enforce_if(b)
    m.add(expr >= k + 1).only_enforce_if(~b)
    return b


def _either(m: Any, lits: list[Any]) -> Any:
    """A literal equivalent to the disjunction of ``lits`` (Python bools fold away)."""
    if any(lit is True for lit in lits):
        return True
    lits = [lit for lit in lits if lit is not False]
    if not lits:
        return False
    if len(lits) == 1:
        return lits[0]
    b = m.new_bool_var("")
    m.add_bool_or(lits).only_enforce_if(b)
    for lit in lits:
        m.add_implication(lit, b)
    return b


def _and_not(m: Any, a: Any, b: Any) -> Any:
    """A literal equivalent to ``a and not b`` (Python bools fold away)."""
    if a is False or b is True:
        return False
    if b is False:
        return a
    if a is True:
        return b.Not()
    c = m.new_bool_var("")
    m.add_implication(c, a)
    m.add_implication(c, b.Not())
    m.add_bool_or([a.Not(), b, c])
    return c


def _transform(m: Any, plan: _Plan, inst: Instance, vin: Any, vout: Any, ub: int,
               out: _Unit, tag: str) -> None:
    """``vout`` = the amount after ``inst`` applies to ``vin`` (0 stays 0: CR 120.8)."""
    if inst.spec.kind == "shield":  # 615.7: the affected player chooses the share
        t = m.new_int_var(0, min(plan.shields[inst.key], ub), f"t{tag}")
        full = m.new_bool_var(f"f{tag}")
        m.add(t <= vin)
        m.add(t == vin).only_enforce_if(full)
        m.add(t <= vin - 1).only_enforce_if(~full)
        m.add(vout == vin - t)
        out.shares[inst.key], out.full[inst.key] = t, full
    elif inst.spec.may:  # its controller applies it or not (616.1, solver.damage._ask_optional)
        use = m.new_bool_var(f"may{tag}")
        done = m.new_int_var(0, max(ub, _rule(plan, inst).upper(ub)), f"did{tag}")
        _rule(plan, inst).encode(m, vin, done, tag)
        m.add(vout == done).only_enforce_if(use)
        m.add(vout == vin).only_enforce_if(~use)
        out.uses[inst.key] = use
    else:
        _rule(plan, inst).encode(m, vin, vout, tag)

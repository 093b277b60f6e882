"""An event's choices as constraints (CR 616.1 orders, 615.7 shares): a table of its distinct
results (group tables from solver.cp.tables), a redirection's tree (614.9, solver.cp.trees), or
the block encoding (slot permutation, linear stages)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtg_outcomes.model.effects import EffectKind

from ..limits import Deadline
from ..rules import shields as shield_rule
from . import tables
from .hulls import add_cuts
from .literals import either, transform
from .step import PlannedEvent, StepPlan, effect_rule, tracked, upper_bound
from .tables import Rows, table_layout
from .units import Unit

if TYPE_CHECKING:
    from .cptypes import Expr, Lit, Model, Var


def encode_tables(m: Model, plan: StepPlan, groups: list[list[int]], rows: list[list[Rows]],
                   deadline: Deadline | None = None) -> list[Unit]:
    """One table of the distinct results of every group of events whose results only matter
    through their sums (a column of damage per group; each shield's share and each rider's
    prevention summed over all of them, CR 615.7): the solutions are then (nearly) the outcomes.
    When it would be too big, a table per group, then per event, then the slot encoding."""
    order = sorted(range(len(groups)), key=lambda g: -len(groups[g]))  # the DP's states stay fewer
    # in a group, the events with the most distinct results (the most damage to share out) first:
    # the shields are used up early, and a state whose shields are all used up or short meets
    # each sum once (solver.cp.tables._merge), so the late layers cost less; the table is the same
    inner = [sorted(range(len(groups[g])), key=lambda k: -len(rows[g][k])) for g in range(len(groups))]
    idx = [groups[g][k] for g in order for k in inner[g]]
    own = [rows[g][k] for g in order for k in inner[g]]
    columns = [c for c, g in enumerate(order) for _ in groups[g]]
    members = [plan.events[i] for i in idx]
    shields, riders = table_layout(plan, members)
    inside = set(idx)
    decided = frozenset(k for k in shields if all(
        e in inside for e, pe in enumerate(plan.events) if any(i.key == k for i in pe.effects)))
    merged = tables._merge(plan, members, own, shields, riders, deadline, columns, decided)
    if merged is None:
        if len(groups) > 1:
            return [u for g, r in zip(groups, rows, strict=True) for u in encode_tables(m, plan, [g], [r], deadline)]
        if len(idx) > 1:
            return [u for i, r in zip(idx, own, strict=True) for u in encode_tables(m, plan, [[i]], [[r]], deadline)]
        return [encode_slots(m, plan, members[0], idx[0], upper_bound(members[0].ev.amount, members[0].effects))]
    layers, top = merged
    unit = Unit(idx, 0, layers=layers, top=top, rows=own)
    firsts = [groups[g][0] for g in order]
    ubs = [sum(upper_bound(plan.events[i].ev.amount, plan.events[i].effects) for i in groups[g]) for g in order]
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
    cols: list[Var | int] = []
    for e, ub in zip(firsts, ubs, strict=True):
        cols.append(m.new_int_var(0, ub, f"d{tag}_{e}"))
        unit.dealt.append((e, cols[-1]))
    for key in shields:
        cols.append(m.new_int_var(0, plan.shields[key], f"t{tag}_{key}"))
        unit.shares[key] = cols[-1]
    for key in open_:
        full = m.new_bool_var(f"f{tag}_{key}")
        cols.append(full)
        unit.full[key] = full
    for key in riders:
        cols.append(m.new_int_var(0, sum(ubs), f"p{tag}_{key}"))
        unit.prevented[key] = cols[-1]
    m.add_allowed_assignments(cols, sorted(top))
    unit.columns = cols
    if shields:  # (the table's own relaxation is weak: solver.cp.hulls)
        add_cuts(m, plan, members, sum(v for _, v in unit.dealt), sum(unit.shares.values()))
    return [unit]


def encode_tree(m: Model, plan: StepPlan, pe: PlannedEvent, e: int, amount: Expr) -> Unit:
    """A redirected event (CR 614.9) as one table of its tree's distinct results
    (solver.cp.trees): the amount it starts with (a division choice's, 510.1c), the damage each
    of its final events deals, each shield's share and whether it took all it was offered
    (615.7), and what each tracked prevention prevented (615.5)."""
    tree = pe.tree
    assert tree is not None
    rows = sorted(tree.rows)
    nc, ns, nt = len(tree.columns), len(tree.shields), len(tree.tracked)
    unit = Unit([e], 0, hits=[], top={row: row for row in rows})
    if len(rows) == 1:  # no choice changes anything here: constants
        row = rows[0]
        values: list[Var | int] = list(row)
        flags: list[Lit] = [bool(row[1 + nc + ns + i]) for i in range(ns)]
    else:
        tag = f"r{e}"
        top = [max(row[c] for row in rows) for c in range(len(rows[0]))]
        enter = m.new_int_var(min(row[0] for row in rows), top[0], f"a{tag}")
        m.add(enter == amount)
        values = [enter]
        values += [m.new_int_var(0, top[1 + c], f"d{tag}_{c}") for c in range(nc)]
        values += [m.new_int_var(0, plan.shields[key], f"t{tag}_{key}") for key in tree.shields]
        bools = [m.new_bool_var(f"f{tag}_{key}") for key in tree.shields]
        values += bools
        flags = [b for b in bools]
        values += [m.new_int_var(0, top[1 + nc + 2 * ns + i], f"p{tag}_{key}") for i, key in enumerate(tree.tracked)]
        m.add_allowed_assignments(values, rows)
        unit.columns = values
    assert unit.hits is not None
    unit.hits.extend((e, r, values[1 + c]) for c, (_, r) in enumerate(tree.columns))
    for i, key in enumerate(tree.shields):
        unit.shares[key] = values[1 + nc + i]
        unit.full[key] = flags[i]
    for i, key in enumerate(tree.tracked):
        unit.prevented[key] = values[1 + nc + 2 * ns + i]
    assert len(values) == 1 + nc + 2 * ns + nt
    return unit


def encode_slots(m: Model, plan: StepPlan, pe: PlannedEvent, e: int, ub: int, amount: Expr | None = None) -> Unit:
    """An event with too many orders to table: the non-shield effects' order as a slot
    permutation (slot b holds effect q when x[b][q], CR 616.1), and each shield placed in one
    of the blocks between them, or after the damage reached 0 (then it never applies, 120.8).

    Shields only subtract, so their order inside a block changes nothing but who "took all it
    was offered": a shield applied while damage is left either uses itself up overall, or is
    the one shield that brings the event to 0 (it goes last in its block) (615.7).
    """
    effs = pe.effects
    plain = [j for j, i in enumerate(effs) if i.spec.kind != EffectKind.SHIELD]
    shields = [j for j, i in enumerate(effs) if i.spec.kind == EffectKind.SHIELD]
    k = len(plain)
    first = pe.ev.amount if amount is None else amount  # a division choice's amount (510.1c)
    enter: list[Expr] = [first] + [m.new_int_var(0, ub, f"u{e}_{b + 1}") for b in range(k)]
    leave: list[Expr] = [m.new_int_var(0, ub, f"v{e}_{b}") for b in range(k + 1)]
    x = [[m.new_bool_var(f"x{e}_{b}_{q}") for q in range(k)] for b in range(k)]
    for b in range(k):
        m.add_exactly_one(x[b])
        m.add_exactly_one([x[bb][b] for bb in range(k)])
    out = Unit([e], leave[k], slots=x, plain=plain, enter=first)
    for q, j in enumerate(plain):
        inst = effs[j]
        vin = m.new_int_var(0, ub, f"in{e}_{j}")
        vout = m.new_int_var(0, ub, f"out{e}_{j}")
        transform(m, plan, inst, vin, vout, ub, out, f"{e}_{j}")
        for b in range(k):
            m.add(vin == leave[b]).only_enforce_if(x[b][q])
            m.add(enter[b + 1] == vout).only_enforce_if(x[b][q])
        least = effect_rule(plan, inst).least
        if least > 1:  # a cap in a slot where it doesn't apply changes nothing there, and is
            # legal only if it never would apply later: the event ends at most its N (616.1f)
            now = m.new_bool_var(f"a{e}_{j}")
            m.add(vin >= least).only_enforce_if(now)
            m.add(leave[k] <= least - 1).only_enforce_if(~now)
        if tracked(plan, inst):
            out.prevented[inst.key] = vin - vout
    # identical effects without riders commute: fix their relative order (symmetry)
    for q1 in range(k):
        for q2 in range(q1 + 1, k):
            a, c = effs[plain[q1]].spec, effs[plain[q2]].spec
            untracked = not tracked(plan, effs[plain[q1]]) and not tracked(plan, effs[plain[q2]])
            if untracked and (a.kind, a.value, a.may) == (c.kind, c.value, c.may) and not a.may:
                m.add(sum(b * x[b][q1] for b in range(k)) < sum(b * x[b][q2] for b in range(k)))
    parts: list[list[Expr]] = [[] for _ in range(k + 1)]
    zeroing = []
    for j in shields:
        key = effs[j].key
        cap = shield_rule.room(plan.shields[key], ub)
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
        out.full[key] = either(m, [none, w])
        out.placed.append((j, y, none, w))
    if len(zeroing) > 1:
        m.add_at_most_one(zeroing)
    for b in range(k + 1):
        m.add(leave[b] == enter[b] - sum(parts[b]))
    if amount is None and shields:  # (a division choice's amount: no fixed start to bound from)
        add_cuts(m, plan, [pe], leave[k], sum(out.shares.values()))
    return out


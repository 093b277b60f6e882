"""Small CP-SAT building blocks: reified comparisons and one effect's amount rule on a variable
(solver.rules.amounts' encode, with its bounds)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from mtg_outcomes.model.effects import EffectKind

from ..rules.effects import (
    Instance,
)
from ..rules.shields import room, share_constraint
from .step import StepPlan, effect_rule
from .tables import is_const
from .units import Unit

if TYPE_CHECKING:
    from .cptypes import Expr, Lit, Model


def at_least(m: Model, expr: Expr, k: int) -> Lit:
    """A literal equivalent to ``expr >= k`` (or a Python bool when ``expr`` is constant)."""
    if is_const(expr):
        return int(expr) >= k
    b = m.new_bool_var("")
    m.add(expr >= k).only_enforce_if(b)
    m.add(expr <= k - 1).only_enforce_if(~b)
    return b


def floor0(m: Model, expr: Expr, top: int, name: str) -> Expr:
    """``max(0, expr)``: an int when ``expr`` is constant, else a variable in ``[0, top]``. Counts
    never go below none (122.1e, 122.1g: damage past a planeswalker's loyalty removes them all,
    120.3c, 120.3h; counters removed, 122.1), nor does what a floor or "fewer" leaves."""
    if is_const(expr):
        return max(0, int(expr))
    out = m.new_int_var(0, max(0, top), name)
    m.add_max_equality(out, [0, expr])
    return out


def at_most(m: Model, expr: Expr, k: int) -> Lit:
    if is_const(expr):
        return int(expr) <= k
    b = m.new_bool_var("")
    m.add(expr <= k).only_enforce_if(b)
    m.add(expr >= k + 1).only_enforce_if(~b)
    return b


def either(m: Model, lits: list[Lit]) -> Lit:
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


def and_not(m: Model, a: Lit, b: Lit) -> Lit:
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


def transform(m: Model, plan: StepPlan, inst: Instance, vin: Expr, vout: Expr, ub: int,
               out: Unit, tag: str) -> None:
    """``vout`` = the amount after ``inst`` applies to ``vin`` (0 stays 0: CR 120.8)."""
    if inst.spec.kind == EffectKind.SHIELD:  # 615.7: the affected player chooses the share
        t = m.new_int_var(0, room(plan.shields[inst.key], ub), f"t{tag}")
        full = m.new_bool_var(f"f{tag}")
        share_constraint(m, t, vin, full, vout)
        out.shares[inst.key], out.full[inst.key] = t, full
    elif inst.spec.may:  # its controller applies it or not (616.1, solver.damage._ask_optional)
        use = m.new_bool_var(f"may{tag}")
        done = m.new_int_var(0, max(ub, effect_rule(plan, inst).upper(ub)), f"did{tag}")
        effect_rule(plan, inst).encode(m, vin, done, tag)
        m.add(vout == done).only_enforce_if(use)
        m.add(vout == vin).only_enforce_if(~use)
        out.uses[inst.key] = use
    else:
        effect_rule(plan, inst).encode(m, vin, vout, tag)


def assigned_to(dealt: dict[tuple[str, str], Expr], blocker: str,
                among: Collection[str] | None = None) -> Callable[[frozenset[str] | None], Expr]:
    """What the creatures (of ``among``, None: any) assign ``blocker``, for solver.rules.lethal's
    constraint form: a function of the condition's sources."""
    return lambda sources: sum(v for (src, r), v in dealt.items() if r == blocker
                               and (among is None or src in among) and (sources is None or src in sources))

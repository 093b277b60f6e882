"""Power/toughness changes with a life condition in the CP step (CR 611.3a, 613.4c, 704.3):
"~ gets +2/+1 as long as you have 25 or more life" (Honor Troll).

The model reads characteristics once, at the step's start (solver.cp.declines), but a life
total changes with the step's damage and a simultaneous lifelink gain (510.2, 120.3f), and the
state-based check after it reads toughness with the life totals then (704.3). So the toughness
thresholds of the step's check (solver.sba.lethal) are shifted by a literal per such effect: the
condition (solver.lifecond.life_range) on the life total at the check, the same comparison the
graph engine makes on a number. A keyword or colour with a life condition is declined (an
indestructible or a protection that comes and goes within the step); a trigger's life gain after
the check leaves the next check to the rules engine (solver.cp.suffix)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtg_outcomes.model.effects import EffectKind

from ..lifecond import life_holds, life_range
from ..select import Instance, life_conditioned, matches
from ..state import GameState, PermState, Table
from .literals import and_not, at_least
from .refusal import Refusal

if TYPE_CHECKING:
    from .cptypes import Expr, Lit, Model

__all__ = ["life_pt_problem", "life_pt_later", "reached", "toughness_shift"]


def _pt_only(inst: Instance) -> bool:
    return inst.spec.kind == EffectKind.PT and not inst.spec.value[2]


def life_pt_problem(state: GameState, table: Table) -> Refusal | None:
    """Why the model declines a characteristic with a life condition, or None: only a power and
    toughness change is read at the check."""
    for inst in life_conditioned(state, table):
        if inst.spec.kind in (EffectKind.PT, EffectKind.GRANT, EffectKind.BECOMES_COLOR) and not _pt_only(inst):
            return Refusal(f"{inst.key}: a keyword or colour with a life condition (it may come or go with the step's damage, "
                           "CR 611.3a, 613.1e-f) is not modelled", "611.3a")
    return None


def life_pt_later(state: GameState, table: Table) -> str | None:
    """What the rules engine continues after the step when a trigger gains life in it, or None:
    the gain resolves after the check (603.3, 704.3) and may change a toughness the next check
    reads (solver.cp.declines.life_effect_ending asks)."""
    if not any(_pt_only(i) for i in life_conditioned(state, table)):
        return None
    return "a trigger's life gain after the check and a power/toughness change with a life condition (CR 704.3)"


def _conditions(state: GameState, table: Table, perm: PermState) -> list[tuple[Instance, int]]:
    """The life-conditioned toughness changes reaching ``perm`` and their amounts."""
    return [(i, i.spec.value[1]) for i in life_conditioned(state, table)
            if _pt_only(i) and i.spec.value[1] and matches(i.spec.to, perm.id, state, table, i.view, default=False)]


def reached(state: GameState, table: Table) -> set[str]:
    """The creatures whose toughness a life condition may change at the check (they may die there
    without being dealt damage in the step)."""
    return {p.id for p in state.perms if p.present and "creature" in table.perm_specs[p.spec].types
            and _conditions(state, table, p)}


def toughness_shift(m: Model, state: GameState, table: Table, perm: PermState, at_check: dict[str, Expr]) -> tuple[Expr, int]:
    """(the toughness the conditions give at the check, as an expression; what they give at the
    step's start, which the thresholds already count)."""
    var: Expr = 0
    now = 0
    for inst, dt in _conditions(state, table, perm):
        who = inst.view.controller
        low, high = life_range(inst.spec, table, who)
        life = at_check[who]
        lit: Lit = True
        if low is not None:
            lit = at_least(m, life, low)
        if high is not None:
            above = at_least(m, life, high + 1)
            lit = and_not(m, lit, above)
        var = var + dt * (int(lit) if isinstance(lit, bool) else lit)
        now += dt if life_holds(inst.spec, table, who, state.player(who).life) else 0
    return var, now


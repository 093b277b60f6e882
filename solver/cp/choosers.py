"""Who chooses in the CP step, and whether CP-SAT's optimisation gives backward induction's
answer there (it has no move order: one chooser at most; or the defending player's declaration
of blockers first, bounded by the models and valued by the graph: solver.cp.declared)."""

from __future__ import annotations

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.kinds import DecisionKind
from mtg_outcomes.model.objective import Objective
from mtg_outcomes.model.types import Case

from ..limits import Deadline, LimitReached, as_deadline
from ..results import gain_replacements
from ..select import controller_of, has_keyword
from .blocks import EARLY, is_block_start
from .plan import StepPlans, step_plans
from .refusal import Refusal
from .step import StepPlan


def step_choosers(plan: StepPlan) -> list[str]:
    """The players with a choice in the step: combat damage division (510.1c-d) and the affected
    players of events that effects apply to (CR 616.1, 615.7). Ordering draw triggers (603.3b)
    changes no outcome here. A lifelink source's controller orders two or more life-gain
    replacements of its gain (616.1, solver.results.gain_event); an optional effect's controller
    decides whether it applies (solver.damage._ask_optional)."""
    gaining = set()
    for pe in plan.events:
        src = pe.ev.source
        ctrl = controller_of(plan.state, plan.table, src) if has_keyword(plan.state, plan.table, src, "lifelink") else None
        if ctrl is not None and len(gain_replacements(plan.state, plan.table, ctrl, src)) > 1:
            gaining.add(ctrl)
    return sorted({pe.chooser for pe in plan.events
                   if len(pe.effects) + len(pe.noops) > 1 or any(i.spec.kind == EffectKind.SHIELD for i in pe.effects)}
                  | {c for pe in plan.events if pe.tree is not None for c in pe.tree.choosers}  # after a redirection (616.1)
                  | {a.controller for a in plan.assigns if len(a.options) > 1} | gaining
                  | {i.view.controller for pe in plan.events for i in pe.effects if i.spec.may}
                  | (set(plan.blocks.choosers()) if plan.blocks is not None else set()))


def cp_optimizable(case: Case, objective: Objective, timeout: float | Deadline | None = None) -> str | None:
    """None when :func:`cp_optimize` gives the graph's backward-induction answer, else a reason
    (also when planning can't finish within ``timeout``).

    The CP model has no move order, so it answers when at most one player chooses in the step:
    with one chooser, backward induction keeps exactly the outcomes with the best lexicographic
    score (every decision is theirs), and a chooser without an objective may pick anything.
    """
    try:
        plans = step_plans(case, as_deadline(timeout))
    except LimitReached as cut:
        return str(cut)
    if isinstance(plans, Refusal):
        return plans.reason
    problem = optimizable_problem(plans, objective)
    return None if problem is None or declarations_optimizable(plans, objective) is None else problem.reason


def optimizable_problem(plans: StepPlans, objective: Objective) -> Refusal | None:
    prefix = plans.prefix
    if len(prefix.starts) + len(prefix.ended) > 1:
        return (Refusal(f"the choices before the last damage step lead to {len(prefix.starts) + len(prefix.ended)} "
                "different states: backward induction over them needs the choice graph", None))
    if not plans.plans:
        return prefix.no_step() or Refusal("the game ends before the last damage step", "104.2a")
    plan = plans.plans[0]
    choosers = step_choosers(plan)
    if len(choosers) > 1 and any(objective.of(c) is not None for c in choosers):
        return Refusal(f"{' and '.join(choosers)} all choose in this step: backward induction needs the move order", None)
    for c in choosers:
        for goal in objective.of(c) or ():
            for _, f in goal.terms:
                if not isinstance(plan.base.get(f, 0), bool | int | None):
                    return Refusal(f"{f} is not a number", None)
    return None


def declarations_optimizable(plans: StepPlans, objective: Objective) -> str | None:
    """None when :func:`optimize_declarations` answers: every CP model declares blocks (509.1),
    no choice comes before the declaration, the declaring player has an objective, no branch
    ended before the step and nothing follows it (the models' outcomes are the final ones); else
    why not."""
    prefix = plans.prefix
    if not plans.plans or not prefix.complete or prefix.ended:
        return "the game can end, or a limit cut the choices, before the last combat damage step"
    chooser = None
    for start, plan in zip(prefix.starts, plans.plans, strict=True):
        if plan.suffix:
            # the rules engine goes on after the step (a dies trigger, 603.2): the model's outcomes
            # aren't the final ones, so its best is no bound on what a declaration is worth
            return "the rules engine continues after the combat damage step (its triggers)"
        bp, first = plan.blocks, (start.witness[0] if start.witness else None)
        if first is None and (bp is None or not (bp.step == 0 and is_block_start(bp.start))):
            return "the blocks were declared before the step"
        if first is not None and first.kind != DecisionKind.BLOCK:
            return "a choice comes before the declaration of blockers"
        if bp is None and first is not None and first.picked.startswith(EARLY):
            return "the step's model does not complete the declaration of blockers"
        who = bp.chooser if bp is not None else first.chooser  # type: ignore[union-attr]
        if chooser not in (None, who):
            return "more than one player declares blockers"
        chooser = who
    if chooser is None or not objective.of(chooser):
        return f"{chooser} declares the blocks without an objective: every declaration is kept"
    return None

"""Planning: can the CP model express the case's last step, and what it needs (events, shields,
riders, triggers, combat assignments: solver.cp.planner, one plan per state the choices before
it reach), or the reason it can't; the estimate ``auto`` uses."""

from __future__ import annotations

from dataclasses import dataclass

from mtg_outcomes.model.types import Case

from ..limits import Deadline, as_deadline
from .planner import plan_one_step
from .prefix import (
    END,
    FIRST,
    LAST,
    MAX_STARTS,
    NO_BATCH,
    PREFIX_NODES,
    Prefix,
    expand,
    script_left,
)
from .refusal import Refusal
from .step import StepPlan


@dataclass
class StepPlans:
    """The CP answer's parts: the expansion of the choices before the CP step (solver.cp.prefix)
    and one plan per distinct state at its start (parallel to ``prefix.starts``); the case and
    the node limit they were planned with (an answer from them is that case's only)."""

    prefix: Prefix
    plans: list[StepPlan]
    case: Case
    max_nodes: int | None

    def problem(self, case: Case, max_nodes: int | None) -> Refusal | None:
        """Why these plans can't answer ``case`` with ``max_nodes`` (None: they can): another
        case's plans would answer for it, and a prefix its node limit cut, for that limit only."""
        if self.case is not case and self.case != case:
            return Refusal(f"planned= holds the plans of {self.case.id}, not of {case.id}", None)
        if not self.prefix.complete and self.max_nodes != max_nodes:
            return (Refusal(f"planned= was cut at max_nodes={self.max_nodes} before the step; "
                    f"plan again with max_nodes={max_nodes}", None))
        return None


def step_plans(case: Case, deadline: Deadline | None = None, max_nodes: int | None = None) -> StepPlans | Refusal:
    """The prefix before the CP step and a plan of the step from each distinct state it reaches,
    or the reason the CP engine can't answer. ``max_nodes`` below :data:`PREFIX_NODES` cuts the
    prefix (``prefix.complete`` False); a prefix larger than that is declined. Raises
    :class:`LimitReached` when ``deadline`` passes."""
    if not case.actions:
        return NO_BATCH
    limit = PREFIX_NODES if max_nodes is None else min(max_nodes, PREFIX_NODES)
    # the step with nothing after it but what the model applies; else a step the rules engine
    # continues after (solver.cp.suffix): the last batch no damage action follows, else the first
    for mode in (END, LAST, FIRST):
        prefix = expand(case, deadline, limit, mode)
        if not prefix.complete and limit == PREFIX_NODES:
            return Refusal(f"the choices before the last damage step reach more than {PREFIX_NODES} states", None)
        missing = prefix.no_step()
        if missing is None or (missing == NO_BATCH and mode != LAST):
            break
    if missing == NO_BATCH and prefix.complete and not prefix.starts and prefix.ended:
        # no damage batch, so no step for CP-SAT: the expansion went to the end of every
        # branch, and its end states (equal ones merged) are the answer, exact
        return StepPlans(prefix, [], case, max_nodes)
    if missing is not None:
        return missing
    if len(prefix.starts) > MAX_STARTS:
        return (Refusal(f"the choices before the last damage step reach {len(prefix.starts)} distinct states "
                f"(one CP model each; at most {MAX_STARTS})", None))
    plans = []
    for start in prefix.starts:
        if case.choices and script_left(case, start.state):
            return Refusal("choices: scripts a decision of the last damage step (the CP model replays no script)", None)
        plan = plan_one_step(start.state, prefix.table, prefix.step(start), deadline)
        if isinstance(plan, Refusal):
            return plan
        plans.append(plan)
    return StepPlans(prefix, plans, case, max_nodes)


def plan_step(case: Case, timeout: float | Deadline | None = None, max_nodes: int | None = None) -> StepPlans | Refusal:
    """The CP step planned: the choices before it expanded (at most ``max_nodes`` states) and a
    plan of it from each distinct state they reach, or the reason CP can't model ``case`` (as
    :func:`cp_supported` says it). Past ``timeout`` it raises :class:`LimitReached`. Give it to
    :func:`~solver.cp.cp_outcomes` or :func:`~solver.cp.cp_optimize` as ``planned=`` (with the
    same ``max_nodes``) so that they don't plan the step again."""
    return step_plans(case, as_deadline(timeout), max_nodes)


def cp_supported(case: Case, timeout: float | Deadline | None = None) -> str | None:
    """None when the CP model can express ``case``, else a short reason. Finding out plans the
    step, expanding the choices before it (at most ``PREFIX_NODES`` states, which a loop of
    choices can make long): past ``timeout`` it raises :class:`LimitReached`.

    The CP model solves one step: the last combat damage step of a ``combat: {}`` action that
    ends the timeline (blocked or not, damage division and trample included; with first or
    double strike the regular step, CR 510.4), else the timeline's last damage batch, whatever
    action, spell, ability or trigger opened it, with later instructions of its resolution that
    draw or gain or lose a fixed amount (608.2c). Everything before it (earlier actions and
    their choices, targets and divisions, trigger order, declared blocks, the first-strike
    damage step with its state-based actions and triggers) is expanded by the graph engine's
    rules, equal states merged (solver.cp.prefix); everything after it (later actions and
    instructions, the end of the combat damage step, the triggers the step fires and their
    damage, a rider whose damage is a batch of choices) is continued by the same rules from each
    of the step's distinct results (solver.cp.suffix); a timeline with no damage batch has no step:
    the same expansion to the end of every branch is the answer. The step is then modelled from each distinct state reached, at most
    ``MAX_STARTS`` of them. In the step: shields (615.7), static and created prevention (615.1,
    615.10, 615.12), multiply / add / cap replacements in every order (614.1a, 616.1); riders
    (615.5) whose damage meets no further choices; redirection, whole or partial (614.9, walked
    by the graph engine's rules: solver.cp.trees); attacks on planeswalkers and battles, trample
    over planeswalkers (506.3, 702.19c), loyalty and defense removed (120.3c, 120.3h, 704.5i,
    704.5v); a rider's damage to a permanent; lifelink, infect, wither, deathtouch;
    "deals combat damage to a player" triggers that draw cards; "whenever damage is prevented"
    triggers that draw or gain life (615.13); +1/+1 counters a rider puts or removes and damage
    put as +1/+1 counters instead (615.5, 614.1a: toughness, 613.4c); riders on damage that
    can't be prevented (615.12); shields of a source of your
    choice (615.9) and next-time shields that can apply to one event of the step (615.8). An Aura
    on a creature that dies in the step dies too (704.5m, solver.sba); an Aura in a multiplayer
    game is declined.
    """
    plans = step_plans(case, as_deadline(timeout))
    return plans.reason if isinstance(plans, Refusal) else None



"""The engines' estimated costs of a step, so ``auto`` can take the cheaper (pure functions of the
plans): the graph's distinct states, CP's start-up and events."""

from __future__ import annotations

import math

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.types import Case

from ..limits import Deadline, LimitReached, as_deadline
from ..rules.shields import room, shares
from .plan import StepPlans, step_plans
from .refusal import Refusal
from .step import StepPlan, upper_bound

# engine="auto" compares the two engines' estimated CPU seconds for the step (a pure function of
# the plans; calibrated on bench/family.py and the shipped cases, warm, one process): the graph's
# cost follows its distinct states, each a little dearer on a wider step (expanding one state
# runs the batch's forced steps and the state-based check over every event and permanent); CP's
# is a start-up plus a little per event of each model. The start-up counts OR-Tools' import
# (~0.3 s) as what it is, a cost paid once by a process that answers several cases (a batch
# worker, a script): what each answer then costs is a model's set-up, 5-10 ms. Measured warm on
# bench/family.py: eight attackers into one shield, graph 162 ms, CP 11 ms; a lone CLI call of
# it pays ~0.1 s more (the import) for CP. No shipped case changes engine (its 0.4 s before).
GRAPH_STATE_COST = 4e-4  # seconds per estimated distinct state of the choice graph ...
GRAPH_STATE_EVENT_COST = 4e-5  # ... and per event of the step, for each state
CP_START_COST = 0.05  # seconds: a model's set-up, and OR-Tools' import shared by several answers
CP_EVENT_COST = 0.01  # seconds per event of each CP model (tables or block encoding, solving)


def estimate_paths(case: Case, timeout: float | Deadline | None = None) -> int | None:
    """A rough count of the graph engine's raw choice paths in the CP step (orders times shield
    shares), summed over the distinct states the choices before it reach, or None when the CP
    model can't express the case. Past ``timeout`` (planning the step) it raises
    :class:`LimitReached`."""
    plans = step_plans(case, as_deadline(timeout))
    return None if isinstance(plans, Refusal) else paths_of(plans)


def paths_of(plans: StepPlans) -> int:
    """:func:`estimate_paths` of a step already planned (:func:`~solver.cp.plan_step`)."""
    return sum(_paths(p) for p in plans.plans)


def _paths(plan: StepPlan) -> int:
    total = math.prod(len(a.options) for a in plan.assigns) * _declarations(plan)  # divisions (510.1c-d), blocks
    for pe in plan.events:
        ub = upper_bound(pe.ev.amount, pe.effects)
        total *= math.factorial(len(pe.effects) + len(pe.noops))
        for inst in pe.effects:
            if inst.spec.kind == EffectKind.SHIELD:
                total *= len(shares(room(plan.shields[inst.key], ub)))
    return total


def _states(plan: StepPlan) -> int:
    """A rough count of the choice graph's distinct states in the step (it merges equal states):
    per event, its orders (616.1) times the ways the shields seen so far can have been split
    over the events they applied to (615.7: compositions of at most the shield's remaining over
    those events, at most the product of their shares), summed over the events, times the
    damage divisions (510.1c-d). Raw paths multiply the shares of every event; states don't."""
    total = 0
    spread: dict[str, tuple[int, int]] = {}  # shield -> (events it applies to so far, product of shares)
    for pe in plan.events:
        ub = upper_bound(pe.ev.amount, pe.effects)
        for inst in pe.effects:
            if inst.spec.kind == EffectKind.SHIELD:
                k, prod = spread.get(inst.key, (0, 1))
                spread[inst.key] = (k + 1, prod * len(shares(room(plan.shields[inst.key], ub))))
        ways = math.prod(min(prod, math.comb(k + plan.shields[key], k)) for key, (k, prod) in spread.items())
        total += math.factorial(len(pe.effects) + len(pe.noops)) * ways
    return total * math.prod(len(a.options) for a in plan.assigns) * _declarations(plan)


def _declarations(plan: StepPlan) -> int:
    """The graph engine expands every declaration of blockers the model chooses among (509.1),
    each with its own combat damage step (solver.cp.blocks)."""
    return plan.blocks.declarations() if plan.blocks is not None else 1


def estimate_costs(plans: StepPlans) -> tuple[float, float]:
    """The estimated CPU seconds of the step for the graph engine (its distinct states, summed
    over the states at the step's start) and for the CP engine (a start-up, then per event of
    each model): what ``engine="auto"`` compares."""
    # capped before the float product: the count of a huge step can pass a float's range
    graph = sum((GRAPH_STATE_COST + GRAPH_STATE_EVENT_COST * len(p.events)) * min(_states(p), 10**15)
                for p in plans.plans)
    cp = CP_START_COST + CP_EVENT_COST * sum(len(p.events) for p in plans.plans)
    return graph, cp


def prefer_cp(case: Case, timeout: float | Deadline | None = None, max_nodes: int | None = None,
              share: float | None = None) -> bool:
    """engine="auto": CP when the case is expressible and CP's estimated cost of the step is below
    the graph's (:func:`estimate_costs`). The CP answer is then built with at most
    ``AUTO_BUILD_SHARE`` of the time left (``build_share`` of :func:`cp_outcomes`): a build that
    can't finish in it gives way to the graph. Planning the estimate takes at most ``share`` of
    the time left and ``max_nodes`` states before the step (the graph's limits): the choices
    before the step can be as many as the graph's own (a loop the players can repeat), and a
    planning cut by either gives the graph the rest, not an answer the estimate used up."""
    return preferred_plans(case, timeout, max_nodes, share) is not None


def preferred_plans(case: Case, timeout: float | Deadline | None = None, max_nodes: int | None = None,
                    share: float | None = None) -> StepPlans | None:
    """:func:`prefer_cp`'s plans of the step when it prefers CP, else None, so that the answer
    is built from them (``planned=``) rather than from a second planning."""
    deadline = as_deadline(timeout)
    try:
        plans = step_plans(case, deadline if share is None else deadline.share(share), max_nodes)
    except LimitReached:
        return None
    if isinstance(plans, Refusal) or not plans.prefix.complete:
        return None
    graph, cp = estimate_costs(plans)
    return plans if graph > cp else None

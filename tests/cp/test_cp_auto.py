"""engine="auto" with CP (solver.cp.auto): the estimate's plans are the answer's, so the step is
planned once per answer; plans made once (solver.cp.plan_step) answer as a fresh planning does."""

from __future__ import annotations

from typing import Any

import pytest

import mtg_outcomes as solver
import mtg_outcomes.cp.answer  # noqa: F401
import mtg_outcomes.cp.costs  # noqa: F401
import mtg_outcomes.cp.plan  # noqa: F401
from mtg_outcomes import enumerate_outcomes, optimize
from mtg_outcomes.cp import cp_optimize, cp_outcomes, cp_supported, estimate_paths, plan_step
from mtg_outcomes.cp.costs import paths_of
from mtg_outcomes.cp.refusal import Refusal
from mtg_outcomes.model import load_case, parse_case
from mtg_outcomes.model.objective import parse_objective

from ..conftest import CASES
from ..engine.test_limits import SHIELDS_AND_DOUBLERS, SMALL, _case
from .test_cp import STATIC_SHIELD


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the plannings of the step, wherever they are asked for."""
    calls: list[int] = []
    plans = solver.cp.plan.step_plans

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return plans(*args, **kwargs)

    for module in (solver.cp.plan, solver.cp.costs, solver.cp.answer):
        monkeypatch.setattr(module, "step_plans", counted)
    return calls


@pytest.mark.parametrize("command", ["enumerate", "optimize"])
def test_auto_plans_the_step_once(monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    """Planning expands every choice before the step (a loop a player can repeat makes it as long
    as the graph's walk), so auto's CP answer is built from the plans its estimate made."""
    case = _case(SHIELDS_AND_DOUBLERS)
    calls = _counting(monkeypatch)
    if command == "enumerate":
        res: Any = enumerate_outcomes(case, fields=["you.life"])
    else:
        res = optimize(case, parse_objective({"you": ["maximize you.life"]}), fields=["you.life"])
    assert res.engine == "cp" and res.complete and res.outcomes
    assert len(calls) == 1


def test_planned_once_answers_as_planning_again() -> None:
    """``planned=`` gives the outcomes (and witnesses) of a fresh planning, for enumeration and
    optimisation, and ``paths_of`` is ``estimate_paths``."""
    for text in (SMALL, SHIELDS_AND_DOUBLERS):
        case = _case(text)
        plans = plan_step(case)
        assert not isinstance(plans, Refusal)
        assert paths_of(plans) == estimate_paths(case)
        fresh, given = cp_outcomes(case), cp_outcomes(case, planned=plans)
        assert fresh.complete and given.complete
        assert [(o.state, o.witness) for o in given.outcomes] == [(o.state, o.witness) for o in fresh.outcomes]
        objective = parse_objective({"you": ["maximize you.life"]})
        best, best_given = cp_optimize(case, objective), cp_optimize(case, objective, planned=plans)
        assert [o.state for o in best_given.outcomes] == [o.state for o in best.outcomes]
        assert best_given.stats["optimum"] == best.stats["optimum"]


def test_plan_step_says_why_not() -> None:
    """A case CP can't model: the reason, as cp_supported gives it (a static shield, 615.7)."""
    case = parse_case(STATIC_SHIELD)
    reason = plan_step(case)
    assert isinstance(reason, Refusal) and reason.reason == cp_supported(case) and reason.rule == "615.7"


def test_plans_answer_their_own_case_only() -> None:
    """``planned=`` is a question's own plans: another case's would answer for it, and a prefix
    cut by a node limit stands for that limit only. Either is a ValueError, not an answer."""
    small, big = _case(SMALL), _case(SHIELDS_AND_DOUBLERS)
    plans = plan_step(small)
    assert not isinstance(plans, Refusal)
    with pytest.raises(ValueError, match="plans of limits-small-group"):
        cp_outcomes(big, planned=plans)
    with pytest.raises(ValueError, match="plans of limits-small-group"):
        cp_optimize(big, parse_objective({"you": ["maximize you.life"]}), planned=plans)
    assert cp_outcomes(_case(SMALL), planned=plans).complete  # the same case, read again
    treefolk = load_case(CASES / "cards" / "mirrorwood-treefolk-bolt-then-shock.yaml")
    cut = plan_step(treefolk, max_nodes=2)
    assert not isinstance(cut, Refusal) and not cut.prefix.complete
    with pytest.raises(ValueError, match="max_nodes=2"):
        cp_outcomes(treefolk, planned=cut)
    assert not cp_outcomes(treefolk, planned=cut, max_nodes=2).complete

"""Optimal play when the defending player's declaration of blockers (CR 509.1) comes first and
other players choose after it: an attacking player's division of combat damage (510.1c-d,
702.19b), the defending player's split of a shield (615.7), both combat damage steps (510.4).

Backward induction values each declaration by the worst outcome, for the declaring player, of
optimal play after it (solver.optimize), and keeps the declarations worth the most. The graph
engine expands every declaration, (attackers + 1) to the power of the blockers; here they are
found by branch and bound instead:

- a **bound**: the CP models of the step (solver.cp.blocks, one per state the choices before it
  reach) hold every outcome any declaration can lead to. The best of them for the declaring player
  (their lexicographic goals, as one weighted objective) bounds what any declaration still left
  can be worth: optimal play after it ends in one of its outcomes, and its worst is no better
  than its best;
- a **value**: the declaration a model's optimum makes is valued exactly, by the choice graph's
  backward induction from the state right after it (the rules engine's own decision, the one the
  graph engine expands), then forbidden in that model (a no-good on its block literals);
- declarations are taken best bound first, until no model's bound reaches the best value found.
  Every declaration worth as much as the best was then valued (its bound is at least its value),
  so the declarations kept and the outcomes of optimal play are exactly the graph engine's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.kinds import DecisionKind
from mtg_outcomes.model.objective import Goal, Objective
from mtg_outcomes.model.outcome import Outcome, Witness

from ..decision import Decision, find_option
from ..engine import advance
from ..graph import build_graph
from ..limits import Deadline
from ..optimize import DecisionReport, _decision_reports, induce, project, witnesses
from ..state import initial_state
from .blocks import EARLY, complete_declaration, declaration_of, drive_declaration
from .cut import Cut
from .plan import StepPlans
from .search import Search

__all__ = ["optimize_declarations", "declarer", "Valued"]

# the weighted objective's largest coefficient (CP-SAT's objective is a 64-bit integer)
MAX_WEIGHT = 2**52
BLOCK_AT = "declare blockers"


def declarer(plans: StepPlans) -> str:
    """Who declares the blocks the models bound (:func:`declarations_optimizable` holds)."""
    plan, start = plans.plans[0], plans.prefix.starts[0]
    return plan.blocks.chooser if plan.blocks is not None else start.witness[0].chooser


@dataclass
class Valued:
    """A declaration valued by backward induction from the state right after it: what optimal
    play after it gives (its graph is dropped once read: memory holds outcomes, not graphs)."""

    label: str  # the rules engine's option (solver.declare's label)
    words: str
    worth: tuple[int, ...]  # the worst outcome of optimal play after it, scored for the declarer
    outcomes: list[Outcome]  # optimal play's outcomes after it, each witness from the state after it
    reports: list[DecisionReport]  # the decisions on its optimal lines
    cut: str | None  # what cut the witnesses' list (None: nothing)


@dataclass
class _Bound:
    """One CP model's bound over the declarations it can still make: its best outcome for the
    declarer (``top``), the declaration reaching it (``label``); ``top`` None when none is left."""

    search: Search
    witness: tuple[Witness, ...]
    top: tuple[int, ...] | None = None
    label: str = ""
    literals: list[Any] = field(default_factory=list)


def _weights(search: Search, goals: list[Goal]) -> list[int] | None:
    """Each goal's weight in one objective that orders solutions as the goals do,
    lexicographically: a goal's weight exceeds what every later goal can add (each lies in
    [-B, B]: its terms' coefficients times the model's bound on its outputs); None past
    :data:`MAX_WEIGHT`."""
    plan, built = search.plan, search.built
    weights = [1] * len(goals)
    for i in range(len(goals) - 2, -1, -1):
        later = sum(abs(c) * max(built.bound, abs(int(plan.base.get(f, 0) or 0))) for c, f in goals[i + 1].terms)
        weights[i] = weights[i + 1] * (2 * later + 1)
        if weights[i] > MAX_WEIGHT:
            return None
    return weights


def _solve(b: _Bound, objective_expr: Any, levels: list[Any],
           label_of: Callable[[_Bound, dict[str, str | None]], str]) -> None:
    """The model's best declaration still allowed: ``b.top`` and ``b.label``."""
    search = b.search
    search.built.model.maximize(objective_expr)
    solver = search.solve()
    if solver is None:
        b.top = None
        return
    b.top = tuple(int(solver.value(lv)) if not isinstance(lv, int) else lv for lv in levels)
    bp = search.plan.blocks
    b.label = label_of(b, declaration_of(bp, search.built.declared, solver) if bp is not None else {})
    b.literals = [lit if solver.boolean_value(lit) else ~lit for lit in search.built.declared.values()]


def zero_sum_opponent(objective: Objective, chooser: str) -> str | None:
    """The one other player with an objective when theirs is exactly the declaring player's
    negated (each goal's terms the same, its sense the other: "you: [maximize you.life]" and "A:
    [minimize you.life]"), else None."""
    others = [(c, gs) for c, gs in objective.goals if c != chooser]
    mine = objective.of(chooser) or ()
    if len(others) != 1 or len(others[0][1]) != len(mine):
        return None
    c, theirs = others[0]
    same = all(g.terms == h.terms and g.sense == -h.sense for g, h in zip(mine, theirs, strict=True))
    return c if same else None


def restrict_tramplers(search: Search, opponent: str) -> None:
    """A tighter bound when the attacking player's goals are the declaring player's negated: each
    of their tramplers assigns each creature blocking it no more than its own lethal damage, the
    rest to the player (702.19b). Always a legal division (lethal from that attacker alone), and in
    that zero-sum game restricting one player's choices can't lower the bound below backward
    induction's value: the value is at most what the opponent's every option can reach when they
    play on at their best, so at most the best outcome any one option reaches."""
    bp, built = search.plan.blocks, search.built
    if bp is None:
        return
    pair = {(b, a): True for a, bs in bp.fixed.items() for b in bs} | built.declared
    for a in bp.trample:
        if bp.amount.get(a, 0) <= 0 or bp.controller[a] != opponent:
            continue
        lethal = []
        for b in bp.blockers_of(a):
            alone = min(c.at_least for c in bp.lethal[b] if c.sources is None or a in c.sources)
            lethal.append(alone * pair[b, a] if pair[b, a] is not True else alone)
        built.model.add(built.divided[a, bp.defended[a]] >= bp.amount[a] - sum(lethal))


def optimize_declarations(case: Any, objective: Objective, plans: StepPlans, searches: list[Search],
                          levels_of: list[list[Any]], fields: Iterable[str] | None, deadline: Deadline,
                          max_nodes: int | None) -> tuple[list[Outcome], list[DecisionReport], bool, dict[str, Any]]:
    """The outcomes of optimal play (projected on ``fields``), the decisions on the optimal lines,
    whether the answer is complete, and stats (see the module's docstring). ``levels_of``: each
    search's expression of each of the declaring player's goals (solver.cp.optimum._level)."""
    state0, _ = initial_state(case)
    first = advance(state0, plans.prefix.table)
    if not isinstance(first, Decision) or first.kind != DecisionKind.BLOCK:
        raise EngineError(f"{case.id}: the declaration of blockers is not the timeline's first decision")
    run = _BranchAndBound(case, objective, plans, first, deadline, max_nodes)
    run.bound(searches, levels_of)
    run.search()
    out, reports = run.answer(fields)
    stats = {"declarations_valued": len(run.valued), "declarations_optimal": len(run.kept),
             "subgame_nodes": run.subgame_nodes, "solves": sum(s.solves for s in searches),
             "method": "declarations of blockers bounded by CP-SAT, each valued by backward induction on the choice graph"}
    return out, reports, run.complete, stats


@dataclass
class _BranchAndBound:
    """The search over declarations: the models' bounds, the declarations valued so far, and the
    ones worth the best with what optimal play after each gives."""

    case: Any
    objective: Objective
    plans: StepPlans
    first: Decision  # the rules engine's declaration of blockers (its options built as read)
    deadline: Deadline
    max_nodes: int | None
    bounds: list[_Bound] = field(default_factory=list)
    objectives: list[tuple[Any, list[Any]]] = field(default_factory=list)
    valued: dict[str, tuple[str, tuple[int, ...]]] = field(default_factory=dict)  # label -> words, worth
    kept: list[Valued] = field(default_factory=list)
    best: tuple[int, ...] | None = None
    worse_left: bool = False  # declarations never valued: each bounded below the best
    subgame_nodes: int = 0
    complete: bool = True

    @property
    def chooser(self) -> str:
        return declarer(self.plans)

    def label_of(self, b: _Bound, chosen: dict[str, str | None]) -> str:
        """The whole declaration (solver.declare's label) a model's solution makes."""
        step = b.witness[0] if b.witness else None
        if step is None:
            assert b.search.plan.blocks is not None  # (declarations_optimizable)
            return drive_declaration(b.search.plan.blocks, self.plans.prefix.table, chosen)[1].picked
        return complete_declaration(step, chosen).picked if step.picked.startswith(EARLY) else step.picked

    def bound(self, searches: list[Search], levels_of: list[list[Any]]) -> None:
        """Each model's objective (the goals weighted lexicographically), the zero-sum restriction
        where it holds, and each model's first bound."""
        goals: list[Goal] = list(self.objective.of(self.chooser) or ())
        for start, search, levels in zip(self.plans.prefix.starts, searches, levels_of, strict=True):
            weights = _weights(search, goals)
            if weights is None:
                raise Cut
            self.objectives.append((sum(w * lv for w, lv in zip(weights, levels, strict=True)), levels))
            self.bounds.append(_Bound(search, start.witness))
        opponent = zero_sum_opponent(self.objective, self.chooser)
        if opponent is not None:
            for search in searches:
                restrict_tramplers(search, opponent)
        for b, (expr, levels) in zip(self.bounds, self.objectives, strict=True):
            _solve(b, expr, levels, self.label_of)

    def search(self) -> None:
        """Best bound first until no model's bound reaches the best value found."""
        while True:
            live = [i for i, b in enumerate(self.bounds) if b.top is not None]
            if not live:
                return
            i = max(live, key=lambda k: self.bounds[k].top)  # type: ignore[arg-type, return-value]
            b = self.bounds[i]
            if self.best is not None and b.top < self.best:  # type: ignore[operator]
                self.worse_left = True
                return  # no declaration left can be worth the best
            if b.label not in self.valued:
                self.value(b.label)
            if not b.literals:
                b.top = None  # the model's one declaration (the prefix made it whole)
                continue
            b.search.built.model.add_bool_or([~lit for lit in b.literals])  # the no-good: this one is valued
            _solve(b, *self.objectives[i], self.label_of)

    def value(self, label: str) -> None:
        """Backward induction from the state right after the declaration ``label``."""
        self.deadline.check("valuing a declaration of blockers")
        opt = find_option(self.first, label)
        if opt is None:
            raise EngineError(f"{self.case.id}: the model's declaration {label!r} is not the rules engine's option")
        cg = build_graph(self.case, max_nodes=self.max_nodes, timeout=self.deadline,
                         starts=([opt.state], self.plans.prefix.table))
        self.subgame_nodes += cg.graph.number_of_nodes()
        self.complete = self.complete and cg.complete
        ind = induce(cg, self.objective)
        worth = ind.worst(self.chooser, ind.results.get(cg.roots[0], frozenset()))
        if worth is None:
            return
        self.valued[label] = (opt.words, worth)
        if self.best is None or worth > self.best:
            self.best, self.kept = worth, []
        if worth == self.best:
            listed, cut = witnesses(cg, ind, cg.roots[0])
            self.kept.append(Valued(label, opt.words, worth, listed, _decision_reports(cg, ind.chosen, ind.results), cut))

    def answer(self, fields: Iterable[str] | None) -> tuple[list[Outcome], list[DecisionReport]]:
        """The optimal declarations' outcomes of optimal play, each witness the declaration then
        the graph's choices, and the decisions on the optimal lines."""
        outcomes: dict[Any, Outcome] = {}
        for v in self.kept:
            self.complete = self.complete and v.cut is None
            step = Witness(self.chooser, DecisionKind.BLOCK, BLOCK_AT, v.label)
            for o in v.outcomes:
                outcomes.setdefault(o.state, Outcome(o.state, (step, *o.witness), 1, (v.words, *o.words)))
        out = sorted(outcomes.values(), key=lambda o: str(o.state))
        if fields is not None:
            out = project(out, list(fields))
        reports = [_declaration_report(self.chooser, self.valued, self.kept, self.worse_left)]
        for v in self.kept:
            reports.extend(v.reports)
        return out, reports


def _declaration_report(chooser: str, valued: dict[str, tuple[str, tuple[int, ...]]], kept: list[Valued],
                        worse_left: bool) -> DecisionReport:
    """The declaration's line: its optimal options, and the ones valued as its options (every
    other one was bounded below the best: it matters whenever one was)."""
    matters = worse_left or len(kept) < len(valued) or len({_outcome_set(v) for v in kept}) > 1
    return DecisionReport(chooser, DecisionKind.BLOCK, BLOCK_AT, [v.label for v in kept], list(valued), matters,
                          [v.words for v in kept], [words for words, _ in valued.values()])


def _outcome_set(v: Valued) -> frozenset[Any]:
    return frozenset(o.state for o in v.outcomes)

"""Searching: distinct projected outcomes in runs with no-goods (the entry point
:func:`cp_outcomes`), and the lexicographic optimisation levels solver.cp.optimum runs."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from types import ModuleType
from typing import TYPE_CHECKING, Any

from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.outcome import Outcome
from mtg_outcomes.model.types import Case

from ..limits import Deadline
from .cut import Cut
from .hints import hint_solution
from .kept import Kept
from .ranges import RUN_BUDGET, close
from .step import StepPlan
from .sweep import AIM_DTIMES, AIM_PARAMS, far_seed, sweep
from .tables import is_const
from .units import BuiltModel
from .witness import solved_value, witness_of

if TYPE_CHECKING:
    from .cptypes import Expr, Solution, Solver, Status, Var



# one worker and a fixed seed: the same input gives the same outcomes and witnesses; the model
# is solved hundreds of times, so presolve is kept short (symmetry and probing off). ``workers``
# (opt-in, --workers N) runs N CP-SAT workers in parallel: the same outcome set, maybe other witnesses
_PARAMS: dict[str, int | float | bool] = {"num_workers": 1, "random_seed": 0, "symmetry_level": 0,
                           "cp_model_probing_level": 0, "max_presolve_iterations": 1}


SOLVING_CUT = "the time limit was reached while solving"


_OVER_BUDGET = object()  # what solve() returns when a run's own budget, not the time limit, ended it


PER_RUN = 100  # distinct outcomes one enumeration run collects before they are forbidden


REPEATS = 20  # solutions in a row with known projections after which a run stops (they're forbidden next)


ONE_RUN = 500_000  # a model with at most this many solutions is enumerated in one run, to its end


_ABSENT = object()  # (a field an outcome of this model doesn't have)


class Search:
    """Solves of one built model: distinct projected outcomes by no-goods, and lexicographic
    optimisation of linear objectives over the same model (docs/design.md, "Choice graph and CP model")."""

    def __init__(self, case: Case, plan: StepPlan, built: BuiltModel, fields: Iterable[str] | None,
                 deadline: Deadline, cp: ModuleType, workers: int = 1) -> None:
        self.case, self.plan, self.built, self.cp = case, plan, built, cp
        self.workers = workers  # CP-SAT's parallel workers (1: deterministic witnesses)
        self.deadline = deadline  # made before planning: one limit for every phase
        self.wanted = list(fields) if fields is not None else None
        self.outcomes: list[Outcome] = []
        self.solves = 0
        self.best: Solver | None = None  # the incumbent when a time limit cut an optimisation
        self.last: Solver | None = None  # the last optimisation level's optimal solution (optimise)
        m = built.model
        names = self.wanted if self.wanted is not None else list(plan.base) + [k for k in built.outputs if k not in plan.base]
        parts = built.outputs
        if plan.suffix:
            # the rules engine continues from each solution (solver.cp.suffix): solutions are told
            # apart by everything the state after the step is made of, not the fields asked for
            parts = {**built.outputs, **built.hidden}
            names = list(parts)
        # one integer variable per projected field that can vary; a solution's projection is
        # then forbidden as one tuple (a no-good), so the next solve must find a new outcome
        self.watch: list[Expr] = []
        self.span: list[tuple[int, int]] = []  # each watched value's range (a sweep aims within it)
        self.named: list[tuple[str, str]] = []  # each watched field and its kind
        # the projected fields the model holds constant, as record() reports them (_ABSENT: no
        # such field in an outcome of every field)
        self.fixed: dict[str, object] = {}
        for f in dict.fromkeys(names):
            kind, expr = parts.get(f, ("int", 0))
            if isinstance(expr, bool | int):
                shown = f in parts and (kind != "opt" or expr > 0)
                self.fixed[f] = expr if shown else plan.base.get(f, _ABSENT if self.wanted is None else None)
                continue
            self.named.append((f, kind))
            if kind != "bool":
                var = m.new_int_var(-built.bound, built.bound, f"y_{f}")
                m.add(var == expr)
                expr = var
            self.watch.append(expr)
            self.span.append((0, 1) if kind == "bool" else (-built.bound, built.bound))
        self.eq: dict[tuple[int, int], Var] = {}
        self.found: dict[tuple[int, ...], None] = {}  # the projections found (solver.cp.sweep)
        self.forbidden = 0  # the first this many of them have a no-good (forbid_found)
        self.tried: dict[tuple[int, ...], list[tuple[int, ...]]] = {}  # aims: the outcomes hinted from
        self.empty: set[tuple[int, ...]] = set()  # aims proved to have no solution
        self.kept = Kept()  # a solution of each outcome a sweep found or met (hints for later aims)
        self.dead: dict[tuple[int, int], int] = {}  # (field, value): aims there proved empty
        self.far_sought = False  # whether the sweep was given a seed at the most damage (far_seed)

    def lit(self, i: int, v: int) -> Var:
        """The literal ``watch[i] == v`` (made once, reused by every later solve)."""
        got = self.eq.get((i, v))
        if got is None:
            m = self.built.model
            got = self.eq[(i, v)] = m.new_bool_var("")
            m.add(self.watch[i] == v).only_enforce_if(got)
            m.add(self.watch[i] != v).only_enforce_if(~got)
        return got

    def record(self, solver: Solution) -> None:
        """Keep the solution's outcome with its witness; with the rules engine continuing after
        the step, only the witness (the step's choices: solver.cp.suffix replays it)."""
        plan, built = self.plan, self.built
        if plan.suffix:
            witness, words = witness_of(plan, built, solver)
            self.outcomes.append(Outcome((), witness, 0, words))
            return
        values = dict(plan.base)
        for f, (kind, expr) in built.outputs.items():
            v = solved_value(solver, kind, expr)
            if kind != "opt" or v > 0:
                values[f] = v
        wanted = self.wanted
        state = tuple(sorted(values.items())) if wanted is None else tuple(sorted((f, values.get(f)) for f in wanted))
        witness, words = witness_of(plan, built, solver)
        self.outcomes.append(Outcome(state, witness, 0, words))

    def distinct(self, per_run: int = PER_RUN, first: Solver | None = None) -> None:
        """Every distinct projected outcome, a run at a time: a run enumerates solutions and
        keeps those with a new projection (at most ``per_run``), then each is forbidden by a
        no-good (a clause: some field takes another value) and the next run starts. A run that
        ends by itself has seen every solution left; a run with no solution proves there is no
        other outcome. Far fewer solves than one per outcome, the same outcomes.

        When every choice is a table's row and there are at most ``ONE_RUN`` of them (the tables
        hold distinct results, so solutions are nearly outcomes), one run sees every solution:
        no run is cut for repeats and no model is solved twice.

        After a run stopped by repeats (solutions that differ in choices no projected field sees,
        the mark of a big model), solver.cp.sweep aims at the neighbours of its outcomes
        directly, and of theirs in turn; the next run, with all of them forbidden, is the
        proof, or brings more seeds; past ``RUN_BUDGET`` solver.cp.ranges asks it by ranges.

        ``first``, a solver holding a solution of the model as it stands (the last optimisation
        level's optimum), is recorded and forbidden before the first run: it is not searched
        for again."""
        cp = self.cp
        few = self.built.solutions is not None and self.built.solutions <= ONE_RUN
        if not self.watch:  # every projected field is fixed: one solution says it all
            solver = self.solve() if first is None else first
            if solver is not None:
                self.record(solver)
            return
        if first is not None:
            self.record(first)
            self.found[self.key_of(first)] = None
            self.forbid_found()
        # one worker and the step's own outcomes (not the states the rules engine continues
        # from, solver.cp.suffix): a run that stops for repeats hands over to the sweep (a run
        # over few solutions never stops: its solutions aren't kept as seeds)
        sweeping = self.workers == 1 and not self.plan.suffix and not few
        collector = self._collector(per_run, few, sweeping)
        budget: float | None = None  # the run after a sweep: how long it may prove it alone
        while True:
            collect = collector()
            status = self.solve(collect, budget)
            if status is None:
                return  # nothing left
            if status == cp.OPTIMAL and not collect.stopped and self.workers == 1:
                return  # the run saw every solution
            budget = None
            if status is _OVER_BUDGET:  # the proof is hard for a run: ask it by ranges (solver.cp.ranges)
                self.found.update(dict.fromkeys(collect.new))
                if close(self):
                    return
                self.forbid_found()
                continue
            if not collect.new:
                # several workers: a run that ended proves nothing about solutions no worker
                # passed on (each may see some twice), only "infeasible" does; ask once more
                solver = self.solve()
                if solver is None:
                    return
                collect.new.append(self.key_of(solver))
                self.record(solver)
            self.found.update(dict.fromkeys(collect.new))
            if sweeping and collect.repeating:
                self._sweep(collect.seeds)
                budget = RUN_BUDGET  # the next run, with all found forbidden, is the proof, or brings more seeds
            self.forbid_found()

    def _collector(self, per_run: int, few: bool, sweeping: bool) -> Any:
        """The solution callback of a run (a class, an instance per run): it records each
        solution with a new projection, keeps it as a sweep's seed when ``sweeping``, and stops
        the run at ``per_run`` new ones or ``REPEATS`` solutions without one (never when the
        solutions are ``few``), or when the time limit passes."""
        search = self
        callback: Any = self.cp.CpSolverSolutionCallback

        class Collect(callback):
            def __init__(self) -> None:
                super().__init__()
                self.new: list[tuple[int, ...]] = []
                self.keys: set[tuple[int, ...]] = set()
                self.calls = 0  # solutions since the last new projection
                self.stopped = False
                self.repeating = False  # stopped for repeats: the sweep goes on from here
                self.cut = False
                self.seeds: list[tuple[tuple[int, ...], list[int]]] = []

            def on_solution_callback(self) -> None:
                self.calls += 1
                key = search.key_of(self)
                if key not in self.keys:
                    self.keys.add(key)
                    self.new.append(key)
                    self.calls = 0
                    search.record(self)
                    if sweeping:
                        self.seeds.append((key, list(self.response_proto.solution)))
                if search.deadline.expired():
                    self.cut = True  # the limit passed while recording (witness replay included)
                    self.stop_search()
                elif not few and (len(self.new) >= per_run or self.calls >= REPEATS):
                    self.stopped = True  # enough for this run (or too many repeats): forbid and go on
                    self.repeating = self.calls >= REPEATS
                    self.stop_search()

        return Collect

    def _sweep(self, seeds: list[tuple[tuple[int, ...], list[int]]]) -> None:
        """After a run stopped by repeats: solver.cp.sweep aims at the neighbours of its outcomes
        (``seeds``), and once at the far end of the outcomes too (far_seed), the model's own hint
        put back after."""
        with self.hint_kept():
            if not self.far_sought:  # once: the far end of the outcomes, a seed too
                self.far_sought = True
                far = far_seed(self)
                if far is not None:
                    seeds.append(far)  # swept from first
            sweep(self, seeds)

    def key_of(self, solver: Solution) -> tuple[int, ...]:
        """The projected fields' values in ``solver``'s solution."""
        return tuple(int(solver.value(v)) for v in self.watch)

    def forbid_known(self, known: Iterable[tuple[tuple[str, Any], ...]]) -> None:  # (Outcome.state)
        """No-goods for the outcomes another model of the union found already (the union keeps its
        first witness): this model's solves look only for new ones, and its proofs of
        completeness hold for what is left. An outcome this model can't reach (a field it holds
        at another value) needs none; fields read only when positive ("opt") are not matched."""
        if self.plan.suffix or any(kind == "opt" for _, kind in self.named) or not self.watch:
            return
        m = self.built.model
        fields = {f for f, _ in self.named} | {f for f, v in self.fixed.items() if v is not _ABSENT}
        for state in known:
            values = dict(state)
            if set(values) != fields:
                continue  # (another permanent's fields: an outcome this model can't give)
            if any(values[f] != v for f, v in self.fixed.items() if v is not _ABSENT):
                continue
            key = tuple(int(values[f]) for f, _ in self.named)
            if key not in self.found:
                m.add_bool_or([~self.lit(i, v) for i, v in enumerate(key)])

    def forbid_found(self) -> None:
        """A no-good for each projection found and not yet forbidden: a clause that some
        projected field takes another value."""
        for key in islice(self.found, self.forbidden, None):
            self.built.model.add_bool_or([~self.lit(i, v) for i, v in enumerate(key)])
        self.forbidden = len(self.found)

    def aimed(self, key: tuple[int, ...], hint: list[int], dtime: float = AIM_DTIMES[-1]) -> tuple[Solver | None, bool]:
        """A solver holding a solution whose projection is ``key``, or None when a short solve
        (solver.cp.sweep: assumptions, ``hint``, cut at ``dtime`` deterministic time) finds
        none; and whether it proved there is none. Raises Cut on the time limit."""
        params = {**AIM_PARAMS, "max_deterministic_time": dtime}
        solver, status = self.assuming(params, [self.lit(i, v) for i, v in enumerate(key)], hint)
        if status in (self.cp.OPTIMAL, self.cp.FEASIBLE):
            return solver, False
        if self.deadline.expired():
            raise Cut
        return None, status == self.cp.INFEASIBLE

    def assuming(self, params: dict[str, int | float | bool], assumptions: list[Var], hint: list[int] | None = None,
                 lp_search: bool = False) -> tuple[Solver, Status]:
        """One solve with ``params`` under ``assumptions`` (and ``hint``, cleared after; with
        ``lp_search``, branching on the LP's solution): the solver and its status."""
        m = self.built.model
        solver = self.solver(params)
        if lp_search:
            solver.parameters.search_branching = type(solver.parameters).LP_SEARCH
        if hint is not None:
            hint_solution(m, hint)
        m.add_assumptions(assumptions)
        try:
            status = solver.solve(m)
        finally:
            m.clear_assumptions()
            if hint is not None:
                m.clear_hints()
        self.solves += 1
        return solver, status

    @contextmanager
    def hint_kept(self) -> Iterator[None]:
        """Aims (solver.cp.sweep) hint the model with their seeds' solutions and clear it after;
        the model's own hint (the greedy one, or the optimum the ties are listed from) is put
        back when they are done, for the runs after them."""
        own = self.built.model.proto.solution_hint
        indices, values = list(own.vars), list(own.values)
        try:
            yield
        finally:
            self.built.model.clear_hints()
            back = self.built.model.proto.solution_hint
            back.vars.extend(indices)
            back.values.extend(values)

    def solver(self, params: dict[str, int | float | bool]) -> Solver:
        """A CP-SAT solver with :data:`_PARAMS`, then ``params``, limited to the time left.
        Raises Cut when there is none."""
        solver = self.cp.CpSolver()
        for key, value in {**_PARAMS, **params}.items():
            setattr(solver.parameters, key, value)
        left = self.deadline.left()
        if left is not None:
            if left <= 0:
                raise Cut
            solver.parameters.max_time_in_seconds = left
        return solver

    def solve(self, collect: Any = None, budget: float | None = None) -> Any:
        """One run. Without ``collect``: a solver holding a solution (optimal when the model has
        an objective), None when there is none. With ``collect`` (a solution callback): every
        solution goes to it (enumerate_all_solutions); returns the status, None when
        infeasible, ``_OVER_BUDGET`` when ``budget`` (deterministic time) ended it first. Raises Cut on the time limit (after keeping the best solution in
        ``self.best`` when optimising)."""
        cp, m = self.cp, self.built.model
        solver = self.solver({"num_workers": self.workers})
        if collect is None and m.has_objective():
            # optimising: the LP's bound is tight early here (the cut in encode.encode_slots);
            # branching on the LP's solution climbs to it far faster than the default search
            solver.parameters.search_branching = type(solver.parameters).LP_SEARCH
        if collect is not None:
            solver.parameters.enumerate_all_solutions = True
            if budget is not None:
                solver.parameters.max_deterministic_time = budget
            status = solver.solve(m, collect)
        else:
            status = solver.solve(m)
        self.solves += 1
        if status == cp.INFEASIBLE:
            return None
        if status == cp.MODEL_INVALID:
            raise EngineError(f"{self.case.id}: invalid CP model: {m.validate()}")
        if collect is not None:
            if collect.cut:
                raise Cut
            if status == cp.OPTIMAL or (status == cp.FEASIBLE and collect.stopped):
                return status
            if budget is not None and not self.deadline.expired():
                return _OVER_BUDGET  # the budget ended the run, not the time limit
            if self.workers > 1 and not self.deadline.expired():
                return status  # several workers can end a run early: distinct() goes on until a proof
            raise Cut  # the time limit ended the run; what it collected is recorded
        if status == cp.FEASIBLE and m.has_objective():
            self.best = solver  # the limit cut the proof of optimality
            raise Cut
        if status not in (cp.OPTIMAL, cp.FEASIBLE):
            raise Cut
        return solver

    def optimise(self, levels: list[Expr]) -> list[int] | None:
        """Maximise each level in turn, fixing it at its optimum before the next (lexicographic);
        the optimal values, or None when the model has no solution. ``self.last`` keeps the
        solver of the last level solved (its solution meets every level's constraint)."""
        m = self.built.model
        best: list[int] = []
        self.last = None
        for expr in levels:
            if is_const(expr):
                best.append(int(expr))
                continue
            m.maximize(expr)
            solver = self.solve()
            if solver is None:
                return None
            value = int(round(solver.objective_value))
            best.append(value)
            m.clear_objective()
            m.add(expr == value)
            self.last = solver
            hint_solution(m, solver.response_proto.solution)  # the optimum meets the next level's constraint: start from it
        return best

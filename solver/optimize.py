"""Optimal choices by backward induction on the choice graph.

Each chooser with an objective picks, at each of their decisions, the options whose outcomes are
best for them, assuming every later chooser does the same (ties among a later chooser's options are
all possible, so an option is valued by its worst possible outcome). Choosers without an objective
may pick anything. For every decision on an optimal line the report says whether its options
lead to different outcomes (orders that commute "don't matter").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.kinds import DecisionKind
from mtg_outcomes.model.load import check_choosers, check_fields
from mtg_outcomes.model.objective import Objective
from mtg_outcomes.model.outcome import Outcome
from mtg_outcomes.model.types import Case
from mtg_outcomes.model.versions import stamps

from .contract import check_case, check_engine
from .decision import KIND_RULES
from .engines import auto_optimize, cp_optimize
from .graph import build_graph, first_paths, path_to, topological
from .limits import Deadline, WitnessBudget, as_deadline
from .state import initial_state
from .words import Namer, short_label

if TYPE_CHECKING:
    from .graph import ChoiceGraph

__all__ = ["OptimizeResult", "DecisionReport", "optimize"]

Key = tuple[tuple[str, Any], ...]


@dataclass
class DecisionReport:
    chooser: str
    kind: str
    at: str
    best: list[str]
    options: list[str]
    matters: bool
    best_words: list[str] = field(default_factory=list)  # the best options in words (as the witnesses say them)
    option_words: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"chooser": self.chooser, "kind": self.kind, "at": self.at, "best": self.best,
                "options": self.options, "matters": self.matters, "best_words": self.best_words,
                "option_words": self.option_words}


@dataclass
class OptimizeResult:
    case: str
    objective: Objective
    complete: bool
    outcomes: list[Outcome]
    decisions: list[DecisionReport] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    engine: str = "graph"

    def as_dict(self) -> dict[str, Any]:
        return {
            "case": self.case, "engine": self.engine, "complete": self.complete,
            "objective": {c: [str(g) for g in gs] for c, gs in self.objective.goals},
            "outcomes": [o.as_dict() for o in self.outcomes],
            "decisions": [d.as_dict() for d in self.decisions],
            "stats": self.stats,
            **stamps(),
        }


def _score(objective: Objective, chooser: str, values: dict[str, Any]) -> tuple[int, ...] | None:
    goals = objective.of(chooser)
    if goals is None:
        return None
    return tuple(g.score(values) for g in goals)


def optimize(case: Case, objective: Objective, max_nodes: int | None = 2_000_000,
             timeout: float | Deadline | None = None, engine: str = "auto",
             fields: Iterable[str] | None = None, workers: int = 1) -> OptimizeResult:
    """The outcomes of optimal play under ``objective`` and the choices that produce them.

    ``engine``: ``"graph"`` (backward induction, with a report on every decision of the optimal
    lines), ``"cp"`` (CP-SAT: lexicographic optimisation, then every tied outcome; only when one
    player chooses in the step, see :func:`solver.cp.cp_optimizable`), or ``"auto"`` (CP when the
    graph is estimated to cost more and CP can answer). ``fields`` projects the CP engine's tied
    outcomes (the graph always lists full outcomes). CP results carry no decision reports: each
    outcome's witness is a choice sequence reaching it. ``workers``: CP-SAT's parallel workers,
    as for :func:`solver.enumerate_outcomes`.
    """
    check_case(case, max_nodes)
    if not isinstance(objective, Objective):
        raise ValueError("objective must be an Objective (model.objective.parse_objective_text([...]) or "
                         f"the case's objective), got {type(objective).__name__}")
    check_engine(engine, workers)
    deadline = as_deadline(timeout)  # one limit for choosing, building and solving
    fields = list(fields) if fields is not None else None
    check_fields(case, fields)
    check_fields(case, sorted(objective.fields()), "objective")
    check_choosers(case, [c for c, _ in objective.goals])
    if engine == "auto":
        res = auto_optimize(case, objective, fields, deadline, max_nodes, workers)
        if res is not None:
            return OptimizeResult(case.id, objective, res.complete, res.outcomes, res.decisions, res.stats, "cp")
        engine = "graph"  # the graph is cheaper, CP can't optimise it, or CP overran its share
    if engine == "cp":
        res = cp_optimize(case, objective, fields=fields, timeout=deadline, max_nodes=max_nodes, workers=workers)
        return OptimizeResult(case.id, objective, res.complete, res.outcomes, res.decisions, res.stats, "cp")
    # outcomes are scored on the objective's fields and shown on ``fields``: creatures neither
    # names are interchangeable (solver.symmetry)
    seen = None if fields is None else sorted(set(fields) | set(objective.fields()))
    cg = build_graph(case, max_nodes=max_nodes, timeout=deadline, fields=seen)
    ind = induce(cg, objective)
    outcomes, cut = witnesses(cg, ind, cg.root)
    decisions = _decision_reports(cg, ind.chosen, ind.results)
    stats: dict[str, Any] = {"nodes": cg.graph.number_of_nodes(), "edges": cg.graph.number_of_edges()}
    if cut is not None:
        stats["limit"] = cut
    if fields is not None:
        outcomes = project(outcomes, list(fields))
    return OptimizeResult(case.id, objective, cg.complete and cut is None, outcomes, decisions, stats)


# the outcome numbers backward induction's per-node sets may hold together (a memory bound:
# about 30 bytes each)
OUTCOME_SETS = 20_000_000


@dataclass
class Induction:
    """Backward induction over a choice graph (:func:`induce`): the outcomes of optimal play
    below each node (numbers into ``keys``/``values``) and, at each decision, the options kept."""

    objective: Objective
    results: dict[int, frozenset[int]]
    chosen: dict[int, list[tuple[int, str, str]]]
    keys: list[Key]
    values: list[dict[str, Any]]
    scores: dict[tuple[str, int], tuple[int, ...] | None] = field(default_factory=dict)

    def score(self, chooser: str, k: int) -> tuple[int, ...] | None:
        """Outcome ``k`` scored for ``chooser`` (None: no objective), each once."""
        got = self.scores.get((chooser, k), ())
        if got == ():
            got = self.scores[(chooser, k)] = _score(self.objective, chooser, self.values[k])
        return got

    def worst(self, chooser: str, ks: Iterable[int]) -> tuple[int, ...] | None:
        """What a set of outcomes is worth to ``chooser``: its worst score (later choosers' ties
        are all possible), None without an objective or outcomes."""
        each = [self.score(chooser, k) for k in ks]
        return min(each) if each and each[0] is not None else None  # type: ignore[type-var]


def induce(cg: ChoiceGraph, objective: Objective) -> Induction:
    """Backward induction over ``cg`` (every root's subgraph): each chooser with an objective
    keeps, at each of their decisions, the options whose worst outcome scores best for them;
    a chooser without one keeps every option. Outcomes are numbered once (the pass hashes small
    integers, not whole states) and each is scored once per chooser: the pass stays short
    beside the expansion a time limit allows."""
    g = cg.graph
    number: dict[Key, int] = {}
    ind = Induction(objective, {}, {}, [], [])
    keys, values, results, chosen = ind.keys, ind.values, ind.results, ind.chosen
    held = 0  # the entries of all the outcome sets so far
    for nid in reversed(topological(g)):
        data = g.nodes[nid]
        if data.get("kind") == "leaf":
            vals = cg.leaves[nid]
            key = tuple(sorted(vals.items()))
            k = number.setdefault(key, len(keys))
            if k == len(keys):
                keys.append(key)
                values.append(vals)
            results[nid] = frozenset([k])
            continue
        edges = sorted(g.out_edges(nid, data=True), key=lambda e: e[2]["order"])
        live = [(c, d) for _, c, d in edges if results.get(c)]
        if not live:
            results[nid] = frozenset()
            continue
        chooser = data.get("chooser", "")
        scored = [(ind.worst(chooser, results[c]), c, d) for c, d in live]
        if scored[0][0] is None:
            best = scored
        else:
            top = max(s for s, _, _ in scored)  # type: ignore[type-var]
            best = [x for x in scored if x[0] == top]
        chosen[nid] = [(c, d["picked"], d["words"]) for _, c, d in best]
        results[nid] = got = frozenset().union(*(results[c] for _, c, _ in best))
        held += len(got)
        if held > OUTCOME_SETS:
            # a long chain of decisions with an outcome beside each link, none pruned by an
            # objective: the sets grow with outcomes x depth
            raise EngineError(f"backward induction's outcome sets hold more than {OUTCOME_SETS} entries in all "
                              "(a memory bound; the graph has long chains of decisions that no objective prunes): "
                              "give their chooser an objective, or lower --max-nodes")
    return ind


def project(outcomes: list[Outcome], fields: list[str]) -> list[Outcome]:
    """One outcome per distinct projection on ``fields`` (the first witness kept)."""
    seen: dict[Key, Outcome] = {}
    for o in outcomes:
        values = o.values
        key = tuple(sorted((f, values.get(f)) for f in fields))
        if key not in seen:
            seen[key] = Outcome(key, o.witness, o.paths, o.words)
    return [seen[k] for k in sorted(seen, key=str)]


def witnesses(cg: ChoiceGraph, ind: Induction, root: int) -> tuple[list[Outcome], str | None]:
    """Each outcome of optimal play from ``root`` with the first optimal choice path reaching it;
    and what cut the list (None: nothing did).

    One depth-first walk over the kept options in option order, entering each node once, finds
    each outcome first by that path (as solver.graph.graph_outcomes does over every option); the
    witnesses together hold at most :data:`solver.limits.WITNESS_STEPS` choices."""
    g = cg.graph
    keys = ind.keys
    first: dict[int, int] = {}  # outcome -> its first leaf on the optimal lines
    tree = first_paths(g, root, lambda nid: ind.chosen.get(nid, ()))
    for nid in [root, *tree]:
        if g.nodes[nid].get("kind") == "leaf":
            for k in ind.results.get(nid, ()):
                first.setdefault(k, nid)
    out: list[Outcome] = []
    budget = WitnessBudget()
    for k in sorted(first, key=lambda k: str(keys[k])):
        wit, words = path_to(tree, root, first[k])
        if not budget.spend(len(wit)):
            return out, budget.cut
        out.append(Outcome(keys[k], wit, 1, words))
    return out, None


def _decision_reports(cg: ChoiceGraph, chosen: dict[int, list[tuple[int, str, str]]],
                      results: dict[int, frozenset[int]]) -> list[DecisionReport]:
    g = cg.graph
    reports = []
    seen = set()
    stack = [cg.root]
    order = []
    while stack:
        node = stack.pop()
        if node in seen or g.nodes[node].get("kind") in ("leaf", "dead"):
            continue
        seen.add(node)
        order.append(node)
        stack.extend(reversed([c for c, _, _ in chosen.get(node, [])]))
    for node in order:
        data = g.nodes[node]
        edges = sorted(g.out_edges(node, data=True), key=lambda e: e[2]["order"])
        live = [(c, d) for _, c, d in edges if results.get(c)]
        distinct = {results[c] for c, _ in live}
        reports.append(DecisionReport(data.get("chooser", ""), data.get("kind", ""), data.get("at", ""),
                                      [p for _, p, _ in chosen.get(node, [])],
                                      [p for _, d in live for p in (d["picked"], *d.get("also", ()))],
                                      len(distinct) > 1, [w for _, _, w in chosen.get(node, [])],
                                      [d["words"] for _, d in live]))
    return reports


_NOUNS = {"block": "block declaration", "split": "shield split", "order": "order of effects", "assign": "damage assignment",
          "target": "target", "stack_order": "trigger order", "source": "source choice", "mode": "mode", "may": "optional choice",
          "choose": "choice", "kick": "kicker choice", "ward": "ward payment", "tap": "mana payment", "sacrifice": "sacrifice"}


def decision_lines(case: Case, decisions: Sequence[DecisionReport]) -> list[str]:
    """optimize's decisions in words, each distinct one once: who decides what under which rule,
    whether it matters and its best options (tied ones summarised: "112 equally good block
    declarations, e.g. ..."); the same decision met on several optimal lines is one line."""

    state, table = initial_state(case)
    named = Namer(state, table)
    grouped: dict[tuple[Any, ...], int] = {}
    for d in decisions:
        noun = _NOUNS.get(d.kind, d.kind)
        where = named(d.at.replace("->", "'s damage to ")) if "->" in d.at else named(d.at) if d.kind == DecisionKind.ASSIGN else ""
        what = f"{'your' if d.chooser == 'you' else d.chooser + chr(39) + 's'} {noun}" + (f" for {where}" if where else "")
        rule = KIND_RULES.get(d.kind, "")
        head = f"{what}{f' (CR {rule})' if rule else ''}"
        if d.kind == DecisionKind.BLOCK:  # "giant->wurm; bears->none" as "Hill Giant→Craw Wurm" (no block: left out)
            best = [", ".join(f"{named(b)}\u2192{named(a)}" for b, _, a in (x.partition("->") for x in p.split("; "))
                              if a and a != "none") or "no blocks" for p in d.best]
        else:
            best = [short_label(named(w), d.chooser) for w in d.best_words] or list(d.best)
        n = len(d.option_words) or len(d.options)
        if not d.matters:
            verdict = "doesn't matter" + (f" (any of its {n} options)" if n > 1 else " (one option leads on)")
        elif len(best) == 1:
            verdict = f"matters; best: {best[0]}"
        else:
            verdict = f"matters; {len(best)} equally good {noun}s, e.g. {best[0]} / {best[1]}"
        key = (head, verdict)
        grouped[key] = grouped.get(key, 0) + 1
    return [f"{head}: {verdict}" + (f" (met on {n} optimal lines)" if n > 1 else "") for (head, verdict), n in grouped.items()]

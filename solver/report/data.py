"""What a report shows, computed once: outcomes, witnesses, the verdict, the optimum and the
picture's tree (:func:`analyse`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mtg_outcomes.model.errors import MtgOutcomesError
from mtg_outcomes.model.objective import Objective
from mtg_outcomes.model.outcome import Outcome, agrees
from mtg_outcomes.model.types import Case

from ..api import Result, enumerate_outcomes
from ..check import CheckReport, check, verdict
from ..decision import NOT_DONE, Step
from ..engine import final_fields
from ..explain import replay
from ..graph import ChoiceGraph, build_graph, shown_fields
from ..limits import Deadline, LimitReached, as_deadline, running_under
from ..optimize import OptimizeResult, optimize
from ..state import initial_state
from ..tree import DEFAULT_CAP, Tree, summarise

PICTURE_MAX_NODES = 3000  # the picture's graph: built (by the graph engine) up to this many nodes
SHORT_WITNESSES = 24  # steps in all: up to this many, the witnesses sit beside the outcomes table


@dataclass
class Row:
    number: int
    outcome: Outcome
    values: dict[str, Any]
    steps: list[Step]
    optimal: bool = False
    missing: bool = False  # reachable, but not among the ruling's stated outcomes


@dataclass
class ReportData:
    case: Case
    result: Result
    rows: list[Row]
    columns: list[str]
    baseline: dict[str, Any]
    differ: set[str]
    picture: ChoiceGraph | None
    tree: Tree | None
    fields: list[str] | None = None
    check: CheckReport | None = None
    optimum: OptimizeResult | None = None
    objective: Objective | None = None
    notes: list[str] = field(default_factory=list)


def _baseline(case: Case) -> dict[str, Any]:

    s0, table = initial_state(case)
    return final_fields(s0, table)


def analyse(case: Case, fields: Sequence[str] | None = None, objective: Objective | None = None,
            engine: str = "auto", timeout: float | None = None, max_nodes: int = PICTURE_MAX_NODES,
            cap: int = DEFAULT_CAP) -> ReportData:
    """Everything the page shows. The outcomes come from ``engine`` as in ``enumerate`` (auto: CP
    when the graph would be large); the picture's graph from the graph engine, limited to
    ``max_nodes`` nodes (a cut graph is drawn cut). ``timeout`` bounds the whole page: one deadline,
    of which the outcomes get a share, then the witnesses' replay, the verdict, the optimum and the
    picture what is left (a phase the limit cuts is marked so, never run on without it)."""
    fields = list(fields) if fields is not None else None
    deadline = as_deadline(timeout)
    result = enumerate_outcomes(case, engine=engine, fields=fields, timeout=deadline.share(0.5))
    baseline = _baseline(case)
    states = [o.values for o in result.outcomes]
    if fields is not None:
        columns = list(fields)
    else:
        columns = sorted({k for s in states for k, v in s.items() if baseline.get(k) != v}) or \
            shown_fields(states)
    differ = {k for k in columns if len({repr(s.get(k)) for s in states}) > 1}
    rows = []
    replays = deadline.share(0.5)
    for i, o in enumerate(result.outcomes, 1):
        rows.append(Row(i, o, o.values, _replayed(case, o, replays)))
    data = ReportData(case, result, rows, columns, baseline, differ, None, None, fields)
    if case.expect is not None:
        data.check = verdict(case, result) if fields is None else check(case, engine=engine,
                                                                         timeout=deadline.share(0.5))
        for row in rows:
            row.missing = any(all(agrees(row.values, [(k, v)]) for k, v in m.state if k in row.values)
                              for m in data.check.missing)
    objective = objective if objective is not None else case.objective
    if objective is not None:
        data.objective = objective
        data.optimum = optimize(case, objective, timeout=deadline.share(0.5), engine=engine, fields=fields)
        for row in rows:
            row.optimal = any(agrees(row.values, [(k, v) for k, v in o.state if k in row.values])
                              for o in data.optimum.outcomes)
    cg = result.graph
    if cg is None or cg.graph.number_of_nodes() > max_nodes:
        cg = build_graph(case, max_nodes=max_nodes, timeout=deadline)
        data.notes.append(f"the picture's graph was built by the graph engine under --max-nodes {max_nodes}"
                          + ("" if result.graph is None else " (the outcomes' graph is larger)"))
    data.picture = cg
    data.tree = _tree(data, cg, cap)
    return data


def _replayed(case: Case, outcome: Outcome, deadline: Deadline) -> list[Step]:
    """The witness's steps, replayed within ``deadline`` (a long chain of triggers is cut inside)."""
    if deadline.expired():
        return [Step(NOT_DONE, "the witness was not replayed: the time limit passed")]
    try:
        with running_under(deadline):
            return list(replay(case, outcome).steps)
    except LimitReached:
        return [Step(NOT_DONE, "the witness was not replayed: the time limit passed during it")]
    except MtgOutcomesError as exc:
        return [Step(NOT_DONE, f"the witness could not be replayed: {exc}")]


def _tree(data: ReportData, cg: ChoiceGraph, cap: int) -> Tree:
    rows = data.rows
    keys = {}
    for row in rows:
        keys[_key(row.values, data.fields)] = row.number
    extra: dict[tuple[Any, ...], int] = {}

    def outcome_of(values: dict[str, Any]) -> int:
        k = _key(values, data.fields)
        if k in keys:
            return keys[k]
        return extra.setdefault(k, len(rows) + len(extra) + 1)

    optimal = frozenset(r.number for r in rows if r.optimal)
    opt_edges: set[tuple[int, int]] = set()
    for r in rows:
        if r.optimal:
            opt_edges |= _witness_edges(cg, r.outcome)
    leaf_fields = shown_fields([r.values for r in rows], data.fields)
    tree = summarise(cg, outcome_of, leaf_fields, cap=cap, optimal=optimal, optimal_edges=frozenset(opt_edges))
    missing = {r.number for r in rows if r.missing}
    for box in tree.outcome_boxes():
        if box.outcome in missing:
            box.classes.append("missing")
            box.lines.append("not in the ruling")
    if extra:
        tree.notes.append("outcomes numbered past the table were found by the picture's graph only")
    return tree


def _key(values: dict[str, Any], fields: Sequence[str] | None) -> tuple[Any, ...]:
    if fields is not None:
        return tuple(repr(values.get(f)) for f in fields)
    return tuple(sorted((k, repr(v)) for k, v in values.items()))


def _witness_edges(cg: ChoiceGraph, outcome: Outcome) -> set[tuple[int, int]]:
    """The graph edges an outcome's witness follows (stops where the picture's graph does)."""
    g = cg.graph
    n = cg.root
    out = set()
    for w in outcome.witness:
        d = g.nodes[n]
        if (d.get("chooser"), d.get("kind"), d.get("at")) != (w.chooser, w.kind, w.at):
            break
        nxt = next((c for _, c, e in g.out_edges(n, data=True) if e["picked"] == w.picked), None)
        if nxt is None:
            break
        out.add((n, nxt))
        n = nxt
    return out


# ---------------------------------------------------------------------------------------------
# HTML

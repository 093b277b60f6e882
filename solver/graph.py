"""The choice graph (networkx DiGraph): one node per decision state, one edge per option.

Identical states are merged, so the graph is a DAG and the work follows distinct states, not raw
choice paths. Leaves are end states; a leaf marked ``dead`` is an illegal branch (a shield that
prevented less than it could, an illegal trample assignment) and yields no outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.outcome import Outcome, Witness, sort_key
from mtg_outcomes.model.types import Case

from .combat import step_name
from .contract import Result
from .decision import Decision, decision_key, scripted, settle
from .engine import LOOP, advance, final_fields
from .limits import Deadline, LimitReached, WitnessBudget, as_deadline, running_under
from .state import GameState, Table, initial_state
from .symmetry import interchangeable_blockers
from .words import value_text

if TYPE_CHECKING:  # networkx (~0.2 s) is imported where a graph is built or read
    import networkx as nx

__all__ = ["ChoiceGraph", "build_graph", "graph_outcomes", "graph_enumerate", "first_paths", "path_to", "topological", "write_graph", "shown_fields", "outcome_text",
           "value_text", "decision_label"]

# seconds per node that the pass after the expansion takes (outcomes, or backward induction):
# about 20-30 microseconds on a 2-core machine, a few percent of what expanding the node took
PASS_SECONDS = 3e-5
# the share of the time limit the expansion leaves to that pass besides (witnesses: graph_outcomes)
PASS_SHARE = 0.1


@dataclass
class ChoiceGraph:
    graph: nx.DiGraph
    root: int
    table: Table
    complete: bool
    leaves: dict[int, dict[str, Any]] = field(default_factory=dict)
    seconds: float = 0.0
    # with ``starts`` (build_graph): each given state's node, in their order (``root`` the first's)
    roots: list[int] = field(default_factory=list)


def build_graph(case: Case, max_nodes: int | None = None, timeout: float | Deadline | None = None,
                fields: Iterable[str] | None = None,
                starts: tuple[list[GameState], Table] | None = None) -> ChoiceGraph:
    """Expand every decision from the case's initial state (depth-first, options in order); or,
    with ``starts`` (states of the case's timeline and its table), from each of those states,
    equal states merged across them (``roots`` their nodes: solver.cp.optimum continues after
    the CP step so).

    ``timeout`` (seconds, or a :class:`~solver.limits.Deadline` already running) is checked
    before every new state is computed, less the time the pass over the graph will take
    (``PASS_SECONDS`` a node, and ``PASS_SHARE`` of the limit for its witnesses); once it or
    ``max_nodes`` is reached the expansion stops at once:
    decisions not yet expanded stay in the graph marked ``truncated`` (no outcome comes from
    them), end states already reached are kept, and ``complete`` is False.

    ``fields``: the fields the caller projects the outcomes on, if it does; block declarations
    that differ only by swapping creatures those fields can't tell apart are then expanded once
    (solver.symmetry): the same projected outcomes, fewer paths.
    """
    deadline = as_deadline(timeout)
    if starts is None:
        state0, table = initial_state(case)
        table.interchangeable = interchangeable_blockers(case, fields)
        states = [state0]
    else:  # (the table is the caller's: no symmetry is assumed for it)
        states, table = starts
    ex = _Expansion(case, table, deadline, max_nodes)
    todo: list[tuple[int, Decision | GameState]] = []
    roots = []
    for state in states:
        nid, res0 = ex.start(state)
        roots.append(nid)
        if res0 is not None:
            todo.append((nid, res0))
    todo.reverse()  # (the first start is expanded first)
    while todo:
        nid, res = todo.pop()
        if isinstance(res, GameState):
            ex.end_state(nid, res)
            continue
        todo.extend(reversed(ex.expand(nid, res)))
        if not ex.complete:
            break  # a limit: nothing more is expanded
    for nid, res in todo:  # the frontier the limit left: end states are kept, decisions marked
        if isinstance(res, Decision):
            ex.g.add_node(nid, kind=res.kind, chooser=res.chooser, at=res.at, truncated=True,
                          label=f"{res.chooser}: {res.kind} at {res.at} (not expanded: a limit)")
        else:
            ex.end_state(nid, res)
    return ChoiceGraph(ex.g, roots[0], table, ex.complete, ex.leaves, deadline.elapsed(), roots)


class _Expansion:
    """The graph as :func:`build_graph` expands it: a node per distinct state (a decision by its
    key), what each raw state settled to, the end states' fields, and whether a limit cut it."""

    def __init__(self, case: Case, table: Table, deadline: Deadline, max_nodes: int | None) -> None:
        import networkx as nx  # (a heavy library: loaded where a graph is built)

        self.g = nx.DiGraph()
        self.case, self.table, self.deadline, self.max_nodes = case, table, deadline, max_nodes
        self.ids: dict[Any, int] = {}
        self.resolved: dict[GameState, int] = {}
        self.leaves: dict[int, dict[str, Any]] = {}
        self.complete = True
        # and a share of the limit for the outcomes' witnesses, whose length the graph doesn't tell
        self.reserve = PASS_SHARE * (deadline.seconds or 0.0)

    def node_for(self, raw: GameState) -> tuple[int, Decision | GameState | None]:
        """The node ``raw`` settles to, and what it is when the node is new (else None)."""
        if raw in self.resolved:
            return self.resolved[raw], None
        with running_under(self.deadline, self.max_nodes):  # a step's own long loops (declarations, trigger chains) stop too
            res = settle(advance(raw, self.table))
        if isinstance(res, Decision) and self.case.choices:
            res = scripted(res, self.case)
        key = res if isinstance(res, GameState) else decision_key(res)
        if key in self.ids:
            self.resolved[raw] = self.ids[key]
            return self.ids[key], None
        nid = len(self.ids)
        self.ids[key] = nid
        self.resolved[raw] = nid
        return nid, res

    def stop(self) -> bool:
        # the limit leaves room for the outcome pass that follows (about PASS_SECONDS a node)
        return (self.max_nodes is not None and len(self.ids) >= self.max_nodes) or \
            self.deadline.expired(len(self.ids) * PASS_SECONDS + self.reserve)

    def start(self, state: GameState) -> tuple[int, Decision | GameState | None]:
        """A given state's node (a root)."""
        try:
            return self.node_for(state)
        except LimitReached:  # the limit passed before this start's first choice was computed
            self.complete = False
            nid = len(self.ids)
            self.ids[state] = nid
            self.g.add_node(nid, kind="cut", chooser="", at="", truncated=True,
                            label="not expanded: the time limit passed before the first choice")
            return nid, None

    def end_state(self, nid: int, res: GameState) -> None:
        if res.dead:
            self.g.add_node(nid, kind="dead", label="illegal branch")
        else:
            self.g.add_node(nid, kind="leaf", label="outcome")
            self.leaves[nid] = final_fields(res, self.table)

    def expand(self, nid: int, res: Decision) -> list[tuple[int, Decision | GameState]]:
        """A decision's node and an edge per option; the new nodes to expand, in option order."""
        g = self.g
        step = step_name(res.options[0].state) if res.options else None
        attrs = {"step": step} if step else {}
        g.add_node(nid, kind=res.kind, chooser=res.chooser, at=res.at, **attrs,
                   label=decision_label(res.chooser, res.kind, res.at, step))
        children = []
        for i, opt in enumerate(res.options):
            if self.stop():
                self.complete = False
                g.nodes[nid]["truncated"] = True
                break
            try:
                cid, cres = self.node_for(opt.state)
            except LimitReached:  # inside one step (its own long loop): cut there
                self.complete = False
                g.nodes[nid]["truncated"] = True
                break
            if g.has_edge(nid, cid):
                # another option reaching the same state: one edge, counted for every option (its
                # first option names it in witnesses), so ``paths`` counts both
                edge = g.edges[nid, cid]
                edge["count"] += 1
                edge["also"] = (*edge.get("also", ()), opt.picked)
            else:
                g.add_edge(nid, cid, picked=opt.picked, words=opt.words, order=i, count=1)
            if cres is not None:
                children.append((cid, cres))
        return children


def graph_outcomes(cg: ChoiceGraph, fields: Iterable[str] | None = None,
                   deadline: Deadline | None = None) -> tuple[list[Outcome], str | None]:
    """Distinct outcomes (projected on ``fields`` if given), each with its first witness in option
    order and the number of choice paths that reach it; and what cut the list (None when nothing
    did: then it holds every outcome the graph reached).

    Linear in the graph: paths are counted top-down (one integer per node, ``count`` options an
    edge), and one depth-first walk in option order, entering each node once, reaches every
    outcome first by its first witness (a node first entered by an earlier path would give the
    outcome an earlier witness through it). A witness is as long as the decisions on its path, so
    all of them together may grow with outcomes x depth (a long chain of riders' damage with an
    end state at every link): they are built in the outcomes' order until ``deadline`` passes
    or they hold :data:`solver.limits.WITNESS_STEPS` choices, the rest cut, said.
    """
    g = cg.graph
    wanted = list(fields) if fields is not None else None
    order = topological(g)
    paths_to: dict[int, int] = dict.fromkeys(order, 0)
    paths_to[cg.root] = 1
    for nid in order:
        here = paths_to[nid]
        if here:
            for _, child, d in g.out_edges(nid, data=True):
                paths_to[child] += here * d.get("count", 1)
    first: dict[tuple[Any, ...], int] = {}  # outcome -> its first leaf in option order
    paths: dict[tuple[Any, ...], int] = {}
    tree = first_paths(g, cg.root, lambda nid: [(c, d["picked"], d["words"]) for c, d in _options(g, nid)])
    for nid in [cg.root, *tree]:  # (every node reached, in the order the walk entered them)
        if g.nodes[nid].get("kind") == "leaf":
            values = cg.leaves[nid]
            if wanted is not None:
                values = {f: values.get(f) for f in wanted}
            key = tuple(sorted(values.items()))
            first.setdefault(key, nid)
            paths[key] = paths.get(key, 0) + paths_to[nid]
    out: list[Outcome] = []
    budget = WitnessBudget()
    for key in sorted(first, key=sort_key):
        if deadline is not None and deadline.expired():
            return out, "the time limit passed while the outcomes' witnesses were read off the graph"
        wit, words = path_to(tree, cg.root, first[key])
        if not budget.spend(len(wit)):
            return out, budget.cut
        out.append(Outcome(key, wit, paths[key], words))
    return out, None


def graph_enumerate(case: Case, fields: list[str] | None, deadline: Deadline, max_nodes: int | None,
                    workers: int = 1) -> Result:
    """The graph engine behind the engines' contract (solver.engines): every distinct outcome of
    ``case`` from its choice graph, each with its first witness and its number of paths."""
    cg = build_graph(case, max_nodes=max_nodes, timeout=deadline, fields=fields)
    outcomes, cut = graph_outcomes(cg, fields, deadline)
    stats: dict[str, Any] = {"nodes": cg.graph.number_of_nodes(), "edges": cg.graph.number_of_edges(),
                             "seconds": round(cg.seconds, 3)}
    if cut is not None:
        stats["limit"] = cut
    return Result(case.id, "graph", cg.complete and cut is None, outcomes, stats, cg)


Tree = dict[int, tuple[int, Witness, str]]


def first_paths(g: nx.DiGraph, root: int, options: Callable[[int], Iterable[tuple[int, str, str]]]) -> Tree:
    """One depth-first walk from ``root`` over ``options`` (a node's (child, picked, words), first
    option first), entering each node once: each node reached (in the order it was entered) with
    its parent and the choice that entered it. Its path from ``root`` is the first path in option
    order to it: a node first entered by an earlier path would lie on an earlier path to it. Each
    choice is one Witness, shared by every path through it."""
    tree: Tree = {}
    seen = {root}
    stack = [(root, iter(options(root)))]
    while stack:
        nid, todo = stack[-1]
        nxt = next(todo, None)
        if nxt is None:
            stack.pop()
            continue
        child, picked, said = nxt
        if child in seen:
            continue
        seen.add(child)
        data = g.nodes[nid]
        tree[child] = (nid, Witness(data.get("chooser", ""), data.get("kind", ""), data.get("at", ""), picked), said)
        stack.append((child, iter(options(child))))
    return tree


def path_to(tree: Tree, root: int, node: int) -> tuple[tuple[Witness, ...], tuple[str, ...]]:
    """The choices (and their words) of ``tree``'s path from ``root`` to ``node``."""
    wit: list[Witness] = []
    words: list[str] = []
    while node != root:
        node, step, said = tree[node]
        wit.append(step)
        words.append(said)
    return tuple(reversed(wit)), tuple(reversed(words))


def _options(g: nx.DiGraph, nid: int) -> list[tuple[int, dict[str, Any]]]:
    """A decision's edges in option order (its first option first)."""
    return [(c, d) for _, c, d in sorted(g.out_edges(nid, data=True), key=lambda e: e[2]["order"])]


def topological(g: nx.DiGraph) -> list[int]:
    """The graph's nodes in topological order. A cycle (choices that lead back to a state the
    timeline came from: a loop that never ends) is an :class:`EngineError`, not a traceback."""
    import networkx as nx

    try:
        return list(nx.topological_sort(g))
    except nx.NetworkXUnfeasible:
        raise EngineError(LOOP) from None


def decision_label(chooser: str, kind: str, at: str, step: str | None = None) -> str:
    """Who chooses what, where, and in which combat damage step (CR 510.4: first-strike or regular)."""
    return f"{chooser}: {kind} at {at}" + (f" ({step})" if step else "")


def shown_fields(states: Iterable[dict[str, Any]], fields: Iterable[str] | None = None) -> list[str]:
    """The fields that label an outcome: the requested ones; else those that differ between the
    outcomes; else (a single outcome) the life totals."""
    if fields is not None:
        return list(fields)
    states = list(states)
    keys = sorted({k for s in states for k in s})
    differ = [k for k in keys if len({repr(s.get(k)) for s in states}) > 1]
    return differ or [k for k in keys if k.endswith(".life")]


def outcome_text(values: dict[str, Any], fields: Iterable[str], sep: str = ", ") -> str:
    return sep.join(f"{k}={value_text(values.get(k))}" for k in fields)


CUT_NOTE = "cut here: options not expanded"
PARTIAL_NOTE = "PARTIAL: a limit (--max-nodes or --timeout) cut this graph; cut nodes are marked"


def write_graph(cg: ChoiceGraph, path: str | Path, fields: Iterable[str] | None = None) -> None:
    """Export for Graphviz (``.dot``) or Gephi (``.graphml``). Leaves are labelled with their
    outcome on :func:`shown_fields` (``fields`` if given), decisions with who chooses what at which
    step, and a graph a limit cut says PARTIAL and marks its cut nodes."""
    path = Path(path)
    g = cg.graph
    shown = shown_fields(cg.leaves.values(), fields)

    def label(n: int, d: dict[str, Any], sep: str) -> str:
        text = str(d.get("label", ""))
        if d.get("kind") == "leaf":
            text = outcome_text(cg.leaves[n], shown, sep)
        if d.get("truncated"):
            text += f"{sep}({CUT_NOTE})"
        return text

    if path.suffix == ".graphml":
        import networkx as nx

        h = nx.DiGraph(complete=str(cg.complete), note="" if cg.complete else PARTIAL_NOTE)
        for n, d in g.nodes(data=True):
            attrs = {k: str(v) for k, v in d.items()}
            attrs["label"] = label(n, d, ", ")
            if d.get("kind") == "leaf":
                attrs.update({f: value_text(cg.leaves[n].get(f)) for f in shown})
            h.add_node(n, **attrs)
        for a, b, d in g.edges(data=True):
            h.add_edge(a, b, **{k: str(v) for k, v in d.items()}, label=str(d["picked"]))
        nx.write_graphml(h, path)
        return
    lines = ["digraph choices {", "  node [shape=box, fontsize=10];"]
    if not cg.complete:
        lines.append(f'  label="{PARTIAL_NOTE}"; labelloc=t;')
    for n, d in sorted(g.nodes(data=True)):
        style = ", style=dashed" if d.get("kind") == "dead" else ""
        if d.get("truncated"):
            style = ", color=red, style=bold"
        lines.append(f'  n{n} [label="{_esc(label(n, d, chr(10)))}"{style}];')
    for a, b, d in sorted(g.edges(data=True), key=lambda e: (e[0], e[2]["order"])):
        lines.append(f'  n{a} -> n{b} [label="{_esc(str(d["picked"]))}"];')
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _esc(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")

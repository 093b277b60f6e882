"""The choice tree as a picture: the choice graph summarised, laid out (solver.layout), as SVG.

What is drawn (docs/design.md, "Choice graph"; the graph is a DAG, identical states merged):

- one box per decision state, saying who chooses what, where, and in which combat damage step
  (CR 510.4: the first-strike step or the regular one); one edge per option, labelled with it;
- one box per distinct outcome (leaves of the same outcome, projected on the requested fields,
  are one box); illegal branches (a shield that prevented less than it could) are not drawn;
- a subtree whose leaves all reach one outcome collapses into one box with its number of paths
  (a click shows it drawn in full when it is small enough);
- a node a limit cut (``--max-nodes``, ``--timeout``) is red, with a "cut here" box below it;
- a graph still too large to draw (more than ``cap`` boxes) is drawn as its skeleton: the first
  path (in option order) to each distinct outcome, runs of single-option steps merged into one
  box, each decision saying how many of its options are not drawn and whether a cut lies below.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any

from .graph import CUT_NOTE, ChoiceGraph, topological, value_text
from .layout import layered_layout
from .state import initial_state
from .words import Namer, short_label

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["Box", "Tree", "summarise", "render_svg", "KIND_WORDS", "DEFAULT_CAP"]

DEFAULT_CAP = 150  # boxes in one picture; past that, the skeleton
DETAIL_CAP = 60  # boxes in the picture a collapsed box expands to

KIND_WORDS = {"order": "order of effects", "split": "shield split", "assign": "damage assignment",
              "target": "target", "stack_order": "trigger order", "may": "yes or no", "choose": "choice",
              "source": "source choice", "mode": "mode choice", "kick": "kicker", "ward": "ward payment"}


@dataclass
class Box:
    id: str
    kind: str  # decision | outcome | collapsed | chain | cut
    lines: list[str]
    classes: list[str] = field(default_factory=list)
    outcome: int | None = None  # outcome number (1-based) of an outcome box
    detail: str | None = None  # id of the panel a click opens
    title: str = ""


@dataclass
class Tree:
    boxes: list[Box]
    edges: list[tuple[str, str, str, list[str]]]  # tail, head, label, classes
    notes: list[str]
    details: dict[str, Tree | list[str]] = field(default_factory=dict)
    edge_words: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # the options in words
    detail_titles: dict[str, str] = field(default_factory=dict)
    skeleton: bool = False
    complete: bool = True

    def outcome_boxes(self) -> list[Box]:
        return [b for b in self.boxes if b.kind == "outcome"]


def _decision_lines(d: dict[str, Any], named: Callable[[str], str] = str) -> list[str]:
    """A decision's box: who chooses what, where (objects by name: ``named``, solver.words.Namer)."""
    at = str(d.get("at", ""))
    at = named(at.replace("->", "'s damage to ")) if "->" in at else named(at)
    lines = [f"{d.get('chooser', '')}: {KIND_WORDS.get(str(d.get('kind')), str(d.get('kind')))}",
             f"at {at}"]
    if d.get("step"):
        lines.append(f"({d['step']})")
    return lines


def _namer(cg: ChoiceGraph) -> Callable[[str], str]:
    """Names for the ids in a decision's words, from the case's initial state (solver.words)."""
    try:
        state, table = initial_state(cg.table.case)
    except Exception:  # a drawing never fails for want of names
        return str
    return Namer(state, table)


def summarise(cg: ChoiceGraph, outcome_of: Callable[[dict[str, Any]], int], shown: Sequence[str],
              cap: int = DEFAULT_CAP, optimal: frozenset[int] = frozenset(),
              optimal_edges: frozenset[tuple[int, int]] = frozenset(), root: int | None = None,
              collapse: bool = True) -> Tree:
    """The picture's boxes and edges. ``outcome_of(leaf fields)`` numbers a leaf's outcome (1-based,
    the report's rows); ``shown`` are the fields an outcome box lists."""
    import networkx as nx  # (loaded already: the graph is one)

    g = cg.graph
    root = cg.root if root is None else root
    sub = g.subgraph(nx.descendants(g, root) | {root}) if root != cg.root else g
    order = topological(sub)
    leaf_out: dict[int, int] = {n: outcome_of(cg.leaves[n]) for n in sub if g.nodes[n].get("kind") == "leaf"}
    reach: dict[int, frozenset[int]] = {}
    cut_below: dict[int, bool] = {}
    paths: dict[int, int] = {}
    for n in reversed(order):
        d = g.nodes[n]
        if n in leaf_out:
            reach[n], cut_below[n], paths[n] = frozenset([leaf_out[n]]), False, 1
            continue
        kids = [c for c in g.successors(n)]
        reach[n] = frozenset().union(*(reach[c] for c in kids)) if kids else frozenset()
        cut_below[n] = bool(d.get("truncated")) or any(cut_below[c] for c in kids)
        paths[n] = sum(paths[c] for c in kids)
    live = {n for n in sub if reach[n] or cut_below[n]}
    dead = sum(1 for n in sub if g.nodes[n].get("kind") == "dead")

    def kids_of(n: int) -> list[tuple[int, str, int]]:
        es = sorted(g.out_edges(n, data=True), key=lambda e: e[2]["order"])
        return [(c, str(e["picked"]), e["order"]) for _, c, e in es if c in live]

    def collapsible(n: int) -> bool:
        return collapse and n != root and len(reach[n]) == 1 and not cut_below[n] and \
            any(g.nodes[c].get("kind") not in ("leaf", "dead") for c, _, _ in kids_of(n))

    # the full drawing: decisions down to the collapse points, one box per outcome
    visible: list[int] = []
    seen: set[int] = set()
    stack = [root]
    while stack:
        n = stack.pop()
        if n in seen or n not in live:
            continue
        seen.add(n)
        visible.append(n)
        if n in leaf_out or collapsible(n):
            continue
        stack.extend(reversed([c for c, _, _ in kids_of(n)]))
    decisions = [n for n in visible if n not in leaf_out]
    outcomes_drawn = sorted({leaf_out[n] for n in visible if n in leaf_out} |
                            {next(iter(reach[n])) for n in decisions if collapsible(n)})
    n_boxes = len(decisions) + len(outcomes_drawn) + sum(1 for n in decisions if g.nodes[n].get("truncated"))
    tree = Tree([], [], [], complete=cg.complete)
    if dead:
        tree.notes.append(f"{dead} illegal branch{'es' if dead != 1 else ''} (a shield that prevented less "
                          "than it could, an illegal assignment) not drawn")
    if n_boxes <= cap:
        _full(tree, g, decisions, leaf_out, reach, paths, kids_of, collapsible, shown, cg, optimal, optimal_edges,
              outcome_of)
    else:
        _skeleton(tree, g, root, leaf_out, reach, cut_below, kids_of, shown, cg, cap, optimal, optimal_edges)
    return tree


def _outcome_box(i: int, values: dict[str, Any] | None, shown: Sequence[str], optimal: frozenset[int]) -> Box:
    lines = [f"outcome {i}" + ("  \u2605 optimal" if i in optimal else "")]
    if values is not None:
        lines += [f"{k} = {value_text(values.get(k))}" for k in shown]
    classes = ["optimal"] if i in optimal else []
    return Box(f"o{i}", "outcome", lines, classes, outcome=i)


def _full(tree: Tree, g: nx.DiGraph, decisions: list[int], leaf_out: dict[int, int],
          reach: dict[int, frozenset[int]], paths: dict[int, int],
          kids_of: Callable[[int], list[tuple[int, str, int]]], collapsible: Callable[[int], bool],
          shown: Sequence[str], cg: ChoiceGraph, optimal: frozenset[int],
          optimal_edges: frozenset[tuple[int, int]], outcome_of: Callable[[dict[str, Any]], int]) -> None:
    import networkx as nx  # (loaded already: the graph is one)

    values: dict[int, dict[str, Any]] = {}
    named = _namer(cg)
    for n, i in leaf_out.items():
        values.setdefault(i, cg.leaves[n])
    drawn = set(decisions)
    edge_labels: dict[tuple[str, str], list[str]] = {}
    edge_opt: set[tuple[str, str]] = set()

    def target(c: int) -> str:
        return f"o{leaf_out[c]}" if c in leaf_out else f"n{c}"

    for n in decisions:
        d = g.nodes[n]
        head = " ".join(_decision_lines(d, named)[:2])
        if collapsible(n):
            i = next(iter(reach[n]))
            below = len(nx.descendants(g, n))
            tree.boxes.append(Box(f"n{n}", "collapsed",
                                  [head, f"{paths[n]} path{'s' if paths[n] != 1 else ''}, all to outcome {i}",
                                   f"{below} nodes below"],
                                  ["collapsed"] + (["optimal"] if i in optimal else []), detail=f"sub{n}",
                                  title=str(d.get("label", ""))))
            edge_labels.setdefault((f"n{n}", f"o{i}"), []).append("")
            if i in optimal:
                edge_opt.add((f"n{n}", f"o{i}"))
            sub = summarise(cg, outcome_of, shown, cap=DETAIL_CAP, root=n, collapse=False,
                            optimal=optimal) if below <= 4 * DETAIL_CAP else None
            tree.detail_titles[f"sub{n}"] = f"below {d.get('label', '')}: every path reaches outcome {i}"
            tree.details[f"sub{n}"] = sub if sub is not None and not sub.skeleton else [
                f"{below} nodes below this decision, {paths[n]} paths, every one reaching outcome {i}: "
                "too many to draw here"]
            continue
        classes = ["cut"] if d.get("truncated") else []
        tree.boxes.append(Box(f"n{n}", "decision", _decision_lines(d, named), classes, title=str(d.get("label", ""))))
        if d.get("truncated"):
            tree.boxes.append(Box(f"cut{n}", "cut", [CUT_NOTE], ["cut"]))
            tree.edges.append((f"n{n}", f"cut{n}", "", ["cut"]))
        for c, picked, _ in kids_of(n):
            if c not in drawn and c not in leaf_out:
                continue
            key = (f"n{n}", target(c))
            said = str(g.edges[n, c].get("words", picked))
            edge_labels.setdefault(key, []).append(short_label(said, str(d.get("chooser", ""))))
            tree.edge_words.setdefault(key, []).append(said)
            if (n, c) in optimal_edges:
                edge_opt.add(key)
    targets = {b for _, b in edge_labels}
    if not decisions:  # no choice at all: the one outcome is the whole tree
        targets = {f"o{i}" for i in leaf_out.values()}
        tree.notes.append("no player has a choice here: the rules decide every step (the outcome's steps "
                          "list them)")
    for i in sorted(values):
        if f"o{i}" in targets:
            tree.boxes.append(_outcome_box(i, values[i], shown, optimal))
    for (a, b), labels in edge_labels.items():
        tree.edges.append((a, b, " | ".join(x for x in labels if x), ["optimal"] if (a, b) in edge_opt else []))


def _skeleton(tree: Tree, g: nx.DiGraph, root: int, leaf_out: dict[int, int],
              reach: dict[int, frozenset[int]], cut_below: dict[int, bool],
              kids_of: Callable[[int], list[tuple[int, str, int]]], shown: Sequence[str], cg: ChoiceGraph,
              cap: int, optimal: frozenset[int], optimal_edges: frozenset[tuple[int, int]]) -> None:
    """The first path to each distinct outcome; chains of one-way steps merged into one box."""
    named = _namer(cg)
    tree.skeleton = True
    nodes, edges, values, left_out = _first_paths(root, leaf_out, reach, kids_of, cg, cap)
    succ: dict[int, list[int]] = {n: [] for n in nodes}
    pred: dict[int, list[int]] = {n: [] for n in nodes}
    for a, b in edges:
        succ[a].append(b)
        pred[b].append(a)
    head, chains = _chains(nodes, root, leaf_out, succ, pred)

    def bid(n: int) -> str:
        if n in leaf_out:
            return f"o{leaf_out[n]}"
        return f"c{head[n]}" if n in head else f"n{n}"

    hidden_total = g.number_of_nodes() - len(nodes)
    for n in nodes:
        if n in leaf_out or (n in head and head[n] != n):
            continue
        if n in chains:
            _chain_box(tree, g, chains[n], named, kids_of, cut_below, edges, succ)
        else:
            _decision_box(tree, g, n, named, kids_of, cut_below, succ)
    for i in sorted({leaf_out[n] for n in nodes if n in leaf_out}):
        tree.boxes.append(_outcome_box(i, values.get(i), shown, optimal))
    merged: dict[tuple[str, str], list[str]] = {}
    opt: set[tuple[str, str]] = set()
    for (a, b), p in edges.items():
        ka, kb = bid(a), bid(b)
        if ka == kb:
            continue
        said = str(g.edges[a, b].get("words", p))
        merged.setdefault((ka, kb), []).append(short_label(said))  # leaving a chain: its last member's pick
        tree.edge_words.setdefault((ka, kb), []).append(said)
        if (a, b) in optimal_edges:
            opt.add((ka, kb))
    for (ta, tb), labels in merged.items():
        tree.edges.append((ta, tb, " | ".join(dict.fromkeys(labels)), ["optimal"] if (ta, tb) in opt else []))
    tree.notes.append(f"the graph has {g.number_of_nodes()} nodes, too many to draw: shown is the first path "
                      f"(in option order) to each distinct outcome it reaches; {hidden_total} nodes are not drawn")
    if left_out:
        tree.notes.append("outcomes whose paths did not fit: " + ", ".join(map(str, left_out)))


def _first_paths(root: int, leaf_out: dict[int, int], reach: dict[int, frozenset[int]],
                 kids_of: Callable[[int], list[tuple[int, str, int]]], cg: ChoiceGraph,
                 cap: int) -> tuple[dict[int, None], dict[tuple[int, int], str], dict[int, dict[str, Any]], list[int]]:
    """Each outcome's first path (in option order), while the drawing holds at most ``cap``
    times 3 nodes: the nodes, the edges with their picks, each outcome's values, those left out."""
    nodes: dict[int, None] = {}
    edges: dict[tuple[int, int], str] = {}
    values: dict[int, dict[str, Any]] = {}
    left_out: list[int] = []
    for i in sorted(reach[root]):
        path_nodes = [root]
        path_edges: list[tuple[int, int, str]] = []
        n = root
        while n not in leaf_out:
            c, picked, _ = next((c, p, o) for c, p, o in kids_of(n) if i in reach[c])
            path_edges.append((n, c, picked))
            path_nodes.append(c)
            n = c
        values.setdefault(i, cg.leaves[n])
        new = [m for m in path_nodes if m not in nodes]
        if len(nodes) + len(new) > cap * 3 and nodes:
            left_out.append(i)
            continue
        nodes.update(dict.fromkeys(path_nodes))
        for a, b, p in path_edges:
            edges[(a, b)] = p
    return nodes, edges, values, left_out


def _chains(nodes: dict[int, None], root: int, leaf_out: dict[int, int], succ: dict[int, list[int]],
            pred: dict[int, list[int]]) -> tuple[dict[int, int], dict[int, list[int]]]:
    """Runs of decisions with one drawn way in and one drawn way out: each member's first
    member, and each run by its first member (runs of two or more)."""

    def inner(n: int) -> bool:
        return n != root and n not in leaf_out and len(pred[n]) == 1 and len(succ[n]) == 1

    head: dict[int, int] = {}
    chains: dict[int, list[int]] = {}
    for n in nodes:
        if inner(n) and not inner(pred[n][0]):
            run = [n]
            while inner(succ[run[-1]][0]):
                run.append(succ[run[-1]][0])
            if len(run) >= 2:
                chains[n] = run
                for m in run:
                    head[m] = n
    return head, chains


def _chain_box(tree: Tree, g: nx.DiGraph, run: list[int], named: Callable[[str], str],
               kids_of: Callable[[int], list[tuple[int, str, int]]], cut_below: dict[int, bool],
               edges: dict[tuple[int, int], str], succ: dict[int, list[int]]) -> None:
    n = run[0]
    cut = any(g.nodes[m].get("truncated") for m in run)
    lines = [f"{len(run)} decisions in a row", " ".join(_decision_lines(g.nodes[run[0]], named)[:2]),
             "\u2026 " + " ".join(_decision_lines(g.nodes[run[-1]], named)[:2])]
    more = sum(len(kids_of(m)) - 1 for m in run)
    if more:
        lines.append(f"+{more} options not drawn" + (" (cut below)" if any(cut_below[m] for m in run) else ""))
    tree.boxes.append(Box(f"c{n}", "chain", lines, ["chain"] + (["cut"] if cut else []), detail=f"chain{n}"))
    tree.detail_titles[f"chain{n}"] = f"{len(run)} decisions in a row, each with the option drawn"
    tree.details[f"chain{n}"] = [f"{' '.join(_decision_lines(g.nodes[m], named))}: picks {edges[(m, succ[m][0])]}"
                                 + (f" ({len(kids_of(m)) - 1} other options)" if len(kids_of(m)) > 1 else "")
                                 for m in run]


def _decision_box(tree: Tree, g: nx.DiGraph, n: int, named: Callable[[str], str],
                  kids_of: Callable[[int], list[tuple[int, str, int]]], cut_below: dict[int, bool],
                  succ: dict[int, list[int]]) -> None:
    d = g.nodes[n]
    lines = _decision_lines(d, named)
    more = len(kids_of(n)) - len(succ[n])
    if more:
        lines.append(f"+{more} option{'s' if more != 1 else ''} not drawn" +
                     (" (cut below)" if any(cut_below[c] for c, _, _ in kids_of(n) if c not in succ[n]) else ""))
    classes = ["cut"] if d.get("truncated") else []
    tree.boxes.append(Box(f"n{n}", "decision", lines, classes, title=str(d.get("label", ""))))
    if d.get("truncated"):
        tree.boxes.append(Box(f"cut{n}", "cut", [CUT_NOTE], ["cut"]))
        tree.edges.append((f"n{n}", f"cut{n}", "", ["cut"]))


# ---------------------------------------------------------------------------------------------
# SVG

FONT = 12.0
LINE = 15.0
CHAR = 6.7  # average advance of the sans-serif font at FONT px (an estimate; boxes get slack)


def _box_size(b: Box) -> tuple[float, float]:
    width = max(len(s) for s in b.lines) * CHAR + 20
    return max(width, 70.0), len(b.lines) * LINE + 12


def render_svg(tree: Tree, svg_id: str = "tree") -> tuple[str, tuple[float, float]]:
    """The tree as one inline ``<svg>`` (every text escaped); its width and height."""
    sizes = {b.id: _box_size(b) for b in tree.boxes}
    lay = layered_layout([(b.id, *sizes[b.id]) for b in tree.boxes], [(a, b) for a, b, _, _ in tree.edges])
    w, h = lay.width, lay.height
    out = [f'<svg id="{escape(svg_id)}" class="tree" width="{w:.0f}" '
           f'height="{h:.0f}" viewBox="0 0 {w:.0f} {h:.0f}" role="img" aria-label="choice tree">',
           # arrowheads of a fixed size (not scaled by the stroke: the optimal edges are thicker),
           # gold on the optimal edges
           '<defs>' + "".join(
               f'<marker id="{escape(svg_id)}-{kind}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" '
               f'markerHeight="8" markerUnits="userSpaceOnUse" orient="auto-start-reverse">'
               f'<path d="M 0 0 L 10 5 L 0 10 z" fill="{fill}"/></marker>'
               for kind, fill in (("arrow", "#667"), ("arrow-opt", "#e0a400"), ("arrow-cut", "#c62828"))) + '</defs>']
    labels = []
    indeg: dict[str, int] = {}
    outdeg: dict[str, int] = {}
    for tail, head, _, _ in tree.edges:
        indeg[head] = indeg.get(head, 0) + 1
        outdeg[tail] = outdeg.get(tail, 0) + 1
    for tail, head, label, classes in tree.edges:
        route = lay.routes.get((tail, head))
        if not route:
            continue
        tip = "arrow-opt" if "optimal" in classes else "arrow-cut" if "cut" in classes else "arrow"
        out.append(f'<path class="edge {" ".join(classes)}" d="{_curve(route)}" '
                   f'marker-end="url(#{escape(svg_id)}-{tip})"/>')
        if label:
            # near the head, unless more edges meet there than leave the tail: then near the tail
            if indeg.get(head, 0) > outdeg.get(tail, 0):
                (x0, y0), (x1, y1), t = route[0], route[1], 0.4
            else:
                (x0, y0), (x1, y1), t = route[-2], route[-1], 0.55
            lx, ly = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            text = label if len(label) <= 40 else label[:37] + "\u2026"
            labels.append(f'<text class="elabel {" ".join(classes)}" x="{lx:.1f}" y="{ly:.1f}">'
                          f'<title>{escape(chr(10).join(tree.edge_words.get((tail, head), [label])))}</title>'
                          f'{escape(text)}</text>')
    for b in tree.boxes:
        bw, bh = sizes[b.id]
        x, y = lay.x[b.id] - bw / 2, lay.y[b.id]
        attrs = f' data-detail="{escape(b.detail)}" tabindex="0"' if b.detail else ""
        if b.outcome is not None:
            attrs += f' data-outcome="{b.outcome}"'
        g_open = f'<g class="node {escape(b.kind)} {" ".join(escape(c) for c in b.classes)}" id="{escape(svg_id)}-{escape(b.id)}"{attrs}>'
        link_open, link_close = "", ""
        if b.outcome is not None:
            link_open, link_close = f'<a href="#outcome-{b.outcome}">', "</a>"
        out.append(g_open + link_open)
        if b.title:
            out.append(f"<title>{escape(b.title)}</title>")
        out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bw:.1f}" height="{bh:.1f}" rx="6"/>')
        tx = x + 10
        lines = "".join(f'<tspan x="{tx:.1f}" y="{y + 6 + LINE * (k + 0.8):.1f}"'
                        f'{" class=" + chr(34) + "head" + chr(34) if k == 0 else ""}>{escape(s)}</tspan>'
                        for k, s in enumerate(b.lines))
        out.append(f"<text>{lines}</text>{link_close}</g>")
    out.extend(labels)
    out.append("</svg>")
    return "\n".join(out), (w, h)


def _curve(route: list[tuple[float, float]]) -> str:
    (x, y) = route[0]
    parts = [f"M {x:.1f} {y:.1f}"]
    for (x0, y0), (x1, y1) in zip(route, route[1:], strict=False):
        my = (y0 + y1) / 2
        parts.append(f"C {x0:.1f} {my:.1f} {x1:.1f} {my:.1f} {x1:.1f} {y1:.1f}")
    return " ".join(parts)

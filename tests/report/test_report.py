"""The HTML report (solver.report), the drawn choice tree (solver.tree), the layered layout
(solver.layout), the graph exports' labels, and the sweep plot."""

from __future__ import annotations

import importlib.util
import random
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from mtg_outcomes.cli import main
from mtg_outcomes.graph import ChoiceGraph, build_graph, write_graph
from mtg_outcomes.layout import layered_layout
from mtg_outcomes.model.load import load_case
from mtg_outcomes.report import analyse, render_html
from mtg_outcomes.tree import render_svg, summarise

from ..conftest import ROOT
from ..helpers import case_from

SCROLL_THIEF = ROOT / "cases" / "seeds" / "vengeful-archon-scroll-thief-split.yaml"
WIDE = ROOT / "cases" / "bench" / "wide-combat.yaml"
DICTATE_INCOMPLETE = ROOT / "examples" / "incomplete" / "dictate-griffin-one-order.yaml"

DOUBLE_STRIKERS = """\
id: two-double-strikers
players: [{name: A}, {name: you}]
battlefield:
  - {id: archon, card: Vengeful Archon, controller: you}
  - {id: k1, name: Knight One, controller: A, types: [creature], colors: [white], power: 2, toughness: 2, keywords: [double strike], attacking: you}
  - {id: k2, name: Knight Two, controller: A, types: [creature], colors: [white], power: 2, toughness: 2, keywords: [double strike], attacking: you}
effects:
  - {id: s1, shield: 5, to: you, controller: you, source: archon, then: {deal: prevented, to: A}}
actions:
  - combat: {}
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------------------------
# layout


def _random_dag(seed: int, n: int = 40) -> tuple[list[tuple[str, float, float]], list[tuple[str, str]]]:
    rng = random.Random(seed)
    nodes = [(f"v{i}", rng.choice([60.0, 120.0, 200.0]), rng.choice([30.0, 60.0])) for i in range(n)]
    edges = [(f"v{i}", f"v{j}") for j in range(1, n) for i in rng.sample(range(j), min(j, rng.randint(1, 3)))]
    return nodes, edges


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_layout_no_overlap_in_a_layer_and_edges_go_down(seed: int) -> None:
    nodes, edges = _random_dag(seed)
    lay = layered_layout(nodes, edges, hgap=20)
    size = {n: (w, h) for n, w, h in nodes}
    layers: dict[int, list[str]] = {}
    for n in size:
        layers.setdefault(lay.layer[n], []).append(n)
    for row in layers.values():
        row.sort(key=lambda n: lay.x[n])
        for a, b in zip(row, row[1:], strict=False):
            assert lay.x[a] + size[a][0] / 2 + 20 <= lay.x[b] - size[b][0] / 2 + 1e-6
    for a, b in edges:
        assert lay.layer[a] < lay.layer[b]
        assert lay.y[a] + size[a][1] < lay.y[b]
        route = lay.routes[(a, b)]
        assert all(p[1] < q[1] for p, q in zip(route, route[1:], strict=False))  # every segment goes down
    for n in size:  # inside the picture
        assert lay.x[n] - size[n][0] / 2 >= 0 and lay.x[n] + size[n][0] / 2 <= lay.width
        assert lay.y[n] + size[n][1] <= lay.height


def test_layout_is_deterministic() -> None:
    nodes, edges = _random_dag(7)
    a, b = layered_layout(nodes, edges), layered_layout(list(nodes), list(edges))
    assert (a.x, a.y, a.routes) == (b.x, b.y, b.routes)


def test_layout_removes_an_avoidable_crossing() -> None:
    # r's children a, b; a's child is given after b's: barycentre sweeps uncross them
    nodes = [(n, 50.0, 20.0) for n in ("r", "a", "b", "y", "x")]
    edges = [("r", "a"), ("r", "b"), ("b", "y"), ("a", "x"), ("r", "y")]
    lay = layered_layout(nodes, edges)
    assert (lay.x["a"] < lay.x["b"]) == (lay.x["x"] < lay.x["y"])


def test_layout_refuses_a_cycle() -> None:
    with pytest.raises(ValueError, match="DAG"):
        layered_layout([("a", 1, 1), ("b", 1, 1)], [("a", "b"), ("b", "a")])


# ---------------------------------------------------------------------------------------------
# the drawn tree: merged outcomes, collapsing, cuts, the skeleton


def _numbering() -> Any:
    seen: list[tuple[Any, ...]] = []

    def outcome_of(values: dict[str, Any]) -> int:
        key = tuple(sorted(values.items()))
        if key not in seen:
            seen.append(key)
        return seen.index(key) + 1
    return outcome_of


def _synthetic() -> ChoiceGraph:
    """root: 'a' -> decision 1 (-> decision 2 -> leaves X, X; -> leaf X), 'b' -> leaf Y."""
    g = nx.DiGraph()
    for n, kind in ((0, "order"), (1, "split"), (2, "order")):
        g.add_node(n, kind=kind, chooser="you", at=f"e{n}", label=f"you: {kind} at e{n}")
    for n in (3, 4, 5, 6):
        g.add_node(n, kind="leaf", label="outcome")
    g.add_node(7, kind="dead", label="illegal branch")
    for i, (a, b) in enumerate([(0, 1), (0, 6), (0, 7), (1, 2), (1, 5), (2, 3), (2, 4)]):
        g.add_edge(a, b, picked=f"p{i}", words=f"pick {i}", order=i)
    leaves = {3: {"x.life": 1}, 4: {"x.life": 1}, 5: {"x.life": 1}, 6: {"x.life": 2}}
    return ChoiceGraph(g, 0, None, True, leaves)  # type: ignore[arg-type]


def test_subtree_of_one_outcome_collapses_with_its_path_count() -> None:
    tree = summarise(_synthetic(), _numbering(), ["x.life"])
    kinds = sorted(b.kind for b in tree.boxes)
    assert kinds == ["collapsed", "decision", "outcome", "outcome"]
    collapsed = next(b for b in tree.boxes if b.kind == "collapsed")
    assert "3 paths, all to outcome 1" in collapsed.lines
    assert collapsed.detail in tree.details  # a click opens it drawn in full
    opened = tree.details[collapsed.detail]
    assert not isinstance(opened, list) and sorted(b.kind for b in opened.boxes) == ["decision", "decision", "outcome"]
    assert any("illegal branch" in n for n in tree.notes)  # the dead leaf is not drawn, and said so
    edges = {(a, b) for a, b, _, _ in tree.edges}
    assert edges == {("n0", "n1"), ("n0", "o2"), ("n1", "o1")}


def test_leaves_of_one_projected_outcome_are_one_box() -> None:
    case = load_case(SCROLL_THIEF)
    cg = build_graph(case)
    assert len(cg.leaves) == 2
    # projected on you.life, both leaves are the same outcome: one box, both options on its edge
    tree = summarise(cg, lambda v: 1, ["you.life"])
    assert [b.lines for b in tree.outcome_boxes()] == [["outcome 1", "you.life = 19"]]
    assert [label for _, _, label, _ in tree.edges] == ["prevents 1 | prevents 0"]


def test_a_cut_graph_is_drawn_cut() -> None:
    case = case_from(DOUBLE_STRIKERS)
    cg = build_graph(case, max_nodes=2)
    assert not cg.complete
    tree = summarise(cg, _numbering(), ["you.life"])
    cut = [b for b in tree.boxes if b.kind == "cut"]
    assert cut and all("cut here" in b.lines[0] for b in cut)
    assert any("cut" in b.classes for b in tree.boxes if b.kind == "decision")
    svg, _ = render_svg(tree)
    assert "cut here: options not expanded" in svg


def test_wide_combat_is_drawn_as_a_readable_skeleton() -> None:
    """The 10-attacker bench case: its graph can't be built whole; the picture's graph is cut at a
    node limit and drawn as the first path to each distinct outcome it reaches."""
    case = load_case(WIDE)
    cg = build_graph(case, max_nodes=400)
    assert not cg.complete
    tree = summarise(cg, _numbering(), ["you.life", "A.life"])
    assert tree.skeleton
    outcomes = [b.outcome for b in tree.outcome_boxes()]
    leaf_outcomes = {tuple(sorted(v.items())) for v in cg.leaves.values()}
    assert len(outcomes) == len(set(outcomes)) == len(leaf_outcomes)  # each drawn leaf a distinct outcome
    assert len(tree.boxes) <= 150
    assert any("cut below" in line for b in tree.boxes for line in b.lines)  # where the cut lies
    assert any(b.kind == "chain" for b in tree.boxes)
    _, (width, _) = render_svg(tree)
    assert width < 4000


# ---------------------------------------------------------------------------------------------
# labels: combat damage steps, exports


def test_decisions_say_which_combat_damage_step() -> None:
    cg = build_graph(case_from(DOUBLE_STRIKERS))
    labels = sorted(d["label"] for _, d in cg.graph.nodes(data=True) if d.get("kind") == "split")
    assert labels == ["you: split at k1->you (first-strike damage step)", "you: split at k1->you (regular damage step)"]
    cg = build_graph(load_case(ROOT / "cases" / "rulings" / "boros-reckoner-two-blockers.yaml"))
    steps = {d.get("step") for _, d in cg.graph.nodes(data=True) if d.get("kind") == "assign"}
    assert steps == {"combat damage step"}


def test_dot_leaves_show_the_fields_that_differ(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "g.dot"
    code, _, _ = run(capsys, "enumerate", str(SCROLL_THIEF), "--graph", str(target))
    assert code == 0
    text = target.read_text()
    assert 'label="A.cards_drawn=0"' in text and 'label="A.cards_drawn=1"' in text
    code, _, _ = run(capsys, "enumerate", str(SCROLL_THIEF), "--graph", str(target), "--fields", "you.life,A.cards_drawn")
    text = target.read_text()
    assert 'label="you.life=19\\nA.cards_drawn=0"' in text and 'label="you.life=19\\nA.cards_drawn=1"' in text


def test_graphml_leaves_are_labelled_with_their_outcome(tmp_path: Path) -> None:
    case = load_case(SCROLL_THIEF)
    cg = build_graph(case)
    target = tmp_path / "g.graphml"
    write_graph(cg, target, ["you.life", "A.cards_drawn"])
    h = nx.read_graphml(target)
    leaves = sorted(d["label"] for _, d in h.nodes(data=True) if d["kind"] == "leaf")
    assert leaves == ["you.life=19, A.cards_drawn=0", "you.life=19, A.cards_drawn=1"]
    cut = build_graph(case_from(DOUBLE_STRIKERS), max_nodes=2)
    write_graph(cut, target)
    h = nx.read_graphml(target)
    assert h.graph["complete"] == "False" and "PARTIAL" in h.graph["note"]
    assert any("cut here" in d["label"] for _, d in h.nodes(data=True))
    assert any("first-strike damage step" in d["label"] for _, d in h.nodes(data=True))


# ---------------------------------------------------------------------------------------------
# the HTML page


class _Page(HTMLParser):
    """Rows of the outcomes table, the SVG's outcome boxes, and every src/href."""

    def __init__(self) -> None:
        super().__init__()
        self.headers: list[str] = []
        self.rows: list[list[str]] = []
        self.svg_outcomes: list[str] = []
        self.refs: list[str] = []
        self.tags: list[str] = []
        self._in: list[str] = []
        self._table = False
        self._cell: list[str] | None = None
        self._row: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append(tag)
        for k in ("src", "href", "xlink:href", "action", "poster", "data"):
            if a.get(k):
                self.refs.append(str(a[k]))
        if tag == "table" and "outcomes" in (a.get("class") or ""):
            self._table = True
        if self._table and tag == "tr" and (a.get("id") or "").startswith("outcome-"):
            self._row = []
        if self._row is not None and tag == "td":
            self._cell = []
        if self._table and tag == "th":
            self._cell = []
        if tag == "g" and "outcome" in (a.get("class") or "").split():
            self.svg_outcomes.append(str(a.get("data-outcome")))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            text = "".join(self._cell).strip()
            if self._row is not None and tag == "td":
                self._row.append(text)
            elif tag == "th":
                self.headers.append(text)
            self._cell = None
        if tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None
        if tag == "table":
            self._table = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _parse(html: str) -> _Page:
    p = _Page()
    p.feed(html)
    return p


def _no_external_references(html: str, page: _Page) -> None:
    assert all(not re.match(r"\s*(https?:)?//", r) for r in page.refs), page.refs
    assert not {"link", "img", "iframe", "object", "embed", "audio", "video"} & set(page.tags)
    assert "@import" not in html and not re.search(r"url\(\s*['\"]?(https?:)?//", html)
    assert not re.search(r"<script[^>]+src=", html)
    assert not re.search(r"https?://", html)  # no URL at all (no SVG namespace URL either: inline SVG needs none)


def test_scroll_thief_page_shows_both_outcomes_and_one_leaf_each() -> None:
    data = analyse(load_case(SCROLL_THIEF))
    html = render_html(data)
    page = _parse(html)
    col = page.headers.index("A.cards_drawn")
    assert sorted(row[col] for row in page.rows) == ["0", "1"]
    assert len(page.rows) == 2
    assert sorted(page.svg_outcomes) == ["1", "2"]  # one leaf per distinct outcome
    assert "you apply Vengeful Archon&#x27;s shield on you (3 left) to Scroll Thief&#x27;s 1 damage to you: it prevents 1" in html
    assert "the only legal option" in html  # the forced step, as --explain shows it
    assert "ruling: OK" in html
    _no_external_references(html, page)


def test_fields_label_the_rows_and_leaves() -> None:
    data = analyse(load_case(SCROLL_THIEF), fields=["you.life", "A.cards_drawn"])
    page = _parse(render_html(data))
    assert page.headers[:3] == ["#", "you.life", "A.cards_drawn"]
    assert sorted((r[1], r[2]) for r in page.rows) == [("19", "0"), ("19", "1")]
    assert [b.lines[1:] for b in data.tree.outcome_boxes()] == [  # type: ignore[union-attr]
        ["you.life = 19", "A.cards_drawn = 0"], ["you.life = 19", "A.cards_drawn = 1"]]


def test_an_incomplete_ruling_is_marked() -> None:
    data = analyse(load_case(DICTATE_INCOMPLETE))
    html = render_html(data)
    assert "INCOMPLETE" in html and "not in the ruling" in html
    assert [r.number for r in data.rows if r.missing] == [2]
    assert any("missing" in b.classes for b in data.tree.outcome_boxes())  # type: ignore[union-attr]


def test_optimize_highlights_the_optimal_line() -> None:
    from mtg_outcomes.model.objective import parse_objective_text

    case = load_case(ROOT / "cases" / "seeds" / "vengeful-archon-scroll-thief-combat.yaml")
    data = analyse(case, objective=parse_objective_text(["you: [maximize you.life, minimize A.cards_drawn]"]),
                   engine="graph")
    assert [r.values["A.cards_drawn"] for r in data.rows if r.optimal] == [0]
    html = render_html(data)
    assert "Decisions on the optimal line" in html and "matters" in html
    assert 'class="edge optimal"' in html


def test_wide_combat_page_draws_table_outcomes_and_the_cut() -> None:
    """CP lists the 93 outcomes; the picture's graph (cut at --max-nodes) draws some of them, each
    once, numbered as in the table, and says it is cut."""
    data = analyse(load_case(WIDE), max_nodes=400, timeout=120)
    assert data.result.engine == "cp" and data.result.complete and len(data.rows) == 93
    assert data.picture is not None and not data.picture.complete
    drawn = [b.outcome for b in data.tree.outcome_boxes()]  # type: ignore[union-attr]
    assert drawn and len(drawn) == len(set(drawn)) and all(1 <= n <= 93 for n in drawn if n is not None)
    assert "PARTIAL: a limit cut this graph at 400 nodes" in render_html(data)


def test_text_from_the_case_is_escaped() -> None:
    text = DOUBLE_STRIKERS.replace("id: two-double-strikers", "id: esc\ntitle: '<script>alert(1)</script>'")
    html = render_html(analyse(case_from(text)))
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in html


# ---------------------------------------------------------------------------------------------
# the command line


def test_report_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    code, stdout, _ = run(capsys, "report", str(SCROLL_THIEF), "-o", str(out), "--fields", "A.cards_drawn")
    assert code == 0 and stdout.strip() == f"wrote {out}: 2 distinct outcomes, 2 drawn in the tree"
    assert out.read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("where", ["dir", "missing-parent", "file-parent"])
def test_report_output_problems_are_one_line(where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "f").write_text("x")
    target = {"dir": tmp_path, "missing-parent": tmp_path / "no" / "r.html", "file-parent": tmp_path / "f" / "r.html"}[where]
    code, out, err = run(capsys, "report", str(SCROLL_THIEF), "-o", str(target))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and err.startswith("-o: ")


def test_report_unknown_field_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "report", str(SCROLL_THIEF), "-o", str(tmp_path / "r.html"), "--fields", "you.lfe")
    assert code == 2 and "did you mean you.life" in err


def test_batch_report_writes_a_page_per_case_and_an_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = tmp_path / "cases"
    cases.mkdir()
    shutil.copy(SCROLL_THIEF, cases)
    shutil.copy(DICTATE_INCOMPLETE, cases)
    (cases / "bad.yaml").write_text("id: [broken\n")
    report = tmp_path / "report" / "deeper"
    code, _, err = run(capsys, "batch", str(cases), "--out", str(tmp_path / "r.jsonl"), "--mode", "check",
                       "--jobs", "1", "--no-progress", "--report", str(report))
    assert code == 1  # the incomplete ruling and the bad file fail the run, as without --report
    assert sorted(p.name for p in report.iterdir()) == ["dictate-griffin-one-order.html", "index.html",
                                                       "vengeful-archon-scroll-thief-split.html"]
    index = (report / "index.html").read_text()
    for verdict in ("OK", "INCOMPLETE", "ERROR"):
        assert f">{verdict}</span>" in index
    assert 'href="vengeful-archon-scroll-thief-split.html"' in index and "malformed YAML" in index
    assert "wrote 2 case pages" in err


def test_batch_report_into_a_file_is_refused_before_running(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "f").write_text("x")
    code, _, err = run(capsys, "batch", str(SCROLL_THIEF), "--out", str(tmp_path / "r.jsonl"), "--no-progress",
                       "--report", str(tmp_path / "f"))
    assert code == 2 and "--report" in err and "not a directory" in err
    assert not (tmp_path / "r.jsonl").exists() or (tmp_path / "r.jsonl").read_text() == ""


# ---------------------------------------------------------------------------------------------
# headless Chromium: the page as a browser renders it


def _chromium() -> str:
    exe = shutil.which("chromium")
    if exe is None:
        pytest.skip("Debian's chromium is not installed: apt-get install chromium")
    return exe


def _dump_dom(exe: str, page: Path) -> str:
    """The DOM after load, with every host name unresolvable (no network)."""
    proc = subprocess.run([exe, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--host-resolver-rules=MAP * ~NOTFOUND", f"--user-data-dir={page.parent / 'profile'}",
                           "--virtual-time-budget=5000", "--dump-dom", page.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


@pytest.mark.parametrize("which", ["scroll-thief", "wide-combat"])
def test_report_renders_in_headless_chromium(which: str, tmp_path: Path) -> None:
    """Scroll Thief: both outcomes with A.cards_drawn, one SVG leaf per distinct outcome. Wide
    combat (its graph can't be built whole): the picture is cut at --max-nodes, each drawn leaf is
    a distinct outcome and the cut is marked. Neither page fetches anything."""
    exe = _chromium()
    path = tmp_path / f"{which}.html"
    if which == "scroll-thief":
        data = analyse(load_case(SCROLL_THIEF))
    else:
        data = analyse(load_case(WIDE), max_nodes=600, timeout=120)
    path.write_text(render_html(data))
    dom = _dump_dom(exe, path)
    page = _parse(dom)
    assert 'data-resources="0"' in dom  # the page loaded and fetched no resource
    _no_external_references(dom, page)
    assert "<svg" in dom
    if which == "scroll-thief":
        col = page.headers.index("A.cards_drawn")
        assert sorted(r[col] for r in page.rows) == ["0", "1"]
        assert sorted(page.svg_outcomes) == ["1", "2"] and len(data.rows) == 2
    else:
        assert len(page.rows) == len(data.rows) == 93
        assert len(page.svg_outcomes) == len(set(page.svg_outcomes)) > 0
        assert all(1 <= int(n) <= 93 for n in page.svg_outcomes)  # each drawn leaf is a row of the table
        assert "PARTIAL: a limit cut this graph" in dom and "cut below" in dom


# ---------------------------------------------------------------------------------------------
# the sweep plot (matplotlib is an optional extra)


SWEEP = ROOT / "examples" / "sweep_archon_x.py"


def test_sweep_plot_without_matplotlib_says_how_to_install(tmp_path: Path) -> None:
    if importlib.util.find_spec("matplotlib") is not None:
        pytest.skip("matplotlib is installed")
    proc = subprocess.run([sys.executable, str(SWEEP), "--plot", str(tmp_path / "x.png")], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2 and "pip install '.[plot]'" in proc.stderr and not (tmp_path / "x.png").exists()


def test_sweep_plot_writes_a_png(tmp_path: Path) -> None:
    if importlib.util.find_spec("matplotlib") is None:
        pytest.skip("matplotlib is not installed (optional extra: pip install '.[plot]')")
    target = tmp_path / "x.png"
    proc = subprocess.run([sys.executable, str(SWEEP), "--plot", str(target)], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_same_case_same_page() -> None:
    case = load_case(ROOT / "cases" / "rulings" / "damage-prevented-trigger-two-effects-order.yaml")
    first, second = render_html(analyse(case)), render_html(analyse(case))
    assert first == second
    assert 'class="node collapsed' in first and 'id="detail-sub' in first  # a summarised subtree, openable


def test_report_refuses_a_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "case.yaml"
    os.mkfifo(fifo)
    code, out, err = run(capsys, "report", str(fifo), "-o", str(tmp_path / "r.html"))
    assert code == 2 and out == "" and err.strip() == f"{fifo}: is a named pipe (FIFO), not a regular file"


def test_an_unreachable_stated_outcome_is_marked() -> None:
    text = SCROLL_THIEF.read_text().replace("complete: true", "complete: false").replace(
        "    - {you.life: 19, A.life: 17, A.cards_drawn: 1, s1.remaining: 0}",
        "    - {you.life: 19, A.life: 17, A.cards_drawn: 2}")
    data = analyse(case_from(text))
    assert data.check is not None and data.check.status == "UNREACHABLE"
    html = render_html(data)
    assert html.count('<tr class="unreachable">') == 1 and "stated by the ruling, unreachable" in html
    assert "ruling: UNREACHABLE" in html

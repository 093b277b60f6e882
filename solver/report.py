"""An HTML report of one case: the situation, every distinct outcome with its witness in words, the
ruling's verdict, the optimal line, and the choice tree drawn (solver.tree, solver.layout).

One self-contained file: inline SVG, CSS and a few lines of JavaScript; nothing is loaded from
anywhere (no fonts, no scripts, no images by URL). Every text from the case is escaped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from model.errors import MtgOutcomesError
from model.objective import Objective
from model.outcome import Outcome, agrees
from model.types import Case

from .api import Result, enumerate_outcomes
from .check import CheckReport, check
from .decision import CHOICE, FORCED, NOT_DONE, Step
from .explain import replay
from .graph import ChoiceGraph, build_graph, shown_fields, value_text
from .optimize import OptimizeResult, optimize
from .tree import DEFAULT_CAP, Tree, render_svg, summarise

__all__ = ["ReportData", "analyse", "render_html", "write_report", "write_batch_report", "index_html",
           "PICTURE_MAX_NODES"]

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
    from .engine import final_fields
    from .state import initial_state

    s0, table = initial_state(case)
    return final_fields(s0, table)


def analyse(case: Case, fields: Sequence[str] | None = None, objective: Objective | None = None,
            engine: str = "auto", timeout: float | None = None, max_nodes: int = PICTURE_MAX_NODES,
            cap: int = DEFAULT_CAP) -> ReportData:
    """Everything the page shows. The outcomes come from ``engine`` as in ``enumerate`` (auto: CP
    when the graph would be large); the picture's graph from the graph engine, limited to
    ``max_nodes`` nodes and ``timeout`` (a cut graph is drawn cut)."""
    fields = list(fields) if fields is not None else None
    result = enumerate_outcomes(case, engine=engine, fields=fields, timeout=timeout)
    baseline = _baseline(case)
    states = [o.values for o in result.outcomes]
    if fields is not None:
        columns = list(fields)
    else:
        columns = sorted({k for s in states for k, v in s.items() if baseline.get(k) != v}) or \
            shown_fields(states)
    differ = {k for k in columns if len({repr(s.get(k)) for s in states}) > 1}
    rows = []
    for i, o in enumerate(result.outcomes, 1):
        try:
            steps = list(replay(case, o).steps)
        except MtgOutcomesError as exc:
            steps = [Step(NOT_DONE, f"the witness could not be replayed: {exc}")]
        rows.append(Row(i, o, o.values, steps))
    data = ReportData(case, result, rows, columns, baseline, differ, None, None, fields)
    if case.expect is not None:
        data.check = check(case, engine=engine, timeout=timeout)
        for row in rows:
            row.missing = any(all(agrees(row.values, [(k, v)]) for k, v in m.state if k in row.values)
                              for m in data.check.missing)
    objective = objective if objective is not None else case.objective
    if objective is not None:
        data.objective = objective
        data.optimum = optimize(case, objective, timeout=timeout, engine=engine, fields=fields)
        for row in rows:
            row.optimal = any(agrees(row.values, [(k, v) for k, v in o.state if k in row.values])
                              for o in data.optimum.outcomes)
    cg = result.graph
    if cg is None or cg.graph.number_of_nodes() > max_nodes:
        cg = build_graph(case, max_nodes=max_nodes, timeout=timeout)
        data.notes.append(f"the picture's graph was built by the graph engine under --max-nodes {max_nodes}"
                          + ("" if result.graph is None else " (the outcomes' graph is larger)"))
    data.picture = cg
    data.tree = _tree(data, cg, cap)
    return data


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

CSS = """
:root { --ink:#1d2330; --mute:#5b6475; --line:#d5dae3; --bg:#f6f7fa; --card:#fff; --acc:#2f5fb3;
        --chg:#fff1c2; --opt:#e0a400; --bad:#c62828; --ok:#2e7d32; }
* { box-sizing: border-box; }
body { margin:0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: var(--ink); background: var(--bg); }
header { background:#1f2b45; color:#fff; padding:18px 28px 14px; }
header h1 { margin:0 0 4px; font-size:21px; font-weight:650; }
header .id { color:#aeb9d3; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size:12.5px; }
header .src { color:#cfd6e6; font-size:12.5px; margin-top:6px; max-width:1100px; }
main { padding: 4px 24px 40px; }
main .top { display:grid; grid-template-columns: minmax(0, 9fr) minmax(0, 11fr); gap:16px; align-items:start; }
main .top section { margin:12px 0 0; }
.scroll { max-height:460px; overflow:auto; }
.scroll.tall { max-height:620px; }
section { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:14px 18px; margin:16px 0; }
h2 { font-size:16px; margin:0 0 10px; }
h3 { font-size:14px; margin:14px 0 6px; }
.badges { margin-top:10px; display:flex; gap:8px; flex-wrap:wrap; }
.badge { display:inline-block; padding:2px 9px; border-radius:999px; font-size:12px; font-weight:600;
         background:#e8ecf4; color:#1f2b45; }
header .badge { background:#33446b; color:#fff; }
.badge.ok { background:var(--ok); color:#fff; } .badge.bad { background:var(--bad); color:#fff; }
.badge.partial { background:#b45309; color:#fff; }
.players, .tiles { display:flex; flex-wrap:wrap; gap:10px; }
.player { border:1px solid var(--line); border-radius:8px; padding:5px 12px; min-width:100px; }
.player b { font-size:14px; } .player .life { font-size:17px; font-weight:700; color:var(--acc); }
.player .meta { color:var(--mute); font-size:11.5px; }
.tile { border:1px solid var(--line); border-radius:8px; width:172px; background:#fbfcfe; overflow:hidden; font-size:12.5px; }
.tile .top { display:flex; justify-content:space-between; gap:6px; padding:6px 10px; background:#eef1f7;
             border-bottom:1px solid var(--line); }
.tile .name { font-weight:650; } .tile .pt { font-weight:700; white-space:nowrap; }
.tile .meta { color:var(--mute); font-size:11.5px; padding:3px 10px 0; }
.tile .text { padding:2px 10px 6px; font-size:12px; white-space:pre-wrap; }
.tile .text:empty { display:none; }
.tile .state { padding:0 10px 8px; display:flex; gap:4px; flex-wrap:wrap; }
.tag { font-size:11.5px; background:#e3e8f3; border-radius:4px; padding:0 6px; }
.tag.atk { background:#fde2e2; } .tag.blk { background:#dcefe0; }
.color-white .top { background:#f7f3e3; } .color-blue .top { background:#e2ecfa; }
.color-black .top { background:#e4e2e8; } .color-red .top { background:#fbe3dc; } .color-green .top { background:#e0f1e3; }
ol.actions li, ul.effects li { margin:3px 0; }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size:12.5px; }
table.outcomes { border-collapse:collapse; width:100%; font-size:13px; }
table.outcomes th, table.outcomes td { border-bottom:1px solid var(--line); padding:5px 8px; text-align:left; vertical-align:top; }
table.outcomes th { background:#eef1f7; font-weight:600; position:sticky; top:0; }
table.outcomes th.differs { background:#ffe9a8; }
td.chg { background:var(--chg); font-weight:600; }
td.num, th.num { text-align:right; font-variant-numeric: tabular-nums; }
table.outcomes td:first-child { white-space:nowrap; }
tr.optimal td:first-child { box-shadow: inset 4px 0 0 var(--opt); }
tr.missing td:first-child { box-shadow: inset 4px 0 0 var(--bad); }
tr.unreachable td { color:var(--bad); font-style:italic; }
.flag { font-size:11.5px; font-weight:700; margin-left:6px; }
.flag.opt { color:#8a6400; } .flag.miss { color:var(--bad); }
.witness { margin:10px 0 14px; padding:8px 12px; border-left:3px solid var(--line); }
.witness.optimal { border-left-color:var(--opt); }
.witness h3 { margin:0 0 4px; }
.witness ol { margin:4px 0; padding-left:24px; }
.witness li.forced { color:var(--mute); font-style:italic; }
.witness li.not_done { color:#8a4b00; }
.witness .kind { font-size:11px; text-transform:uppercase; letter-spacing:.04em; color:var(--mute); margin-right:4px; }
.treebox { overflow:auto; max-height:85vh; border:1px solid var(--line); border-radius:8px; background:#fcfdff; }
svg.tree { display:block; margin:0 auto; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; font-size:12px; }
svg.tree .edge { fill:none; stroke:#8a93a6; stroke-width:1.4; }
svg.tree .edge.optimal { stroke:var(--opt); stroke-width:3; }
svg.tree .edge.cut { stroke:var(--bad); stroke-dasharray:4 3; }
svg.tree .elabel { font-size:11px; fill:#33415c; text-anchor:middle; paint-order:stroke; stroke:#fcfdff; stroke-width:4px; }
svg.tree .elabel.optimal { fill:#7a5600; font-weight:700; }
svg.tree .node rect { fill:#fff; stroke:#7d8aa5; stroke-width:1.2; }
svg.tree .node text { fill:var(--ink); }
svg.tree .node .head { font-weight:650; }
svg.tree .node.decision rect { fill:#eef3ff; stroke:#4a6fb5; }
svg.tree .node.outcome rect { fill:#e9f6ec; stroke:#2e7d32; stroke-width:1.6; }
svg.tree .node.outcome.missing rect { stroke:var(--bad); stroke-width:2.4; }
svg.tree .node.outcome.optimal rect { fill:#fff4cf; stroke:var(--opt); stroke-width:3; }
svg.tree .node.collapsed rect, svg.tree .node.chain rect { fill:#f3f0fb; stroke:#6b55a8; stroke-dasharray:5 3; }
svg.tree .node.collapsed, svg.tree .node.chain { cursor:pointer; }
svg.tree .node.cut rect { stroke:var(--bad); stroke-width:2.2; }
svg.tree .node.cut.cut rect { fill:#fff0f0; }
svg.tree a:hover rect { stroke-width:3; }
.legend { color:var(--mute); font-size:12.5px; margin:6px 0 10px; }
.legend span { margin-right:14px; white-space:nowrap; }
.sw { display:inline-block; width:12px; height:12px; border-radius:3px; vertical-align:-2px; margin-right:4px; border:1.5px solid; }
.notes { color:var(--mute); font-size:12.5px; } .notes li { margin:2px 0; }
.cutnote { color:var(--bad); font-weight:600; }
.detail { display:none; margin-top:10px; border:1px dashed #6b55a8; border-radius:8px; padding:8px 12px; background:#faf9fe; }
.detail.open { display:block; }
.detail h3 { margin-top:0; }
table.decisions td, table.decisions th { padding:3px 8px; border-bottom:1px solid var(--line); text-align:left; }
.verdict { font-size:15px; font-weight:700; }
.verdict.ok { color:var(--ok); } .verdict.bad { color:var(--bad); }
footer { color:var(--mute); font-size:12px; padding:0 28px 30px; }
table.index { border-collapse:collapse; width:100%; }
table.index td, table.index th { border-bottom:1px solid var(--line); padding:5px 8px; text-align:left; }
"""

JS = """
window.addEventListener('load', function () {  // resources fetched (none: the page is self-contained)
  document.documentElement.setAttribute('data-resources', String(performance.getEntriesByType('resource').length));
});
document.addEventListener('click', function (ev) {
  var g = ev.target.closest ? ev.target.closest('[data-detail]') : null;
  if (!g) return;
  var panel = document.getElementById('detail-' + g.getAttribute('data-detail'));
  if (panel) { panel.classList.toggle('open'); if (panel.classList.contains('open')) panel.scrollIntoView({block: 'nearest'}); }
});
document.addEventListener('keydown', function (ev) {
  if ((ev.key === 'Enter' || ev.key === ' ') && ev.target.getAttribute && ev.target.getAttribute('data-detail')) ev.target.dispatchEvent(new MouseEvent('click', {bubbles: true}));
});
"""


def _page(title: str, body: str) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><style>{CSS}</style></head>\n<body>\n{body}\n"
            f"<script>{JS}</script>\n</body></html>\n")


def _flow(value: Any) -> str:
    """A YAML value in one line, as a case file writes it."""
    import yaml

    return str(yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=10_000)).strip().removesuffix("...").strip()


def _players_html(case: Case) -> str:
    active = case.active or (case.players[0].name if case.players else "")
    out = ['<div class="players">']
    for p in case.players:
        extra = []
        if p.name == active:
            extra.append("active player")
        if p.team:
            extra.append(f"team {p.team}")
        if p.poison:
            extra.append(f"{p.poison} poison")
        if p.life_lost_this_turn:
            extra.append(f"lost {p.life_lost_this_turn} life this turn")
        out.append(f'<div class="player"><b>{escape(p.name)}</b><div class="life">{p.life} life</div>'
                   f'<div class="meta">{escape(", ".join(extra))}</div></div>')
    out.append("</div>")
    return "".join(out)


def _tiles_html(case: Case) -> str:
    from model.cards import lookup_card

    raw = case.raw if isinstance(case.raw, dict) else {}
    raw_perms = {str(e.get("id")): e for e in raw.get("battlefield", []) or [] if isinstance(e, dict)}
    out = ['<div class="tiles">']
    for p in case.permanents:
        entry = raw_perms.get(p.id, {})
        card = lookup_card(str(entry["card"])) if entry.get("card") else None
        if card is not None and card.get("oracle"):
            text = str(card["oracle"])
        else:
            parts = [", ".join(p.keywords)] if p.keywords else []
            parts += [_flow(a) if not isinstance(a, str) else a for a in entry.get("abilities", []) or []]
            text = "\n".join(x for x in parts if x)
        typeline = " ".join(p.supertypes + p.types) + (" \u2014 " + " ".join(p.subtypes) if p.subtypes else "")
        pt = f"{p.power}/{p.toughness}" if "creature" in p.types else (f"loyalty {p.loyalty}" if p.loyalty else "")
        tags = []
        if p.attacking:
            tags.append(("atk", f"attacking {p.attacking}"))
        if p.blocking:
            tags.append(("blk", "blocking " + ", ".join(p.blocking)))
        for flag, word in ((p.tapped, "tapped"), (p.summoning_sick, "summoning sick")):
            if flag:
                tags.append(("", word))
        if p.damage:
            tags.append(("", f"{p.damage} damage marked"))
        for kind, n in p.counters:
            tags.append(("", f"{n} {kind} counter{'s' if n != 1 else ''}"))
        if p.attached_to:
            tags.append(("", f"attached to {p.attached_to}"))
        if p.chosen:
            tags.append(("", f"chosen: {p.chosen}"))
        color = f" color-{p.colors[0]}" if len(p.colors) == 1 else ""
        out.append(f'<div class="tile{color}"><div class="top"><span class="name">{escape(p.name)}</span>'
                   f'<span class="pt">{escape(pt)}</span></div>'
                   f'<div class="meta"><span class="mono">{escape(p.id)}</span> \u00b7 {escape(p.controller)} '
                   f'\u00b7 {escape(typeline)}</div>'
                   f'<div class="text">{escape(text)}</div>'
                   f'<div class="state">{"".join(f"<span class={chr(34)}tag {c}{chr(34)}>{escape(t)}</span>" for c, t in tags)}</div></div>')
    out.append("</div>")
    return "".join(out)


def _effect_words(e: dict[str, Any]) -> str:
    if "shield" in e:
        words = f"prevent the next {e['shield']} damage to {_flow(e.get('to', 'any'))}"
        then = e.get("then")
        if isinstance(then, dict) and then.get("deal") == "prevented":
            words += f"; then {e.get('source', 'its source')} deals that much damage to {_flow(then.get('to'))}"
        return words
    return ""


def _situation_html(case: Case) -> str:
    raw = case.raw if isinstance(case.raw, dict) else {}
    parts = ["<section id=\"situation\"><h2>The situation</h2><h3>Players</h3>", _players_html(case)]
    if case.permanents:
        parts += ["<h3>Battlefield</h3>", _tiles_html(case)]
    if raw.get("sources"):
        parts.append("<h3>Other sources</h3><ul class=\"effects\">" + "".join(
            f"<li><code>{escape(_flow(s))}</code></li>" for s in raw["sources"]) + "</ul>")
    if raw.get("effects"):
        items = []
        for e in raw["effects"]:
            words = _effect_words(e) if isinstance(e, dict) else ""
            eid = e.get("id", "") if isinstance(e, dict) else ""
            shown = escape(words) if words else f"<code>{escape(_flow(e))}</code>"
            items.append(f"<li title=\"{escape(_flow(e))}\"><b class=\"mono\">{escape(str(eid))}</b> {shown}</li>")
        parts.append("<h3>Effects in force</h3><ul class=\"effects\">" + "".join(items) + "</ul>")
    if raw.get("actions"):
        parts.append("<h3>What happens (the actions, in order)</h3><ol class=\"actions\">" +
                     "".join(f"<li>{_action_html(a)}</li>" for a in raw["actions"]) + "</ol>")
    parts.append("</section>")
    return "".join(parts)


def _action_html(a: Any) -> str:
    if isinstance(a, dict) and list(a) == ["damage"] and isinstance(a["damage"], list):
        evs = [f"{d.get('from')} deals {d.get('amount')}{' combat' if d.get('combat') else ''} damage to {d.get('to')}"
               for d in a["damage"] if isinstance(d, dict)]
        return escape("at the same time: " + "; ".join(evs) if len(evs) > 1 else "; ".join(evs))
    if isinstance(a, dict) and list(a) == ["combat"]:
        return escape("combat damage: the attackers and blockers as on the battlefield "
                      "(first and double strike make two steps, CR 510.4)")
    return f"<code>{escape(_flow(a))}</code>"


def _cell(v: Any) -> str:
    return escape(value_text(v))


def _outcomes_html(data: ReportData) -> str:
    cols = data.columns
    head = "".join(f'<th class="{"differs" if c in data.differ else ""}">{escape(c)}</th>' for c in cols)
    paths_col = data.result.engine == "graph"
    rows = []
    for r in data.rows:
        cls = " ".join(x for x in ("optimal" if r.optimal else "", "missing" if r.missing else "") if x)
        flags = ""
        if r.optimal:
            flags += '<span class="flag opt">\u2605 optimal</span>'
        if r.missing:
            flags += '<span class="flag miss">not in the ruling</span>'
        cells = "".join(f'<td class="{"chg" if data.baseline.get(c) != r.values.get(c) else ""}">{_cell(r.values.get(c))}</td>'
                        for c in cols)
        paths = f'<td class="num">{r.outcome.paths}</td>' if paths_col else ""
        rows.append(f'<tr id="outcome-{r.number}" class="{cls}"><td><a href="#witness-{r.number}">{r.number}</a>{flags}</td>'
                    f"{cells}{paths}</tr>")
    if data.check is not None:
        for u in data.check.unreachable:
            cells = "".join(f"<td>{_cell(u[c]) if c in u else ''}</td>" for c in cols)
            rows.append(f'<tr class="unreachable"><td>\u2014<span class="flag miss">stated by the ruling, unreachable</span></td>'
                        f"{cells}{'<td></td>' if paths_col else ''}</tr>")
    start = "".join(f"<td>{_cell(data.baseline.get(c))}</td>" for c in cols)
    rows.insert(0, f'<tr class="start"><td><i>before</i></td>{start}{"<td></td>" if paths_col else ""}</tr>')
    n = len(data.rows)
    status = "complete" if data.result.complete else "PARTIAL: a limit cut the search"
    intro = (f"<p>{n} distinct outcome{'s' if n != 1 else ''} ({escape(data.result.engine)} engine, {status})"
             + (f", projected on <code>{escape(', '.join(data.fields))}</code>" if data.fields else
                "; the columns are the fields some outcome changes") +
             ". A highlighted cell differs from the value before the actions; a highlighted column tells the outcomes apart."
             + ("" if paths_col else " (The CP engine does not count choice paths.)") + "</p>")
    table = (f'<div class="scroll"><table class="outcomes"><thead><tr><th>#</th>{head}{"<th class=num>paths</th>" if paths_col else ""}'
             f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>")
    return f'<section id="outcomes"><h2>Outcomes</h2>{intro}{table}</section>'


_KIND_TAG = {CHOICE: "choice", FORCED: "forced", NOT_DONE: "not done"}


def _witness_html(data: ReportData) -> str:
    parts = ['<section id="witnesses"><h2>How each outcome happens</h2>'
             "<p class=\"notes\">Each outcome's witness, step by step: the players' choices, the steps the rules "
             "force (an only legal option) and actions that could not happen.</p><div class=\"scroll tall\">"]
    for r in data.rows:
        label = ", ".join(f"{c}={value_text(r.values.get(c))}" for c in data.columns)
        items = "".join(f'<li class="{s.kind}"><span class="kind">{_KIND_TAG.get(s.kind, s.kind)}</span>{escape(s.words)}</li>'
                        for s in r.steps) or "<li><i>no choices: this is what happens</i></li>"
        star = " \u2605 optimal" if r.optimal else ""
        parts.append(f'<div class="witness{" optimal" if r.optimal else ""}" id="witness-{r.number}">'
                     f"<h3>Outcome {r.number}{star}: <span class=\"mono\">{escape(label)}</span></h3>"
                     f"<ol>{items}</ol></div>")
    parts.append("</div></section>")
    return "".join(parts)


def _check_html(data: ReportData) -> str:
    rep = data.check
    if rep is None:
        return ""
    ok = rep.ok
    words = {"OK": "the ruling's outcomes are exactly what the rules allow" if data.case.expect and data.case.expect.complete
             else "every outcome the ruling states is reachable",
             "INCOMPLETE": "the ruling misses outcomes the rules allow (marked in the table)",
             "UNREACHABLE": "the ruling states outcomes nobody can reach (in red in the table)"}
    detail = "".join(f"<li>{escape(d)}</li>" for d in rep.detail)
    return (f'<section id="check"><h2>The ruling</h2><p class="verdict {"ok" if ok else "bad"}">{escape(rep.status)}: '
            f"{escape(words.get(rep.status, 'see below'))}</p>"
            + (f"<ul class=\"notes\">{detail}</ul>" if detail else "") + "</section>")


def _optimum_html(data: ReportData) -> str:
    res = data.optimum
    if res is None or data.objective is None:
        return ""
    goals = "; ".join(f"{c}: " + ", then ".join(str(g) for g in gs) for c, gs in data.objective.goals)
    n = len(res.outcomes)
    parts = [f'<section id="optimum"><h2>Optimal play</h2><p>Objective <code>{escape(goals)}</code>: '
             f"{n} optimal outcome{'s' if n != 1 else ''} ({escape(res.engine)} engine"
             f"{'' if res.complete else ', PARTIAL'}), marked \u2605 in the table and the tree.</p>"]
    if res.decisions:
        rows = "".join(f"<tr><td>{escape(d.chooser)}</td><td>{escape(d.kind)} at {escape(d.at)}</td>"
                       f"<td>{'<b>matters</b>' if d.matters else 'does not matter'}</td><td>{escape(', '.join(d.best))}</td>"
                       f"<td>{escape(', '.join(d.options))}</td></tr>" for d in res.decisions)
        parts.append('<h3>Decisions on the optimal line</h3><table class="decisions"><tr><th>who</th><th>decision</th>'
                     f"<th>does it matter?</th><th>best</th><th>options</th></tr>{rows}</table>")
    elif res.engine == "cp":
        parts.append("<p class=\"notes\">CP-SAT proved the optimum; which decisions matter is reported by the graph "
                     "engine (<code>--engine graph</code>).</p>")
    parts.append("</section>")
    return "".join(parts)


def _tree_html(data: ReportData) -> str:
    tree, cg = data.tree, data.picture
    if tree is None or cg is None:
        return ""
    svg, _ = render_svg(tree, "tree")
    notes = list(data.notes) + tree.notes
    cut = "" if cg.complete else (
        f'<p class="cutnote">PARTIAL: a limit cut this graph at {cg.graph.number_of_nodes()} nodes '
        "(--max-nodes or --timeout); cut nodes are red, with a \u201ccut here\u201d box where drawn.</p>")
    legend = ('<div class="legend"><span><i class="sw" style="background:#eef3ff;border-color:#4a6fb5"></i>decision: who '
              "chooses what, where (and in which combat damage step)</span>"
              '<span><i class="sw" style="background:#e9f6ec;border-color:#2e7d32"></i>distinct outcome (click: its row)</span>'
              '<span><i class="sw" style="background:#f3f0fb;border-color:#6b55a8"></i>summarised (click to open)</span>'
              '<span><i class="sw" style="background:#fff0f0;border-color:#c62828"></i>cut by a limit</span>'
              '<span><i class="sw" style="background:#fff4cf;border-color:#e0a400"></i>optimal</span></div>')
    details = []
    for key, content in tree.details.items():
        if isinstance(content, Tree):
            sub, _ = render_svg(content, f"tree-{key}")
            body = f'<div class="treebox">{sub}</div>'
        else:
            body = "<ol>" + "".join(f"<li>{escape(s)}</li>" for s in content) + "</ol>"
        details.append(f'<div class="detail" id="detail-{escape(key)}"><h3>{escape(tree.detail_titles.get(key, key))}</h3>{body}</div>')
    nn, ne = cg.graph.number_of_nodes(), cg.graph.number_of_edges()
    edges_word = f"{nn} node{'s' if nn != 1 else ''}, {ne} edge{'s' if ne != 1 else ''} in the graph"
    return (f'<section id="tree-section"><h2>The choice tree</h2><p class="notes">Identical states are merged '
            f"(it is a DAG); edges are the options picked. {escape(edges_word)}.</p>{cut}{legend}"
            f'<div class="treebox">{svg}</div>'
            + ("<ul class=\"notes\">" + "".join(f"<li>{escape(n)}</li>" for n in notes) + "</ul>" if notes else "")
            + "".join(details) + "</section>")


def render_html(data: ReportData) -> str:
    case = data.case
    badges = [f'<span class="badge">{len(data.rows)} distinct outcome{"s" if len(data.rows) != 1 else ""}</span>',
              f'<span class="badge">{escape(data.result.engine)} engine</span>',
              '<span class="badge ok">complete</span>' if data.result.complete else
              '<span class="badge partial">PARTIAL</span>']
    if data.check is not None:
        badges.append(f'<span class="badge {"ok" if data.check.ok else "bad"}">ruling: {escape(data.check.status)}</span>')
    if data.optimum is not None:
        badges.append('<span class="badge">\u2605 optimal line shown</span>')
    header = (f"<header><h1>{escape(case.title or case.id)}</h1><div class=\"id\">{escape(case.id)} \u00b7 "
              f"{escape(case.path)} \u00b7 {escape(case.format)}</div>"
              + (f'<div class="src">{escape(case.source)}</div>' if case.source else "")
              + f'<div class="badges">{"".join(badges)}</div></header>')
    # short explanations beside the table; long ones after the picture, so the picture stays near the top
    beside = sum(len(r.steps) for r in data.rows) <= SHORT_WITNESSES
    body = (header + "<main><div class=\"top\"><div class=\"left\">" + _situation_html(case) + "</div>"
            + "<div class=\"right\">" + _check_html(data) + _outcomes_html(data) + _optimum_html(data)
            + (_witness_html(data) if beside else "") + "</div></div>" + _tree_html(data)
            + ("" if beside else _witness_html(data)) + "</main>"
            + "<footer>mtg-outcomes report \u00b7 self-contained: nothing on this page is loaded from the network</footer>")
    return _page(f"{case.id} \u2014 mtg-outcomes report", body)


def write_report(data: ReportData, path: str | Path) -> None:
    Path(path).write_text(render_html(data), encoding="utf-8")


def index_html(entries: Iterable[dict[str, Any]]) -> str:
    """The batch index: every case's verdict, with a link to its page when it has one."""
    rows = []
    for e in entries:
        link = f'<a href="{escape(str(e["page"]))}">{escape(str(e["case"]))}</a>' if e.get("page") else escape(str(e["case"]))
        status = str(e.get("status", ""))
        cls = "ok" if status in ("OK", "NO-EXPECT", "PARTIAL") else "bad"
        rows.append(f'<tr><td>{link}</td><td><span class="badge {cls}">{escape(status)}</span></td>'
                    f'<td class="num">{escape(str(e.get("outcomes", "")))}</td><td class="mono">{escape(str(e.get("path", "")))}</td>'
                    f"<td>{escape(str(e.get('message', '')))}</td></tr>")
    counts: dict[str, int] = {}
    for e in entries if isinstance(entries, list) else []:
        counts[str(e.get("status"))] = counts.get(str(e.get("status")), 0) + 1
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    body = (f"<header><h1>mtg-outcomes batch report</h1><div class=\"id\">{escape(summary)}</div></header><main><section>"
            '<table class="index"><tr><th>case</th><th>verdict</th><th class="num">outcomes</th><th>file</th><th>note</th></tr>'
            + "".join(rows) + "</table></section></main>")
    return _page("mtg-outcomes batch report", body)


def _page_name(case_id: str, taken: set[str]) -> str:
    import re

    base = re.sub(r"[^A-Za-z0-9._-]+", "_", case_id).strip("._") or "case"
    name, k = f"{base}.html", 2
    while name in taken or name == "index.html":
        name, k = f"{base}-{k}.html", k + 1
    taken.add(name)
    return name


def write_batch_report(records: Sequence[dict[str, Any]], out_dir: str | Path, timeout: float | None = None,
                       max_nodes: int = PICTURE_MAX_NODES) -> list[dict[str, Any]]:
    """``batch --report DIR``: a page per case that has an answer and ``index.html`` with every
    case's verdict (the batch's status for its mode). Each page is this module's analysis of the
    case, run here in the parent after the batch, under the batch's per-case ``timeout`` and the
    picture's node limit; a case that failed (ERROR, TIMEOUT) gets no page, its row says why."""
    from model.errors import CaseErrors
    from model.load import load_case

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    entries = []
    for rec in sorted(records, key=lambda r: str(r.get("path"))):
        status = str(rec.get("status", ""))
        errors = rec.get("errors") or rec.get("check", {}).get("detail") or []
        entry: dict[str, Any] = {"case": rec.get("case"), "path": rec.get("path"), "status": status,
                                 "outcomes": len(rec["outcomes"]) if "outcomes" in rec else
                                 rec.get("check", {}).get("outcomes", ""),
                                 "message": str(errors[0]) if errors else ""}
        if status not in ("ERROR", "TIMEOUT"):
            try:
                data = analyse(load_case(str(rec.get("path"))), timeout=timeout, max_nodes=max_nodes)
                name = _page_name(str(rec.get("case")), taken)
                (out / name).write_text(render_html(data), encoding="utf-8")
                entry["page"] = name
            except (CaseErrors, MtgOutcomesError) as exc:
                entry["message"] = f"no page: {exc}".splitlines()[0]
        entries.append(entry)
    (out / "index.html").write_text(index_html(entries), encoding="utf-8")
    return entries

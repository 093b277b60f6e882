"""One case's page: every text from the case escaped, the sections in order (:func:`render_html`)."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

import yaml

from mtg_outcomes.model.cards import lookup_card
from mtg_outcomes.model.types import Case
from mtg_outcomes.model.versions import RULES_VERSION, card_data_version

from ..contract import Status
from ..decision import CHOICE, EVENT, FORCED, NOT_DONE
from ..graph import value_text
from ..optimize import decision_lines
from ..tree import Tree, render_svg
from .data import SHORT_WITNESSES, ReportData
from .style import CSS, JS


def _stamp_line() -> str:
    """The footer's versions (model.versions): the rules edition and the card data it was made under."""
    return f"Comprehensive Rules effective {RULES_VERSION} \u00b7 card data {card_data_version()}"


def _page(title: str, body: str) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><style>{CSS}</style></head>\n<body>\n{body}\n"
            f"<script>{JS}</script>\n</body></html>\n")


def _flow(value: Any) -> str:
    """A YAML value in one line, as a case file writes it."""
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
    names = {p.id: p.name for p in case.permanents if p.name}
    names |= {str(s.get("id")): str(s.get("name") or s.get("card") or s.get("id")) for s in raw.get("sources", []) or []
              if isinstance(s, dict)}
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
                     "".join(f"<li>{_action_html(a, names)}</li>" for a in raw["actions"]) + "</ol>")
    parts.append("</section>")
    return "".join(parts)


def _action_html(a: Any, names: dict[str, str]) -> str:
    if isinstance(a, dict) and list(a) == ["damage"] and isinstance(a["damage"], list):
        evs = [f"{d.get('from')} deals {d.get('amount')}{' combat' if d.get('combat') else ''} damage to {d.get('to')}"
               for d in a["damage"] if isinstance(d, dict)]
        return escape("at the same time: " + "; ".join(evs) if len(evs) > 1 else "; ".join(evs))
    if isinstance(a, dict) and list(a) == ["combat"]:
        chosen = isinstance(a["combat"], dict) and a["combat"].get("blocks") == "choose"
        return escape(("combat: the defending player chooses the blocks (CR 509.1a), then " if chosen else "combat ")
                      + "damage: the attackers and blockers as on the battlefield "
                      "(first and double strike make two steps, CR 510.4)")
    return f'<span title="{escape(_flow(a))}">{escape(action_words(a, names))}</span>'


_VERBS = {"activate": "activate", "cast": "cast", "enter": "put onto the battlefield", "leave": "remove from the battlefield",
          "may": "may", "deal": "deal", "gain_life": "gain life", "lose_life": "lose life", "end_step": "end step",
          "upkeep": "upkeep", "create": "create the effect", "tap_for_mana": "tap for mana", "become_monarch": "become the monarch",
          "leave_game": "leave the game", "could_produce": "what it could produce"}


def action_words(a: Any, names: dict[str, str]) -> str:
    """An action of the case in words, objects by name ("activate Vengeful Archon's ability, X = 3"),
    for the report's list of actions (the YAML is the item's tooltip)."""
    if isinstance(a, dict) and "deal" in a:  # a one-shot: "Shock deals 2 damage to any target"
        to = a.get("to", "any")
        said = "any target (its controller chooses)" if to == "any" else names.get(str(to), _flow(to))
        return f"{names.get(str(a.get('from')), a.get('from') or 'the action')} deals {_flow(a['deal'])} damage to {said}"
    if not isinstance(a, dict) or len(a) != 1:
        return _flow(a)
    (key, body), = a.items()
    verb = _VERBS.get(key, key.replace("_", " "))
    if not isinstance(body, dict):
        return f"{verb} {names.get(str(body), body)}" if body not in (None, {}) else verb
    parts = []
    who = body.get("id") or body.get("card") or body.get("source")
    if key == "activate" and who is not None:
        parts.append(f"{names.get(str(who), who)}'s ability" + (f" {body['ability']}" if "ability" in body else ""))
    elif who is not None:
        parts.append(str(names.get(str(who), who)))
    for k, v in body.items():
        if k in ("id", "card", "source", "ability"):
            continue
        said = ", ".join(str(names.get(str(x), x)) for x in v) if isinstance(v, list) else names.get(str(v), _flow(v))
        parts.append(f"X = {said}" if k == "x" else f"{k.replace('_', ' ')} {said}")
    return f"{verb} " + ", ".join(parts)


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


_KIND_TAG = {CHOICE: "choice", FORCED: "forced", NOT_DONE: "not done", EVENT: "result"}


def _witness_html(data: ReportData) -> str:
    parts = ['<section id="witnesses"><h2>How each outcome happens</h2>'
             "<p class=\"notes\">Each outcome's witness, step by step: the players' choices (who chooses, under "
             "which rule), the steps the rules force (an only legal option), actions that could not happen, and "
             "the results of each step (damage dealt, life, counters, deaths, triggers), each with its rule.</p>"
             "<div class=\"scroll tall\">"]
    for r in data.rows:
        label = ", ".join(f"{c}={value_text(r.values.get(c))}" for c in data.columns)
        items = "".join(f'<li class="{s.kind}"><span class="kind">{_KIND_TAG.get(s.kind, s.kind)}</span>{escape(s.text())}</li>'
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
    words = {Status.OK: "the ruling's outcomes are exactly what the rules allow" if data.case.expect and data.case.expect.complete
             else "every outcome the ruling states is reachable",
             Status.INCOMPLETE: "the ruling misses outcomes the rules allow (marked in the table)",
             Status.UNREACHABLE: "the ruling states outcomes nobody can reach (in red in the table)"}
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
        lines = [line.split(": ", 1) for line in decision_lines(data.case, res.decisions)]
        rows = [f"<tr><td>{escape(head)}</td><td>{escape(verdict)}</td></tr>" for head, verdict in lines]
        head = '<table class="decisions"><tr><th>decision (who, under which rule)</th><th>does it matter? the best</th></tr>'
        shown = head + "".join(rows[:SHOWN_DECISIONS]) + "</table>"
        more = "" if len(rows) <= SHOWN_DECISIONS else (
            f"<details><summary>{len(rows) - SHOWN_DECISIONS} more decisions</summary>{head}"
            + "".join(rows[SHOWN_DECISIONS:]) + "</table></details>")
        parts.append(f"<h3>Decisions on the optimal lines</h3>{shown}{more}")
    elif res.engine == "cp":
        parts.append("<p class=\"notes\">CP-SAT proved the optimum; which decisions matter is reported by the graph "
                     "engine (<code>--engine graph</code>).</p>")
    parts.append("</section>")
    return "".join(parts)


SHOWN_DECISIONS = 12  # rows of the decision table before the rest fold into <details>


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
              '<span><i class="sw" style="background:#e9f6ec;border-color:#8e44ad;border-style:dashed"></i>'
              "outcome not in the ruling</span>"
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
            + f"<footer>mtg-outcomes report \u00b7 {escape(_stamp_line())} \u00b7 self-contained: nothing on this "
            "page is loaded from the network</footer>")
    return _page(f"{case.id} \u2014 mtg-outcomes report", body)


def write_report(data: ReportData, path: str | Path) -> None:
    Path(path).write_text(render_html(data), encoding="utf-8")

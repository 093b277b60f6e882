"""The report's inline CSS and JavaScript (nothing is loaded from anywhere)."""

from __future__ import annotations

CSS = """
:root { --ink:#1d2330; --mute:#5b6475; --line:#d5dae3; --bg:#f6f7fa; --card:#fff; --acc:#2f5fb3;
        --chg:#fff1c2; --opt:#e0a400; --bad:#c62828; --ok:#2e7d32; --miss:#8e44ad; }
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
tr.missing td:first-child { box-shadow: inset 4px 0 0 var(--miss); }
tr.unreachable td { color:var(--bad); font-style:italic; }
.flag { font-size:11.5px; font-weight:700; margin-left:6px; }
.flag.opt { color:#8a6400; } .flag.miss { color:var(--miss); }
.witness { margin:10px 0 14px; padding:8px 12px; border-left:3px solid var(--line); }
.witness.optimal { border-left-color:var(--opt); }
.witness h3 { margin:0 0 4px; }
.witness ol { margin:4px 0; padding-left:24px; }
.witness li.forced { color:var(--mute); font-style:italic; }
.witness li.not_done { color:#8a4b00; }
.witness li.event { color:#33506e; font-size:12.5px; }
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
svg.tree .node.outcome.missing rect { stroke:var(--miss); stroke-width:2.4; stroke-dasharray:5 3; }
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

"""A batch run's reports: one page per case and an index linking them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path
from typing import Any

from mtg_outcomes.model.errors import CaseErrors, MtgOutcomesError
from mtg_outcomes.model.load import load_case

from ..batch.records import FAILED, PASSED
from .data import PICTURE_MAX_NODES, analyse
from .page import _page, _stamp_line, render_html


def index_html(entries: Iterable[dict[str, Any]]) -> str:
    """The batch index: every case's verdict, with a link to its page when it has one."""
    rows = []
    for e in entries:
        link = f'<a href="{escape(str(e["page"]))}">{escape(str(e["case"]))}</a>' if e.get("page") else escape(str(e["case"]))
        status = str(e.get("status", ""))
        cls = "ok" if status in PASSED else "bad"
        rows.append(f'<tr><td>{link}</td><td><span class="badge {cls}">{escape(status)}</span></td>'
                    f'<td class="num">{escape(str(e.get("outcomes", "")))}</td><td class="mono">{escape(str(e.get("path", "")))}</td>'
                    f"<td>{escape(str(e.get('message', '')))}</td></tr>")
    counts: dict[str, int] = {}
    for e in entries if isinstance(entries, list) else []:
        counts[str(e.get("status"))] = counts.get(str(e.get("status")), 0) + 1
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    body = (f"<header><h1>mtg-outcomes batch report</h1><div class=\"id\">{escape(summary)}</div></header><main><section>"
            '<table class="index"><tr><th>case</th><th>verdict</th><th class="num">outcomes</th><th>file</th><th>note</th></tr>'
            + "".join(rows) + "</table></section></main>"
            + f"<footer>mtg-outcomes batch report \u00b7 {escape(_stamp_line())}</footer>")
    return _page("mtg-outcomes batch report", body)


def _page_name(case_id: str, taken: set[str]) -> str:
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
        if status not in FAILED:
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

"""A comparison in words, as JSON, and a Markdown table over many cases."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mtg_outcomes.decision import CHOICE, NOT_DONE
from mtg_outcomes.explain import replay
from mtg_outcomes.model.outcome import Outcome
from mtg_outcomes.model.types import Case

from .compare import Comparison

__all__ = ["as_json", "as_text", "table_row", "TABLE_HEAD"]


def _witness(case: Case, outcome: Outcome) -> list[str]:
    """Our outcome's witness as steps (its choices and the actions that couldn't happen)."""

    try:
        steps = replay(case, outcome).steps
    except Exception:  # a CP outcome without a replayable witness: its raw choices
        return [f"{w.chooser} {w.kind} at {w.at}: {w.picked}" for w in outcome.witness]
    return [s.words if s.kind == CHOICE else f"({s.words})" for s in steps if s.kind in (CHOICE, NOT_DONE)]


def as_json(case: Case, cmp: Comparison) -> dict[str, Any]:
    return {
        "case": cmp.case, "peer": cmp.peer, "agree": cmp.agree, "fields": list(cmp.fields),
        "only_peer": [{"state": s, "steps": list(p.steps)} for s, p in cmp.only_peer],
        "only_ours": [{"state": s, "steps": _witness(case, o)} for s, o in cmp.only_ours],
        "both": list(cmp.both),
        "prompts": {k: dict(v) for k, v in sorted(cmp.run.prompts.items())},
        "unsupported": list(cmp.unsupported),
        "complete": {"peer": cmp.run.complete, "ours": cmp.ours_complete},
        "cut": cmp.run.cut, "nodes": cmp.run.nodes,
    }


def _state(s: dict[str, Any], base: dict[str, Any]) -> str:
    shown = {k: v for k, v in s.items() if base.get(k) != v} or s
    return ", ".join(f"{k}={v}" for k, v in shown.items())


def _base(cmp: Comparison) -> dict[str, Any]:
    """The field values every outcome of both sides shares (said once, not per outcome)."""
    every = [s for s, _ in cmp.only_peer] + [s for s, _ in cmp.only_ours] + list(cmp.both)
    return {k: v for k, v in every[0].items() if all(s.get(k) == v for s in every)} if every else {}


def as_text(case: Case, cmp: Comparison) -> list[str]:
    base = _base(cmp)
    lines = [f"{cmp.case}: {cmp.peer} {'AGREES' if cmp.agree else 'DIFFERS'} "
             f"({len(cmp.both)} outcome(s) in common, {len(cmp.only_peer)} only {cmp.peer}, "
             f"{len(cmp.only_ours)} only ours; compared on {len(cmp.fields)} fields)"]
    if base:
        lines.append("  every outcome has: " + ", ".join(f"{k}={v}" for k, v in base.items()))
    for s, p in cmp.only_peer:
        lines.append(f"  only {cmp.peer}: {_state(s, base)}")
        lines += [f"    - {w}" for w in p.steps] or ["    - no choices"]
    for s, o in cmp.only_ours:
        lines.append(f"  only ours: {_state(s, base)}")
        lines += [f"    - {w}" for w in _witness(case, o)] or ["    - no choices"]
    if cmp.run.prompts:
        lines.append(f"  {cmp.peer} prompts: " + ", ".join(
            f"{k} x{v['times']} ({v['options']} options, {v['by']})" for k, v in sorted(cmp.run.prompts.items())))
    else:
        lines.append(f"  {cmp.peer} prompts: none")
    lines += [f"  unsupported: {u}" for u in cmp.unsupported]
    if cmp.run.cut:
        lines.append(f"  PARTIAL: {cmp.run.cut}")
    if not cmp.ours_complete:
        lines.append("  PARTIAL: a limit cut our own enumeration")
    return lines


TABLE_HEAD = ["| case | result | only phase | only ours | prompts | not expressed |",
              "|---|---|---|---|---|---|"]


def table_row(case_id: str, result: str, cmp: Comparison | None, reason: Sequence[str] = ()) -> str:
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    if cmp is None:
        return f"| {case_id} | {result} | | | | {cell('; '.join(reason))} |"
    base = _base(cmp)
    peer = "<br>".join(cell(_state(s, base)) for s, _ in cmp.only_peer)
    ours = "<br>".join(cell(_state(s, base)) for s, _ in cmp.only_ours)
    prompts = ", ".join(f"{k} x{v['times']}" for k, v in sorted(cmp.run.prompts.items()))
    notes = [u for u in cmp.unsupported if not u.startswith("fields not compared")]
    return f"| {case_id} | {result} | {peer} | {ours} | {cell(prompts)} | {cell('; '.join(notes))} |"

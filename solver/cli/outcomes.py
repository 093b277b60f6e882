"""``enumerate``, ``optimize``, ``check`` and ``mana``: a case's outcomes, printed or as JSON."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Sequence
from typing import Any

from mtg_outcomes.model.errors import CaseError, CaseErrors
from mtg_outcomes.model.objective import parse_objective_text
from mtg_outcomes.model.outcome import Outcome
from mtg_outcomes.model.types import Case

from ..api import Result, enumerate_outcomes
from ..check import check_paths
from ..decision import CHOICE, NOT_DONE
from ..engine import final_fields
from ..explain import replay
from ..graph import build_graph, write_graph
from ..limits import Deadline, LimitReached, running_under
from ..log import Step
from ..mana import could_produce_all, mana_permanents
from ..mana_why import why
from ..optimize import decision_lines, optimize
from ..ruling import ruling_text
from ..state import initial_state
from ..words import value_text
from .files import graph_file, load_case_or_exit


def _fmt(v: Any) -> str:
    """One spelling of a value in every text output (yes/no, [W B]): solver.graph.value_text."""
    return value_text(v)


def _write_graph(args: argparse.Namespace, case: Case, result: Result) -> None:
    """Write the choice graph the outcomes came from, or (CP chosen by auto) one the graph engine
    builds under the same limits; a graph cut by a limit is marked cut, in the file and here."""
    cg = result.graph
    if cg is None:
        cg = build_graph(case, max_nodes=args.max_nodes, timeout=args.timeout)
    try:
        write_graph(cg, args.graph, parse_fields(args.fields))
    except OSError as exc:
        raise CaseErrors([CaseError("--graph", f"{args.graph}: cannot write: {exc.strerror or exc}")]) from None
    built = "" if result.graph is not None else ", built separately by the graph engine: auto chose CP for the outcomes"
    cut = "" if cg.complete else "; PARTIAL: a limit cut it, cut nodes are marked"
    print(f"wrote the choice graph to {args.graph} ({cg.graph.number_of_nodes()} nodes{built}{cut})", file=sys.stderr)


RAW_NOTE = ("the time limit passed while the witnesses were put into words: the rest are shown as the "
            "engine's raw choices (chooser, decision, picked), each still a replayable witness")


def _replayed(case: Case, outcome: Outcome, deadline: Deadline | None) -> tuple[Step, ...] | None:
    """The witness's replayed steps, or None once ``deadline`` has passed (before or inside the
    replay: a long chain of triggers is cut inside, solver.limits.running_under)."""
    if deadline is not None and deadline.expired():
        return None
    try:
        with running_under(deadline):
            return replay(case, outcome).steps
    except LimitReached:
        return None


def _steps(case: Case, outcome: Outcome, explain: bool, deadline: Deadline | None = None) -> list[str]:
    """An outcome's witness in words: its choices, the actions that couldn't happen, and with
    ``explain`` the forced steps too (replayed through the rules engine, so both engines' alike).
    Once ``deadline`` has passed, the raw witness instead: a replay costs a walk of the timeline
    (about a second per outcome at 100 events), and the time limit holds while printing too."""
    steps = _replayed(case, outcome, deadline)
    if steps is None:
        return [f"[raw] {w.chooser} {w.kind} at {w.at}: {w.picked}" for w in outcome.witness]
    return [s.text() for s in steps if explain or s.kind in (CHOICE, NOT_DONE)]


def _explain_json(doc: dict[str, Any], case: Case, outcomes: Sequence[Outcome], deadline: Deadline | None = None) -> None:
    """``--explain --json``: each outcome gets ``explain``, its steps as ``{kind, words}``; once
    ``deadline`` has passed, ``explain`` is null and ``stats.explain`` says why."""
    for entry, o in zip(doc["outcomes"], outcomes, strict=True):
        steps = _replayed(case, o, deadline)
        if steps is None:
            entry["explain"] = None
            doc["stats"]["explain"] = RAW_NOTE
            continue
        entry["explain"] = [s.as_dict() for s in steps]


def parse_fields(text: str | None) -> list[str] | None:
    """--fields' comma-separated paths; given but naming none (``,,,``) is an error, not a
    projection onto nothing (every outcome would look the same)."""
    if text is None:
        return None
    fields = [f.strip() for f in text.split(",") if f.strip()]
    if not fields:
        raise CaseErrors([CaseError("--fields", f"no field named in {text[:100]!r} (e.g. you.life,A.cards_drawn)")])
    return fields


def _graph_has_no_workers(args: argparse.Namespace, case: Case) -> None:
    """--workers is CP-SAT's: with --engine graph it can't be honoured (an error, not ignored)."""
    if args.engine == "graph" and args.workers != 1:
        raise CaseErrors([CaseError("--workers", "the graph engine has no parallel search; CP-SAT's workers "
                                                 "need --engine cp or auto", case.path)])


def enumerate_command(args: argparse.Namespace) -> int:
    case = load_case_or_exit(args.case)
    fields = parse_fields(args.fields)
    if args.graph:
        graph_file(args.graph)
        if args.engine == "cp":
            raise CaseErrors([CaseError("--graph", "the CP engine builds no choice graph; use --engine graph "
                                                   "(or auto, which builds one under the same limits)", case.path)])
    _graph_has_no_workers(args, case)
    deadline = Deadline(args.timeout)  # one limit for solving and putting the witnesses into words
    result = enumerate_outcomes(case, engine=args.engine, fields=fields, max_nodes=args.max_nodes,
                                timeout=deadline, workers=args.workers)
    if args.graph:
        _write_graph(args, case, result)
    if args.json:
        doc = result.as_dict()
        doc["stats"].pop("seconds", None)  # same input, same bytes
        if args.explain:
            _explain_json(doc, case, result.outcomes, deadline)
        print(json.dumps(doc, sort_keys=True))
        return 0
    if not args.ruling:
        print(f"{case.id}: {len(result.outcomes)} distinct outcome{'s' if len(result.outcomes) != 1 else ''}"
              f" ({result.engine} engine, {'complete' if result.complete else 'PARTIAL: a limit cut the search'})")
    if not result.complete and result.stats.get("limit"):
        print(f"mtg-outcomes: {case.id}: {result.stats['limit']}", file=sys.stderr)  # what cut it
    names = list(fields) if fields is not None else judge_fields(case, [o.values for o in result.outcomes])
    if args.ruling:
        print(ruling_text(case, result.outcomes, result.complete, names))
        return 0
    noted = False
    for i, o in enumerate(result.outcomes, 1):
        text = ", ".join(f"{k}={_fmt(o.values.get(k))}" for k in names) or "(nothing changes)"
        print(f"\n  {i}. {text}")
        # the CP engine finds distinct outcomes without walking raw choice paths: none counted
        print(f"     paths: {o.paths}" if result.engine != "cp" else "     paths: not counted (CP engine)")
        lines = _steps(case, o, args.explain, deadline)
        if deadline.expired() and not noted:  # (before or during this replay)
            print(f"mtg-outcomes: {RAW_NOTE}", file=sys.stderr)
            noted = True
        for line in lines or ["no choices"]:
            print(f"     - {line}")
    return 0


def optimize_command(args: argparse.Namespace) -> int:

    case = load_case_or_exit(args.case)
    if args.objective:
        try:
            objective = parse_objective_text(args.objective)
        except CaseError as exc:
            raise CaseErrors([exc]) from None
    elif case.objective is not None:
        objective = case.objective
    else:
        raise CaseErrors([CaseError("objective", "no objective: give --objective 'you: maximize you.life' or objective: in the case", args.case)])
    fields = parse_fields(args.fields)
    _graph_has_no_workers(args, case)
    deadline = Deadline(args.timeout)  # one limit for solving and putting the witnesses into words
    res = optimize(case, objective, max_nodes=args.max_nodes, timeout=deadline, engine=args.engine,
                   fields=fields, workers=args.workers)
    if args.json:
        doc = res.as_dict()
        doc["stats"].pop("seconds", None)  # same input, same bytes
        if args.explain:
            _explain_json(doc, case, res.outcomes, deadline)
        print(json.dumps(doc, sort_keys=True))
        return 0
    if not res.complete and res.stats.get("limit"):
        print(f"mtg-outcomes: {case.id}: {res.stats['limit']}", file=sys.stderr)  # what cut it
    goals = "; ".join(f"{c}: " + ", then ".join(str(g) for g in gs) for c, gs in objective.goals)
    print(f"{case.id}: optimal play for {goals}")
    print(f"{len(res.outcomes)} optimal outcome{'s' if len(res.outcomes) != 1 else ''}"
          f"{'' if res.complete else ' (PARTIAL: a limit cut the search)'}")
    # the objective's fields, and whatever else tells the optimal outcomes apart
    # (linear in the outcomes: a field differs when some outcome's value isn't the first one's)
    rows = [o.values for o in res.outcomes]
    differ = {k for k in {k for row in rows for k in row} if any(row.get(k) != rows[0].get(k) for row in rows)}
    shown = sorted(objective.fields() | set(fields or ()) | differ)
    noted = False
    width = line_width()
    for i, o in enumerate(res.outcomes, 1):
        if i > MAX_LISTED:
            print(f"\n  ... and {len(res.outcomes) - MAX_LISTED} more optimal outcomes (--json lists every one)")
            break
        print(fit(f"\n  {i}. " + ", ".join(f"{k}={_fmt(o.values.get(k))}" for k in shown), width))
        lines = _steps(case, o, args.explain, deadline)
        if deadline.expired() and not noted:  # (before or during this replay)
            print(f"mtg-outcomes: {RAW_NOTE}", file=sys.stderr)
            noted = True
        for line in lines or ["no choices"]:
            print(fit(f"     - {line}", width))
    if res.engine == "cp":
        proved = res.stats.get("optimum", {})
        if proved and not res.complete:
            print("\nthe optimum is proved (" + "; ".join(f"{c}: {', '.join(map(str, v))}" for c, v in proved.items())
                  + "); the list of optimal outcomes is partial")
        if "declarations_valued" in res.stats:  # solver.cp.declared: bounded by CP-SAT, valued by the graph
            print(f"\nsolved in {res.stats.get('seconds', 0)} s: CP-SAT bounded the block declarations "
                  f"({res.stats.get('solves', 0)} solves), the choice graph valued "
                  f"{res.stats['declarations_valued']} of them")
        else:
            print(f"\nsolved by CP-SAT in {res.stats.get('seconds', 0)} s ({res.stats.get('solves', 0)} solves); "
                  "each outcome's choices are listed above (the graph engine also reports which decisions matter)")
            return 0
    print("\ndecisions on the optimal lines:")

    for line in decision_lines(case, res.decisions):
        print(fit(f"  {line}", width))
    return 0


MAX_LISTED = 3  # optimal outcomes listed in text (the decisions say the rest); --json has them all


def line_width() -> int:
    """No text line longer than the terminal, or 200 characters when not writing to one."""
    return shutil.get_terminal_size((200, 24)).columns if sys.stdout.isatty() else 200


def fit(line: str, width: int) -> str:
    """``line`` cut to ``width`` characters (its end marked with an ellipsis)."""
    return line if len(line) <= width else line[: width - 1] + "\u2026"


_JUDGE = (".life", ".poison", ".lost", ".cards_drawn", ".dies", ".damage", ".loyalty", ".defense")


def judge_fields(case: Case, rows: Sequence[dict[str, Any]]) -> list[str]:
    """The fields ``enumerate`` shows without --fields, the same in every row: what a judge asks
    about (life, poison, lost, cards drawn, dies, damage marked, counters, loyalty, defense) where
    some outcome differs from the case's initial state, every player's life, and any other field
    that tells two outcomes apart (or they would read the same)."""
    base = _baseline(case)
    keys = {k for row in rows for k in row}
    judge = {k for k in keys if (k.endswith(_JUDGE) or ".counters." in k) and not k.startswith("team")}
    # a permanent entering during the actions has no initial value: compared with none (0, no)
    shown = {k for k in judge if any(row.get(k) != base.get(k, _none(row.get(k))) for row in rows)}
    shown |= {f"{p.name}.life" for p in case.players if f"{p.name}.life" in keys}
    shown |= {k for k in keys if any(row.get(k) != rows[0].get(k) for row in rows)}
    return sorted(shown)


def _none(v: Any) -> Any:
    """The value of a field with nothing in it: 0, no."""
    return False if isinstance(v, bool) else 0 if isinstance(v, int) else v


def _baseline(case: Case) -> dict[str, Any]:
    """The fields before any action, so the table shows what changed."""

    s0, table = initial_state(case)
    return final_fields(s0, table)


def check_command(args: argparse.Namespace) -> int:
    reports = check_paths(args.paths, engine=args.engine, timeout=args.timeout)
    if not reports:  # exit 2 with its reason, not a bare "(0 cases)"
        raise CaseErrors([CaseError("paths", f"no case files (*.yaml, *.yml) in {', '.join(args.paths)}")])
    if args.json:
        print(json.dumps([r.as_dict() for r in reports], sort_keys=True))
    else:
        width = max([len(r.case) for r in reports] + [4])
        sw = max([len(r.status) for r in reports] + [12])  # INCOMPLETE+UNREACHABLE keeps its column
        print(f"{'case'.ljust(width)}  {'status'.ljust(sw)} outcomes  file")
        for r in reports:
            print(f"{r.case.ljust(width)}  {r.status.ljust(sw)} {r.outcomes:>8}  {r.path}")
            for line in r.detail:
                print(f"{'':{width}}    {line}")
            for line in r.warnings:
                print(f"{'':{width}}    {line}")
        counts: dict[str, int] = {}
        for r in reports:
            counts[r.status] = counts.get(r.status, 0) + 1
        print("\n" + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) + f" ({len(reports)} cases)")
    if any(r.bad_input for r in reports) or not reports:
        return 2
    return 0 if all(r.ok for r in reports) else 1


def mana_command(args: argparse.Namespace) -> int:
    """Could-produce answers (CR 106.7) in the case's initial state (before its actions)."""

    case = load_case_or_exit(args.case)
    state, table = initial_state(case)
    known = could_produce_all(state, table)
    if args.permanent is not None:
        if table.spec_of(state, args.permanent) is None:
            print(f"mtg-outcomes: {args.case}: no permanent {args.permanent!r}", file=sys.stderr)
            return 2
        ids = [args.permanent]
    else:
        ids = mana_permanents(state, table)
    order = "WUBRGC"
    if args.json:
        out = {pid: {"could_produce": sorted(known.get(pid, ()), key=order.index),
                     "why": why(state, table, pid)} for pid in ids}
        print(json.dumps(out, sort_keys=True))
        return 0
    print(f"{case.id}: mana (initial state, before the case's actions)")
    for pid in ids:
        for line in why(state, table, pid):
            print(f"  {line}")
    return 0

"""The ``mtg-outcomes`` command line: validate, enumerate, check.

Exit codes (design.md): 0 ok, 1 a check or expectation failed, 2 bad input. Errors are one line
each (``file: path.to.field: reason``), never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from model.errors import CaseError, CaseErrors, MtgOutcomesError
from model.load import load_case

from .api import ENGINES, enumerate_outcomes
from .check import case_files, check_paths

__all__ = ["main"]


DEFAULT_TIMEOUT = 600.0  # the tool never hangs: a run that long reports what it has, marked partial


def _seconds(text: str) -> float | None:
    """A time limit in seconds; 0 means none."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if value < 0 or value != value:
        raise argparse.ArgumentTypeError(f"expected seconds >= 0, got {text!r}")
    return None if value == 0 else value


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mtg-outcomes", description="Exact answers about Magic: The Gathering damage.")
    sub = p.add_subparsers(dest="command", required=True)
    v = sub.add_parser("validate", help="check case files against the format; every problem, one line each")
    v.add_argument("paths", nargs="+")
    e = sub.add_parser("enumerate", help="every distinct legal outcome, each with a witness")
    e.add_argument("case")
    e.add_argument("--fields", help="comma-separated field paths to project onto (e.g. you.life,A.cards_drawn)")
    e.add_argument("--json", action="store_true", help="machine-readable output (stable, sorted)")
    e.add_argument("--graph", metavar="FILE", help="write the choice graph (.dot or .graphml); with the CP engine "
                   "chosen by auto, the graph engine builds it under the same limits")
    e.add_argument("--explain", action="store_true",
                   help="list every step of each witness, forced steps too (an only option, an action that can't happen)")
    e.add_argument("--engine", choices=ENGINES, default="auto")
    e.add_argument("--max-nodes", type=int, default=2_000_000)
    e.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT,
                   help=f"seconds (default {DEFAULT_TIMEOUT:g}; 0: no limit); partial results are marked incomplete")
    o = sub.add_parser("optimize", help="the best choices for each chooser's objective (backward induction)")
    o.add_argument("case")
    o.add_argument("--objective", action="append", default=[],
                   help="'CHOOSER: maximize FIELD' or 'CHOOSER: [maximize a.life, minimize b.cards_drawn]' (repeatable); "
                        "defaults to the case's objective:")
    o.add_argument("--json", action="store_true")
    o.add_argument("--engine", choices=ENGINES, default="auto",
                   help="graph: backward induction with a report per decision; cp: CP-SAT (one chooser); "
                        "auto: CP when the graph would be large")
    o.add_argument("--fields", help="comma-separated fields: list optimal outcomes projected onto these")
    o.add_argument("--explain", action="store_true", help="list forced steps too (see enumerate --explain)")
    o.add_argument("--max-nodes", type=int, default=2_000_000)
    o.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT,
                   help=f"seconds (default {DEFAULT_TIMEOUT:g}; 0: no limit); partial results are marked as such")
    c = sub.add_parser("check", help="compare each case's expect: with every reachable outcome")
    c.add_argument("paths", nargs="+")
    c.add_argument("--json", action="store_true")
    c.add_argument("--engine", choices=ENGINES, default="auto")
    c.add_argument("--timeout", type=float, default=60.0)
    b = sub.add_parser("batch", help="run many cases in parallel; one JSON line per case, resumable")
    b.add_argument("paths", nargs="+")
    b.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    b.add_argument("--out", required=True, help="JSON-lines results file (appended; re-running resumes)")
    b.add_argument("--mode", choices=("enumerate", "optimize", "check"), default="enumerate")
    b.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT,
                   help=f"seconds per case (default {DEFAULT_TIMEOUT:g}; 0: no limit); a stuck worker is killed")
    b.add_argument("--executor", choices=("local", "ray"), default="local")
    b.add_argument("--csv", metavar="FILE", help="also write a CSV summary of every recorded case")
    b.add_argument("--no-progress", action="store_true")
    b.add_argument("--report", metavar="DIR", help="also write an HTML page per case and an index.html with every "
                   "case's verdict into DIR")
    g = sub.add_parser("generate", help="reproducible random valid case files")
    g.add_argument("dir")
    g.add_argument("--count", type=int, required=True)
    g.add_argument("--seed", type=int, default=0)
    r = sub.add_parser("report", help="one self-contained HTML page: the situation, every outcome and why, "
                       "the ruling's verdict, the optimal line, the choice tree drawn")
    r.add_argument("case")
    r.add_argument("-o", "--out", required=True, metavar="FILE", help="the HTML file to write")
    r.add_argument("--fields", help="comma-separated fields: project the outcomes and label the tree's leaves")
    r.add_argument("--objective", action="append", default=[],
                   help="as for optimize (repeatable); defaults to the case's objective:, if any")
    r.add_argument("--engine", choices=ENGINES, default="auto")
    r.add_argument("--max-nodes", type=int, default=3000,
                   help="the picture's choice graph is built up to this many nodes (default 3000); a cut graph is drawn cut")
    r.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT,
                   help=f"seconds (default {DEFAULT_TIMEOUT:g}; 0: no limit)")
    mn = sub.add_parser("mana", help="the types of mana each permanent could produce, and why (CR 106.7)")
    mn.add_argument("case")
    mn.add_argument("--permanent", metavar="ID", help="only this permanent")
    mn.add_argument("--json", action="store_true")
    cd = sub.add_parser("card", help="a real card's facts and what each line of its text became")
    cd.add_argument("name", nargs="+", help="the card's name (quotes optional)")
    cd.add_argument("--json", action="store_true")
    cs = sub.add_parser("cards", help="the card data: --coverage, how much of it the recogniser understands")
    cs.add_argument("--coverage", action="store_true", required=True)
    cs.add_argument("--family", help="only this family of lines not understood (more examples)")
    cs.add_argument("--json", action="store_true")
    from .peer.cli import add_parser as add_peer

    add_peer(sub)
    return p


def _batch(args: argparse.Namespace) -> int:
    """Exit 1 when any case fails as ``check`` would fail it (an error, a timeout, a ruling that is
    INCOMPLETE or UNREACHABLE); 2 for bad arguments, an unwritable ``--out``/``--csv`` included."""
    from .batch import OutputError, check_output, failed, print_summary, run_batch, write_csv

    if args.executor == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            print("ray is not installed: pip install '.[cluster]'", file=sys.stderr)
            return 2
    check_output(args.out, "--out")
    if args.csv is not None:
        check_output(args.csv, "--csv")
        same = os.path.abspath(args.csv) == os.path.abspath(args.out) or (
            os.path.exists(args.csv) and os.path.exists(args.out) and os.path.samefile(args.csv, args.out))
        if same:
            raise OutputError(f"--csv {args.csv}: the same file as --out (the CSV would replace the results)")
    if args.report is not None:
        _report_dir(args.report)
    if not list(case_files(args.paths)):
        print(f"{' '.join(args.paths)}: no case files found", file=sys.stderr)
        return 2
    try:
        records = run_batch(args.paths, args.out, jobs=args.jobs, mode=args.mode, timeout=args.timeout,
                            executor=args.executor, progress=not args.no_progress)
    except KeyboardInterrupt:
        print(f"mtg-outcomes: interrupted; finished cases are in {args.out} (re-run to resume)", file=sys.stderr)
        return 130
    print_summary(records)
    if args.csv:
        write_csv(records, args.csv)
    if args.report is not None:
        from .report import write_batch_report

        try:
            entries = write_batch_report(records, args.report, timeout=args.timeout)
        except OSError as exc:
            raise OutputError(f"--report {args.report}: cannot write: {exc.strerror or exc}") from None
        pages = sum(1 for e in entries if e.get("page"))
        print(f"wrote {pages} case page{'s' if pages != 1 else ''} and {os.path.join(args.report, 'index.html')}",
              file=sys.stderr)
    return 1 if any(failed(r) for r in records) else 0


def _out_file(path: str, flag: str) -> Path:
    """An output file named on the command line: checked before any solving (one line, exit 2)."""
    p = Path(path)
    if p.is_dir():
        raise CaseErrors([CaseError(flag, f"{path}: is a directory")])
    if not p.parent.is_dir():
        raise CaseErrors([CaseError(flag, f"{path}: {p.parent} is not a directory")])
    if not os.access(p.parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise CaseErrors([CaseError(flag, f"{path}: not writable")])
    return p


def _report_dir(path: str) -> None:
    """``batch --report DIR``: a directory that exists or can be made, and can be written to."""
    from .batch import OutputError

    p = Path(path)
    if p.exists() and not p.is_dir():
        raise OutputError(f"--report {path}: not a directory")
    probe = p
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir() or not os.access(probe, os.W_OK | os.X_OK):
        raise OutputError(f"--report {path}: cannot create or write {probe}")


def _report(args: argparse.Namespace) -> int:
    from model.objective import parse_objective_text

    from .report import analyse, render_html

    out = _out_file(args.out, "-o")
    case = _load(args.case)
    objective = None
    if args.objective:
        try:
            objective = parse_objective_text(args.objective)
        except CaseError as exc:
            raise CaseErrors([exc]) from None
    data = analyse(case, fields=_fields(args.fields), objective=objective, engine=args.engine,
                   timeout=args.timeout, max_nodes=args.max_nodes)
    try:
        out.write_text(render_html(data), encoding="utf-8")
    except OSError as exc:
        raise CaseErrors([CaseError("-o", f"{args.out}: cannot write: {exc.strerror or exc}")]) from None
    tree = data.tree
    drawn = len(tree.outcome_boxes()) if tree else 0
    cut = "" if data.picture is None or data.picture.complete else "; the picture's graph is cut (marked PARTIAL)"
    print(f"wrote {args.out}: {len(data.rows)} distinct outcome{'s' if len(data.rows) != 1 else ''}, "
          f"{drawn} drawn in the tree{cut}")
    return 0


def _generate(args: argparse.Namespace) -> int:
    from .batch import generate_cases

    files = generate_cases(args.count, args.seed, args.dir)
    print(f"{len(files)} case file{'s' if len(files) != 1 else ''} written to {args.dir}")
    return 0


def _validate(paths: Sequence[str]) -> int:
    bad = 0
    files = 0
    for path in case_files(paths):
        files += 1
        try:
            case = load_case(path)
        except CaseErrors as exc:
            bad += 1
            for err in exc.errors:
                print(err)
            continue
        for warning in case.warnings:  # accepted, but without effect here: not an error (exit 0)
            print(warning)
    if files == 0:
        print(f"{' '.join(paths)}: no case files found")
        return 2
    if bad:
        return 2
    print(f"{files} case file{'s' if files != 1 else ''} valid")
    return 0


def _load(path: str) -> Any:
    """Load one case for a command on that case; its warnings (keywords without effect here) go
    to stderr, so the output itself is unchanged."""
    case = load_case(path)
    for warning in case.warnings:
        print(warning, file=sys.stderr)
    return case


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, tuple | list):
        return "[" + " ".join(map(str, v)) + "]"
    return str(v)


def _graph_file(path: str) -> str:
    """``--graph``: checked before any solving, so a bad path doesn't cost the run."""
    if Path(path).suffix not in (".dot", ".graphml"):
        raise CaseErrors([CaseError("--graph", f"{path}: the graph file must end in .dot or .graphml")])
    parent = Path(path).parent
    if not parent.is_dir():
        raise CaseErrors([CaseError("--graph", f"{path}: {parent} is not a directory")])
    if Path(path).is_dir():
        raise CaseErrors([CaseError("--graph", f"{path}: is a directory")])
    return path


def _write_graph(args: argparse.Namespace, case: Any, result: Any) -> None:
    """Write the choice graph the outcomes came from, or (CP chosen by auto) one the graph engine
    builds under the same limits; a graph cut by a limit is marked cut, in the file and here."""
    from .graph import build_graph, write_graph

    cg = result.graph
    if cg is None:
        cg = build_graph(case, max_nodes=args.max_nodes, timeout=args.timeout)
    try:
        write_graph(cg, args.graph, _fields(args.fields))
    except OSError as exc:
        raise CaseErrors([CaseError("--graph", f"{args.graph}: cannot write: {exc.strerror or exc}")]) from None
    built = "" if result.graph is not None else ", built separately by the graph engine: auto chose CP for the outcomes"
    cut = "" if cg.complete else "; PARTIAL: a limit cut it, cut nodes are marked"
    print(f"wrote the choice graph to {args.graph} ({cg.graph.number_of_nodes()} nodes{built}{cut})", file=sys.stderr)


def _steps(case: Any, outcome: Any, explain: bool) -> list[str]:
    """An outcome's witness in words: its choices, the actions that couldn't happen, and with
    ``explain`` the forced steps too (replayed through the rules engine, so both engines' alike)."""
    from .decision import CHOICE, NOT_DONE
    from .explain import replay

    steps = replay(case, outcome).steps
    return [s.words if s.kind == CHOICE else f"({s.words})" for s in steps
            if explain or s.kind in (CHOICE, NOT_DONE)]


def _explain_json(doc: dict[str, Any], case: Any, outcomes: Sequence[Any]) -> None:
    """``--explain --json``: each outcome gets ``explain``, its steps as ``{kind, words}``."""
    from .explain import replay

    for entry, o in zip(doc["outcomes"], outcomes, strict=True):
        entry["explain"] = [s.as_dict() for s in replay(case, o).steps]


def _enumerate(args: argparse.Namespace) -> int:
    case = _load(args.case)
    fields = _fields(args.fields)
    if args.graph:
        _graph_file(args.graph)
        if args.engine == "cp":
            raise CaseErrors([CaseError("--graph", "the CP engine builds no choice graph; use --engine graph "
                                                   "(or auto, which builds one under the same limits)", case.path)])
    result = enumerate_outcomes(case, engine=args.engine, fields=fields, max_nodes=args.max_nodes,
                                timeout=args.timeout)
    if args.graph:
        _write_graph(args, case, result)
    if args.json:
        doc = result.as_dict()
        doc["stats"].pop("seconds", None)  # same input, same bytes
        if args.explain:
            _explain_json(doc, case, result.outcomes)
        print(json.dumps(doc, sort_keys=True))
        return 0
    print(f"{case.id}: {len(result.outcomes)} distinct outcome{'s' if len(result.outcomes) != 1 else ''}"
          f" ({result.engine} engine, {'complete' if result.complete else 'PARTIAL: a limit cut the search'})")
    base = _baseline(case) if fields is None else {}
    for i, o in enumerate(result.outcomes, 1):
        values = o.values
        shown = {k: v for k, v in values.items() if fields is not None or base.get(k) != v}
        text = ", ".join(f"{k}={_fmt(v)}" for k, v in shown.items()) or "(nothing changes)"
        print(f"\n  {i}. {text}")
        print(f"     paths: {o.paths}")
        for line in _steps(case, o, args.explain) or ["no choices"]:
            print(f"     - {line}")
    return 0


def _fields(text: str | None) -> list[str] | None:
    return [f.strip() for f in text.split(",") if f.strip()] if text else None


def _optimize(args: argparse.Namespace) -> int:
    from model.objective import parse_objective_text

    from .optimize import optimize

    case = _load(args.case)
    if args.objective:
        try:
            objective = parse_objective_text(args.objective)
        except CaseError as exc:
            raise CaseErrors([exc]) from None
    elif case.objective is not None:
        objective = case.objective
    else:
        raise CaseErrors([CaseError("objective", "no objective: give --objective 'you: maximize you.life' or objective: in the case", args.case)])
    fields = _fields(args.fields)
    res = optimize(case, objective, max_nodes=args.max_nodes, timeout=args.timeout, engine=args.engine,
                   fields=fields)
    if args.json:
        doc = res.as_dict()
        doc["stats"].pop("seconds", None)  # same input, same bytes
        if args.explain:
            _explain_json(doc, case, res.outcomes)
        print(json.dumps(doc, sort_keys=True))
        return 0
    goals = "; ".join(f"{c}: " + ", then ".join(str(g) for g in gs) for c, gs in objective.goals)
    print(f"{case.id}: optimal play for {goals}")
    print(f"{len(res.outcomes)} optimal outcome{'s' if len(res.outcomes) != 1 else ''}"
          f"{'' if res.complete else ' (PARTIAL: a limit cut the search)'}")
    # the objective's fields, and whatever else tells the optimal outcomes apart
    # (linear in the outcomes: a field differs when some outcome's value isn't the first one's)
    rows = [o.values for o in res.outcomes]
    differ = {k for k in {k for row in rows for k in row} if any(row.get(k) != rows[0].get(k) for row in rows)}
    shown = sorted(objective.fields() | set(fields or ()) | differ)
    for i, o in enumerate(res.outcomes, 1):
        print(f"\n  {i}. " + ", ".join(f"{k}={_fmt(o.values.get(k))}" for k in shown))
        for line in _steps(case, o, args.explain) or ["no choices"]:
            print(f"     - {line}")
    if res.engine == "cp":
        proved = res.stats.get("optimum", {})
        if proved and not res.complete:
            print("\nthe optimum is proved (" + "; ".join(f"{c}: {', '.join(map(str, v))}" for c, v in proved.items())
                  + "); the list of optimal outcomes is partial")
        print(f"\nsolved by CP-SAT in {res.stats.get('seconds', 0)} s ({res.stats.get('solves', 0)} solves); "
              "each outcome's choices are listed above (the graph engine also reports which decisions matter)")
        return 0
    print("\ndecisions on the optimal line:")
    for d in res.decisions:
        verdict = "matters" if d.matters else "doesn't matter"
        print(f"  {d.chooser} {d.kind} at {d.at}: {verdict}; best: {', '.join(d.best)} (options: {', '.join(d.options)})")
    return 0


def _baseline(case: Any) -> dict[str, Any]:
    """The fields before any action, so the table shows what changed."""
    from .engine import final_fields
    from .state import initial_state

    s0, table = initial_state(case)
    return final_fields(s0, table)


def _check(args: argparse.Namespace) -> int:
    reports = check_paths(args.paths, engine=args.engine, timeout=args.timeout)
    if args.json:
        print(json.dumps([r.as_dict() for r in reports], sort_keys=True))
    else:
        width = max([len(r.case) for r in reports] + [4])
        print(f"{'case'.ljust(width)}  {'status':<12} outcomes  file")
        for r in reports:
            print(f"{r.case.ljust(width)}  {r.status:<12} {r.outcomes:>8}  {r.path}")
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


def _mana(args: argparse.Namespace) -> int:
    """Could-produce answers (CR 106.7) in the case's initial state (before its actions)."""
    from .mana import could_produce_all, mana_permanents, why
    from .state import initial_state

    case = _load(args.case)
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


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "validate":
            return _validate(args.paths)
        if args.command == "enumerate":
            return _enumerate(args)
        if args.command == "check":
            return _check(args)
        if args.command == "optimize":
            return _optimize(args)
        if args.command == "batch":
            return _batch(args)
        if args.command == "mana":
            return _mana(args)
        if args.command == "report":
            return _report(args)
        if args.command == "generate":
            return _generate(args)
        if args.command == "card":
            from .cards_cli import card_command
            return card_command(" ".join(args.name), args.json)
        if args.command == "cards":
            from .cards_cli import coverage_command
            return coverage_command(args.family, args.json)
        if args.command == "peer":
            from .peer.cli import peer_command
            return peer_command(args)
    except CaseErrors as exc:
        for err in exc.errors:
            print(err, file=sys.stderr)
        return 2
    except CaseError as exc:
        print(exc, file=sys.stderr)
        return 2
    except MtgOutcomesError as exc:
        print(f"mtg-outcomes: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("mtg-outcomes: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader (e.g. `head`) went away: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return 2


if __name__ == "__main__":
    raise SystemExit(main())

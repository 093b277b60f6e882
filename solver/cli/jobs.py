"""``batch``, ``report`` and ``generate``: many cases at once, and pages about them."""

from __future__ import annotations

import argparse
import os
import sys

from mtg_outcomes.model.errors import CaseError, CaseErrors
from mtg_outcomes.model.objective import parse_objective_text

from ..batch import (
    OutputError,
    check_output,
    failed,
    generate_cases,
    print_summary,
    run_batch,
    write_csv,
)
from ..batch.pool import RayStartError
from ..check import case_files
from ..report import analyse, render_html, write_batch_report
from .files import load_case_or_exit, out_file, report_dir
from .outcomes import parse_fields


def batch_command(args: argparse.Namespace) -> int:
    """Exit 1 when any case fails as ``check`` would fail it (an error, a timeout, a ruling that is
    INCOMPLETE or UNREACHABLE); 2 for bad arguments, an unwritable ``--out``/``--csv`` included."""

    if args.executor == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            print("ray is not installed: pip install '.[cluster]'", file=sys.stderr)
            return 2
    elif args.address is not None:
        print("--address: only with --executor ray", file=sys.stderr)
        return 2
    check_output(args.out, "--out")
    if args.csv is not None:
        check_output(args.csv, "--csv", probe=True)
        same = os.path.abspath(args.csv) == os.path.abspath(args.out) or (
            os.path.exists(args.csv) and os.path.exists(args.out) and os.path.samefile(args.csv, args.out))
        if same:
            raise OutputError(f"--csv {args.csv}: the same file as --out (the CSV would replace the results)")
    if args.report is not None:
        report_dir(args.report)
    if not list(case_files(args.paths)):
        print(f"{' '.join(args.paths)}: no case files found", file=sys.stderr)
        return 2
    try:
        records = run_batch(args.paths, args.out, jobs=args.jobs, mode=args.mode, timeout=args.timeout,
                            executor=args.executor, progress=not args.no_progress, address=args.address)
    except RayStartError as exc:
        print(f"mtg-outcomes: {exc}", file=sys.stderr)
        if exc.stuck:  # Ray's start-up thread still waits: don't wait for it (nor for Ray's exit hooks)
            sys.stderr.flush()
            sys.stdout.flush()
            os._exit(2)
        return 2
    except KeyboardInterrupt:
        print(f"mtg-outcomes: interrupted; finished cases are in {args.out} (re-run to resume)", file=sys.stderr)
        return 130
    print_summary(records)
    if args.csv:
        write_csv(records, args.csv)
    if args.report is not None:
        try:
            entries = write_batch_report(records, args.report, timeout=args.timeout)
        except OSError as exc:
            raise OutputError(f"--report {args.report}: cannot write: {exc.strerror or exc}") from None
        pages = sum(1 for e in entries if e.get("page"))
        print(f"wrote {pages} case page{'s' if pages != 1 else ''} and {os.path.join(args.report, 'index.html')}",
              file=sys.stderr)
    return 1 if any(failed(r) for r in records) else 0


def report_command(args: argparse.Namespace) -> int:

    out = out_file(args.out, "-o")
    case = load_case_or_exit(args.case)
    objective = None
    if args.objective:
        try:
            objective = parse_objective_text(args.objective)
        except CaseError as exc:
            raise CaseErrors([exc]) from None
    data = analyse(case, fields=parse_fields(args.fields), objective=objective, engine=args.engine,
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


def generate_command(args: argparse.Namespace) -> int:
    try:
        files = generate_cases(args.count, args.seed, args.dir)
    except OSError as exc:
        raise CaseErrors([CaseError("dir", f"{args.dir}: cannot write the cases: {exc.strerror or exc}")]) from None
    print(f"{len(files)} case file{'s' if len(files) != 1 else ''} written to {args.dir}")
    return 0

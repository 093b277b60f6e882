"""``mtg-outcomes peer phase CASE|DIR ...``: run cases through a peer engine and compare.

Exit codes: one case: 0 the outcome sets agree, 1 they differ, 2 the peer could not run (not
installed, or the board can't be set up: every reason is listed). Many cases (or ``--report``):
a table; 1 if any case differs, else 0.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from mtg_outcomes.model.errors import MtgOutcomesError
from mtg_outcomes.model.load import check_fields, load_case

from ..api import enumerate_outcomes
from ..check import case_files
from ..cli.args import (  # the same reading as every command's: seconds, 0 = no limit
    Subcommands,
    seconds,
)
from .compare import Comparison, compare
from .protocol import CannotSetUp, Peer, PeerUnavailable
from .report import TABLE_HEAD, as_json, as_text, table_row

__all__ = ["add_parser", "peer_command", "PEERS", "run_case", "write_report", "NOTES"]

PEERS = ("phase",)
NOTES = "<!-- notes: everything below this line is kept when the table is regenerated -->"


def add_parser(sub: Subcommands) -> None:
    pe = sub.add_parser("peer", help="run cases through another rules engine (phase.rs) and report the differences")
    pe.add_argument("peer", choices=PEERS)
    pe.add_argument("paths", nargs="+", help="case files or directories")
    pe.add_argument("--fields", help="compare only these fields (comma-separated)")
    pe.add_argument("--json", action="store_true")
    pe.add_argument("--timeout", type=seconds, default=60.0,
                    help="seconds per case for each engine (default 60; 0: no limit)")
    pe.add_argument("--max-nodes", type=int, default=5000, help="the peer's exploration bound (default 5000)")
    pe.add_argument("--report", metavar="FILE.md", help="write a Markdown table over the cases")


# each peer engine by name: the module that wraps it (it loads the optional engine itself), loaded
# when a comparison runs, so the CLI's parser doesn't load it
PEER_MODULES = {"phase": "mtg_outcomes.peer.phase_peer"}


def _peer(name: str) -> Peer:
    wrapper = importlib.import_module(PEER_MODULES[name])
    wrapper.load_phase()  # PeerUnavailable with the install line when it isn't there
    peer: Peer = wrapper.PhasePeer()
    return peer


def run_case(peer: Peer, path: str, *, fields: list[str] | None, timeout: float | None,
             max_nodes: int) -> tuple[Any, Comparison]:
    """Load ``path``, run our enumeration and the peer, compare. Raises :class:`CannotSetUp`."""
    case = load_case(path)
    check_fields(case, fields, "--fields")  # a misspelt field is an error, not a vacuous agreement
    run = peer.run(case, max_nodes=max_nodes, timeout=timeout)
    ours = enumerate_outcomes(case, timeout=timeout)
    cmp = compare(case, run, ours.outcomes, ours_complete=ours.complete, fields=fields)
    if not cmp.fields:
        raise CannotSetUp([f"no field to compare: {peer.name} reads none of the fields asked for"])
    return case, cmp


def peer_command(args: argparse.Namespace) -> int:
    fields = [f.strip() for f in args.fields.split(",") if f.strip()] if args.fields else None
    try:
        peer = _peer(args.peer)
    except PeerUnavailable as exc:
        print(f"mtg-outcomes: {exc}", file=sys.stderr)
        return 2
    files = [str(f) for f in case_files(args.paths)]
    if not files:
        print(f"{' '.join(args.paths)}: no case files found", file=sys.stderr)
        return 2
    if len(files) == 1 and not args.report and all(Path(p).is_file() for p in args.paths):
        return _one(peer, files[0], fields, args)
    return _many(peer, files, fields, args)


def _one(peer: Peer, path: str, fields: list[str] | None, args: argparse.Namespace) -> int:
    try:
        case, cmp = run_case(peer, path, fields=fields, timeout=args.timeout, max_nodes=args.max_nodes)
    except CannotSetUp as exc:
        if args.json:
            print(json.dumps({"agree": None, "only_peer": [], "only_ours": [], "prompts": {},
                              "unsupported": exc.unsupported}, sort_keys=True))
        else:
            print(f"{path}: {peer.name} cannot set this case up:", file=sys.stderr)
            for u in exc.unsupported:
                print(f"  unsupported: {u}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(as_json(case, cmp), sort_keys=True))
    else:
        print("\n".join(as_text(case, cmp)))
    return 0 if cmp.agree else 1


def _many(peer: Peer, files: list[str], fields: list[str] | None, args: argparse.Namespace) -> int:
    rows, docs = list(TABLE_HEAD), []
    counts = {"agree": 0, "differ": 0, "not run": 0}
    for path in files:
        name = Path(path).stem
        try:
            case, cmp = run_case(peer, path, fields=fields, timeout=args.timeout, max_nodes=args.max_nodes)
        except CannotSetUp as exc:
            counts["not run"] += 1
            rows.append(table_row(name, "not run", None, exc.unsupported))
            docs.append({"case": name, "agree": None, "unsupported": exc.unsupported})
            continue
        except MtgOutcomesError as exc:
            counts["not run"] += 1
            rows.append(table_row(name, "not run", None, [str(exc)]))
            docs.append({"case": name, "agree": None, "unsupported": [str(exc)]})
            continue
        counts["agree" if cmp.agree else "differ"] += 1
        rows.append(table_row(case.id, "agree" if cmp.agree else "DIFFER", cmp))
        docs.append(as_json(case, cmp))
    summary = f"{counts['agree']} agree, {counts['differ']} differ, {counts['not run']} not run ({len(files)} cases)"
    if args.report:
        write_report(Path(args.report), args, rows, summary)
        print(f"wrote {args.report}: {summary}", file=sys.stderr)
    if args.json:
        print(json.dumps(docs, sort_keys=True))
    elif not args.report:
        print("\n".join(rows))
        print(summary)
    return 1 if counts["differ"] else 0


def _version(dist: str) -> str:
    try:
        return version(dist)
    except PackageNotFoundError:
        return "unknown version"


def write_report(path: Path, args: argparse.Namespace, rows: list[str], summary: str) -> None:
    """The table, with the command that regenerates it; hand-written notes after :data:`NOTES`
    in an existing file are kept."""
    kept = ""
    if path.exists():
        old = path.read_text()
        if NOTES in old:
            kept = old[old.index(NOTES):]
    command = "mtg-outcomes peer " + args.peer + " " + " ".join(args.paths) + f" --report {args.report}"
    head = [f"# {args.peer} against mtg-outcomes", "",
            f"Generated by `{command}` (phase-python {_version('phase-python')}). "
            f"{summary}.", "",
            "Each row: the case; agree / DIFFER / not run; the projected outcomes only the peer reaches and "
            "only we reach (fields every outcome shares left out); the prompts the peer offered; what it "
            "could not set up or does not implement. Compared on the fields the peer reads: each "
            "player's life, poison, cards_drawn, lost; each permanent's damage and dies.", ""]
    path.write_text("\n".join(head + rows) + "\n\n" + (kept or NOTES + "\n"))

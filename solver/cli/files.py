"""Paths the commands read and write, checked before any work (an unwritable output is exit 2,
not a traceback after the solve); ``validate``."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from mtg_outcomes.model.errors import CaseError, CaseErrors
from mtg_outcomes.model.load import load_case
from mtg_outcomes.model.types import Case

from ..check import case_files
from ..outputs import OutputError, check_output, check_output_dir


def out_file(path: str, flag: str) -> Path:
    """An output file named on the command line: checked before any solving (one line, exit 2);
    a FIFO or block device is refused from ``os.stat`` (never opened: the open would wait for a
    reader), and the file is opened for writing once, non-blocking, to find what the permission
    bits don't show (:func:`solver.batch.check_output`)."""
    p = Path(path)
    if p.is_dir():
        raise CaseErrors([CaseError(flag, f"{path}: is a directory")])
    if not p.parent.is_dir():
        raise CaseErrors([CaseError(flag, f"{path}: {p.parent} is not a directory")])
    if not os.access(p.parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise CaseErrors([CaseError(flag, f"{path}: not writable")])
    try:
        check_output(path, flag, probe=True)
    except OutputError as exc:
        reason = str(exc).removeprefix(f"{flag} {path}: ")
        raise CaseErrors([CaseError(flag, f"{path}: {reason}")]) from None
    return p


def report_dir(path: str) -> None:
    """``batch --report DIR``: a directory made now if missing, and probed with a file written and
    removed, so an unwritable one is refused before any case runs, not after the batch."""
    check_output_dir(path, "--report")


def graph_file(path: str) -> str:
    """``--graph``: checked before any solving, so a bad path doesn't cost the run."""
    if Path(path).suffix not in (".dot", ".graphml"):
        raise CaseErrors([CaseError("--graph", f"{path}: the graph file must end in .dot or .graphml")])
    parent = Path(path).parent
    if not parent.is_dir():
        raise CaseErrors([CaseError("--graph", f"{path}: {parent} is not a directory")])
    if Path(path).is_dir():
        raise CaseErrors([CaseError("--graph", f"{path}: is a directory")])
    out_file(path, "--graph")  # a FIFO, a device or an unwritable file: now, not after the solve
    return path


def load_case_or_exit(path: str) -> Case:
    """Load one case for a command on that case; its warnings (keywords without effect here) go
    to stderr, so the output itself is unchanged."""
    case = load_case(path)
    for warning in case.warnings:
        print(warning, file=sys.stderr)
    return case


def validate_command(paths: Sequence[str]) -> int:
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

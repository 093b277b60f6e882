"""One case's line: :func:`analyze` (the pure per-case function) and the failed lines
(``input``, ``analysis``, ``timeout``, ``died``) with what resuming does with each."""

from __future__ import annotations

import hashlib
import signal
import time
from pathlib import Path
from typing import Any

from mtg_outcomes.model.errors import CaseError, CaseErrors, MtgOutcomesError
from mtg_outcomes.model.load import load_case
from mtg_outcomes.model.types import Case
from mtg_outcomes.model.versions import stamps
from mtg_outcomes.model.yamlio import read_bounded

from ..api import enumerate_outcomes
from ..check import check
from ..contract import Status
from ..optimize import optimize

# a batch record: one JSON line of --out (its values are whatever JSON holds)
Record = dict[str, Any]

MODES = ("enumerate", "optimize", "check")
FAILED = (Status.ERROR, Status.TIMEOUT)  # the case has no answer
PASSED = (Status.OK, Status.NO_EXPECT, Status.PARTIAL)  # every other status (INCOMPLETE, UNREACHABLE, ...) fails the run
RULING_STATUSES = (Status.INCOMPLETE, Status.UNREACHABLE)  # always counted in a check-mode tally, even at 0
GRACE = 2.0  # seconds past the timeout before the worker is killed (the solve stops itself first)
MAX_LINE = 64 * 1024 * 1024  # longest --out line read back on resume; a longer one is skipped unread


def failed(rec: Record) -> bool:
    """Whether this record fails the run (exit 1): no answer, or a ruling that disagrees, as ``check``."""
    return rec.get("status") not in PASSED


def content_hash(path: str | Path) -> str:
    """SHA-256 of the case file; :class:`CaseError` if it is not a regular file of bounded size."""
    return hashlib.sha256(read_bounded(path)).hexdigest()


def _strip_seconds(stats: Record) -> Record:
    return {k: v for k, v in stats.items() if k != "seconds"}


def analyze(path: str, mode: str = "enumerate", timeout: float | None = None) -> Record:
    """One case, one JSON-able record. Never raises for a bad case: status ``ERROR`` instead."""

    start = time.perf_counter()
    rec: Record = {"case": Path(path).stem, "path": str(path), "hash": "", "mode": mode, **stamps()}
    try:
        try:
            rec["hash"] = content_hash(path)
        except CaseError as exc:
            raise CaseErrors([exc]) from None
        case = load_case(path)
        rec["case"] = case.id
        if case.warnings:  # accepted without acting on it: said on the line, never dropped
            rec["warnings"] = [str(w) for w in case.warnings]
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}")
        {"enumerate": _enumerate_record, "check": _check_record, "optimize": _optimize_record}[mode](
            rec, case, path, timeout, start)
    except CaseErrors as exc:
        rec["status"] = Status.ERROR
        rec["failure"] = "input"
        rec["errors"] = [str(e) for e in exc.errors]
    except MtgOutcomesError as exc:
        rec["status"] = Status.ERROR
        rec["failure"] = "analysis"
        rec["errors"] = [f"{path}: {exc}"]
    except MemoryError:  # the machine's limit, not the case's: as if the worker had been killed
        rec["status"] = Status.ERROR
        rec["failure"] = "died"
        rec["errors"] = [f"{path}: out of memory (MemoryError) in the worker"]
    except Exception as exc:  # one bad case never stops the batch
        rec["status"] = Status.ERROR
        rec["failure"] = "analysis"
        rec["errors"] = [f"{path}: {type(exc).__name__}: {exc}".splitlines()[0]]
    if rec.get("status") == Status.TIMEOUT:
        rec["failure"] = "timeout"
        rec["timeout"] = timeout
    elif rec.get("status") == Status.ERROR and "failure" not in rec:  # check: a limit other than time cut the search
        rec["failure"] = "analysis"
    rec["seconds"] = round(time.perf_counter() - start, 3)
    return rec


def _enumerate_record(rec: Record, case: Case, path: str, timeout: float | None, start: float) -> None:
    res = enumerate_outcomes(case, timeout=timeout)
    d = res.as_dict()
    d["stats"] = _strip_seconds(d.get("stats", {}))
    rec["outcomes"] = d["outcomes"]
    rec["result"] = {"engine": d["engine"], "complete": d["complete"], "stats": d["stats"]}
    rec["status"] = Status.OK if res.complete else _cut(start, timeout)
    if rec["status"] == Status.TIMEOUT:  # a partial list depends on speed: keep the line deterministic
        rec.pop("outcomes")
        rec["result"]["stats"] = {}
        rec["errors"] = [f"{path}: no complete result within {timeout:g} s"]


def _check_record(rec: Record, case: Case, path: str, timeout: float | None, start: float) -> None:
    rep = check(case, timeout=timeout)
    rec["check"] = rep.as_dict()
    rec["status"] = rep.status
    if rep.status == Status.ERROR and timeout is not None and time.perf_counter() - start >= timeout:
        rec["status"] = Status.TIMEOUT


def _optimize_record(rec: Record, case: Case, path: str, timeout: float | None, start: float) -> None:
    if case.objective is None:
        rec["status"] = Status.ERROR
        rec["failure"] = "input"
        rec["errors"] = [f"{path}: objective: the case has no objective:"]
        return
    ores = optimize(case, case.objective, timeout=timeout)
    d = ores.as_dict()
    d["stats"] = _strip_seconds(d.get("stats", {}))
    rec["outcomes"] = d.pop("outcomes")
    rec["result"] = d
    rec["status"] = Status.OK if ores.complete else _cut(start, timeout)


def _cut(start: float, timeout: float | None) -> Status:
    if timeout is not None and time.perf_counter() - start >= timeout * 0.9:
        return Status.TIMEOUT
    return Status.PARTIAL


def _failed_record(path: str, mode: str, status: Status, message: str, seconds: float, failure: str,
                   timeout: float | None = None) -> Record:
    """The line for a case whose worker gave no record: ``failure`` is ``died`` or ``timeout``."""
    try:
        h = content_hash(path)
    except CaseError:
        h = ""
    rec = {"case": Path(path).stem, "path": path, "hash": h, "mode": mode, **stamps(), "status": status,
           "failure": failure, "errors": [f"{path}: {message}"], "seconds": round(seconds, 3)}
    if failure == "timeout":
        rec["timeout"] = timeout
    return rec


def _death(exitcode: int | None) -> str:
    """Why a worker gave no result, from its exit code (negative: the signal that killed it)."""
    if exitcode is None:
        return "worker process died (it closed its pipe without a result)"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        hint = ", perhaps by the out-of-memory killer" if -exitcode == signal.SIGKILL else ""
        return f"worker process died (killed by {name}{hint})"
    return f"worker process died (exited with code {exitcode} without a result)"


def _retry(rec: Record, timeout: float | None) -> bool:
    """Whether resuming re-runs this recorded case: a died worker always; a timeout only with a longer limit.

    Bad input and analysis errors are deterministic (same file, same error), and so, near enough,
    is a timeout under the same limit; a worker's death says nothing about the case. A record made
    under another Comprehensive Rules edition or other card data (model.versions) is re-run: the
    same file may have another answer now.
    """
    if any(rec.get(k) != v for k, v in stamps().items()):
        return True
    if rec.get("failure") == "died":
        return True
    if rec.get("failure") == "timeout":
        was = rec.get("timeout")
        return isinstance(was, int | float) and (timeout is None or timeout > was)
    return False


# ---------------------------------------------------------------- resumable output


def _count(rec: Record) -> int:
    if "outcomes" in rec:
        return len(rec["outcomes"])
    return int(rec.get("check", {}).get("outcomes", 0))


def _message(rec: Record) -> str:
    if rec.get("errors"):
        return str(rec["errors"][0])
    detail = rec.get("check", {}).get("detail") or []
    return str(detail[0]) if detail else ""


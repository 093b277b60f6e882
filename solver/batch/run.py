""":func:`run_batch`: resume, run, record; and the summary a run prints."""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Iterable, Sequence
from typing import IO, TYPE_CHECKING, Any

from mtg_outcomes.model.errors import CaseError

from ..check import case_files
from ..contract import PASSING, Status
from ..outputs import OutputError, _open_output, lock_output
from .output import _latest, load_done
from .pool import _LocalPool, _run_local, _run_ray

if TYPE_CHECKING:  # (rich is loaded where the progress bar is shown)
    from rich.progress import Progress, TaskID

from .records import (
    MODES,
    RULING_STATUSES,
    Record,
    _message,
    _retry,
    content_hash,
    failed,
)


def run_batch(inputs: Sequence[str], out: str, jobs: int = 1, mode: str = "enumerate",
              timeout: float | None = None, executor: str = "local", progress: bool = True,
              address: str | None = None) -> list[Record]:
    """Run every case under ``inputs`` not yet in ``out``; return the latest record of each case.

    A case is done when ``out`` holds a record of it with the same content hash and mode that is
    not to be retried (see :func:`_retry`). ``address``: the Ray cluster (``executor="ray"``; default
    ``RAY_ADDRESS``, else a local Ray instance is started). Of several records of one path and mode (a retried case,
    an edited file), the last one counts. :class:`OutputError` if ``out`` cannot be written.
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    paths = [str(p) for p in case_files(inputs)]
    fh = _open_output(out, "--out", append=True)  # before anything runs: a bad --out is one line
    try:
        lock_output(fh, out)  # held until fh is closed: a second batch on this file refuses to start
        previous = load_done(out)
    except BaseException:
        fh.close()
        raise
    done, todo, current = _to_run(previous, paths, mode, timeout)
    records = list(done.values())
    if not todo:
        fh.close()
        return _latest(records, current, mode)
    jobs = max(1, jobs)
    # local workers first: forked while this process is still single-threaded (before rich's
    # refresh thread starts), and warming up while the output and the progress bar are set up
    writer = _Writer(fh, out, records)
    pool = None
    try:
        pool = None if executor == "ray" else _LocalPool(min(jobs, len(todo)))
        if progress:
            writer.show_progress(len(todo))
        if pool is None:
            _run_ray(todo, mode, jobs, timeout, writer.emit, address)
        else:
            _run_local(todo, mode, jobs, timeout, writer.emit, pool)
    finally:
        if pool is not None:
            pool.close(force=True)  # a no-op after a normal end: _run_local closed it
        if writer.prog is not None:
            writer.prog.stop()
        with contextlib.suppress(OSError):  # a failed write already said so
            fh.close()
    return _latest(records, current, mode)




def _to_run(previous: list[Record], paths: list[str], mode: str,
            timeout: float | None) -> tuple[dict[tuple[Any, Any, Any], Record], list[str], dict[str, str]]:
    """The records that stand (the last of each path, hash and mode, not to be retried), the
    paths still to run, and each path's content hash now."""
    done: dict[tuple[Any, Any, Any], Record] = {}
    for r in previous:
        key = (r.get("path"), r.get("hash"), r.get("mode"))
        done.pop(key, None)  # later lines win, and keep their place at the end
        done[key] = r
    done = {k: r for k, r in done.items() if not _retry(r, timeout)}
    todo = []
    current: dict[str, str] = {}  # path -> content hash now
    for p in dict.fromkeys(paths):
        try:
            current[p] = content_hash(p)
        except CaseError:
            current[p] = ""
        if (p, current[p], mode) not in done:
            todo.append(p)
    return done, todo, current


class _Writer:
    """Each record, as it arrives, written to ``--out`` and kept, with the progress bar."""

    def __init__(self, fh: IO[str], out: str, records: list[Record]) -> None:
        self.fh, self.out, self.records = fh, out, records
        self.prog: Progress | None = None
        self.task: TaskID | None = None
        self.fails = 0
        self.started = time.monotonic()

    def show_progress(self, total: int) -> None:
        self.prog, self.task = _progress(total)
        self.prog.start()

    def emit(self, rec: Record) -> None:
        try:
            self.fh.write(json.dumps(rec, sort_keys=True) + "\n")
            self.fh.flush()
        except OSError as exc:  # ENOSPC (a full disk, /dev/full), EIO, ...: stop, one line
            raise OutputError(f"--out {self.out}: cannot write: {exc.strerror or exc}") from None
        self.records.append(rec)
        if failed(rec):
            self.fails += 1
        if self.prog is not None and self.task is not None:
            rate = (self.prog.tasks[0].completed + 1) / max(1e-9, time.monotonic() - self.started)
            self.prog.update(self.task, advance=1, fails=self.fails, rate=f"{rate:.1f}/s")


def _progress(total: int) -> tuple[Any, Any]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    prog = Progress(TextColumn("cases"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("[red]{task.fields[fails]} failed"), TextColumn("{task.fields[rate]}"),
                    TimeElapsedColumn(), console=Console(stderr=True), transient=False)
    task = prog.add_task("batch", total=total, fails=0, rate="")
    return prog, task


def tally_line(records: Iterable[Record]) -> str:
    """One line: how many cases have each status, and how many fail the run (``3 OK, 1 INCOMPLETE, ...``).

    A check-mode run always names INCOMPLETE and UNREACHABLE, so a clean run says ``0`` of each.
    """
    recs = list(records)
    counts: dict[str, int] = {"OK": 0}
    if any(r.get("mode") == "check" for r in recs):
        counts.update(dict.fromkeys(RULING_STATUSES, 0))
    for r in recs:
        counts[str(r.get("status"))] = counts.get(str(r.get("status")), 0) + 1
    shown = [f"{n} {s}" for s, n in counts.items() if s in (Status.OK, *RULING_STATUSES)]
    shown += [f"{n} {s}" for s, n in sorted(counts.items()) if s not in (Status.OK, *RULING_STATUSES)]
    bad = sum(failed(r) for r in recs)
    return f"{', '.join(shown)}; {bad} failed ({len(recs)} case{'s' if len(recs) != 1 else ''})"


def summary_lines(records: Iterable[Record]) -> list[str]:
    recs = sorted(records, key=lambda r: str(r.get("path")))
    counts: dict[str, int] = {}
    for r in recs:
        counts[str(r.get("status"))] = counts.get(str(r.get("status")), 0) + 1
    lines = [f"{'status':<14} cases"]
    lines += [f"{s:<14} {n}" for s, n in sorted(counts.items())]
    lines.append(f"{'total':<14} {len(recs)}")
    bad = [r for r in recs if r.get("status") not in PASSING]
    if bad:
        lines.append("")
        for r in bad:
            lines.append(f"{r.get('status'):<14} {r.get('path')}  {_message(r)}")
    lines += ["", tally_line(recs)]
    return lines


def print_summary(records: list[Record]) -> None:
    from rich.console import Console
    from rich.table import Table

    counts: dict[str, int] = {}
    for r in records:
        counts[str(r.get("status"))] = counts.get(str(r.get("status")), 0) + 1
    table = Table(title="batch summary")
    table.add_column("status")
    table.add_column("cases", justify="right")
    for s, n in sorted(counts.items()):
        table.add_row(s, str(n))
    table.add_row("total", str(len(records)))
    console = Console(file=sys.stdout, width=120)
    console.print(table)
    for r in sorted(records, key=lambda r: str(r.get("path"))):
        if r.get("status") not in PASSING:
            console.print(f"{r.get('status')}  {r.get('path')}  {_message(r)}", markup=False, highlight=False)
    console.print(tally_line(records), markup=False, highlight=False)

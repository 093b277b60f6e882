"""Batch runs: many cases in parallel, results appended to a JSON-lines file as each case ends.

``analyze(path, mode, timeout)`` is the pure per-case function. :func:`run_batch` runs it over many
files in a warm pool of worker processes, each with its own pipe, fed guided chunks of cases. On
Linux the workers are forked from the (still single-threaded) parent, so they start with everything
the CLI already imported; elsewhere, or once the parent has threads, they come from a forkserver or
``spawn``. The per-case timeout is *hard*: the solve gets its own ``timeout`` and, should it not come
back in time, the worker is terminated, the case is recorded as ``TIMEOUT`` and a fresh worker takes
its place. Every finished case is appended and flushed at once, so an interrupted run (Ctrl-C,
``kill -9``) resumes with the same ``--out``: cases already recorded with the same content hash (and
mode) are skipped, and a torn last line is dropped. Each line is deterministic apart from ``seconds``.

A failed line says why in ``failure``: ``input`` (the case file is bad) and ``analysis`` (the
analysis raised) are deterministic and stand on resume; ``died`` (the worker was killed by a
signal, ran out of memory or exited without a result) depends on the machine, not the case, and is
retried on resume; ``timeout`` records its limit in ``timeout`` and is retried only with a longer one.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import hashlib
import json
import multiprocessing as mp
import os
import random
import signal
import stat
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as mp_wait
from pathlib import Path
from typing import IO, Any

from model.errors import CaseError, MtgOutcomesError
from model.yamlio import read_bounded

__all__ = ["MODES", "analyze", "content_hash", "load_done", "run_batch", "write_csv", "generate_cases",
           "summary_lines", "tally_line", "failed", "check_output", "OutputError", "FAILED", "PASSED"]

MODES = ("enumerate", "optimize", "check")
FAILED = ("ERROR", "TIMEOUT")  # the case has no answer
PASSED = ("OK", "NO-EXPECT", "PARTIAL")  # every other status (INCOMPLETE, UNREACHABLE, ...) fails the run
RULING_STATUSES = ("INCOMPLETE", "UNREACHABLE")  # always counted in a check-mode tally, even at 0
GRACE = 2.0  # seconds past the timeout before the worker is killed (the solve stops itself first)
MAX_LINE = 64 * 1024 * 1024  # longest --out line read back on resume; a longer one is skipped unread


class OutputError(MtgOutcomesError):
    """An output file (``--out``, ``--csv``) that cannot be written; the CLI prints one line, exit 2."""


def failed(rec: dict[str, Any]) -> bool:
    """Whether this record fails the run (exit 1): no answer, or a ruling that disagrees, as ``check``."""
    return rec.get("status") not in PASSED


def content_hash(path: str | Path) -> str:
    """SHA-256 of the case file; :class:`CaseError` if it is not a regular file of bounded size."""
    return hashlib.sha256(read_bounded(path)).hexdigest()


def _strip_seconds(stats: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in stats.items() if k != "seconds"}


def analyze(path: str, mode: str = "enumerate", timeout: float | None = None) -> dict[str, Any]:
    """One case, one JSON-able record. Never raises for a bad case: status ``ERROR`` instead."""
    from model.errors import CaseErrors, MtgOutcomesError
    from model.load import load_case

    start = time.perf_counter()
    rec: dict[str, Any] = {"case": Path(path).stem, "path": str(path), "hash": "", "mode": mode}
    try:
        try:
            rec["hash"] = content_hash(path)
        except CaseError as exc:
            raise CaseErrors([exc]) from None
        case = load_case(path)
        rec["case"] = case.id
        if mode == "enumerate":
            from .api import enumerate_outcomes

            res = enumerate_outcomes(case, timeout=timeout)
            d = res.as_dict()
            d["stats"] = _strip_seconds(d.get("stats", {}))
            rec["outcomes"] = d["outcomes"]
            rec["result"] = {"engine": d["engine"], "complete": d["complete"], "stats": d["stats"]}
            rec["status"] = "OK" if res.complete else _cut(start, timeout)
            if rec["status"] == "TIMEOUT":  # a partial list depends on speed: keep the line deterministic
                rec.pop("outcomes")
                rec["result"]["stats"] = {}
                rec["errors"] = [f"{path}: no complete result within {timeout:g} s"]
        elif mode == "check":
            from .check import check

            rep = check(case, timeout=timeout)
            rec["check"] = rep.as_dict()
            rec["status"] = rep.status
            if rep.status == "ERROR" and timeout is not None and time.perf_counter() - start >= timeout:
                rec["status"] = "TIMEOUT"
        elif mode == "optimize":
            from .optimize import optimize

            if case.objective is None:
                rec["status"] = "ERROR"
                rec["failure"] = "input"
                rec["errors"] = [f"{path}: objective: the case has no objective:"]
            else:
                ores = optimize(case, case.objective, timeout=timeout)
                d = ores.as_dict()
                d["stats"] = _strip_seconds(d.get("stats", {}))
                rec["outcomes"] = d.pop("outcomes")
                rec["result"] = d
                rec["status"] = "OK" if ores.complete else _cut(start, timeout)
        else:
            raise ValueError(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}")
    except CaseErrors as exc:
        rec["status"] = "ERROR"
        rec["failure"] = "input"
        rec["errors"] = [str(e) for e in exc.errors]
    except MtgOutcomesError as exc:
        rec["status"] = "ERROR"
        rec["failure"] = "analysis"
        rec["errors"] = [f"{path}: {exc}"]
    except MemoryError:  # the machine's limit, not the case's: as if the worker had been killed
        rec["status"] = "ERROR"
        rec["failure"] = "died"
        rec["errors"] = [f"{path}: out of memory (MemoryError) in the worker"]
    except Exception as exc:  # one bad case never stops the batch
        rec["status"] = "ERROR"
        rec["failure"] = "analysis"
        rec["errors"] = [f"{path}: {type(exc).__name__}: {exc}".splitlines()[0]]
    if rec.get("status") == "TIMEOUT":
        rec["failure"] = "timeout"
        rec["timeout"] = timeout
    elif rec.get("status") == "ERROR" and "failure" not in rec:  # check: a limit other than time cut the search
        rec["failure"] = "analysis"
    rec["seconds"] = round(time.perf_counter() - start, 3)
    return rec


def _cut(start: float, timeout: float | None) -> str:
    if timeout is not None and time.perf_counter() - start >= timeout * 0.9:
        return "TIMEOUT"
    return "PARTIAL"


def _failed_record(path: str, mode: str, status: str, message: str, seconds: float, failure: str,
                   timeout: float | None = None) -> dict[str, Any]:
    """The line for a case whose worker gave no record: ``failure`` is ``died`` or ``timeout``."""
    try:
        h = content_hash(path)
    except CaseError:
        h = ""
    rec = {"case": Path(path).stem, "path": path, "hash": h, "mode": mode, "status": status,
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


def _retry(rec: dict[str, Any], timeout: float | None) -> bool:
    """Whether resuming re-runs this recorded case: a died worker always; a timeout only with a longer limit.

    Bad input and analysis errors are deterministic (same file, same error), and so, near enough,
    is a timeout under the same limit; a worker's death says nothing about the case.
    """
    if rec.get("failure") == "died":
        return True
    if rec.get("failure") == "timeout":
        was = rec.get("timeout")
        return isinstance(was, int | float) and (timeout is None or timeout > was)
    return False


# ---------------------------------------------------------------- resumable output

def _regular(path: str | Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def load_done(out: str | Path) -> list[dict[str, Any]]:
    """Records already in ``out``, read line by line; a torn (unterminated) last line is cut off the file.

    Only a regular file is read back (a device or FIFO given as ``--out`` is written, never read),
    one line at a time and at most :data:`MAX_LINE` bytes of it: a longer or unparsable line in the
    middle is kept in the file and ignored, so neither a huge file nor an endless one fills memory.
    A file that does not start as a results file (a JSON object) is refused, not appended to or cut.
    """
    if not _regular(out):
        return []
    records: list[dict[str, Any]] = []
    good_end = 0  # the end of the last whole line
    first = True
    try:
        fd = os.open(out, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):  # swapped since the stat
                return []
            size = os.fstat(fh.fileno()).st_size
            while True:
                line = fh.readline(MAX_LINE + 1)
                if not line:
                    break
                end = good_end + len(line)
                if first and line.strip():
                    if not line.lstrip().startswith(b"{"):
                        raise OutputError(f"--out {out}: not a batch results file (JSON lines); give a new file name")
                    first = False
                complete = line.endswith(b"\n")
                overlong = not complete and len(line) > MAX_LINE
                if overlong:  # skip to its end without holding it
                    line = b""
                    while True:
                        more = fh.readline(1 << 20)
                        end += len(more)
                        if not more or more.endswith(b"\n"):
                            complete = bool(more)
                            break
                if not complete:  # torn last line (kill -9 mid-write): drop it
                    break
                good_end = end
                if overlong or not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except (ValueError, RecursionError):  # a garbled line in the middle: keep it, ignore it
                    continue
                if isinstance(rec, dict):
                    records.append(rec)
        if good_end < size:
            with open(out, "r+b") as wh:
                wh.truncate(good_end)
    except OSError as exc:
        raise OutputError(f"--out {out}: cannot read it back to resume: {exc.strerror or exc}") from None
    return records


def _output_problem(path: str, flag: str) -> str | None:
    """Why ``path`` cannot be an output file (one line), or ``None``; nothing is created or opened."""
    if not path:
        return f"{flag}: the path is empty"
    p = Path(path)
    try:
        st: os.stat_result | None = os.stat(p)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        st = None
        if exc.errno != errno.ENOTDIR:  # ENOTDIR: a parent is a file, said below
            return f"{flag} {path}: {exc.strerror or exc}"
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            return f"{flag} {path}: is a directory; give a file name"
        if stat.S_ISSOCK(st.st_mode):
            return f"{flag} {path}: is a socket; give a file name"
        if not os.access(p, os.W_OK):
            return f"{flag} {path}: not writable (permission denied)"
        return None
    parent = p.absolute().parent
    while not parent.exists() and parent != parent.parent:  # missing directories are created
        parent = parent.parent
    if not parent.is_dir():
        return f"{flag} {path}: {parent} is not a directory"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"{flag} {path}: cannot create files in {parent} (permission denied)"
    return None


def check_output(path: str, flag: str = "--out") -> None:
    """Refuse an output path that cannot be written, before any case runs (:class:`OutputError`)."""
    problem = _output_problem(path, flag)
    if problem is not None:
        raise OutputError(problem)


def _open_output(path: str, flag: str, append: bool) -> IO[str]:
    """Open an output file (creating missing parent directories); :class:`OutputError` if it can't be.

    Non-blocking open, so a FIFO nobody reads is an error instead of a hang; then blocking writes.
    """
    check_output(path, flag)
    try:
        Path(path).absolute().parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o666)
        try:
            if hasattr(os, "set_blocking"):
                os.set_blocking(fd, True)
            return os.fdopen(fd, "a" if append else "w", encoding="utf-8", newline="" if not append else None)
        except BaseException:
            os.close(fd)
            raise
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # O_NONBLOCK on a FIFO without a reader
            raise OutputError(f"{flag} {path}: a named pipe (FIFO) that no process is reading") from None
        raise OutputError(f"{flag} {path}: cannot open for writing: {exc.strerror or exc}") from None


# ---------------------------------------------------------------- local warm pool

CHUNK_MAX = 8  # cases per message while plenty are left; guided sizing shrinks it to 1 near the end


def _start_method() -> str:
    """How to start a worker: ``fork`` on Linux while this process has a single thread.

    A forked worker starts in milliseconds with every module the parent already imported (the CLI
    imports the solver, pydantic and networkx), where ``spawn`` re-imports them per worker (~0.4 s,
    and again on close). Forking a process with threads (rich's refresh thread, ray's) is unsafe, so
    then ``forkserver``: a clean single-threaded server that imports :mod:`solver.batch` once and
    forks workers from it. Elsewhere (macOS, Windows) ``spawn``, the safe default there.
    """
    methods = mp.get_all_start_methods()
    if sys.platform.startswith("linux"):
        if "fork" in methods and threading.active_count() == 1:
            return "fork"
        if "forkserver" in methods:
            return "forkserver"
    return "spawn"


def _worker(conn: Connection, inherited: Sequence[Connection] = ()) -> None:
    """Run the chunks sent on ``conn``, one message per event, each sent the moment it happens.

    ``("run", idx)`` when a chunk's first case starts; ``("done", idx, record, next)`` when a case
    ends, ``next`` being the case that starts right after it (or ``None``), so the parent knows what
    runs since when (for the hard timeout) without a second message per case.
    """
    for c in inherited:  # a forked worker holds copies of the parent's pipe ends: drop them, so EOF = parent gone
        c.close()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    try:
        while True:
            item = conn.recv()
            if item is None:
                return
            mode, timeout, entries = item
            conn.send(("run", entries[0][0]))
            for k, (idx, path) in enumerate(entries):
                rec = analyze(path, mode, timeout)
                conn.send(("done", idx, rec, entries[k + 1][0] if k + 1 < len(entries) else None))
    except (EOFError, OSError, KeyboardInterrupt):  # parent gone or interrupted
        return


class _Slot:
    """One worker process, its private pipe, and the cases sent to it that have not come back."""

    def __init__(self, proc: Any, conn: Connection) -> None:
        self.proc = proc
        self.conn = conn
        self.queue: deque[int] = deque()  # case indices sent, in the order the worker runs them
        self.running: tuple[int, float] | None = None  # (case index, monotonic start)


class _LocalPool:
    """Warm worker processes, each with its own pipe.

    A private pipe per worker (instead of shared queues) needs no feeder threads (so the parent
    stays single-threaded and can fork), and a worker killed mid-message cannot leave a shared
    lock held for the others.
    """

    def __init__(self, jobs: int) -> None:
        self.slots: dict[int, _Slot] = {}
        self.next_wid = 0
        for _ in range(jobs):
            self.spawn()

    def spawn(self) -> int:
        method = _start_method()
        ctx: Any = mp.get_context(method)
        if method == "forkserver":
            ctx.set_forkserver_preload(["solver.batch"])
        ours, theirs = ctx.Pipe()
        inherited = [s.conn for s in self.slots.values()] + [ours] if method == "fork" else []
        proc = ctx.Process(target=_worker, args=(theirs, inherited), daemon=True)
        proc.start()
        theirs.close()
        wid = self.next_wid
        self.next_wid += 1
        self.slots[wid] = _Slot(proc, ours)
        return wid

    def kill(self, wid: int) -> None:
        slot = self.slots.pop(wid, None)
        if slot is None:
            return
        p = slot.proc
        p.terminate()
        p.join(1.0)
        if p.is_alive():
            p.kill()
            p.join(1.0)
        slot.conn.close()

    def close(self, force: bool = False) -> None:
        if not force:
            for slot in self.slots.values():
                try:
                    slot.conn.send(None)
                except OSError:
                    pass
            deadline = time.monotonic() + 2.0
            for slot in self.slots.values():
                slot.proc.join(max(0.0, deadline - time.monotonic()))
        for wid in list(self.slots):
            self.kill(wid)


def _chunk_size(remaining: int, jobs: int) -> int:
    """Guided chunks: few messages while much is left, single cases at the end so no worker idles."""
    return max(1, min(CHUNK_MAX, remaining // (jobs * 4)))


def _run_local(paths: list[str], mode: str, jobs: int, timeout: float | None,
               emit: Callable[[dict[str, Any]], None], pool: _LocalPool | None = None) -> None:
    """Run ``paths`` on ``pool`` (started here if not given); ``emit`` each record as it arrives."""
    n = len(paths)
    pool = pool if pool is not None else _LocalPool(max(1, min(jobs, n)))
    pending: deque[int] = deque(range(n))  # not yet sent to a worker
    done: set[int] = set()
    hard = None if timeout is None else timeout + GRACE
    idle_deaths = 0

    def feed(wid: int) -> None:
        """Keep a chunk queued behind the running case, so a worker never waits for the parent."""
        slot = pool.slots[wid]
        if len(slot.queue) > 1 or not pending:
            return
        chunk = [pending.popleft() for _ in range(min(len(pending), _chunk_size(len(pending), jobs)))]
        slot.queue.extend(chunk)
        try:
            slot.conn.send((mode, timeout, [(i, paths[i]) for i in chunk]))
        except OSError:  # it died: its sentinel fires and reap() requeues the chunk
            pass

    def handle(wid: int, msg: tuple[Any, ...]) -> None:
        slot = pool.slots[wid]
        now = time.monotonic()
        if msg[0] == "run":
            slot.running = (msg[1], now)
            return
        _kind, idx, rec, nxt = msg
        if idx in slot.queue:
            slot.queue.remove(idx)
        slot.running = None if nxt is None else (nxt, now)
        if idx not in done:
            done.add(idx)
            emit(rec)
        feed(wid)

    def reap(wid: int, timed_out: bool) -> None:
        """Kill a dead or overdue worker, record its case, requeue the rest, start a replacement."""
        nonlocal idle_deaths
        slot = pool.slots[wid]
        pool.kill(wid)
        exitcode = slot.proc.exitcode  # after the join in kill(): how it died, unless we terminated it
        now = time.monotonic()
        cur = slot.running
        if cur is None and not timed_out:
            idle_deaths += 1
            if idle_deaths > 3 * jobs:
                raise MtgOutcomesError("batch workers keep dying before running a case")
        if cur is not None and cur[0] not in done:
            done.add(cur[0])
            if timed_out:
                emit(_failed_record(paths[cur[0]], mode, "TIMEOUT", f"no result within {timeout:g} s; worker terminated",
                                    now - cur[1], "timeout", timeout))
            else:
                emit(_failed_record(paths[cur[0]], mode, "ERROR", _death(exitcode), now - cur[1], "died"))
        pending.extendleft(reversed([i for i in slot.queue if i not in done]))
        if pending:
            feed(pool.spawn())

    try:
        for wid in list(pool.slots):
            feed(wid)
        while len(done) < n:
            if not pool.slots:  # every worker died while nothing was left to requeue
                raise MtgOutcomesError("batch workers died with cases unfinished")
            wait_for = 1.0
            if hard is not None:
                starts = [s.running[1] for s in pool.slots.values() if s.running is not None]
                if starts:
                    wait_for = min(wait_for, max(0.0, min(starts) + hard - time.monotonic()))
            owners: dict[Any, tuple[int, bool]] = {}
            for wid, s in pool.slots.items():
                owners[s.conn] = (wid, False)
                owners[s.proc.sentinel] = (wid, True)
            for obj in mp_wait(list(owners), wait_for):
                wid, exited = owners[obj]
                if wid not in pool.slots:
                    continue
                conn = pool.slots[wid].conn
                try:
                    while wid in pool.slots and conn.poll():
                        handle(wid, conn.recv())
                except (EOFError, OSError):
                    exited = True
                if exited and wid in pool.slots:
                    reap(wid, timed_out=False)
            if hard is not None:
                now = time.monotonic()
                for wid, s in list(pool.slots.items()):
                    if s.running is not None and now - s.running[1] > hard:
                        reap(wid, timed_out=True)
    except BaseException:
        pool.close(force=True)
        raise
    pool.close()


def _run_ray(paths: list[str], mode: str, jobs: int, timeout: float | None,
             emit: Callable[[dict[str, Any]], None]) -> None:
    import ray

    if not ray.is_initialized():
        ray.init(num_cpus=jobs, ignore_reinit_error=True, log_to_driver=False)
    remote = ray.remote(num_cpus=1)(analyze)
    pending: dict[Any, tuple[int, float]] = {}
    it = iter(enumerate(paths))
    hard = None if timeout is None else timeout + GRACE

    def submit() -> None:
        for i, p in it:
            pending[remote.remote(p, mode, timeout)] = (i, time.monotonic())
            if len(pending) >= jobs * 2:
                return

    submit()
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
        for ref in ready:
            i, _t0 = pending.pop(ref)
            try:
                emit(ray.get(ref))
            except Exception as exc:  # analyze never raises: the task's worker or node was lost
                emit(_failed_record(paths[i], mode, "ERROR", f"worker died: {type(exc).__name__}: {exc}".splitlines()[0],
                                    0.0, "died"))
        now = time.monotonic()
        for ref, (i, t0) in list(pending.items()):
            if hard is not None and now - t0 > hard:
                ray.cancel(ref, force=True)
                pending.pop(ref)
                emit(_failed_record(paths[i], mode, "TIMEOUT", f"no result within {timeout:g} s; task cancelled",
                                    now - t0, "timeout", timeout))
        submit()


# ---------------------------------------------------------------- the run

def run_batch(inputs: Sequence[str], out: str, jobs: int = 1, mode: str = "enumerate",
              timeout: float | None = None, executor: str = "local", progress: bool = True) -> list[dict[str, Any]]:
    """Run every case under ``inputs`` not yet in ``out``; return the latest record of each case.

    A case is done when ``out`` holds a record of it with the same content hash and mode that is
    not to be retried (see :func:`_retry`). Of several records of one path and mode (a retried case,
    an edited file), the last one counts. :class:`OutputError` if ``out`` cannot be written.
    """
    from .check import case_files

    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    paths = [str(p) for p in case_files(inputs)]
    fh = _open_output(out, "--out", append=True)  # before anything runs: a bad --out is one line
    try:
        previous = load_done(out)
    except BaseException:
        fh.close()
        raise
    done: dict[tuple[Any, Any, Any], dict[str, Any]] = {}
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
    records = list(done.values())
    if not todo:
        fh.close()
        return _latest(records, current, mode)
    jobs = max(1, jobs)
    # local workers first: forked while this process is still single-threaded (before rich's
    # refresh thread starts), and warming up while the output and the progress bar are set up
    pool = None
    prog = task = None
    fails = 0
    started = time.monotonic()

    def emit(rec: dict[str, Any]) -> None:
        nonlocal fails
        try:
            fh.write(json.dumps(rec, sort_keys=True) + "\n")
            fh.flush()
        except OSError as exc:  # ENOSPC (a full disk, /dev/full), EIO, ...: stop, one line
            raise OutputError(f"--out {out}: cannot write: {exc.strerror or exc}") from None
        records.append(rec)
        if failed(rec):
            fails += 1
        if prog is not None and task is not None:
            rate = (prog.tasks[0].completed + 1) / max(1e-9, time.monotonic() - started)
            prog.update(task, advance=1, fails=fails, rate=f"{rate:.1f}/s")

    try:
        pool = None if executor == "ray" else _LocalPool(min(jobs, len(todo)))
        if progress:
            prog, task = _progress(len(todo))
            prog.start()
        if pool is None:
            _run_ray(todo, mode, jobs, timeout, emit)
        else:
            _run_local(todo, mode, jobs, timeout, emit, pool)
    finally:
        if pool is not None:
            pool.close(force=True)  # a no-op after a normal end: _run_local closed it
        if prog is not None:
            prog.stop()
        with contextlib.suppress(OSError):  # a failed write already said so
            fh.close()
    return _latest(records, current, mode)


def _latest(records: Iterable[dict[str, Any]], current: dict[str, str], mode: str) -> list[dict[str, Any]]:
    """The last record of each (path, mode), in the order the cases were first recorded; for a case
    of this run, the record of its content now (not one of an earlier version of the file)."""
    latest: dict[tuple[Any, Any], dict[str, Any]] = {}
    for r in records:
        path = r.get("path")
        if r.get("mode") == mode and path in current and r.get("hash") != current[path]:
            continue
        latest[(path, r.get("mode"))] = r
    return list(latest.values())


def _progress(total: int) -> tuple[Any, Any]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    prog = Progress(TextColumn("cases"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("[red]{task.fields[fails]} failed"), TextColumn("{task.fields[rate]}"),
                    TimeElapsedColumn(), console=Console(stderr=True), transient=False)
    task = prog.add_task("batch", total=total, fails=0, rate="")
    return prog, task


def _count(rec: dict[str, Any]) -> int:
    if "outcomes" in rec:
        return len(rec["outcomes"])
    return int(rec.get("check", {}).get("outcomes", 0))


def _message(rec: dict[str, Any]) -> str:
    if rec.get("errors"):
        return str(rec["errors"][0])
    detail = rec.get("check", {}).get("detail") or []
    return str(detail[0]) if detail else ""


def tally_line(records: Iterable[dict[str, Any]]) -> str:
    """One line: how many cases have each status, and how many fail the run (``3 OK, 1 INCOMPLETE, ...``).

    A check-mode run always names INCOMPLETE and UNREACHABLE, so a clean run says ``0`` of each.
    """
    recs = list(records)
    counts: dict[str, int] = {"OK": 0}
    if any(r.get("mode") == "check" for r in recs):
        counts.update(dict.fromkeys(RULING_STATUSES, 0))
    for r in recs:
        counts[str(r.get("status"))] = counts.get(str(r.get("status")), 0) + 1
    shown = [f"{n} {s}" for s, n in counts.items() if s in ("OK", *RULING_STATUSES)]
    shown += [f"{n} {s}" for s, n in sorted(counts.items()) if s not in ("OK", *RULING_STATUSES)]
    bad = sum(failed(r) for r in recs)
    return f"{', '.join(shown)}; {bad} failed ({len(recs)} case{'s' if len(recs) != 1 else ''})"


def summary_lines(records: Iterable[dict[str, Any]]) -> list[str]:
    recs = sorted(records, key=lambda r: str(r.get("path")))
    counts: dict[str, int] = {}
    for r in recs:
        counts[str(r.get("status"))] = counts.get(str(r.get("status")), 0) + 1
    lines = [f"{'status':<14} cases"]
    lines += [f"{s:<14} {n}" for s, n in sorted(counts.items())]
    lines.append(f"{'total':<14} {len(recs)}")
    bad = [r for r in recs if r.get("status") not in ("OK", "NO-EXPECT")]
    if bad:
        lines.append("")
        for r in bad:
            lines.append(f"{r.get('status'):<14} {r.get('path')}  {_message(r)}")
    lines += ["", tally_line(recs)]
    return lines


def print_summary(records: list[dict[str, Any]]) -> None:
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
        if r.get("status") not in ("OK", "NO-EXPECT"):
            console.print(f"{r.get('status')}  {r.get('path')}  {_message(r)}", markup=False, highlight=False)
    console.print(tally_line(records), markup=False, highlight=False)


def write_csv(records: Iterable[dict[str, Any]], path: str | Path) -> None:
    """The summary as CSV; :class:`OutputError` (one line) if it cannot be written."""
    fh = _open_output(str(path), "--csv", append=False)
    try:
        with fh:
            w = csv.writer(fh)
            w.writerow(["case", "path", "hash", "mode", "status", "outcomes", "seconds", "message", "failure"])
            for r in sorted(records, key=lambda r: str(r.get("path"))):
                w.writerow([r.get("case"), r.get("path"), r.get("hash"), r.get("mode"), r.get("status"),
                            _count(r), r.get("seconds"), _message(r), r.get("failure", "")])
    except OSError as exc:
        raise OutputError(f"--csv {path}: cannot write: {exc.strerror or exc}") from None


# ---------------------------------------------------------------- random cases

def _case_text(rng: random.Random, case_id: str) -> str:
    lines = [f"id: {case_id}", "format: standard", "players:", "  - {name: A}", "  - {name: you}",
             "battlefield:"]
    attackers = []
    for i in range(1, rng.randint(1, 3) + 1):
        power = rng.randint(1, 6)
        tough = rng.randint(1, 6)
        attackers.append((f"c{i}", power))
        lines.append(f"  - {{id: c{i}, name: Attacker {i}, controller: A, types: [creature], colors: [red], "
                     f"power: {power}, toughness: {tough}, attacking: you}}")
    if rng.random() < 0.5:
        amount = rng.randint(1, 2)
        lines.append(f"  - {{id: ward, name: Prevention Ward, controller: you, types: [enchantment], colors: [white], "
                     f"abilities: [{{prevent: {amount}, to: you, from: sources an opponent controls}}]}}")
    if rng.random() < 0.5:
        lines.append("  - {id: doubler, name: Doubler, controller: A, types: [enchantment], colors: [red], "
                     "abilities: [{multiply: 2, from: creatures you control}]}")
    shields = rng.randint(0, 1 if len(attackers) == 3 else 2)  # keep every case small
    if shields:
        lines.append("effects:")
        for s in range(1, shields + 1):
            lines.append(f"  - {{id: s{s}, shield: {rng.randint(1, 4)}, to: you, controller: you}}")
    hits = ", ".join(f"{{from: {a}, to: you, amount: {p}, combat: true}}" for a, p in attackers)
    lines += ["actions:", f"  - damage: [{hits}]"]
    return "\n".join(lines) + "\n"


def generate_cases(count: int, seed: int, out_dir: str | Path) -> list[Path]:
    """``count`` reproducible random valid case files (same seed, same bytes)."""
    rng = random.Random(seed)
    d = Path(out_dir)
    d.mkdir(parents=True, exist_ok=True)
    width = max(4, len(str(count)))
    written = []
    for i in range(count):
        case_id = f"gen-{seed}-{i:0{width}d}"
        p = d / f"{case_id}.yaml"
        p.write_text(_case_text(rng, case_id), encoding="utf-8")
        written.append(p)
    return written

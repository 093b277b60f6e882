"""A warm pool of worker processes, each with its own pipe, fed guided chunks of cases; the
hard per-case timeout (the worker is terminated and replaced), and the same over Ray."""

from __future__ import annotations

import logging
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from enum import StrEnum
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as mp_wait
from typing import Any

from mtg_outcomes.model.errors import MtgOutcomesError

from ..contract import Status
from .records import GRACE, Record, _death, _failed_record, analyze


class _Msg(StrEnum):
    """What a worker says: a case started, or one ended with its record."""

    RUN = "run"
    DONE = "done"

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


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _die_with(parent: int) -> None:
    """End this worker when the batch process ``parent`` ends, even by ``kill -9`` (it can't say so).

    On Linux the kernel sends SIGKILL at the parent's death (``prctl(PR_SET_PDEATHSIG)``; a forked
    worker's parent is the batch's main thread). Everywhere, and for a worker a forkserver started
    (its parent is the server), a watchdog thread checks the batch's pid every second.
    """
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the watchdog alone
            pass

    def alive() -> bool:
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # it exists
            return True
        try:  # a killed parent stays a zombie until its own parent reaps it
            with open(f"/proc/{parent}/stat", "rb") as fh:
                return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
        except (OSError, IndexError):
            return True

    def watch() -> None:
        while alive():
            time.sleep(1.0)
        os._exit(1)

    if not alive():
        os._exit(1)
    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def _worker(conn: Connection, inherited: Sequence[Connection] = (), parent: int | None = None) -> None:
    """Run the chunks sent on ``conn``, one message per event, each sent the moment it happens.

    ``("run", idx)`` when a chunk's first case starts; ``("done", idx, record, next)`` when a case
    ends, ``next`` being the case that starts right after it (or ``None``), so the parent knows what
    runs since when (for the hard timeout) without a second message per case.
    """
    for c in inherited:  # a forked worker holds copies of the parent's pipe ends: drop them, so EOF = parent gone
        c.close()
    if parent is not None:
        _die_with(parent)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    try:
        while True:
            item = conn.recv()
            if item is None:
                return
            mode, timeout, entries = item
            conn.send((_Msg.RUN, entries[0][0]))
            for k, (idx, path) in enumerate(entries):
                rec = analyze(path, mode, timeout)
                conn.send((_Msg.DONE, idx, rec, entries[k + 1][0] if k + 1 < len(entries) else None))
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
            ctx.set_forkserver_preload(["mtg_outcomes.batch"])
        ours, theirs = ctx.Pipe()
        inherited = [s.conn for s in self.slots.values()] + [ours] if method == "fork" else []
        proc = ctx.Process(target=_worker, args=(theirs, inherited, os.getpid()), daemon=True)
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
               emit: Callable[[Record], None], pool: _LocalPool | None = None) -> None:
    """Run ``paths`` on ``pool`` (started here if not given); ``emit`` each record as it arrives."""
    pool = pool if pool is not None else _LocalPool(max(1, min(jobs, len(paths))))
    run = _LocalRun(paths, mode, jobs, timeout, emit, pool)
    try:
        for wid in list(pool.slots):
            run.feed(wid)
        while len(run.done) < len(paths):
            if not pool.slots:  # every worker died while nothing was left to requeue
                raise MtgOutcomesError("batch workers died with cases unfinished")
            run.one_round()
    except BaseException:
        pool.close(force=True)
        raise
    pool.close()


class _LocalRun:
    """One batch on local worker processes: the cases not yet sent, those done, and each
    worker's queue and running case (a worker overdue by ``timeout`` + GRACE is killed)."""

    def __init__(self, paths: list[str], mode: str, jobs: int, timeout: float | None,
                 emit: Callable[[Record], None], pool: _LocalPool) -> None:
        self.paths, self.mode, self.jobs, self.timeout, self.emit, self.pool = paths, mode, jobs, timeout, emit, pool
        self.pending: deque[int] = deque(range(len(paths)))  # not yet sent to a worker
        self.done: set[int] = set()
        self.hard = None if timeout is None else timeout + GRACE
        self.idle_deaths = 0

    def feed(self, wid: int) -> None:
        """Keep a chunk queued behind the running case, so a worker never waits for the parent."""
        slot = self.pool.slots[wid]
        pending = self.pending
        if len(slot.queue) > 1 or not pending:
            return
        chunk = [pending.popleft() for _ in range(min(len(pending), _chunk_size(len(pending), self.jobs)))]
        slot.queue.extend(chunk)
        try:
            slot.conn.send((self.mode, self.timeout, [(i, self.paths[i]) for i in chunk]))
        except OSError:  # it died: its sentinel fires and reap() requeues the chunk
            pass

    def handle(self, wid: int, msg: tuple[Any, ...]) -> None:
        """A worker's message: a case started (``run``), or a case's record and the next one."""
        slot = self.pool.slots[wid]
        now = time.monotonic()
        match msg:
            case (_Msg.RUN, idx):
                slot.running = (idx, now)
                return
            case (_, idx, rec, nxt):
                if idx in slot.queue:
                    slot.queue.remove(idx)
                slot.running = None if nxt is None else (nxt, now)
                if idx not in self.done:
                    self.done.add(idx)
                    self.emit(rec)
                self.feed(wid)

    def reap(self, wid: int, timed_out: bool) -> None:
        """Kill a dead or overdue worker, record its case, requeue the rest, start a replacement."""
        slot = self.pool.slots[wid]
        self.pool.kill(wid)
        exitcode = slot.proc.exitcode  # after the join in kill(): how it died, unless we terminated it
        now = time.monotonic()
        cur = slot.running
        if cur is None and not timed_out:
            self.idle_deaths += 1
            if self.idle_deaths > 3 * self.jobs:
                raise MtgOutcomesError("batch workers keep dying before running a case")
        if cur is not None and cur[0] not in self.done:
            self.done.add(cur[0])
            if timed_out:
                self.emit(_failed_record(self.paths[cur[0]], self.mode, Status.TIMEOUT,
                                         f"no result within {self.timeout:g} s; worker terminated",
                                         now - cur[1], "timeout", self.timeout))
            else:
                self.emit(_failed_record(self.paths[cur[0]], self.mode, Status.ERROR, _death(exitcode), now - cur[1], "died"))
        self.pending.extendleft(reversed([i for i in slot.queue if i not in self.done]))
        if self.pending:
            self.feed(self.pool.spawn())

    def one_round(self) -> None:
        """Wait (at most a second, or until the first running case is overdue) for messages and
        exits, handle them, and kill the overdue workers."""
        pool, hard = self.pool, self.hard
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
                    self.handle(wid, conn.recv())
            except (EOFError, OSError):
                exited = True
            if exited and wid in pool.slots:
                self.reap(wid, timed_out=False)
        if hard is not None:
            now = time.monotonic()
            for wid, s in list(pool.slots.items()):
                if s.running is not None and now - s.running[1] > hard:
                    self.reap(wid, timed_out=True)


RAY_START_SECONDS = 60.0  # how long connecting to (or starting) Ray may take before it is an error
RAY_START_ENV = "MTG_OUTCOMES_RAY_START_TIMEOUT"  # seconds, to change it


class RayStartError(MtgOutcomesError):
    """Ray could not be started or reached in time (one line, exit 2). ``stuck`` when its start-up
    thread is still running: the CLI then exits at once rather than wait for Ray's shutdown."""

    def __init__(self, message: str, stuck: bool = False) -> None:
        super().__init__(message)
        self.stuck = stuck


def ray_address(address: str | None) -> str | None:
    """The cluster to connect to: ``--address``, else ``RAY_ADDRESS``, else None (start a local one)."""
    return address or os.environ.get("RAY_ADDRESS") or None


def _start_limit() -> float:
    text = os.environ.get(RAY_START_ENV, "")
    try:
        value = float(text) if text else RAY_START_SECONDS
    except ValueError:
        raise RayStartError(f"{RAY_START_ENV}={text!r}: expected seconds") from None
    if not value > 0 or value == float("inf"):
        raise RayStartError(f"{RAY_START_ENV}={text!r}: expected seconds > 0")
    return value


def connect_ray(address: str | None, jobs: int) -> threading.Event | None:
    """Join the Ray cluster at ``address`` (``RAY_ADDRESS``), or start a local one of ``jobs`` CPUs when
    none is given. Returns the event that ends the start-up thread once set (after ``ray.shutdown()``),
    or None when Ray was already connected.

    An existing cluster has its own resources: ``num_cpus`` is not passed then (Ray refuses it). Ray's
    start-up can wait forever (an address nobody answers, a head that cannot start): it runs in a
    thread given :data:`RAY_START_SECONDS`, past which it is :class:`RayStartError`, one line. The
    thread lives until the run ends: the local Ray processes it starts get a parent-death signal
    tied to the thread that started them (Linux ``PR_SET_PDEATHSIG``), so they would die with it.
    """
    import ray

    if ray.is_initialized():
        return None
    addr = ray_address(address)
    kwargs: Record = {"log_to_driver": False, "configure_logging": False}
    if addr is not None:
        kwargs["address"] = addr
    else:
        kwargs["num_cpus"] = jobs
        kwargs["include_dashboard"] = False
    where = f"the Ray cluster at {addr}" if addr else "a local Ray instance"
    limit = _start_limit()
    logging.getLogger("ray").setLevel(logging.ERROR)  # its warnings (init off the main thread) aren't ours
    failure: list[BaseException] = []
    up = threading.Event()
    release = threading.Event()

    def start() -> None:
        try:
            ray.init(**kwargs)
        except BaseException as exc:  # said by the caller, one line
            failure.append(exc)
            return
        finally:
            up.set()
        release.wait()

    thread = threading.Thread(target=start, name="ray-init", daemon=True)
    thread.start()
    if not up.wait(limit):
        raise RayStartError(f"--executor ray: could not reach {where} within {limit:g} s "
                            f"(set {RAY_START_ENV} to wait longer)", stuck=True)
    if failure:
        exc = failure[0]
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise RayStartError(f"--executor ray: could not reach {where}: {first}")
    return release


def _ray_case(path: str, mode: str, timeout: float | None, cwd: str) -> Any:
    """One case as a Ray task: first says it started (the clock of its limit starts there, not at
    submission, which may be long before a worker is free), then gives the record. Relative paths
    are the driver's: its directory when it exists on this node (a shared file system)."""
    yield (_Msg.RUN, os.getpid())
    if os.path.isdir(cwd):
        os.chdir(cwd)
    yield analyze(path, mode, timeout)


def _run_ray(paths: list[str], mode: str, jobs: int, timeout: float | None,
             emit: Callable[[Record], None], address: str | None = None) -> None:
    """Run ``paths`` as Ray tasks, at most twice the cluster's CPUs in flight.

    A case's hard limit (``timeout`` + :data:`GRACE`) runs from when its task says it started, so a
    case waiting for a worker is never timed out. A task whose worker or node is lost (killed,
    out of memory, cancelled by someone else) is ``died``, retried on resume; Ray does not retry it
    (``max_retries=0``), so no case runs twice in one batch.
    """
    import ray

    release = connect_ray(address, jobs)
    try:
        cpus = int(ray.cluster_resources().get("CPU", jobs)) if ray_address(address) else jobs
        _ray_loop(paths, mode, max(1, cpus), timeout, emit)
    finally:
        if release is not None:
            ray.shutdown()
            release.set()


def _ray_loop(paths: list[str], mode: str, cpus: int, timeout: float | None,
              emit: Callable[[Record], None]) -> None:
    import ray

    remote = ray.remote(num_cpus=1, num_returns="streaming", max_retries=0)(_ray_case)
    cwd = os.getcwd()
    pending: dict[Any, list[Any]] = {}  # task -> [case index, monotonic start or None while queued]
    it = iter(enumerate(paths))
    hard = None if timeout is None else timeout + GRACE

    def submit() -> None:
        while len(pending) < cpus * 2:
            nxt = next(it, None)
            if nxt is None:
                return
            pending[remote.remote(nxt[1], mode, timeout, cwd)] = [nxt[0], None]

    def died(i: int, exc: BaseException, t0: float | None) -> None:
        why = (str(exc).strip().splitlines() or [""])[0]
        emit(_failed_record(paths[i], mode, Status.ERROR, f"worker died: {type(exc).__name__}: {why}"[:300],
                            0.0 if t0 is None else time.monotonic() - t0, "died"))

    def take(task: Any) -> None:
        i, t0 = pending[task]
        try:
            item = ray.get(next(task))
        except StopIteration:  # ended without a record: as a death
            pending.pop(task)
            died(i, RuntimeError("the task ended without a result"), t0)
            return
        except Exception as exc:  # analyze never raises: the task's worker or node was lost
            pending.pop(task)
            died(i, exc, t0)
            return
        if isinstance(item, tuple) and item and item[0] == _Msg.RUN:
            pending[task][1] = time.monotonic()
            return
        pending.pop(task)
        emit(item)

    submit()
    while pending:
        wait_for = 0.5
        if hard is not None:
            starts = [t0 for _i, t0 in pending.values() if t0 is not None]
            if starts:
                wait_for = min(wait_for, max(0.01, min(starts) + hard - time.monotonic()))
        ready, _ = ray.wait(list(pending), num_returns=1, timeout=wait_for)
        if ready:
            ready, _ = ray.wait(list(pending), num_returns=len(pending), timeout=0)
        for task in ready:
            take(task)
        now = time.monotonic()
        for task, (i, t0) in list(pending.items()):
            if hard is not None and t0 is not None and now - t0 > hard:
                pending.pop(task)
                ray.cancel(task, force=True)
                emit(_failed_record(paths[i], mode, Status.TIMEOUT, f"no result within {timeout:g} s; task cancelled",
                                    now - t0, "timeout", timeout))
        submit()


# ---------------------------------------------------------------- the run

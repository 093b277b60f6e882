"""The ``--out`` file: checked before running, appended and flushed line by line, read back on
resume (a torn or overlong line is dropped), and the CSV export."""

from __future__ import annotations

import csv
import errno
import json
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from .records import MAX_LINE, OutputError, Record, _count, _message


def _regular(path: str | Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def load_done(out: str | Path) -> list[Record]:
    """Records already in ``out``, read line by line; a torn (unterminated) last line is cut off the file.

    Only a regular file is read back (a device or FIFO given as ``--out`` is written, never read),
    one line at a time and at most :data:`MAX_LINE` bytes of it: a longer or unparsable line in the
    middle is kept in the file and ignored, so neither a huge file nor an endless one fills memory.
    A file that does not start as a results file (a JSON object) is refused, not appended to or cut.
    """
    if not _regular(out):
        return []
    records: list[Record] = []
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
        if stat.S_ISFIFO(st.st_mode):  # never opened: an open for writing would wait for a reader
            return f"{flag} {path}: is a named pipe (FIFO); give a regular file"
        if stat.S_ISBLK(st.st_mode):
            return f"{flag} {path}: is a block device; give a regular file"
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


def check_output(path: str, flag: str = "--out", probe: bool = False) -> None:
    """Refuse an output path that cannot be written, before any case runs (:class:`OutputError`).

    ``probe``: also open it for writing (non-blocking, without truncating; a file created for the
    probe is removed), so what the permission bits don't show is found now, not after the run: a
    read-only file system, or root's ``access()`` that says yes to everything.
    """
    problem = _output_problem(path, flag)
    if problem is None and probe:
        problem = _probe(path, flag)
    if problem is not None:
        raise OutputError(problem)


def _probe(path: str, flag: str) -> str | None:
    p = Path(path)
    existed = os.path.lexists(p)
    try:
        p.absolute().parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0), 0o666)
        os.close(fd)
    except OSError as exc:
        return f"{flag} {path}: cannot open for writing: {exc.strerror or exc}"
    if not existed:
        try:
            os.unlink(p)
        except OSError:
            pass
    return None


def check_output_dir(path: str, flag: str) -> None:
    """A directory the run will write files into: made now (with its parents) and probed with a
    file created and removed, so a read-only or unwritable one is refused before any case runs."""
    p = Path(path)
    if os.path.lexists(p) and not p.is_dir():
        raise OutputError(f"{flag} {path}: not a directory")
    try:
        p.mkdir(parents=True, exist_ok=True)
        probe = p / f".mtg-outcomes-probe-{os.getpid()}"
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise OutputError(f"{flag} {path}: cannot write files in it: {exc.strerror or exc}") from None


def lock_output(fh: IO[str], path: str, flag: str = "--out") -> None:
    """Hold an advisory lock (``flock``) on a regular output file while this run writes it: a second
    batch on the same file refuses to start, one line (it would compute and write every case twice).
    Where ``fcntl`` is missing (Windows) there is no lock."""
    try:
        import fcntl
    except ImportError:
        return
    if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):  # /dev/null and the like: nothing to protect
        return
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise OutputError(f"{flag} {path}: another batch is writing to it (locked); wait for it to end "
                          "or give another file") from None
    except OSError:  # a file system without locks (some network ones): run unlocked
        return


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



def _latest(records: Iterable[Record], current: dict[str, str], mode: str) -> list[Record]:
    """The last record of each (path, mode), in the order the cases were first recorded; for a case
    of this run, the record of its content now (not one of an earlier version of the file)."""
    latest: dict[tuple[Any, Any], Record] = {}
    for r in records:
        path = r.get("path")
        if r.get("mode") == mode and path in current and r.get("hash") != current[path]:
            continue
        latest[(path, r.get("mode"))] = r
    return list(latest.values())




def write_csv(records: Iterable[Record], path: str | Path) -> None:
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

"""Output files and folders, checked before any work starts (a bad ``--out``, ``--csv``,
``--graph``, ``-o`` or ``--report`` is one line, exit 2, not a traceback after the run): every
command that writes one uses these, so they sit below the commands and the batch runner."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import IO

from mtg_outcomes.model.errors import MtgOutcomesError

__all__ = ["OutputError", "check_output", "check_output_dir", "lock_output"]


class OutputError(MtgOutcomesError):
    """An output file (``--out``, ``--csv``) that cannot be written; the CLI prints one line, exit 2."""


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

"""The ``--out`` file: checked before running, appended and flushed line by line, read back on
resume (a torn or overlong line is dropped), and the CSV export."""

from __future__ import annotations

import csv
import json
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..outputs import OutputError, _open_output
from .records import MAX_LINE, Record, _count, _message


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

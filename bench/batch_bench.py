"""Batch throughput: 500 generated cases, ``--jobs 1`` vs ``--jobs 2`` in the same run (target >= 1.6x).

Wall clock of the whole CLI (process start included). On a shared machine other processes steal a
core from ``--jobs 2``, so each timing is printed with the CPU seconds *other* processes used
meanwhile (Linux: machine busy time from /proc/stat minus this run's own; the load average would
count the previous run too), and ``--repeat N`` runs the pair N times (every pair is reported).

Run: .venv/bin/python bench/batch_bench.py [--count 500] [--repeat 1]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "mtg_outcomes.cli"]


def _busy() -> float | None:
    """CPU seconds the whole machine has been busy (Linux), or None."""
    try:
        ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    except (OSError, ValueError):
        return None
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")  # minus idle and iowait


def _own() -> float:
    """CPU seconds of this script's finished children (the batch runs and their workers)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0.0
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cases: Path, out: Path, jobs: int) -> tuple[float, str]:
    """Wall seconds of one batch run, and the CPU seconds other processes took meanwhile."""
    out.unlink(missing_ok=True)
    busy0, own0 = _busy(), _own()
    start = time.perf_counter()
    subprocess.run([*CLI, "batch", str(cases), "--jobs", str(jobs), "--out", str(out), "--no-progress"],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    busy1 = _busy()
    if busy0 is None or busy1 is None:
        return wall, "?"
    return wall, f"{max(0.0, busy1 - busy0 - (_own() - own0)):.2f}"


def _results(out: Path) -> list[tuple[str, str]]:
    """(path, status) per line: both runs must have done the same work for the ratio to mean anything."""
    return sorted((r["path"], r["status"]) for r in map(json.loads, out.read_text().splitlines()))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--repeat", type=int, default=1, help="run the jobs 1 / jobs 2 pair this many times")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        subprocess.run([*CLI, "generate", "--count", str(args.count), "--seed", str(args.seed), str(d / "cases")],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        for _ in range(max(1, args.repeat)):
            t1, other1 = timed(d / "cases", d / "j1.jsonl", 1)
            t2, other2 = timed(d / "cases", d / "j2.jsonl", 2)
            if _results(d / "j1.jsonl") != _results(d / "j2.jsonl") or len(_results(d / "j1.jsonl")) != args.count:
                print("jobs 1 and jobs 2 did not record the same cases", file=sys.stderr)
                return 1
            ratio = t1 / t2
            print(f"{args.count} cases: --jobs 1 {t1:.2f} s, --jobs 2 {t2:.2f} s, speedup {ratio:.2f}x "
                  f"({'ok' if ratio >= 1.6 else 'below'} target 1.6x; other processes used {other1} + {other2} cpu-s)",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

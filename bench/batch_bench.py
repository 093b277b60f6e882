"""Batch throughput: 500 generated cases, ``--jobs 1`` vs ``--jobs 2`` in the same run (target >= 1.6x).

Run: .venv/bin/python bench/batch_bench.py [--count 500]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "solver.cli"]


def timed(cases: Path, out: Path, jobs: int) -> float:
    start = time.perf_counter()
    subprocess.run([*CLI, "batch", str(cases), "--jobs", str(jobs), "--out", str(out), "--no-progress"],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        subprocess.run([*CLI, "generate", "--count", str(args.count), "--seed", str(args.seed), str(d / "cases")],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        t1 = timed(d / "cases", d / "j1.jsonl", 1)
        t2 = timed(d / "cases", d / "j2.jsonl", 2)
    ratio = t1 / t2
    print(f"{args.count} cases: --jobs 1 {t1:.2f} s, --jobs 2 {t2:.2f} s, speedup {ratio:.2f}x "
          f"({'ok' if ratio >= 1.6 else 'below'} target 1.6x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

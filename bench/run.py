"""``make bench``: the scale cases, timed against a naive baseline in the same run (ratios, never
absolute thresholds).

Rows:
- wide combat (cases/bench/wide-combat.yaml): naive baseline = walk every raw choice path (every
  order x every split, no merging of identical states) with the same rules engine, cut off at a
  limit; the choice graph (merging states) under the same limit; CP-SAT distinct enumeration.
  The baseline's limit defaults to 120x the CP time, so a cut-off baseline still proves the ratio.
- large optimisation (cases/bench/large-optimisation.yaml): CP-SAT distinct outcomes on the
  objective's fields (you.life, A.cards_drawn) under a timeout; the graph can't start on it.
- batch: bench/batch_bench.py (500 generated cases, --jobs 1 vs --jobs 2).

Run: .venv/bin/python bench/run.py [--limit S] [--skip-batch]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from model import load_case  # noqa: E402
from solver.api import enumerate_outcomes  # noqa: E402
from solver.cp import estimate_paths  # noqa: E402
from solver.engine import Decision, advance  # noqa: E402
from solver.graph import build_graph  # noqa: E402
from solver.state import initial_state  # noqa: E402


def naive_paths(case_path: Path, limit: float) -> tuple[int, float, bool]:
    """Walk every raw choice path without merging states; (leaves, seconds, finished)."""
    case = load_case(case_path)
    state, table = initial_state(case)
    start = time.perf_counter()
    leaves = 0
    stack = [state]
    while stack:
        if time.perf_counter() - start > limit:
            return leaves, time.perf_counter() - start, False
        res = advance(stack.pop(), table)
        if isinstance(res, Decision):
            stack.extend(o.state for o in res.options)
        elif not res.dead:
            leaves += 1
    return leaves, time.perf_counter() - start, True


def row(name: str, cells: list[str]) -> None:
    print(f"{name:<22}" + "".join(f"{c:>20}" for c in cells))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=None, help="baseline/graph cut-off in seconds")
    ap.add_argument("--cp-timeout", type=float, default=300.0)
    ap.add_argument("--skip-batch", action="store_true")
    args = ap.parse_args()

    wide = ROOT / "cases" / "bench" / "wide-combat.yaml"
    case = load_case(wide)
    t = time.perf_counter()
    cp = enumerate_outcomes(case, engine="cp", timeout=args.cp_timeout)
    cp_s = time.perf_counter() - t
    limit = args.limit if args.limit is not None else max(10.0, 120 * cp_s)
    leaves, naive_s, naive_done = naive_paths(wide, limit)
    t = time.perf_counter()
    cg = build_graph(case, timeout=limit)
    graph_s = time.perf_counter() - t
    print("wide combat (10 attackers, 3 shields with riders, a doubler, a static prevention)")
    row("", ["distinct outcomes", "raw paths (est.)", "naive s", "graph s", "CP s"])
    row("", [f"{len(cp.outcomes)}{'' if cp.complete else ' (partial)'}", f"{estimate_paths(case):.3g}",
             f"{'' if naive_done else '>'}{naive_s:.1f} ({leaves} leaves)",
             f"{'' if cg.complete else '>'}{graph_s:.1f}", f"{cp_s:.2f}"])
    print(f"  naive / CP: {'' if naive_done else '>='}{naive_s / cp_s:.0f}x"
          f"   graph / CP: {'' if cg.complete else '>='}{graph_s / cp_s:.0f}x   (target: naive/CP >= 100x)")

    large = load_case(ROOT / "cases" / "bench" / "large-optimisation.yaml")
    t = time.perf_counter()
    res = enumerate_outcomes(large, engine="cp", fields=["you.life", "A.cards_drawn"], timeout=args.cp_timeout)
    large_s = time.perf_counter() - t
    best = max(((o.values["you.life"], -o.values["A.cards_drawn"]) for o in res.outcomes), default=None)
    print("\nlarge optimisation (100 attackers, 20 shields): lose the least life, then deny the most draws")
    print(f"  CP: {len(res.outcomes)} distinct (you.life, A.cards_drawn) outcomes in {large_s:.1f} s"
          f" ({'complete' if res.complete else 'PARTIAL: timeout'}); best found: "
          f"{'none' if best is None else f'you.life={best[0]}, A.cards_drawn={-best[1]}'}")

    if not args.skip_batch:
        print("\nbatch")
        subprocess.run([sys.executable, str(ROOT / "bench" / "batch_bench.py")], cwd=ROOT, check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Benchmark: CP-SAT distinct-outcome enumeration against the choice graph and a naive baseline.

For each case in cases/bench/ (written by bench/gen.py from a fixed seed) it prints: distinct
outcomes, raw choice paths (the graph's count when it finishes, else an estimate: orders times
shield shares per event, multiplied), the naive baseline (every path of the decision tree, no
merging of identical states, cut at a limit), the choice graph (cut at a node and time limit),
the CP engine, and the ratios. A time shown as ">T" means the limit T cut the run.

The naive limit is 120 times the CP time (at least 30 s, at most 600 s; 30 s when CP itself
was cut), so a cut naive run shows that CP is more than 120 times faster on that case; the estimate column
extrapolates the naive run's leaves per second to every raw path.

Run: ``make bench`` or ``.venv/bin/python bench/run.py [--quick]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from model import load_case  # noqa: E402
from model.types import Case  # noqa: E402
from solver.cp import cp_outcomes, estimate_paths  # noqa: E402
from solver.engine import Decision, advance, final_fields  # noqa: E402
from solver.graph import build_graph, graph_outcomes  # noqa: E402
from solver.state import initial_state  # noqa: E402

# per case: the projection CP enumerates (None = every field) and the CP time limit
PLAN: dict[str, tuple[list[str] | None, float]] = {
    "bench-wide-combat": (None, 300.0),
    "bench-large-optimisation": (["you.life"], 120.0),
}


@dataclass
class Run:
    seconds: float
    complete: bool
    outcomes: int
    paths: int = 0


def _key(values: dict[str, Any], fields: list[str] | None) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(values.items())) if fields is None else tuple((f, values.get(f)) for f in fields)


def naive(case: Case, limit: float, fields: list[str] | None) -> Run:
    """Walk every path of the decision tree (CR 616.1 orders x 615.7 shares), merging nothing."""
    start = time.perf_counter()
    state, table = initial_state(case)
    seen: set[tuple[tuple[str, Any], ...]] = set()
    leaves = 0
    stack = [state]
    while stack:
        if time.perf_counter() - start > limit:
            return Run(time.perf_counter() - start, False, len(seen), leaves)
        res = advance(stack.pop(), table)
        if isinstance(res, Decision):
            stack.extend(o.state for o in reversed(res.options))
        elif not res.dead:
            leaves += 1
            seen.add(_key(final_fields(res, table), fields))
    return Run(time.perf_counter() - start, True, len(seen), leaves)


def graph(case: Case, limit: float, max_nodes: int, fields: list[str] | None) -> Run:
    start = time.perf_counter()
    cg = build_graph(case, max_nodes=max_nodes, timeout=limit)
    if not cg.complete:
        return Run(time.perf_counter() - start, False, len({_key(v, fields) for v in cg.leaves.values()}))
    outs = graph_outcomes(cg, fields)
    return Run(time.perf_counter() - start, True, len(outs), sum(o.paths for o in outs))


def cp(case: Case, fields: list[str] | None, limit: float) -> Run:
    start = time.perf_counter()
    res = cp_outcomes(case, fields=fields, timeout=limit)
    return Run(time.perf_counter() - start, res.complete, len(res.outcomes))


def _t(run: Run) -> str:
    return f"{run.seconds:.2f}" if run.complete else f">{run.seconds:.0f}"


def _ratio(slow: Run, fast: Run) -> str:
    if not fast.complete:
        return "n/a"
    r = slow.seconds / max(fast.seconds, 1e-9)
    return f"{r:.0f}x" if slow.complete else f">{r:.0f}x"


def _sci(x: int) -> str:
    """A possibly huge count as 1.2e45 (the estimates overflow floats)."""
    if x < 10**6:
        return str(x)
    digits = str(x)
    return f"{digits[0]}.{digits[1]}e{len(digits) - 1}"


def bench(path: Path, quick: bool) -> list[str]:
    case = load_case(path)
    fields, cp_limit = PLAN.get(case.id, (None, 120.0))
    if quick:
        cp_limit = min(cp_limit, 30.0)
    est = estimate_paths(case) or 0
    c = cp(case, fields, cp_limit)
    naive_limit = 30.0 if quick or not c.complete else min(600.0, max(30.0, 120 * c.seconds))
    n = naive(case, naive_limit, fields)
    g = graph(case, 30.0 if quick else 120.0, 2_000_000, fields)
    paths = f"{g.paths}" if g.complete else f"~{_sci(est)}"
    rate = n.paths / max(n.seconds, 1e-9)
    naive_est = f"~{_sci(int(est // max(int(rate), 1)))} s" if not n.complete and rate > 0 else "-"
    proj = ",".join(fields) if fields else "all fields"
    lines = [
        f"{case.id}  ({len(case.permanents)} permanents, {len(case.effects)} shields; projection: {proj})",
        f"  {'distinct outcomes':<22}{c.outcomes}{'' if c.complete else ' (so far: the CP limit cut the run)'}",
        f"  {'raw choice paths':<22}{paths}",
        f"  {'naive baseline':<22}{_t(n)} s  ({n.paths} paths walked, {n.outcomes} outcomes seen; all paths: {naive_est})",
        f"  {'choice graph':<22}{_t(g)} s  ({g.outcomes} outcomes{'' if g.complete else ' seen'})",
        f"  {'CP-SAT':<22}{_t(c)} s",
        f"  {'naive / CP':<22}{_ratio(n, c)}",
        f"  {'graph / CP':<22}{_ratio(g, c)}",
    ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description="CP vs graph vs naive on cases/bench/")
    parser.add_argument("--quick", action="store_true", help="30 s limits everywhere")
    parser.add_argument("--no-batch", action="store_true", help="skip bench/batch_bench.py (jobs 1 vs 2)")
    parser.add_argument("cases", nargs="*", help="case files (default: cases/bench/*.yaml)")
    args = parser.parse_args()
    paths = [Path(p) for p in args.cases] or sorted((ROOT / "cases" / "bench").glob("*.yaml"))
    for path in paths:
        print("\n".join(bench(path, args.quick)), flush=True)
        print()
    if not args.no_batch and not args.cases:
        subprocess.run([sys.executable, str(ROOT / "bench" / "batch_bench.py")], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()

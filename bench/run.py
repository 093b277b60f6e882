"""Benchmark: CP-SAT against the choice graph and a naive baseline, for distinct-outcome
enumeration and (for a case with an ``objective:``) optimisation.

For each case in cases/bench/ (written by bench/gen.py from a fixed seed) it prints: distinct
outcomes, raw choice paths (the graph's count when it finishes, else an estimate: orders times
shield shares per event, multiplied), the naive baseline (every path of the decision tree, no
merging of identical states, cut at a limit), the choice graph (cut at a node and time limit),
the CP engine, and the ratios. A time shown as ">T" means the limit T cut the run. A case with an
objective is optimised: CP maximises each level and lists the tied outcomes (solver.cp.cp_optimize),
the graph runs backward induction, the naive walk keeps the best-scoring leaves.

The naive limit is 120 times the CP time (at least 30 s, at most 600 s; 30 s when CP itself
was cut), so a cut naive run shows that CP is more than 120 times faster on that case; the estimate column
extrapolates the naive run's leaves per second to every raw path.

Then the large enumeration (bench/gen.py: the large optimisation's hundred attackers and twenty
shields without the objective): every distinct outcome projected on you.life and A.cards_drawn by
``auto`` within the CLI's default limit, in a fresh process: CPU seconds, outcomes, CPU ms per
outcome and peak RSS (no graph or naive run: neither gets anywhere near it).

Run: ``make bench`` or ``.venv/bin/python bench/run.py [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mtg_outcomes.cli.parser import DEFAULT_TIMEOUT  # noqa: E402
from mtg_outcomes.cp import cp_optimize, cp_outcomes, estimate_paths  # noqa: E402
from mtg_outcomes.engine import Decision, advance, final_fields  # noqa: E402
from mtg_outcomes.graph import build_graph, graph_outcomes  # noqa: E402
from mtg_outcomes.model import load_case  # noqa: E402
from mtg_outcomes.model.objective import Goal, Objective  # noqa: E402
from mtg_outcomes.model.types import Case  # noqa: E402
from mtg_outcomes.optimize import optimize  # noqa: E402
from mtg_outcomes.state import initial_state  # noqa: E402

# per case: the projection CP enumerates (None = every field) and the CP time limit; a case with
# an objective: is optimised (its objective's fields are the projection of the tied outcomes)
PLAN: dict[str, tuple[list[str] | None, float]] = {
    "bench-wide-combat": (None, 300.0),
    "bench-large-optimisation": (None, 300.0),
}


@dataclass
class Run:
    seconds: float
    complete: bool
    outcomes: int
    paths: int = 0
    note: str = ""


def _key(values: dict[str, Any], fields: list[str] | None) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(values.items())) if fields is None else tuple((f, values.get(f)) for f in fields)


def naive(case: Case, limit: float, fields: list[str] | None, objective: Objective | None = None) -> Run:
    """Walk every path of the decision tree (CR 616.1 orders x 615.7 shares), merging nothing;
    with an objective, keep only the outcomes with the best score seen so far."""
    start = time.perf_counter()
    state, table = initial_state(case)
    seen: set[tuple[tuple[str, Any], ...]] = set()
    goals = _goals(objective)
    best: tuple[int, ...] | None = None
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
            values = final_fields(res, table)
            if goals:
                score = tuple(g.score(values) for g in goals)
                if best is None or score > best:
                    best, seen = score, set()
                elif score < best:
                    continue
            seen.add(_key(values, fields))
    return Run(time.perf_counter() - start, True, len(seen), leaves)


def _goals(objective: Objective | None) -> tuple[Goal, ...]:
    """The one chooser's goals (the bench's optimisation case has one chooser)."""
    if objective is None:
        return ()
    return next((gs for _, gs in objective.goals), ())


def graph(case: Case, limit: float, max_nodes: int, fields: list[str] | None) -> Run:
    start = time.perf_counter()
    if case.objective is not None:
        res = optimize(case, case.objective, max_nodes=max_nodes, timeout=limit, engine="graph", fields=fields)
        return Run(time.perf_counter() - start, res.complete, len(res.outcomes))
    cg = build_graph(case, max_nodes=max_nodes, timeout=limit)
    if not cg.complete:
        return Run(time.perf_counter() - start, False, len({_key(v, fields) for v in cg.leaves.values()}))
    outs, cut = graph_outcomes(cg, fields)
    return Run(time.perf_counter() - start, cut is None, len(outs), sum(o.paths for o in outs))


def cp(case: Case, fields: list[str] | None, limit: float) -> Run:
    start = time.perf_counter()
    if case.objective is not None:
        res = cp_optimize(case, case.objective, fields=fields, timeout=limit)
        best = res.stats.get("optimum", {})
        note = "optimum " + "; ".join(f"{c}: {', '.join(map(str, v))}" for c, v in best.items()) if best else "optimum not proved"
        return Run(time.perf_counter() - start, res.complete, len(res.outcomes), note=note)
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
    if case.objective is not None and fields is None:
        fields = sorted(case.objective.fields())
    if quick:
        cp_limit = min(cp_limit, 30.0)
    est = estimate_paths(case) or 0
    c = cp(case, fields, cp_limit)
    naive_limit = 30.0 if quick or not c.complete else min(600.0, max(30.0, 120 * c.seconds))
    if case.objective is not None:  # nothing walks ~1e100 paths: show the cut, don't wait for it
        naive_limit = min(naive_limit, 60.0)
    n = naive(case, naive_limit, fields, case.objective)
    g = graph(case, 30.0 if quick or case.objective is not None else 120.0, 2_000_000, fields)
    paths = f"{g.paths}" if g.complete else f"~{_sci(est)}"
    rate = n.paths / max(n.seconds, 1e-9)
    naive_est = f"~{_sci(int(est // max(int(rate), 1)))} s" if not n.complete and rate > 0 else "-"
    proj = ",".join(fields) if fields else "all fields"
    task = "optimal" if case.objective is not None else "distinct"
    goals = "; ".join(f"{who}: " + ", then ".join(map(str, gs)) for who, gs in case.objective.goals) if case.objective else ""
    lines = [
        f"{case.id}  ({len(case.permanents)} permanents, {len(case.effects)} shields; projection: {proj})",
        *([f"  {'objective':<22}{goals}"] if goals else []),
        f"  {task + ' outcomes':<22}{c.outcomes}{'' if c.complete else ' (so far: the CP limit cut the run)'}"
        + (f"; {c.note}" if c.note else ""),
        f"  {'raw choice paths':<22}{paths}",
        f"  {'naive baseline':<22}{_t(n)} s  ({n.paths} paths walked, {n.outcomes} outcomes seen; all paths: {naive_est})",
        f"  {'choice graph':<22}{_t(g)} s  ({g.outcomes} outcomes{'' if g.complete else ' seen'})",
        f"  {'CP-SAT':<22}{_t(c)} s",
        f"  {'naive / CP':<22}{_ratio(n, c)}",
        f"  {'graph / CP':<22}{_ratio(g, c)}",
    ]
    return lines


LARGE_FIELDS = ["you.life", "A.cards_drawn"]  # the large enumeration's projection


_ENUM_CHILD = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from bench.gen import large_enumeration
from mtg_outcomes.model import parse_case
from mtg_outcomes import enumerate_outcomes
attackers, shields, limit, fields = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5].split(",")
case = parse_case(large_enumeration(attackers, shields))
t = time.process_time()
res = enumerate_outcomes(case, engine="auto", fields=fields, timeout=limit)
print(json.dumps({"engine": res.engine, "complete": res.complete, "outcomes": len(res.outcomes),
                  "cpu": time.process_time() - t, "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "solves": res.stats.get("solves", "-"), "limit": res.stats.get("limit", "")}))
"""


def large_enumeration_row(attackers: int, shields: int, limit: float) -> list[str]:
    """The large optimisation's board without its objective (bench/gen.py: large_enumeration):
    every distinct outcome projected on you.life and A.cards_drawn, ``auto`` engine, in a fresh
    process so its CPU time and peak memory are its own; ``limit`` is the CLI's default
    (--timeout 600) unless --quick."""
    proc = subprocess.run([sys.executable, "-c", _ENUM_CHILD, str(ROOT), str(attackers), str(shields), str(limit),
                           ",".join(LARGE_FIELDS)], cwd=ROOT, capture_output=True, text=True, check=False)
    head = f"bench-large-enumeration  ({attackers} attackers, {shields} shields; projection: {','.join(LARGE_FIELDS)})"
    try:
        got = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return [head, f"  {'error':<22}{(proc.stderr.strip().splitlines() or ['no output'])[-1][:120]}"]
    per = f"{got['cpu'] * 1000 / got['outcomes']:.1f}" if got["outcomes"] else "-"
    done = "yes" if got["complete"] else f"NO, cut at {limit:g} s ({got['limit']}): the outcomes found so far"
    return [
        head,
        f"  {'engine (auto)':<22}{got['engine']}; complete: {done}",
        f"  {'distinct outcomes':<22}{got['outcomes']}",
        f"  {'CPU s':<22}{got['cpu']:.2f}  ({got['solves']} solves)",
        f"  {'CPU ms / outcome':<22}{per}",
        f"  {'peak RSS':<22}{got['mb']:.0f} MB",
    ]


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
    if not args.cases:
        print("\n".join(large_enumeration_row(100, 20, 30.0 if args.quick else DEFAULT_TIMEOUT)), flush=True)
        print()
    if not args.no_batch and not args.cases:
        subprocess.run([sys.executable, str(ROOT / "bench" / "batch_bench.py")], cwd=ROOT, check=False)
    if not args.cases:  # the ordinary combat family (bench/combat.py), against $BASELINE when given
        sizes = ["--sizes", "2x2,5x4,8x8", "--graph-limit", "20"] if args.quick else []
        base = ["--baseline", os.environ["BASELINE"]] if os.environ.get("BASELINE") else []
        subprocess.run([sys.executable, str(ROOT / "bench" / "combat.py"), *sizes, *base], cwd=ROOT, check=False)
        print()
    if not args.cases:
        grid = ["--attackers", "2,4,8", "--shields", "1,3", "--limit", "20"] if args.quick else \
            ["--attackers", "2,4,6,8,10,12", "--shields", "1,2,3,4,5", "--limit", "120"]
        subprocess.run([sys.executable, str(ROOT / "bench" / "family.py"), *grid], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()

"""Bench family: Vengeful Archon shields with riders + a global doubler + a lifelinker + a
card-drawing attacker, over attackers x shields (issue "One rules core").

A players' fight as judges meet it: A attacks you with a Scroll Thief (draws when it connects), a
lifelinker and vanilla creatures; you have k Archon shields (prevent the next N, the Archon deals
that much to A) and A has Dictate of the Twin Gods, which doubles the attackers' damage *and* the
Archon's damage to A. Each size runs in a fresh process (``auto`` engine, a time limit) so its CPU
time and peak memory are its own; the graph engine runs too where it finishes within its limit.
Each size also runs warm: in another fresh process that first answered two other sizes (so
OR-Tools, networkx and the card data are loaded, as in a batch worker or a script answering
many cases), which is what one more answer costs once start-up is paid. Before the measured
answer each process runs a full garbage collection: the one the warm-up's garbage had made due
(~45 ms over the card data) would otherwise land in whichever answer came next.

Run: ``.venv/bin/python bench/family.py [--attackers 2,4,6] [--shields 1,3,5] [--limit S]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def family_case(attackers: int, shields: int) -> dict[str, Any]:
    """The case as data: attackers 1..n (powers 1,2,3,1,2,3,...), shields of 2,3,4,... points."""
    bf: list[dict[str, Any]] = [
        {"id": "archon", "card": "Vengeful Archon", "controller": "you"},
        {"id": "dictate", "card": "Dictate of the Twin Gods", "controller": "A"},
        {"id": "thief", "card": "Scroll Thief", "controller": "A", "attacking": "you"},
    ]
    if attackers >= 2:
        bf.append({"id": "linker", "name": "Lifelinker", "controller": "A", "types": ["creature"], "power": 2,
                   "toughness": 2, "keywords": ["lifelink"], "attacking": "you"})
    for i in range(attackers - 2):
        bf.append({"id": f"a{i}", "name": "Bruiser", "controller": "A", "types": ["creature"],
                   "power": 1 + i % 3, "toughness": 3, "attacking": "you"})
    effects = [{"id": f"s{j}", "shield": 2 + j, "to": "you", "controller": "you", "source": "archon",
                "then": {"deal": "prevented", "to": "A"}} for j in range(shields)]
    return {"id": f"family-{attackers}x{shields}", "players": [{"name": "A"}, {"name": "you", "life": 60}],
            "battlefield": bf, "effects": effects, "actions": [{"combat": {}}]}


_CHILD = """
import gc, json, resource, sys, time
from mtg_outcomes.model import parse_case
from mtg_outcomes import enumerate_outcomes
data = json.loads(sys.argv[1]); engine = sys.argv[2]; limit = float(sys.argv[3])
for warm in json.loads(sys.argv[4]):  # other sizes first: start-up paid, nothing of this case cached
    enumerate_outcomes(parse_case(warm[0]), engine=warm[1])
case = parse_case(data)
gc.collect()  # the warm-up's garbage: a full collection (~45 ms with the card data loaded) is not this answer's
t = time.process_time()
res = enumerate_outcomes(case, engine=engine, timeout=limit, max_nodes=3_000_000)
print(json.dumps({"engine": res.engine, "complete": res.complete, "outcomes": len(res.outcomes),
                  "cpu": time.process_time() - t, "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "solves": res.stats.get("solves", "-"), "tables": res.stats.get("tables", "-")}))
"""


# what a warm process answers before the size it measures: the first of each engine's sizes here
# that is not the size measured (the graph engine, then CP)
WARM_UP = {"graph": [(2, 1), (3, 1)], "cp": [(4, 3), (3, 3)]}


def run(data: dict[str, Any], engine: str, limit: float, warm: bool = False) -> dict[str, Any]:
    """One size in a fresh process: its answer, CPU seconds (solving only) and its peak RSS in MB;
    ``warm``: after the process answered :data:`WARM_UP`."""
    first = [(next(c for c in (family_case(*f) for f in fs) if c != data), e)
             for e, fs in WARM_UP.items()] if warm else []
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, json.dumps(data), engine, str(limit), json.dumps(first)],
                            cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=limit * 3 + 60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return {"engine": engine, "complete": False, "outcomes": 0, "cpu": float("nan"), "mb": float("nan"),
                "error": "killed: overran its limit"}
    try:
        got: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        got = {"engine": engine, "complete": False, "outcomes": 0, "cpu": float("nan"), "mb": float("nan"),
               "error": (err.strip().splitlines() or ["no output"])[-1][:120]}
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--attackers", default="2,4,6,8,10,12")
    ap.add_argument("--shields", default="1,2,3,4,5")
    ap.add_argument("--limit", type=float, default=120.0, help="seconds per size for auto")
    ap.add_argument("--graph-limit", type=float, default=10.0, help="seconds per size for the graph engine")
    args = ap.parse_args()
    sizes = [(a, s) for a in map(int, args.attackers.split(",")) for s in map(int, args.shields.split(","))]
    print("family: Archon shields + riders, Dictate (doubler), a lifelinker, Scroll Thief; auto engine")
    print("cpu s, ms/outcome: a fresh process; warm ms/outcome: after the process answered two other sizes")
    print(f"{'att':>3} {'sh':>2} {'engine':>6} {'done':>4} {'outcomes':>8} {'cpu s':>7} {'ms/outcome':>10} "
          f"{'warm ms/outcome':>15} {'peak MB':>7} {'solves':>6} {'tables':>6} {'graph s':>8} {'graph/auto':>10}")
    for a, s in sizes:
        data = family_case(a, s)
        auto = run(data, "auto", args.limit)
        hot = run(data, "auto", args.limit, warm=True)
        graph = run(data, "graph", args.graph_limit) if auto.get("engine") != "graph" else auto
        per = auto["cpu"] * 1000 / auto["outcomes"] if auto.get("outcomes") else float("nan")
        warm = f"{hot['cpu'] * 1000 / hot['outcomes']:.1f}" if hot.get("complete") and hot.get("outcomes") else "-"
        gs = f"{graph['cpu']:.2f}" if graph.get("complete") else f">{args.graph_limit:.0f}"
        ratio = f"{graph['cpu'] / auto['cpu']:.1f}x" if graph.get("complete") and auto.get("complete") and auto["cpu"] > 0 else "-"
        note = f"  ({auto['error']})" if auto.get("error") else ""
        print(f"{a:>3} {s:>2} {auto['engine']:>6} {'yes' if auto['complete'] else 'NO':>4} {auto['outcomes']:>8} "
              f"{auto['cpu']:>7.2f} {per:>10.1f} {warm:>15} {auto['mb']:>7.0f} {auto.get('solves', '-'):>6} "
              f"{auto.get('tables', '-'):>6} {gs:>8} {ratio:>10}{note}", flush=True)


if __name__ == "__main__":
    main()

"""Dump every shipped case's outcomes and witnesses, both engines, for a before/after comparison.

A change meant not to alter behaviour (a refactor) is checked by dumping on the commit before and
the commit after and comparing the two files: ``python bench/dump_outcomes.py --out before.jsonl``,
then ``diff before.jsonl after.jsonl``. Each line: the case, the engine, the outcomes (state, paths,
witness) or the error, and the explained steps of each outcome's witness (the rules engine's replay).
Cases run in a process pool (``--jobs``); each case is bounded by ``--timeout`` seconds per engine.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _one(path: str, engine: str, timeout: float) -> dict[str, Any]:
    from mtg_outcomes import MtgOutcomesError, enumerate_outcomes, load_case, replay

    record: dict[str, Any] = {"case": path, "engine": engine}
    try:
        case = load_case(path)
        result = enumerate_outcomes(case, engine=engine, timeout=timeout)
    except MtgOutcomesError as e:
        record["error"] = str(e).splitlines()[0][:300]
        return record
    record["complete"] = result.complete
    record["engine_used"] = result.engine
    outcomes = []
    for o in result.outcomes:
        entry = o.as_dict()
        try:
            entry["explain"] = [s.text() for s in replay(case, o).steps]
        except MtgOutcomesError as e:
            entry["explain"] = f"error: {e}"
        outcomes.append(entry)
    record["outcomes"] = sorted(outcomes, key=lambda d: json.dumps(d["state"], sort_keys=True))
    return record


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--engines", default="graph,cp")
    ap.add_argument("paths", nargs="*", default=["cases"])
    args = ap.parse_args(argv)
    files = sorted(str(p.relative_to(ROOT)) for d in args.paths
                   for p in (ROOT / d).rglob("*.yaml") if "bench" not in p.parts)
    jobs = [(f, e, args.timeout) for f in files for e in args.engines.split(",")]
    with ProcessPoolExecutor(args.jobs) as pool, open(args.out, "w") as out:
        for record in pool.map(_one, *zip(*jobs, strict=True), chunksize=4):
            out.write(json.dumps(record, sort_keys=True, default=str) + "\n")
    print(f"{len(jobs)} runs written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

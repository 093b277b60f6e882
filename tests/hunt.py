"""Hunt for disagreements between the engines, longer than the test suite looks: draw random
situations from the generators of tests/cp/test_cp.py (``cases``: one damage batch; ``timelines``:
several actions, triggers, a rules-engine suffix), run the random tests' own bodies on each (the
same outcomes from the graph and CP engines, every CP witness replayed through the rules engine;
for ``cases`` also with the block encoding alone), and keep every situation that fails, grows past a memory bound or runs
past a time bound as a case file (``mtg-outcomes enumerate FILE`` reproduces it).

The test suite's random tests draw a few hundred situations, seeded afresh on every clean clone;
a defect they meet once in a thousand draws shows up in CI some day, unreproduced. This runs the
same check for as long as it is given, with the memory bound watched from a thread (a runaway
state space is a defect too: "memory stays bounded").

Run: ``make hunt`` (``MINUTES=30 RSS_MB=3000 KIND=timelines``), or
``.venv/bin/python tests/hunt.py --help``. Exit 0: nothing found; 1: something found (listed).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
import traceback
import warnings
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis.errors import UnsatisfiedAssumption  # noqa: E402

from tests.cp import test_cp as T  # noqa: E402

# what is hunted: the bodies of tests/cp/test_cp.py's random tests (their own filters, bounds and
# limits: this runs exactly what they check), for each generator
STRATEGIES = {
    "cases": (T.random_cases, (T.test_random_cases_graph_equals_cp, T.test_random_cases_block_encoding)),
    "timelines": (T.random_timelines, (T.test_random_timelines_with_a_suffix_graph_equals_cp,)),
}


def _rss() -> int:
    """This process's resident memory in bytes (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _save(out: Path, kind: str, n: int, why: str, data: dict[str, Any], detail: str) -> Path:
    path = out / f"{kind}-{n:05d}-{why}.yaml"
    head = "".join(f"# {line}\n" for line in detail.strip().splitlines()[-12:])
    path.write_text(head + yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=120), encoding="utf-8")
    return path


def _assume(condition: object) -> bool:
    if not condition:
        raise UnsatisfiedAssumption
    return True


def check(data: dict[str, Any], kind: str) -> bool:
    """The random tests' bodies on one drawn situation (undecorated: ``.hypothesis.inner_test``);
    raises what a test would fail with. Whether any took it: the rest their ``assume`` filters out
    (a case CP declines, or too big), as in the tests."""
    took = False
    for test in STRATEGIES[kind][1]:
        try:
            test.hypothesis.inner_test(data)  # type: ignore[attr-defined]
            took = True
        except UnsatisfiedAssumption:
            pass
    return took

def hunt(kind: str, minutes: float, rss_mb: int, stall: float, out: Path) -> list[Path]:
    """Draw and check situations for ``minutes``; the files kept, each with why in its name."""
    warnings.simplefilter("ignore")  # hypothesis: .example() outside a test
    T.event = lambda *a, **k: None  # (hypothesis.event and assume are for inside a test)
    T.assume = _assume
    strategy = STRATEGIES[kind][0]()
    found: list[Path] = []
    now: dict[str, Any] = {"data": None, "n": 0, "since": time.monotonic()}

    def watch() -> None:
        # a thread, because a runaway example never returns to the loop: past the memory bound
        # or the stall bound the example is kept and the hunt ends (the process can't be saved)
        while True:
            rss = _rss()
            late = time.monotonic() - now["since"]
            if now["data"] is not None and (rss > rss_mb << 20 or late > stall):
                why = f"rss-{rss >> 20}MB" if rss > rss_mb << 20 else f"stall-{late:.0f}s"
                path = _save(out, kind, now["n"], why, now["data"], f"{why} while checking this situation")
                print(f"FOUND {path} ({why}); the hunt stops here", flush=True)
                os._exit(1)
            time.sleep(0.1)

    threading.Thread(target=watch, daemon=True).start()
    end = time.monotonic() + minutes * 60
    drawn = compared = 0
    while time.monotonic() < end:
        data = strategy.example()
        drawn += 1
        now.update(data=data, n=drawn, since=time.monotonic())
        try:
            compared += check(data, kind)
        except Exception as e:  # what would fail the test: a disagreement, an error, a crash
            why = "differs" if isinstance(e, AssertionError) else "error"
            found.append(_save(out, kind, drawn, why, data, traceback.format_exc()))
            print(f"FOUND {found[-1]}: {type(e).__name__}: {str(e)[:200]}", flush=True)
        if drawn % 100 == 0:
            print(f"{kind}: {drawn} drawn, {compared} checked, {len(found)} found, {_rss() >> 20} MB", flush=True)
    now["data"] = None
    print(f"{kind}: {drawn} drawn in {minutes:g} min, {compared} checked (the tests' filters took them), "
          f"{len(found)} found", flush=True)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=sorted(STRATEGIES), default="timelines")
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--rss-mb", type=int, default=3000, help="memory bound of the hunting process")
    parser.add_argument("--stall", type=float, default=300.0, help="seconds one situation may take")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "mtg-outcomes-hunt")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    print(f"hunting {args.kind} for {args.minutes:g} min; what is found goes to {args.out}", flush=True)
    found = hunt(args.kind, args.minutes, args.rss_mb, args.stall, args.out)
    for path in found:
        print(path)
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()

"""Run the ruling check over cases/ and list every case that is not OK.

Run: .venv/bin/python examples/incomplete_rulings.py [PATH...]
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mtg_outcomes.check import check_paths  # noqa: E402


def main(argv: list[str]) -> int:
    paths = argv or [str(ROOT / "cases")]
    reports = check_paths(paths, timeout=60.0)
    bad = [r for r in reports if not r.ok]
    print(f"{len(reports)} cases checked, {len(bad)} not OK")
    for r in bad:
        print(f"  {r.status:<12} {r.case}  ({r.path})")
        for line in r.detail:
            print(f"      {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

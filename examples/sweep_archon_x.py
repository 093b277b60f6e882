"""Sweep Vengeful Archon's X from 0 to 8 against a fixed attack and show how the outcomes change.

The case is built in code as a dict (no YAML file) and validated with ``model.parse_case``.
Run: .venv/bin/python examples/sweep_archon_x.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from model.load import parse_case  # noqa: E402
from solver.api import enumerate_outcomes  # noqa: E402

FIELDS = ["you.life", "A.life", "B.life", "s0.remaining", "s1.remaining"]


def attack(x: int) -> dict[str, Any]:
    """A attacks you with a 4/4 and a 3/3; an earlier Archon shield (2) sends prevented damage to A, the swept one (X) to B."""
    return {
        "id": f"archon-x{x}",
        "players": [{"name": "you"}, {"name": "A"}, {"name": "B"}],
        "battlefield": [
            {"id": "archon", "card": "Vengeful Archon", "controller": "you"},
            {"id": "ogre", "name": "Ogre", "controller": "A", "types": ["creature"], "colors": ["red"],
             "power": 4, "toughness": 4, "attacking": "you"},
            {"id": "bear", "name": "Bear", "controller": "A", "types": ["creature"], "colors": ["green"],
             "power": 3, "toughness": 3, "attacking": "you"},
        ],
        "effects": [{"id": "s0", "shield": 2, "to": "you", "controller": "you", "source": "archon",
                     "then": {"deal": "prevented", "to": "A"}},
                    {"id": "s1", "shield": x, "to": "you", "controller": "you", "source": "archon",
                     "then": {"deal": "prevented", "to": "B"}}],
        "actions": [{"damage": [{"from": "ogre", "to": "you", "amount": 4, "combat": True},
                                {"from": "bear", "to": "you", "amount": 3, "combat": True}]}],
    }


def main() -> None:
    previous: list[str] | None = None
    for x in range(0, 9):
        case = parse_case(attack(x), f"<archon X={x}>")
        result = enumerate_outcomes(case, fields=FIELDS)
        rows = sorted(", ".join(f"{k}={o.values.get(k)}" for k in FIELDS) for o in result.outcomes)
        change = "" if previous is None else ("  (same as X-1)" if rows == previous else "  (changed)")
        print(f"X={x}: {len(rows)} distinct outcome{'s' if len(rows) != 1 else ''}{change}")
        for r in rows:
            print(f"    {r}")
        previous = rows


if __name__ == "__main__":
    main()

"""Sweep Vengeful Archon's X from 0 to 8 against a fixed attack and show how the outcomes change.

The case is built in code as a dict (no YAML file) and validated with ``model.parse_case``.
Run: .venv/bin/python examples/sweep_archon_x.py
With ``--plot out.png`` it also draws the sweep (distinct outcomes and the life totals they allow
against X); that needs matplotlib: ``pip install '.[plot]'``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mtg_outcomes.api import enumerate_outcomes  # noqa: E402
from mtg_outcomes.model.load import parse_case  # noqa: E402

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


XS = range(0, 9)
LIVES = ["you.life", "A.life", "B.life"]


def sweep() -> list[tuple[int, list[dict[str, Any]]]]:
    """For each X, the distinct outcomes projected on FIELDS."""
    out = []
    for x in XS:
        case = parse_case(attack(x), f"<archon X={x}>")
        result = enumerate_outcomes(case, fields=FIELDS)
        out.append((x, [o.values for o in result.outcomes]))
    return out


def plot(data: list[tuple[int, list[dict[str, Any]]]], path: str) -> None:
    """Two panels against X: the number of distinct outcomes, and every life total some outcome
    allows (a vertical bar spans a player's lowest to highest; dots are the values)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    xs = [x for x, _ in data]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True, gridspec_kw={"height_ratios": [1, 2]})
    top.bar(xs, [len(outs) for _, outs in data], color="#4a6fb5")
    top.set_ylabel("distinct outcomes")
    top.yaxis.set_major_locator(MaxNLocator(integer=True))
    top.set_title("Vengeful Archon's X against a 4/4 and a 3/3 (shield s0: 2 to A, s1: X to B)")
    for k, (field, color) in enumerate(zip(LIVES, ["#2e7d32", "#c62828", "#6b55a8"], strict=True)):
        off = (k - 1) * 0.18
        for x, outs in data:
            vals = sorted({o[field] for o in outs})
            bottom.vlines(x + off, vals[0], vals[-1], color=color, linewidth=2, alpha=0.5)
            bottom.scatter([x + off] * len(vals), vals, color=color, s=18, label=field if x == xs[0] else None)
    bottom.set_xlabel("X (the swept shield s1)")
    bottom.set_ylabel("life at the end")
    bottom.set_xticks(xs)
    bottom.legend(loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plot", metavar="PNG", help="also draw the sweep into this image (needs matplotlib)")
    args = ap.parse_args(argv)
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("--plot needs matplotlib, an optional extra: pip install '.[plot]' (or pip install matplotlib)",
                  file=sys.stderr)
            return 2
    data = sweep()
    previous: list[str] | None = None
    for x, outs in data:
        rows = sorted(", ".join(f"{k}={v.get(k)}" for k in FIELDS) for v in outs)
        change = "" if previous is None else ("  (same as X-1)" if rows == previous else "  (changed)")
        print(f"X={x}: {len(rows)} distinct outcome{'s' if len(rows) != 1 else ''}{change}")
        for r in rows:
            print(f"    {r}")
        previous = rows
    if args.plot:
        plot(data, args.plot)
        print(f"wrote {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

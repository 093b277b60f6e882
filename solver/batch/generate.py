"""Random case files for batch runs and benchmarks, from a seed."""

from __future__ import annotations

import random
from pathlib import Path


def _case_text(rng: random.Random, case_id: str) -> str:
    lines = [f"id: {case_id}", "format: standard", "players:", "  - {name: A}", "  - {name: you}",
             "battlefield:"]
    attackers = []
    for i in range(1, rng.randint(1, 3) + 1):
        power = rng.randint(1, 6)
        tough = rng.randint(1, 6)
        attackers.append((f"c{i}", power))
        lines.append(f"  - {{id: c{i}, name: Attacker {i}, controller: A, types: [creature], colors: [red], "
                     f"power: {power}, toughness: {tough}, attacking: you}}")
    if rng.random() < 0.5:
        amount = rng.randint(1, 2)
        lines.append(f"  - {{id: ward, name: Prevention Ward, controller: you, types: [enchantment], colors: [white], "
                     f"abilities: [{{prevent: {amount}, to: you, from: sources an opponent controls}}]}}")
    if rng.random() < 0.5:
        lines.append("  - {id: doubler, name: Doubler, controller: A, types: [enchantment], colors: [red], "
                     "abilities: [{multiply: 2, from: creatures you control}]}")
    shields = rng.randint(0, 1 if len(attackers) == 3 else 2)  # keep every case small
    if shields:
        lines.append("effects:")
        for s in range(1, shields + 1):
            lines.append(f"  - {{id: s{s}, shield: {rng.randint(1, 4)}, to: you, controller: you}}")
    hits = ", ".join(f"{{from: {a}, to: you, amount: {p}, combat: true}}" for a, p in attackers)
    lines += ["actions:", f"  - damage: [{hits}]"]
    return "\n".join(lines) + "\n"


def generate_cases(count: int, seed: int, out_dir: str | Path) -> list[Path]:
    """``count`` reproducible random valid case files (same seed, same bytes)."""
    rng = random.Random(seed)
    d = Path(out_dir)
    d.mkdir(parents=True, exist_ok=True)
    width = max(4, len(str(count)))
    written = []
    for i in range(count):
        case_id = f"gen-{seed}-{i:0{width}d}"
        p = d / f"{case_id}.yaml"
        p.write_text(_case_text(rng, case_id), encoding="utf-8")
        written.append(p)
    return written

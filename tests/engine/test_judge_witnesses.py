"""Every shipped case's witnesses, explained: names instead of internal ids, a rule on every choice.

Each case is solved by the graph engine under a small limit (2,000 states, 2 s); a case the limit
cuts is skipped and counted, so the test stays fast (it says how many it skipped). Each outcome
(up to 8 a case) is replayed through the explainer (solver.explain) and its default text checked:
no internal id pattern (``x.0.0`` effect keys, ``s1:`` shield picks) and each choice step names
the CR rule that grants it and the player who makes it (issue 44)."""

from __future__ import annotations

import re
from pathlib import Path

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.decision import CHOICE, FORCED
from mtg_outcomes.explain import replay
from mtg_outcomes.model import load_case

from ..conftest import ROOT

IDS = re.compile(r"\w+\.\d+\.\d+|\bs\d+:")
RULE = re.compile(r"^\d{3}(\.\d+[a-z]?)?$")


def _cases() -> list[Path]:
    return sorted(p for p in (ROOT / "cases").rglob("*.yaml") if "bench" not in p.parts)


def test_every_shipped_witness_reads_in_names_with_its_rules() -> None:
    checked = skipped = 0
    problems: list[str] = []
    for path in _cases():
        case = load_case(path)
        res = enumerate_outcomes(case, engine="graph", max_nodes=2000, timeout=2)
        if not res.complete:
            skipped += 1
            continue
        checked += 1
        for o in res.outcomes[:8]:
            for step in replay(case, o).steps:
                text = step.text()
                if IDS.search(text):
                    problems.append(f"{path.name}: internal id in {text!r}")
                if step.kind == CHOICE and not (RULE.match(step.rule) and step.who):
                    problems.append(f"{path.name}: choice without its rule or chooser: {text!r}")
                if step.kind == FORCED and "only legal option" in step.words and not RULE.match(step.rule):
                    problems.append(f"{path.name}: forced step without its rule: {text!r}")
    print(f"{checked} cases explained, {skipped} skipped (cut by the graph engine's small limit)")
    assert checked > 400, (checked, skipped)
    assert not problems, "\n".join(problems[:40])

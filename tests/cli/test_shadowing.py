"""One import name: a user's own ``model.py`` and ``solver.py`` beside their script don't shadow
the installed package (``mtg_outcomes``; model/ and solver/ are its source folders, mapped by
pyproject's package-dir). Run in a fresh interpreter from that folder, as the user would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import CASES

CASE = CASES / "rulings" / "healing-salve-block-the-thief.yaml"
SCRIPT = f"""
import json
from mtg_outcomes import load_case, enumerate_outcomes
import model, solver  # the user's own modules, still theirs
case = load_case({str(CASE)!r})
result = enumerate_outcomes(case, fields=["you.life", "A.cards_drawn", "bear.dies"])
print(json.dumps({{"mine": [model.MINE, solver.MINE], "complete": result.complete,
                  "outcomes": sorted(sorted(o.values.items()) for o in result.outcomes)}}))
"""


def _installed(env: dict[str, str], cwd: Path) -> bool:
    probe = "import importlib.util, sys; sys.exit(importlib.util.find_spec('mtg_outcomes') is None)"
    return subprocess.run([sys.executable, "-c", probe], cwd=cwd, env=env).returncode == 0


def test_own_model_and_solver_modules_dont_shadow_the_package(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text("MINE = 'model'\n", encoding="utf-8")
    (tmp_path / "solver.py").write_text("MINE = 'solver'\n", encoding="utf-8")
    (tmp_path / "run.py").write_text(SCRIPT, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if not _installed(env, tmp_path):
        pytest.skip("mtg_outcomes is not installed in this interpreter (make test installs it: pip install -e .)")
    proc = subprocess.run([sys.executable, "run.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got["mine"] == ["model", "solver"] and got["complete"]
    # the ruling's four outcomes (the case's expect:, derived by hand from CR 615.7 and 509.1a)
    assert got["outcomes"] == [
        [["A.cards_drawn", 0], ["bear.dies", False], ["you.life", 19]],
        [["A.cards_drawn", 0], ["bear.dies", False], ["you.life", 20]],
        [["A.cards_drawn", 0], ["bear.dies", True], ["you.life", 20]],
        [["A.cards_drawn", 1], ["bear.dies", False], ["you.life", 19]],
    ]

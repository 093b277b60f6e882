"""Bad input is a first-class feature: each file in tests/bad_inputs/ has exactly one problem.

`mtg-outcomes validate FILE` must exit 2 and print exactly one line, ``FILE: path: reason`` (or
``FILE: reason`` for a whole-file problem), with the path and a reason from bad_inputs/expected.yaml,
and never a traceback.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from solver.cli import main

ROOT = Path(__file__).parents[1]
BAD = ROOT / "tests" / "bad_inputs"
EXPECTED: dict[str, dict[str, str]] = yaml.safe_load((BAD / "expected.yaml").read_text(encoding="utf-8"))
# what a field path looks like at the start of a message: `players[1].life: ...`
_PATH_PREFIX = re.compile(r"^[^\s:]+: ")


def test_table_covers_every_file() -> None:
    files = {p.name for p in BAD.iterdir() if p.is_file() and p.name != "expected.yaml"}
    assert files == set(EXPECTED), "bad_inputs/ and expected.yaml disagree"
    assert len(files) >= 35


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_input_is_reported(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    want = EXPECTED[name]
    path = str(BAD / name)
    code = main(["validate", path])
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert "Traceback" not in text
    assert code == 2, f"exit code {code}, output:\n{text}"
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, "expected exactly one line:\n" + text
    line = lines[0]
    prefix = f"{path}: "
    assert line.startswith(prefix), line
    rest = line[len(prefix):]
    if want["path"]:
        assert rest.startswith(f"{want['path']}: "), f"expected path {want['path']!r}: {line}"
        reason = rest[len(want["path"]) + 2:]
    else:
        assert not _PATH_PREFIX.match(rest), f"expected a whole-file message without a field path: {line}"
        reason = rest
    assert want["reason"] in reason, f"expected reason containing {want['reason']!r}: {line}"
    assert "function-" not in line and "PermanentModel" not in line and "PlayerModel" not in line, line

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

from mtg_outcomes.cli import main
from mtg_outcomes.model.errors import CaseError

from ..conftest import ROOT

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


# ---------------------------------------------------------------- files that are not regular files

def _cli(*argv: str) -> tuple[int, str]:
    """The CLI in a child process under a 2 GB address-space limit and a timeout, so an unbounded
    read fails (MemoryError, or the timeout for a blocking open) instead of hurting the machine."""
    import resource
    import subprocess
    import sys

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2_000_000_000, 2_000_000_000))

    try:
        proc = subprocess.run([sys.executable, "-m", "mtg_outcomes", *argv], cwd=ROOT, capture_output=True, text=True,
                              timeout=30, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return -1, "timed out (a blocking read)"
    return proc.returncode, proc.stdout + proc.stderr


def _one_error_line(code: int, text: str, path: str, reason: str) -> None:
    assert "Traceback" not in text and "MemoryError" not in text, text
    assert code == 2, f"exit {code}: {text}"
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines == [f"{path}: {reason}"], text


@pytest.mark.parametrize("command", ["validate", "enumerate", "optimize", "check", "mana"])
def test_fifo_is_refused_without_hanging(command: str, tmp_path: Path) -> None:
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "case.yaml"
    os.mkfifo(fifo)
    code, text = _cli(command, str(fifo))
    if command == "check":  # check reports per case, then its summary
        assert code == 2 and "Traceback" not in text, text
        assert f"{fifo}: is a named pipe (FIFO), not a regular file" in text
    else:
        _one_error_line(code, text, str(fifo), "is a named pipe (FIFO), not a regular file")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_character_device_is_refused_before_reading(device: str) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device}")
    code, text = _cli("validate", device)
    _one_error_line(code, text, device, "is a character device, not a regular file")


def test_directory_given_as_a_case_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["enumerate", str(tmp_path)])
    text = "".join(capsys.readouterr())
    _one_error_line(code, text, str(tmp_path), "is a directory, not a case file")


def test_directory_expands_and_reports_a_fifo_inside(tmp_path: Path) -> None:
    """``validate DIR`` still reads DIR's *.yaml files; a FIFO among them is reported, not skipped."""
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    good = ROOT / "cases" / "rulings" / "furnace-of-rath-two-copies.yaml"
    (tmp_path / "good.yaml").write_bytes(good.read_bytes())
    os.mkfifo(tmp_path / "pipe.yaml")
    code, text = _cli("validate", str(tmp_path))
    _one_error_line(code, text, str(tmp_path / "pipe.yaml"), "is a named pipe (FIFO), not a regular file")
    assert main(["validate", str(tmp_path / "good.yaml")]) == 0


def test_oversized_file_is_refused_by_a_bounded_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mtg_outcomes.model.yamlio import MAX_BYTES, read_bounded

    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (MAX_BYTES + 1))
    code = main(["validate", str(big)])
    _one_error_line(code, "".join(capsys.readouterr()), str(big),
                    f"file too large ({MAX_BYTES + 1} bytes; the limit is {MAX_BYTES})")
    # a file whose size the kernel does not report (procfs says 0) is still cut at the limit
    proc = Path("/proc/self/status")
    if proc.exists():
        assert proc.stat().st_size == 0 and len(read_bounded(proc)) > 10
        with pytest.raises(CaseError, match="more than 10 bytes"):
            read_bounded(proc, limit=10)

"""README.md and docs/ say what the tool does: their console blocks print what is shown, their
example cases hold, their links stay in the repository, docs/cli.md is the parser's.

Conventions and the regenerating command: tests/doctool.py (``python tests/doctool.py --update``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mtg_outcomes.check import check
from mtg_outcomes.cp import cp_supported
from mtg_outcomes.model import load_case

from ..doctool import (
    CLI_DOC,
    ROOT,
    Block,
    argv_of,
    blocks,
    case_blocks,
    commands,
    compare,
    console_blocks,
    doc_files,
    link_problems,
    python_blocks,
    render_cli,
    run,
)

CONSOLE = console_blocks()
CASES = case_blocks()
PYTHON = python_blocks()
REFERENCE = sorted((ROOT / "docs" / "reference").glob("*.md"))


@pytest.mark.parametrize("block", CONSOLE, ids=[b.where for b in CONSOLE])
def test_console_block_prints_what_it_shows(block: Block) -> None:
    for cmd in commands(block):
        actual = run(cmd.line)
        assert compare(cmd, actual), (
            f"{block.where}: $ {cmd.line}\nshown:\n" + "\n".join(cmd.expected)
            + "\nprinted:\n" + "\n".join(actual) + "\n(regenerate: python tests/doctool.py --update)")


@pytest.mark.parametrize("block", CASES, ids=[b.where for b in CASES])
def test_example_case_holds(block: Block, tmp_path: Path) -> None:
    named = block.lines[0][2:].strip() if block.lines[0].startswith("# ") else ""
    if named.endswith(".yaml") and (ROOT / named).is_file():  # the page shows a shipped file: the same text
        shown = "\n".join(block.lines[1:]) + "\n"
        assert shown == (ROOT / named).read_text(encoding="utf-8"), f"{block.where}: differs from {named}"
    path = tmp_path / f"{block.start}.yaml"
    path.write_text("\n".join(block.lines) + "\n", encoding="utf-8")
    case = load_case(path)
    assert case.expect is not None, f"{block.where}: an example case says what it shows (expect:)"
    engines = ["graph"] + (["cp"] if cp_supported(case) is None else [])
    for engine in engines:
        report = check(case, engine=engine)
        assert report.status == "OK", f"{block.where} ({engine}): " + "\n".join(report.detail)


@pytest.mark.parametrize("block", PYTHON, ids=[b.where for b in PYTHON])
def test_python_block_runs(block: Block) -> None:
    done = subprocess.run([sys.executable, "-c", "\n".join(block.lines)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, f"{block.where}:\n{done.stderr}"


@pytest.mark.parametrize("page", REFERENCE, ids=[p.name for p in REFERENCE])
def test_each_reference_page_has_tested_example_cases(page: Path) -> None:
    if page.name == "index.md":
        return
    assert any(b.path == page for b in CASES), f"{page.name}: no example case (a ```yaml block starting id:)"


def test_links_stay_in_the_repository_and_resolve() -> None:
    problems = [p for path in doc_files() for p in link_problems(path)]
    assert not problems, "\n".join(problems)


def test_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 250, f"README.md has {lines} lines; the rest belongs in docs/"


def test_cli_reference_is_the_parsers() -> None:
    assert CLI_DOC.read_text(encoding="utf-8") == render_cli(), (
        "docs/cli.md differs from solver/cli/parser.py: python tests/doctool.py --update")


def test_every_console_block_is_runnable() -> None:
    """A console block is a promise that the commands print that: nothing else may be in one."""
    for path in doc_files():
        for block in blocks(path):
            if block.lang == "console":
                assert commands(block), f"{block.where}: an empty console block"
                for cmd in commands(block):
                    argv_of(cmd.line)  # raises for a command the docs can't run


def test_the_checks_see_the_docs() -> None:
    """The conventions are in use: the tour runs, the reference's cases hold."""
    assert any(b.path.name == "README.md" for b in CONSOLE)
    assert len(CASES) >= len(REFERENCE)

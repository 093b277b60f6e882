"""The documentation kept true: README.md and docs/ checked against the tool, and regenerated.

Conventions (docs/CONTRIBUTING.md, "Keeping the documentation true"):

- Every fenced ```console block is run. A line starting with ``$ `` is a command; the lines after it,
  up to the next command or the end of the block, are what it prints (stdout and stderr, in order).
  A command is ``mtg-outcomes ARGS`` or ``.venv/bin/mtg-outcomes ARGS``, optionally followed by
  ``; echo "exit $?"``. An output whose last line is ``...`` is compared on the lines before it only.
  A block showing anything else is written ```sh or ```text (not run).
- A fenced ```yaml block whose first line that isn't a comment starts with ``id:`` is a case: it
  must load and its ``expect:`` must hold (both engines where CP can express the case).
- A fenced ```python block is run (it checks itself with ``assert``) unless its first line starts
  with ``# not run``.
- docs/cli.md is generated from the argument parser (``render_cli``).

``.venv/bin/python tests/doctool.py --update`` rewrites docs/cli.md and the outputs of every
console block in place (after a change to what the tool prints); without ``--update`` it reports
the blocks that differ.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shlex
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI_DOC = ROOT / "docs" / "cli.md"
PROGRAMS = ("mtg-outcomes", ".venv/bin/mtg-outcomes")
ECHO_EXIT = '; echo "exit $?"'
MORE = "..."


def doc_files() -> list[Path]:
    """README.md and every Markdown page under docs/, except the notes waiting to be folded in."""
    notes = ROOT / "docs" / "notes"
    return [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").rglob("*.md") if notes not in p.parents)]


@dataclass(frozen=True)
class Block:
    """One fenced block: its language, its body's lines and where they sit in the file."""

    path: Path
    lang: str
    start: int  # index of the first body line
    lines: tuple[str, ...]
    indent: int = 0  # a fence indented in a list: its lines carry this many spaces more

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.start}"


def blocks(path: Path) -> Iterator[Block]:
    """The fenced blocks of a Markdown file (``` fences, indented ones in lists too; no nesting)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^( *)```(\S*)\s*$", lines[i])
        if m is None:
            i += 1
            continue
        indent = len(m.group(1))
        end = i + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        yield Block(path, m.group(2), i + 1, tuple(ln[indent:] for ln in lines[i + 1:end]), indent)
        i = end + 1


# ---- console blocks -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Command:
    line: str  # the command as written, without "$ "
    expected: tuple[str, ...]


def commands(block: Block) -> list[Command]:
    """A console block read as commands and their outputs."""
    out: list[Command] = []
    current: str | None = None
    seen: list[str] = []
    for line in block.lines:
        if line.startswith("$ "):
            if current is not None:
                out.append(Command(current, tuple(seen)))
            current, seen = line[2:], []
        elif current is None:
            raise ValueError(f"{block.where}: a console block starts with a '$ ' command")
        else:
            seen.append(line)
    if current is not None:
        out.append(Command(current, tuple(seen)))
    return out


def argv_of(line: str) -> tuple[list[str], bool]:
    """The tool's arguments of a command line, and whether it echoes the exit code."""
    echo = line.endswith(ECHO_EXIT)
    words = shlex.split(line[: -len(ECHO_EXIT)] if echo else line)
    if not words or words[0] not in PROGRAMS:
        raise ValueError(f"not a command the docs can run: {line!r} (use ```sh for other commands)")
    return words[1:], echo


def run(line: str) -> list[str]:
    """What a command prints, stdout and stderr as one stream, run in this process from the root."""
    from mtg_outcomes.cli import main

    argv, echo = argv_of(line)
    buf = io.StringIO()
    cwd = os.getcwd()
    columns = os.environ.get("COLUMNS")
    os.chdir(ROOT)
    os.environ["COLUMNS"] = "100"  # argparse's usage lines, as a terminal 100 wide
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse's own errors
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        os.chdir(cwd)
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns
    text = buf.getvalue()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if echo:
        lines.append(f"exit {code}")
    return lines


def compare(cmd: Command, actual: list[str]) -> bool:
    """Byte for byte, or on the lines before a closing ``...``."""
    if cmd.expected and cmd.expected[-1] == MORE:
        shown = list(cmd.expected[:-1])
        return actual[: len(shown)] == shown and len(actual) > len(shown)
    return list(cmd.expected) == actual


def regenerated(cmd: Command, actual: list[str]) -> list[str]:
    """The block's new lines for one command: all of its output, or as many lines as were shown."""
    if cmd.expected and cmd.expected[-1] == MORE and len(actual) > len(cmd.expected) - 1:
        return ["$ " + cmd.line, *actual[: len(cmd.expected) - 1], MORE]
    return ["$ " + cmd.line, *actual]


def console_blocks() -> list[Block]:
    return [b for path in doc_files() for b in blocks(path) if b.lang == "console"]


# ---- yaml cases and python blocks -----------------------------------------------------------------

def is_case(block: Block) -> bool:
    """A yaml block that is a whole case file (its first line that isn't a comment is ``id:``)."""
    if block.lang != "yaml":
        return False
    first = next((ln for ln in block.lines if ln.strip() and not ln.lstrip().startswith("#")), "")
    return first.startswith("id:")


def case_blocks() -> list[Block]:
    return [b for path in doc_files() for b in blocks(path) if is_case(b)]


def python_blocks() -> list[Block]:
    return [b for path in doc_files() for b in blocks(path)
            if b.lang == "python" and not (b.lines and b.lines[0].startswith("# not run"))]


# ---- links ----------------------------------------------------------------------------------------

_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_BARE = re.compile(r"<(https?://[^>]+)>|(?<![\w(])(https?://\S+)")


def prose(path: Path) -> str:
    """The file without its fenced blocks and inline code (links there are examples, not links)."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"^ *```.*?^ *```\s*$", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    for line in prose(path).split("\n"):
        m = re.match(r"^#{1,6}\s+(.*)$", line)
        if m:
            base, n = slug(m.group(1)), 0
            while (base if n == 0 else f"{base}-{n}") in found:
                n += 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def link_problems(path: Path) -> list[str]:
    """Links that leave the repository or don't resolve (a file, and its heading for ``#anchor``)."""
    problems = []
    text = prose(path)
    rel = path.relative_to(ROOT)
    for m in _BARE.finditer(text):
        problems.append(f"{rel}: a link outside the repository: {m.group(1) or m.group(2)}")
    for m in _LINK.finditer(text):
        target = m.group(1)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            problems.append(f"{rel}: a link outside the repository: {target}")
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.exists():
            problems.append(f"{rel}: a link to a missing file: {target}")
        elif ROOT not in dest.parents and dest != ROOT:
            problems.append(f"{rel}: a link outside the repository: {target}")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{rel}: a link to a missing heading: {target}")
    return problems


# ---- the CLI reference ----------------------------------------------------------------------------

def _synopsis(name: str, sub: argparse.ArgumentParser) -> str:
    words = [f"mtg-outcomes {name}"]
    for action in sub._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        metavar = action.metavar or (action.dest.upper() if action.option_strings else action.dest.upper())
        if action.choices and not action.option_strings:
            metavar = "{" + ",".join(map(str, action.choices)) + "}"
        if not action.option_strings:
            word = f"{metavar}..." if action.nargs in ("+", "*") else metavar
        else:
            flag = action.option_strings[-1]
            if action.nargs == 0:
                word = flag
            elif action.choices:
                word = f"{flag} {'|'.join(map(str, action.choices))}"
            else:
                word = f"{flag} {metavar}"
            if not action.required:
                word = f"[{word}]"
        words.append(word)
    return " ".join(words)


def _row(action: argparse.Action) -> str:
    name = ", ".join(action.option_strings) or action.dest.upper()
    helps = [(action.help or "").replace("|", "\\|")]
    if action.choices:
        helps.append("one of " + ", ".join(f"`{c}`" for c in action.choices))
    if (action.option_strings and action.nargs != 0 and action.default not in (None, [], argparse.SUPPRESS)
            and "default" not in (action.help or "")):
        helps.append(f"default `{action.default}`")
    if action.required and action.option_strings:
        helps.append("required")
    if action.nargs in ("+", "*") and not action.option_strings:
        helps.append("one or more")
    return f"| `{name}` | {'; '.join(h for h in helps if h)} |"


def render_cli() -> str:
    """docs/cli.md: every command of the parser, its synopsis, what it does and its options."""
    from mtg_outcomes.cli.parser import build_parser

    parser = build_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: a.help or "" for a in subs._choices_actions}
    out = ["# Command-line reference", "",
           "<!-- generated from solver/cli/parser.py by `.venv/bin/python tests/doctool.py --update`;",
           "     tests/docs/test_docs.py fails when this file and the parser differ. Do not edit by hand. -->", "",
           f"`mtg-outcomes` ({parser.description}) is also `python -m mtg_outcomes`. Exit codes: 0 ok, 1 a check",
           "or expectation failed (or a card line not understood), 2 bad input: one line per problem,",
           "`file: path.to.field: reason`, never a traceback. What each command prints, with examples:",
           "[tutorial.md](tutorial.md) and the pages linked from [index.md](index.md).", ""]
    out += ["| command | what it does |", "| --- | --- |"]
    out += [f"| [`{name}`](#{slug('mtg-outcomes ' + name)}) | {helps.get(name, '')} |" for name in subs.choices]
    for name, sub in subs.choices.items():
        out += ["", f"## mtg-outcomes {name}", "", helps.get(name, "") or (sub.description or ""), "",
                "```text", _synopsis(name, sub), "```", ""]
        rows = [_row(a) for a in sub._actions if not isinstance(a, argparse._HelpAction)]
        if rows:
            out += ["| argument | meaning |", "| --- | --- |", *rows]
    return "\n".join(out) + "\n"


# ---- update / report ------------------------------------------------------------------------------

def update_console(path: Path) -> int:
    """Rewrite the outputs of the console blocks of one file; the number of commands whose output changed."""
    lines = path.read_text(encoding="utf-8").split("\n")
    changed = 0
    for block in reversed([b for b in blocks(path) if b.lang == "console"]):
        new: list[str] = []
        for cmd in commands(block):
            actual = run(cmd.line)
            if not compare(cmd, actual):
                changed += 1
            new += regenerated(cmd, actual)
        lines[block.start:block.start + len(block.lines)] = [" " * block.indent + ln if ln else ln for ln in new]
    path.write_text("\n".join(lines), encoding="utf-8")
    return changed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Check or regenerate the outputs shown in README.md and docs/.")
    ap.add_argument("--update", action="store_true", help="rewrite docs/cli.md and every console block's output")
    args = ap.parse_args(argv)
    if args.update:
        CLI_DOC.write_text(render_cli(), encoding="utf-8")
        total = 0
        for path in doc_files():
            if any(b.lang == "console" for b in blocks(path)):
                n = update_console(path)
                total += n
                if n:
                    print(f"{path.relative_to(ROOT)}: {n} output(s) rewritten")
        print(f"docs/cli.md regenerated; {total} console output(s) changed")
        return 0
    bad = 0
    for block in console_blocks():
        for cmd in commands(block):
            if not compare(cmd, run(cmd.line)):
                bad += 1
                print(f"{block.where}: $ {cmd.line}: output differs")
    if not CLI_DOC.exists() or CLI_DOC.read_text(encoding="utf-8") != render_cli():
        bad += 1
        print("docs/cli.md differs from the parser")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())

"""The command line's arguments: one parser, every command's flags, time limits read one way."""

from __future__ import annotations

import argparse
import os
from importlib.metadata import PackageNotFoundError, version

from mtg_outcomes.model.versions import CARD_DATA_SOURCE, RULES_VERSION, card_data_version

from ..contract import ENGINES, MAX_WORKERS
from ..peer.cli import add_parser as add_peer
from .args import Subcommands, at_least_one, seconds

DEFAULT_TIMEOUT = 600.0  # the tool never hangs: a run that long reports what it has, marked partial


def worker_count(text: str) -> int:
    """--workers: 1 to MAX_WORKERS (CP-SAT's parallel search workers)."""
    value = at_least_one(text)
    if value > MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"at most {MAX_WORKERS}, got {text!r}")
    return value


MAX_GENERATED = 100_000  # generate writes at most this many files in one run (a limit, said)


def case_count(text: str) -> int:
    """generate's --count: at least 1, at most MAX_GENERATED."""
    value = at_least_one(text)
    if value > MAX_GENERATED:
        raise argparse.ArgumentTypeError(f"at most {MAX_GENERATED} files in one run, got {text!r}")
    return value


WORKERS_HELP = ("CP-SAT's parallel search workers (default 1: the same witnesses every run; more: the same "
                "outcomes, maybe other witnesses); the CP engine only")


def version_text() -> str:
    """``mtg-outcomes --version``: the package, the rules edition and the card data (model.versions)."""

    try:
        own = version("mtg-outcomes")
    except PackageNotFoundError:
        own = "(not installed)"
    return (f"mtg-outcomes {own}\nComprehensive Rules: effective {RULES_VERSION}\n"
            f"card data: {CARD_DATA_SOURCE}, built {card_data_version()}")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mtg-outcomes", description="Exact answers about Magic: The Gathering damage.",
                                formatter_class=argparse.RawDescriptionHelpFormatter)  # --version keeps its lines
    p.add_argument("--version", action="version", version=version_text(),
                   help="the tool's version, the Comprehensive Rules edition it follows and its card data's")
    sub = p.add_subparsers(dest="command", required=True)
    _answer_commands(sub)
    _many_cases_commands(sub)
    _card_commands(sub)
    add_peer(sub)
    return p


def _answer_commands(sub: Subcommands) -> None:
    """validate, enumerate, optimize, check: one case's answers."""
    v = sub.add_parser("validate", help="check case files against the format; every problem, one line each")
    v.add_argument("paths", nargs="+")
    e = sub.add_parser("enumerate", help="every distinct legal outcome, each with a witness")
    e.add_argument("case")
    e.add_argument("--fields", help="comma-separated field paths to project onto (e.g. you.life,A.cards_drawn)")
    e.add_argument("--json", action="store_true", help="machine-readable output (stable, sorted)")
    e.add_argument("--graph", metavar="FILE", help="write the choice graph (.dot or .graphml); with the CP engine "
                   "chosen by auto, the graph engine builds it under the same limits")
    e.add_argument("--explain", action="store_true",
                   help="list every step of each witness, forced steps too (an only option, an action that can't happen)")
    e.add_argument("--ruling", action="store_true",
                   help="print a short ruling a judge can paste: the situation, who chooses what under which rule, "
                        "each outcome and the choices leading to it, with CR numbers")
    e.add_argument("--engine", choices=ENGINES, default="auto")
    e.add_argument("--max-nodes", type=at_least_one, default=2_000_000)
    e.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT,
                   help=f"seconds (default {DEFAULT_TIMEOUT:g}; 0: no limit); partial results are marked incomplete")
    e.add_argument("--workers", type=worker_count, default=1, help=WORKERS_HELP)
    o = sub.add_parser("optimize", help="the best choices for each chooser's objective (backward induction)")
    o.add_argument("case")
    o.add_argument("--objective", action="append", default=[],
                   help="'CHOOSER: maximize FIELD' or 'CHOOSER: [maximize a.life, minimize b.cards_drawn]' (repeatable); "
                        "defaults to the case's objective:")
    o.add_argument("--json", action="store_true")
    o.add_argument("--engine", choices=ENGINES, default="auto",
                   help="graph: backward induction with a report per decision; cp: CP-SAT (one chooser); "
                        "auto: CP when the graph would be large")
    o.add_argument("--fields", help="comma-separated fields: list optimal outcomes projected onto these")
    o.add_argument("--explain", action="store_true", help="list forced steps too (see enumerate --explain)")
    o.add_argument("--max-nodes", type=at_least_one, default=2_000_000)
    o.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT,
                   help=f"seconds (default {DEFAULT_TIMEOUT:g}; 0: no limit); partial results are marked as such")
    o.add_argument("--workers", type=worker_count, default=1, help=WORKERS_HELP)
    c = sub.add_parser("check", help="compare each case's expect: with every reachable outcome")
    c.add_argument("paths", nargs="+")
    c.add_argument("--json", action="store_true")
    c.add_argument("--engine", choices=ENGINES, default="auto")
    c.add_argument("--timeout", type=seconds, default=60.0,
                   help="seconds per case (default 60; 0: no limit); a case cut by it is reported, not passed")


def _many_cases_commands(sub: Subcommands) -> None:
    """batch, generate, report."""
    b = sub.add_parser("batch", help="run many cases in parallel; one JSON line per case, resumable")
    b.add_argument("paths", nargs="+")
    b.add_argument("--jobs", type=at_least_one, default=os.cpu_count() or 1)
    b.add_argument("--out", required=True, help="JSON-lines results file (appended; re-running resumes)")
    b.add_argument("--mode", choices=("enumerate", "optimize", "check"), default="enumerate")
    b.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT,
                   help=f"seconds per case (default {DEFAULT_TIMEOUT:g}; 0: no limit); a stuck worker is killed")
    b.add_argument("--executor", choices=("local", "ray"), default="local")
    b.add_argument("--address", metavar="HOST:PORT", help="with --executor ray: the running Ray cluster to use "
                   "(default: $RAY_ADDRESS; neither: a local Ray instance of --jobs CPUs is started)")
    b.add_argument("--csv", metavar="FILE", help="also write a CSV summary of every recorded case")
    b.add_argument("--no-progress", action="store_true")
    b.add_argument("--report", metavar="DIR", help="also write an HTML page per case and an index.html with every "
                   "case's verdict into DIR")
    g = sub.add_parser("generate", help="reproducible random valid case files")
    g.add_argument("dir")
    g.add_argument("--count", type=case_count, required=True, help=f"how many (1 to {MAX_GENERATED})")
    g.add_argument("--seed", type=int, default=0)
    r = sub.add_parser("report", help="one self-contained HTML page: the situation, every outcome and why, "
                       "the ruling's verdict, the optimal line, the choice tree drawn")
    r.add_argument("case")
    r.add_argument("-o", "--out", required=True, metavar="FILE", help="the HTML file to write")
    r.add_argument("--fields", help="comma-separated fields: project the outcomes and label the tree's leaves")
    r.add_argument("--objective", action="append", default=[],
                   help="as for optimize (repeatable); defaults to the case's objective:, if any")
    r.add_argument("--engine", choices=ENGINES, default="auto")
    r.add_argument("--max-nodes", type=at_least_one, default=3000,
                   help="the picture's choice graph is built up to this many nodes (default 3000); a cut graph is drawn cut")
    r.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT,
                   help=f"seconds (default {DEFAULT_TIMEOUT:g}; 0: no limit)")


def _card_commands(sub: Subcommands) -> None:
    """mana, card, cards, schema, new: the cards and a first case."""
    mn = sub.add_parser("mana", help="the types of mana each permanent could produce, and why (CR 106.7)")
    mn.add_argument("case")
    mn.add_argument("--permanent", metavar="ID", help="only this permanent")
    mn.add_argument("--json", action="store_true")
    cd = sub.add_parser("card", help="a real card's facts and what each line of its text became")
    cd.add_argument("name", nargs="+", help="the card's name (quotes optional)")
    cd.add_argument("--json", action="store_true")
    cs = sub.add_parser("cards", help="the card data: --coverage, how much of it the recogniser understands")
    cs.add_argument("--coverage", action="store_true", required=True)
    cs.add_argument("--family", help="only this family of lines not understood (more examples)")
    cs.add_argument("--json", action="store_true")
    sub.add_parser("schema", help="the case file's JSON Schema (for an editor's YAML language server)")
    nw = sub.add_parser("new", help="write a commented case file from real cards' names: a first case to edit")
    nw.add_argument("file", help="the case file to write (refused if it exists, unless --force)")
    nw.add_argument("--attackers", default="", metavar="NAMES",
                    help="comma-separated card names: creatures of the active player, attacking")
    nw.add_argument("--blockers", default="", metavar="NAMES",
                    help="comma-separated card names: creatures of the defending player")
    nw.add_argument("--blocks", choices=("choose", "none"), default="choose",
                    help="choose: the defending player chooses every block (CR 509.1, the default); "
                         "none: the blockers stay back (write blocking: to fix blocks)")
    nw.add_argument("--cast", default="", metavar="NAMES",
                    help="comma-separated card names: instants and sorceries the defending player casts before "
                         "combat (each one's targets and modes are left to enumerate)")
    nw.add_argument("--players", default="you,opponent", metavar="A,B",
                    help="the two players' names, the attacker first (default you,opponent)")
    nw.add_argument("--life", type=int, default=20, help="each player's life total (default 20)")
    nw.add_argument("--force", action="store_true", help="overwrite FILE if it exists")

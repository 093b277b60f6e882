"""Bench family "ordinary combat": real cards by name, the defending player's blocks chosen
(``combat: {blocks: choose}``), Healing Salve's 3-point shield on them, attackers x possible
blockers from 2 x 2 to 8 x 8 (issue "Everyday combat").

The creatures are the ones a kitchen table has: lifelink and deathtouch (Vampire Nighthawk,
Gifted Aetherborn), double strike (Skyhunter Skirmisher, with flying), trample (Colossal Dreadmaw),
flying and reach (Serra Angel, Giant Spider), a defender (Wall of Wood), vanilla bodies. The
issue's own board (Craw Wurm, Vampire Nighthawk, Fireborn Knight, Gifted Aetherborn, a 4/4
trampler into Hill Giant, Grizzly Bears, Giant Spider, Llanowar Elves) is its own row.

Each size runs as a user runs it, the CLI in a fresh process (OR-Tools' import included), CPU time
and peak memory its own (``os.wait4``): ``enumerate --fields you.life,A.life`` with the ``auto``
engine and with the graph engine (its time beside, where it finishes within ``--graph-limit``),
and with ``--baseline REV`` the same command on that commit's code (a detached worktree), so the
ratio is measured in the same run.

Beside it, the issue's two-objective ``optimize`` (you maximize you.life, A minimizes it: the
defending player's blocks, the attacking player's divisions, the defending player's shield, in
that order; solver.cp.declared), engine auto, the same limit.

Run: ``.venv/bin/python bench/combat.py [--sizes 2x2,5x4] [--limit S] [--graph-limit S] [--baseline REV]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
SIZES = [(2, 2), (3, 3), (4, 4), (5, 4), (6, 6), (7, 7), (8, 8)]
FIELDS = "you.life,A.life"

ATTACKERS = ["Craw Wurm", "Vampire Nighthawk", "Skyhunter Skirmisher", "Gifted Aetherborn", "Colossal Dreadmaw",
             "Serra Angel", "Centaur Courser", "Typhoid Rats"]
BLOCKERS = ["Hill Giant", "Grizzly Bears", "Giant Spider", "Llanowar Elves", "Wall of Wood", "Siege Mastodon",
            "Trained Armodon", "Spined Wurm"]
ISSUE_ATTACKERS = ["Craw Wurm", "Vampire Nighthawk", "Fireborn Knight", "Gifted Aetherborn"]
ISSUE_BLOCKERS = ["Hill Giant", "Grizzly Bears", "Giant Spider", "Llanowar Elves"]


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-")


def combat_case(attackers: list[str], blockers: list[str], case_id: str,
                extra: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A combat with the blocks chosen: A's ``attackers`` at you, your ``blockers``, Healing Salve's
    shield of 3 on you (CR 615.7)."""
    bf: list[dict[str, Any]] = [{"id": _slug(n), "card": n, "controller": "A", "attacking": "you"} for n in attackers]
    bf += extra or []
    bf += [{"id": _slug(n), "card": n, "controller": "you"} for n in blockers]
    return {"id": case_id, "players": [{"name": "A"}, {"name": "you"}], "battlefield": bf,
            "sources": [{"id": "salve", "card": "Healing Salve", "controller": "you"}],
            "effects": [{"id": "salve-shield", "shield": 3, "to": "you", "controller": "you", "source": "salve"}],
            "actions": [{"combat": {"blocks": "choose"}}]}


def family_case(attackers: int, blockers: int) -> dict[str, Any]:
    return combat_case(ATTACKERS[:attackers], BLOCKERS[:blockers], f"ordinary-combat-{attackers}x{blockers}")


def issue_case() -> dict[str, Any]:
    """The issue's board: its 4/4 trampler has no card of its own there (named here)."""
    trampler = {"id": "trampler", "name": "Trampler", "controller": "A", "types": ["creature"], "colors": ["green"],
                "power": 4, "toughness": 4, "keywords": ["trample"], "attacking": "you"}
    return combat_case(ISSUE_ATTACKERS, ISSUE_BLOCKERS, "ordinary-combat-issue-5x4", [trampler])


# the baseline runs its own code: the editable install's finder (this checkout) is taken out
# first; a commit from before the one import name runs its ``solver`` package, a later one has
# ``mtg_outcomes`` made of its solver/ folder and its model/ (pyproject's package-dir, as installed)
_BOOT = """
import importlib.util, os, runpy, sys
sys.meta_path[:] = [f for f in sys.meta_path if not type(f).__module__.startswith('__editable__')]
base = sys.argv[1]
sys.argv = ['mtg-outcomes', *sys.argv[2:]]
if 'mtg_outcomes' in open(os.path.join(base, 'solver', '__init__.py')).read():
    spec = importlib.util.spec_from_file_location('mtg_outcomes', os.path.join(base, 'solver', '__init__.py'),
                                                  submodule_search_locations=[os.path.join(base, 'solver'), base])
    sys.modules['mtg_outcomes'] = module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    runpy.run_module('mtg_outcomes', run_name='__main__', alter_sys=True)
else:
    sys.path.insert(0, base)
    runpy.run_module('solver', run_name='__main__', alter_sys=True)
"""


def run(argv: list[str], cwd: Path, timeout: float) -> dict[str, Any]:
    """One CLI run in a fresh process: exit code, the first line it printed, CPU s and peak MB."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except KeyboardInterrupt:
            proc.kill()
            raise
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        lines = out.read().decode(errors="replace").splitlines()[:3] or [""]
    return {"rc": proc.returncode, "line": lines[0], "lines": lines, "cpu": usage.ru_utime + usage.ru_stime,
            "mb": usage.ru_maxrss / 1024}


def _answer(got: dict[str, Any]) -> str:
    """'52 complete' / '40 PARTIAL' / 'error' from the CLI's first line."""
    line = got["line"]
    if got["rc"] not in (0,) or "distinct outcomes" not in line:
        return "error"
    n = line.split(": ", 1)[1].split(" ", 1)[0]
    return f"{n} {'complete' if 'complete' in line else 'PARTIAL'}"


OBJECTIVES = ["--objective", "you: [maximize you.life]", "--objective", "A: [minimize you.life]"]


def _optimum(got: dict[str, Any]) -> str:
    """'22 complete' / '3 PARTIAL' / 'error' from optimize's second line ("22 optimal outcomes")."""
    lines = got.get("lines", [])
    if got["rc"] != 0 or len(lines) < 2 or "optimal outcome" not in lines[1]:
        return "error"
    return f"{lines[1].split(' ', 1)[0]} {'PARTIAL' if 'PARTIAL' in lines[1] else 'complete'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sizes", default=",".join(f"{a}x{b}" for a, b in SIZES))
    parser.add_argument("--limit", type=float, default=120.0, help="--timeout of each auto run")
    parser.add_argument("--graph-limit", type=float, default=60.0, help="--timeout of each graph run")
    parser.add_argument("--baseline", help="a commit to run the same commands on (a detached worktree)")
    parser.add_argument("--no-issue", action="store_true", help="skip the issue's own 5x4 board")
    args = parser.parse_args()
    sizes = [tuple(int(x) for x in s.split("x")) for s in args.sizes.split(",") if s]
    exe = str(Path(sys.executable).with_name("mtg-outcomes"))
    base = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.baseline:
            base = Path(tmp) / "base"
            subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base), args.baseline], cwd=ROOT, check=True)
        try:
            cases = [(f"{a}x{b}", family_case(a, b)) for a, b in sizes]
            if not args.no_issue:
                cases.append(("issue 5x4", issue_case()))
            print(f"ordinary combat: enumerate --fields {FIELDS}, blocks chosen, Healing Salve; a fresh process each "
                  f"(auto --timeout {args.limit:g}, graph --timeout {args.graph_limit:g})")
            head = (f"{'size':<10}{'outcomes':<16}{'auto cpu s':>11}{'peak MB':>9}{'graph':>18}{'graph cpu s':>12}"
                    f"{'optimize':>15}{'opt cpu s':>10}{'opt MB':>8}")
            if base is not None:
                head += f"{'base ' + args.baseline[:8]:>22}{'base cpu s':>11}{'base/now':>9}"
            print(head, flush=True)
            for label, data in cases:
                path = Path(tmp) / f"{data['id']}.yaml"
                path.write_text(yaml.safe_dump(data, sort_keys=False))
                common = ["enumerate", str(path), "--fields", FIELDS]
                now = run([exe, *common, "--timeout", str(args.limit)], ROOT, args.limit)
                graph = run([exe, *common, "--engine", "graph", "--timeout", str(args.graph_limit)], ROOT, args.graph_limit)
                # the issue's two-objective optimize: you keep your life, A takes it (auto engine)
                opt = run([exe, "optimize", str(path), *OBJECTIVES, "--timeout", str(args.limit)], ROOT, args.limit)
                row = (f"{label:<10}{_answer(now):<16}{now['cpu']:>11.2f}{now['mb']:>9.0f}"
                       f"{_answer(graph):>18}{graph['cpu']:>12.2f}{_optimum(opt):>15}{opt['cpu']:>10.2f}{opt['mb']:>8.0f}")
                if base is not None:
                    was = run([sys.executable, "-c", _BOOT, str(base), *common, "--timeout", str(args.limit)], base, args.limit)
                    ratio = f"{was['cpu'] / now['cpu']:.1f}x" if now["cpu"] > 0 else "-"
                    row += f"{_answer(was):>22}{was['cpu']:>11.2f}{ratio:>9}"
                print(row, flush=True)
        finally:
            if base is not None:
                subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False)
    print(json.dumps({"sizes": args.sizes}) if os.environ.get("BENCH_JSON") else "", end="")


if __name__ == "__main__":
    main()

"""Answers a judge can hand over: version stamps, names in words, each step's rule (issue 44)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtg_outcomes.batch import analyze
from mtg_outcomes.batch.records import _retry
from mtg_outcomes.cli import main
from mtg_outcomes.model.versions import RULES_VERSION, card_data_version, stamps

from ..conftest import ROOT

ARCHON = ROOT / "cases" / "seeds" / "vengeful-archon-scroll-thief-combat.yaml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_version_names_the_rules_edition_and_the_card_data(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "Comprehensive Rules: effective 2026-09-25" in out
    assert card_data_version() in out and card_data_version().startswith("2026-12-01 sha256:")


@pytest.mark.parametrize("command", ["enumerate", "optimize", "check"])
def test_every_json_answer_is_stamped(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    extra = ["--objective", "you: maximize you.life"] if command == "optimize" else []
    code, out, _ = run(capsys, command, "--json", str(ARCHON), *extra)
    assert code == 0
    doc = json.loads(out)
    for d in doc if isinstance(doc, list) else [doc]:
        assert d["rules_version"] == RULES_VERSION == "2026-09-25"
        assert d["card_data_version"] == card_data_version()


def test_batch_reruns_a_record_of_another_rules_or_card_data_version(tmp_path: Path) -> None:
    rec = analyze(str(ARCHON))
    assert rec["status"] == "OK" and {k: rec[k] for k in stamps()} == stamps()
    assert not _retry(rec, None)
    assert _retry({**rec, "rules_version": "2024-11-08"}, None)
    assert _retry({**rec, "card_data_version": "2025-01-01 sha256:000000000000"}, None)
    # through the command: a line of an older rules edition is run again and superseded
    out = tmp_path / "r.jsonl"
    out.write_text(json.dumps({**rec, "rules_version": "2024-11-08"}) + "\n")
    assert main(["batch", str(ARCHON), "--jobs", "1", "--out", str(out), "--no-progress"]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 2 and lines[-1]["rules_version"] == RULES_VERSION
    before = out.read_text()
    assert main(["batch", str(ARCHON), "--jobs", "1", "--out", str(out), "--no-progress"]) == 0
    assert out.read_text() == before  # same versions: nothing re-run


def test_report_footer_carries_the_stamps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "r.html"
    code, _, _ = run(capsys, "report", str(ARCHON), "-o", str(page))
    assert code == 0
    footer = page.read_text().split("<footer>")[1]
    assert "Comprehensive Rules effective 2026-09-25" in footer and card_data_version() in footer


LONG_STATUS = """
id: bear-dies-but-ruling-says-not
players:
  - {name: you}
  - {name: A}
battlefield:
  - {id: bears, card: Grizzly Bears, controller: A}
sources:
  - {id: shock, name: Shock, controller: you}
actions:
  - damage: [{from: shock, to: bears, amount: 2}]
expect:
  complete: true
  outcomes:
    - {bears.dies: false}
"""


def test_check_table_keeps_its_columns_and_spells_booleans_yes_no(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "long.yaml").write_text(LONG_STATUS)
    (tmp_path / "none.yaml").write_text(LONG_STATUS.split("expect:")[0].replace("id: bear-dies-but-ruling-says-not",
                                                                                   "id: no-ruling"))
    code, out, _ = run(capsys, "check", str(tmp_path))
    assert code == 1
    lines = out.splitlines()
    head = lines[0]
    rows = [x for x in lines if x.startswith(("bear-dies", "no-ruling"))]
    assert len(rows) == 2
    for row in rows:  # every row's count sits under the header's "outcomes"
        assert row[head.index("outcomes") + len("outcomes") - 1] in "012"
        assert row[head.index("outcomes") + len("outcomes")] == " "
    assert "INCOMPLETE+UNREACHABLE " in out
    assert "bears.dies=yes" in out and "bears.dies=no" in out and "True" not in out and "False" not in out
    assert "the case has no expect: section, so there is no ruling to compare its outcomes with" in out


def _rows(out: str) -> list[list[str]]:
    import re

    return [[kv.split("=")[0] for kv in line.split(". ", 1)[1].split(", ")]
            for line in out.splitlines() if re.match(r"^  \d+\. ", line)]


def test_enumerate_rows_name_the_same_judge_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "enumerate", str(ARCHON))
    assert code == 0
    rows = _rows(out)
    assert len(rows) == 2 and rows[0] == rows[1] == ["A.cards_drawn", "A.life", "you.life"]
    assert "s1" not in out and " thief" not in out and "Scroll Thief" in out  # names, not ids
    # a field that only the case's effect has changes but tells no outcome apart: not shown
    assert "remaining" not in out


def test_explain_of_the_archon_combat_says_what_happened_and_why(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "enumerate", str(ARCHON), "--explain")
    assert code == 0
    one, two = out.split("\n  2. ")
    for part in (one, two):
        assert "the combat damage step begins (CR 510.1)" in part
        assert "(A assigns Siege Mastodon's 3 combat damage: 3 to you: the only legal option, CR 510.1b)" in part
        assert "to Scroll Thief's 1 damage to you: it prevents" in part and "(your choice, CR 615.7)" in part
        assert "Vengeful Archon deals 3 damage to A: A loses 3 life (120.3a)" in part  # the shield's rider
    assert "Siege Mastodon deals 1 combat damage to you (3 before Vengeful Archon's shield on you): you lose 1 life" in one
    assert "Scroll Thief's 1 combat damage to you is prevented by Vengeful Archon's shield on you: none is dealt" in one
    assert "A draws" not in one
    assert "Scroll Thief deals 1 combat damage to you (after Vengeful Archon's shield on you): you lose 1 life" in two
    assert "Scroll Thief's trigger resolves (CR 608.2)" in two and "A draws 1 card (CR 121.1)" in two
    code, out, _ = run(capsys, "enumerate", str(ARCHON), "--explain", "--json")
    steps = [s for o in json.loads(out)["outcomes"] for s in o["explain"]]
    assert {(s["who"], s["rule"]) for s in steps if s["kind"] == "choice"} == {("you", "615.7")}
    assert all(s.get("rule") for s in steps)


RULINGS = ROOT / "docs" / "rulings"


@pytest.mark.parametrize("page", sorted(p.name for p in RULINGS.glob("*.txt")))
def test_the_committed_ruling_paragraphs_are_what_the_tool_prints(page: str, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/rulings/<case>.txt is `mtg-outcomes enumerate cases/seeds/<case>.yaml --ruling`, byte for byte."""
    code, out, _ = run(capsys, "enumerate", str(ROOT / "cases" / "seeds" / page.replace(".txt", ".yaml")), "--ruling")
    assert code == 0
    assert out == (RULINGS / page).read_text()
    assert "CR " in out and "Situation: " in out


def test_four_seed_rulings_are_committed() -> None:
    cards = {"vengeful-archon", "guardian-archon", "archfiend-of-despair", "shield-of-the-avatar"}
    assert {c for c in cards if any(p.name.startswith(c) for p in RULINGS.glob("*.txt"))} == cards


TIED_BOARD = """
id: tied-blocks
title: "Three attackers, two possible blockers; a 20-point shield on you makes every block as good"
players:
  - {name: A}
  - {name: you}
battlefield:
  - {id: wurm, card: Craw Wurm, controller: A, attacking: you}
  - {id: hawk, card: Vampire Nighthawk, controller: A, attacking: you}
  - {id: knight, card: Fireborn Knight, controller: A, attacking: you}
  - {id: giant, card: Hill Giant, controller: you}
  - {id: bears, card: Grizzly Bears, controller: you}
effects:
  - {id: salve, shield: 20, to: you, controller: you}
actions:
  - combat: {blocks: choose}
objective:
  you: [maximize you.life]
"""


def test_optimize_text_is_bounded_and_summarises_ties(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = tmp_path / "tied.yaml"
    case.write_text(TIED_BOARD)
    code, out, _ = run(capsys, "optimize", str(case), "--engine", "graph")
    assert code == 0
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 200  # not a terminal: 200 characters at most
    assert len(lines) <= 30, len(lines)  # three optimal outcomes listed, the decisions say the rest
    assert "more optimal outcomes (--json lists every one)" in out
    blocks = [line for line in lines if line.startswith("  your block declaration (CR 509.1a)")]
    assert len(blocks) == 1 and "9 equally good block declarations, e.g. " in blocks[0] and "\u2192" in blocks[0]
    heads = [line.split(":")[0] for line in lines if "doesn't matter" in line]
    assert heads and len(heads) == len(set(heads))  # each decision that doesn't matter said once
    assert "->" not in out and "salve:" not in out  # option labels in words
    code, js, _ = run(capsys, "optimize", str(case), "--engine", "graph", "--json")
    doc = json.loads(js)
    assert len(doc["outcomes"]) > 10  # --json keeps the full lists
    block = next(d for d in doc["decisions"] if d["kind"] == "block")
    assert len(block["best"]) == len(block["best_words"]) == 9


def test_report_legend_colours_actions_in_words_and_step_results(tmp_path: Path) -> None:
    from mtg_outcomes.model import load_case
    from mtg_outcomes.report import analyse, render_html
    from mtg_outcomes.report.style import CSS

    # leaves not in the ruling have their own colour, not the red of "cut by a limit"
    missing = CSS.split("svg.tree .node.outcome.missing rect {", 1)[1].split("}", 1)[0]
    assert "var(--miss)" in missing and "var(--bad)" not in missing
    html = render_html(analyse(load_case(str(ROOT / "cases" / "seeds" / "vengeful-archon-scroll-thief-combat.yaml"))))
    legend = html.split('<div class="legend">', 1)[1].split("</div>", 1)[0]
    assert "border-color:#8e44ad" in legend and "outcome not in the ruling" in legend
    # gold arrowheads of a fixed size on the optimal edges
    assert 'markerUnits="userSpaceOnUse"' in html
    # each step's results and rules, in the witness list
    assert "Vengeful Archon deals 3 damage to A: A loses 3 life (120.3a) (CR 120.3)" in html
    assert "(your choice, CR 615.7)" in html
    # actions in words, the YAML only as a tooltip
    html = render_html(analyse(load_case(str(ROOT / "cases" / "seeds" / "vengeful-archon-no-legal-target.yaml"))))
    actions = html.split("What happens (the actions, in order)", 1)[1].split("</ol>", 1)[0]
    assert "<code>{activate" not in actions
    assert "activate Vengeful Archon&#x27;s ability, X = 3" in actions and 'title="{activate: {id: archon, x: 3}}"' in actions

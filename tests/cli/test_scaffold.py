"""``mtg-outcomes new``: a commented case written from real cards' names; it validates (loader and
JSON Schema) and answers."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
import yaml

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.cli import main
from mtg_outcomes.model import load_case
from mtg_outcomes.model.load.case_schema import case_json_schema

BOARD = ["--attackers", "Craw Wurm, Vampire Nighthawk", "--blockers", "Hill Giant, Giant Spider"]


def _new(tmp_path: Path, *args: str) -> tuple[int, Path]:
    out = tmp_path / "first.yaml"
    return main(["new", str(out), *args]), out


def test_new_case_validates_and_answers(tmp_path: Path) -> None:
    rc, out = _new(tmp_path, *BOARD)
    assert rc == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("#") and "combat: {blocks: choose}" in text
    jsonschema.validate(yaml.safe_load(text), case_json_schema())
    case = load_case(out)
    assert case.id == "first"
    result = enumerate_outcomes(case, fields=["opponent.life", "you.life", "craw-wurm.dies"])
    assert result.complete
    lives = {(o.values["opponent.life"], o.values["you.life"]) for o in result.outcomes}
    # no blocks: 6 + 2 (lifelink, CR 702.15b) -> 12 and 22; the Spider (reach) on the Nighthawk: 14, 20
    assert (12, 22) in lives and (14, 22) in lives
    # the Wurm (6/4) blocked by both (3 + 2 damage) dies (704.5g); blocked by the Giant alone it lives
    assert {o.values["craw-wurm.dies"] for o in result.outcomes} == {True, False}


def test_new_with_a_spell_enumerates_its_modes_and_targets(tmp_path: Path) -> None:
    rc, out = _new(tmp_path, *BOARD, "--cast", "healing salve", "--blocks", "none", "--players", "A,B", "--life", "7")
    assert rc == 0
    case = load_case(out)
    assert [p.life for p in case.players] == [7, 7]
    result = enumerate_outcomes(case, fields=["B.life"])
    # nothing blocks: 8 damage; mode 1 gains 3 (-> 2), mode 2 prevents 3 of it to B (-> 2) or not
    assert sorted(o.values["B.life"] for o in result.outcomes) == [-1, 2]


def test_unknown_name_suggests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out = _new(tmp_path, "--attackers", "Craw Wurn")
    err = capsys.readouterr().err
    assert rc == 2 and not out.exists()
    assert err.count("\n") == 1 and "--attackers" in err and "closest: Craw Wurm" in err


def test_wrong_kind_of_card_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _new(tmp_path, "--attackers", "Lightning Bolt")[0] == 2
    assert "not a creature" in capsys.readouterr().err
    assert _new(tmp_path, "--attackers", "Craw Wurm", "--cast", "Grizzly Bears")[0] == 2
    assert "not an instant or sorcery" in capsys.readouterr().err


def test_existing_file_needs_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "first.yaml"
    out.write_text("mine\n", encoding="utf-8")
    assert _new(tmp_path, *BOARD)[0] == 2
    assert "exists" in capsys.readouterr().err and out.read_text(encoding="utf-8") == "mine\n"
    assert _new(tmp_path, *BOARD, "--force")[0] == 0
    assert load_case(out).id == "first"


def test_a_name_with_a_comma_is_one_card(tmp_path: Path) -> None:
    """"Gisela, Blade of Goldnight" is one name (its pieces joined name a card), quoted in the file;
    a player's name with a space is kept as written. Gisela (5, flying, first strike) doubles
    the damage dealt to her controller's opponents (CR 614.1a): unblocked, 2 x (5 + 6) = 22."""
    rc, out = _new(tmp_path, "--attackers", "Gisela, Blade of Goldnight, Craw Wurm", "--blockers", "Hill Giant",
                   "--players", "you,Opp 2")
    assert rc == 0
    assert 'card: "Gisela, Blade of Goldnight"' in out.read_text(encoding="utf-8")
    case = load_case(out)
    assert [p.id for p in case.permanents] == ["gisela-blade-of-goldnight", "craw-wurm", "hill-giant"]
    lives = {o.values["Opp 2.life"] for o in enumerate_outcomes(case, fields=["Opp 2.life"]).outcomes}
    assert -2 in lives

"""The small frictions of issue 45, each with its test: "did you mean" for an unknown key, a tab
in indentation said, a keyword given for a card's name, keyword actions not listed as keywords,
modal lines' own coverage family, cast: naming "a source of your choice", activate: of a mana
ability (CR 605.1a)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.cli import main
from mtg_outcomes.cli.cards import keyword_abilities
from mtg_outcomes.model import parse_case
from mtg_outcomes.model.carddata import UnknownCard, find
from mtg_outcomes.model.errors import CaseErrors
from mtg_outcomes.model.recognise import family_of, read_text


def _errors(data: dict[str, Any]) -> list[str]:
    with pytest.raises(CaseErrors) as info:
        parse_case(data)
    return [f"{e.path}: {e.reason}" for e in info.value.errors]


def test_unknown_key_says_did_you_mean() -> None:
    assert _errors({"id": "c", "players": [{"name": "A", "lief": 3}]}) == [
        "players[0].lief: unknown key (did you mean life:?)"]
    assert _errors({"id": "c", "players": [{"name": "A"}], "acions": []}) == ["acions: unknown key (did you mean actions:?)"]
    # nothing close: no guess
    assert _errors({"id": "c", "players": [{"name": "A", "zzz": 1}]}) == ["players[0].zzz: unknown key"]


def test_a_tab_in_indentation_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = tmp_path / "tab.yaml"
    case.write_text("id: t\nplayers:\n\t- {name: A}\n", encoding="utf-8")
    assert main(["validate", str(case)]) == 2
    said = capsys.readouterr()
    lines = (said.out + said.err).splitlines()
    assert len(lines) == 1 and "line 3 is indented with a tab" in lines[0]


def test_a_keyword_is_not_a_card(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UnknownCard) as info:
        find("Hexproof")
    assert "'Hexproof' is a keyword ability (CR 702.11)" in str(info.value) and "closest" not in str(info.value)
    assert main(["card", "Hexproof"]) == 2
    assert "keyword ability" in capsys.readouterr().err
    with pytest.raises(UnknownCard, match="closest: Craw Wurm"):  # a misspelt card still gets names
        find("Craw Wurn")


def test_keyword_actions_are_not_listed_as_keywords(capsys: pytest.CaptureFixture[str]) -> None:
    furnace = find("Furnace of Rath").face
    assert "Double" in furnace["keywords"]  # the card data lists the keyword action (701.10)
    assert keyword_abilities(furnace) == []
    assert keyword_abilities(find("Serra Angel").face) == ["Flying", "Vigilance"]
    assert main(["card", "Furnace of Rath"]) == 0
    assert "keywords: -" in capsys.readouterr().out


@pytest.mark.parametrize("line", ["Choose one —", "Choose one or both —", "When ~ enters, choose one —"])
def test_modal_lines_have_their_own_family(line: str) -> None:
    reading = read_text(line, "Test Card", ["instant"]).lines[0]
    assert family_of(reading) == "modal"


REVERSE = {
    "id": "reverse", "players": [{"name": "you"}, {"name": "A"}],
    "battlefield": [{"id": "giant", "name": "Hill Giant", "controller": "A", "types": ["creature"], "power": 3,
                     "toughness": 3},
                    {"id": "ogre", "name": "Ogre", "controller": "A", "types": ["creature"], "power": 2, "toughness": 2}],
    "actions": [{"cast": {"card": "Reverse Damage", "controller": "you", "source": "giant"}},
                {"damage": [{"from": "giant", "to": "you", "amount": 3}, {"from": "ogre", "to": "you", "amount": 2}]}],
}


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_cast_names_the_source_of_your_choice(engine: str) -> None:
    """Reverse Damage on the Giant (615.9: the source chosen as it resolves, given by source:): its
    3 are prevented and gained (you 20 - 2 + 3 = 21); left to choose, the Ogre is a choice too
    (20 - 3 + 2 = 19), and so is Reverse Damage itself, on the stack as it resolves (609.7a: 15)."""
    got = enumerate_outcomes(parse_case(REVERSE), engine=engine, fields=["you.life"])
    assert [o.values["you.life"] for o in got.outcomes] == [21]
    free = {**REVERSE, "actions": [{"cast": {"card": "Reverse Damage", "controller": "you"}}, REVERSE["actions"][1]]}
    got = enumerate_outcomes(parse_case(free), engine=engine, fields=["you.life"])
    assert sorted(o.values["you.life"] for o in got.outcomes) == [15, 19, 21]


def test_cast_source_of_a_spell_without_the_choice_is_an_error() -> None:
    bolt = {**REVERSE, "actions": [{"cast": {"card": "Lightning Bolt", "controller": "you", "target": "A",
                                             "source": "giant"}}]}
    assert _errors(bolt) == ["actions[0].cast.source: Lightning Bolt doesn't choose a source"]


TRANSLATOR = {"id": "translator", "players": [{"name": "you"}, {"name": "A"}],
              "battlefield": [{"id": "translator", "card": "Kozilek's Translator", "controller": "you"}]}


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_activate_of_a_mana_ability_activates_it(engine: str) -> None:
    """CR 605.1a: a mana ability is an activated ability; activate: activates it as tap_for_mana:
    does (the second activation can't be made: once each turn, 602.5b)."""
    fields = ["you.mana", "you.life"]
    by_activate = {**TRANSLATOR, "actions": [{"activate": {"id": "translator"}}, {"activate": {"id": "translator", "ability": 0}}]}
    by_tap = {**TRANSLATOR, "actions": [{"tap_for_mana": "translator"}, {"tap_for_mana": {"id": "translator", "ability": 0}}]}
    got = [o.values for o in enumerate_outcomes(parse_case(by_activate), engine=engine, fields=fields).outcomes]
    assert got == [o.values for o in enumerate_outcomes(parse_case(by_tap), engine=engine, fields=fields).outcomes]
    assert got == [{"you.mana": ("C",), "you.life": 19}]


def test_activate_of_a_mana_ability_takes_no_target() -> None:
    data = {**TRANSLATOR, "actions": [{"activate": {"id": "translator", "target": "A"}}]}
    assert _errors(data) == ["actions[0].activate.target: a mana ability (605.1a) is activated without target: "
                             "(tap_for_mana: takes its choose: and tap:)"]

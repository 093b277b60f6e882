"""``mtg-outcomes schema``: the case file's JSON Schema, generated from the validating models
(model.load.case_schema). Every shipped case validates against it; the structural bad inputs
(unknown keys, wrong types, out-of-range numbers, wrong shapes) are rejected by it."""

from __future__ import annotations

import json

import jsonschema
import pytest
import yaml

from mtg_outcomes.cli import main
from mtg_outcomes.model.load.action_models import ActivateModel, CastModel
from mtg_outcomes.model.load.case_schema import case_json_schema
from mtg_outcomes.model.load.schema import CaseModel, PermanentModel, PlayerModel
from mtg_outcomes.model.yamlio import read_yaml

from ..conftest import ROOT

BAD = ROOT / "tests" / "bad_inputs"
SCHEMA = case_json_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

# the bad inputs whose one problem is the file's shape: the schema must reject each. (The others'
# problems are meanings the second pass reads: a dangling id, a selector, a rule: the schema accepts them.)
STRUCTURAL = (
    "action-is-a-string", "action-two-keys", "activate-negative-x", "blocks-not-choose",
    "broken-attacker-blocked", "choices-not-list", "counters-negative", "damage-combat-not-bool",
    "damage-missing-amount", "damage-not-a-list", "effect-is-a-list", "effect-not-mapping-string",
    "effects-mapping", "empty-players", "enter-negative-x", "enter-x-is-text", "enter-x-not-integer",
    "expect-complete-not-bool", "expect-outcome-is-a-list", "huge-life", "huge-power",
    "id-not-a-string", "life-action-from-number", "life-float", "life-lost-negative",
    "life-not-a-number", "list-instead-of-mapping", "may-unknown-key", "missing-id", "missing-players",
    "negative-marked-damage", "null-top-key", "numeric-top-key", "permanent-is-a-list", "players-17",
    "players-mapping-instead-of-list", "power-string", "scalar-document", "tap-for-mana-negative-ability",
    "tap-for-mana-unknown-key", "unknown-action", "unknown-damage-key", "unknown-expect-key",
    "unknown-format", "unknown-permanent-key", "unknown-player-key", "unknown-top-key",
)


def test_schema_command_prints_the_generated_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == SCHEMA
    jsonschema.Draft202012Validator.check_schema(printed)


def test_schema_is_the_models() -> None:
    """No hand-kept copy: each model's fields are its definition's properties."""
    defs = SCHEMA["$defs"]
    assert set(SCHEMA["properties"]) == set(CaseModel.model_fields)
    assert set(defs["PlayerModel"]["properties"]) == set(PlayerModel.model_fields)
    assert set(defs["PermanentModel"]["properties"]) == set(PermanentModel.model_fields)
    assert set(defs["EnterModel"]["properties"]) == set(PermanentModel.model_fields) | {"x"}
    assert set(defs["ActivateModel"]["properties"]) == set(ActivateModel.model_fields)
    assert set(defs["CastModel"]["properties"]) == set(CastModel.model_fields)
    assert SCHEMA["properties"]["players"]["maxItems"] == 16


def test_every_shipped_case_validates() -> None:
    files = sorted((ROOT / "cases").rglob("*.yaml")) + sorted((ROOT / "examples").rglob("*.yaml"))
    assert len(files) > 300
    bad = {str(f.relative_to(ROOT)): e.message for f in files
           for e in list(VALIDATOR.iter_errors(yaml.safe_load(f.read_text(encoding="utf-8"))))[:1]}
    assert bad == {}


@pytest.mark.parametrize("name", STRUCTURAL)
def test_structural_bad_input_is_rejected(name: str) -> None:
    data = read_yaml(BAD / f"{name}.yaml")
    assert list(VALIDATOR.iter_errors(data)), f"the schema accepts {name}.yaml"


def test_unknown_key_is_underlined_where_it_is() -> None:
    case = {"id": "c", "players": [{"name": "A", "lief": 3}]}
    errors = list(VALIDATOR.iter_errors(case))
    assert [list(e.absolute_path) for e in errors] == [["players", 0]]
    assert "lief" in errors[0].message

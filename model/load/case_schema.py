"""The case file's JSON Schema, generated from the pydantic models that validate it (:mod:`.schema`,
:mod:`.action_models`): an editor's YAML language server completes keys and underlines unknown
keys and wrong types from it (``mtg-outcomes schema``).

It states the file's *shape* only, as the first pass does: what a value means (an amount
expression, a selector, an id that must exist, a card's name) is read by the second pass, so a file
the schema accepts may still be refused by ``mtg-outcomes validate`` (never the other way round:
every shipped case validates, tests/model/test_schema.py). The models validate a top-level list's entries
one at a time (:class:`~model.load.core._Core`), so here each list's items are tied to their model
explicitly; the action forms mirror :meth:`~model.load.actions._Actions.action`.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel

from .action_models import (
    ActivateModel,
    CastModel,
    CombatModel,
    DamageEventModel,
    LifeModel,
    TapForManaModel,
)
from .schema import BIG, CaseModel, ExpectModel, PermanentModel, PlayerModel, SourceModel

__all__ = ["case_json_schema", "ONE_SHOT_KEYS"]

DIALECT = "https://json-schema.org/draft/2020-12/schema"
# the keys that make an action a one-shot (``{deal: 3, to: A}``), as _Actions.action reads them;
# lose_life/gain_life/draw alone are the ``{lose_life: {amount, who}}`` form instead
ONE_SHOT_KEYS = ("deal", "set_life", "put_counters", "remove_counters", "create_tokens", "get_energy", "become_monarch")
ONE_SHOT_WITH_OTHERS = ("lose_life", "gain_life", "draw")
_ACTION = {"$ref": "#/$defs/Action"}
_EMPTY = {"anyOf": [{"type": "null"}, {"type": "object", "maxProperties": 0}]}


class _Defs:
    """The ``$defs`` being gathered: each model once, referenced by its name."""

    def __init__(self) -> None:
        self.defs: dict[str, Any] = {}

    def ref(self, model: type[BaseModel]) -> dict[str, str]:
        name = model.__name__
        if name not in self.defs:
            schema = model.model_json_schema(ref_template="#/$defs/{model}")
            self.defs.update(schema.pop("$defs", {}))
            self.defs[name] = schema
        return {"$ref": f"#/$defs/{name}"}

    def props(self, model: type[BaseModel]) -> dict[str, Any]:
        self.ref(model)
        props: dict[str, Any] = self.defs[model.__name__]["properties"]
        return props


def _one_key(key: str, value: dict[str, Any]) -> dict[str, Any]:
    """An action written as a mapping with exactly this one key."""
    return {"type": "object", "properties": {key: value}, "required": [key], "additionalProperties": False}


def _action(d: _Defs) -> dict[str, Any]:
    """Every form of a timeline action (the loader's ``_Actions.action``)."""
    d.props(ActivateModel)["responses"]["items"] = _ACTION
    d.props(CastModel)["responses"]["items"] = _ACTION
    enter = copy.deepcopy(d.defs[d.ref(PermanentModel)["$ref"].rsplit("/", 1)[1]])
    enter["properties"]["x"] = {"type": "integer", "minimum": 0, "maximum": BIG, "default": 0,
                                "description": "the X paid for the spell that became this permanent (107.3m)"}
    enter["title"] = "EnterModel"
    d.defs["EnterModel"] = enter
    ident = {"type": "string"}
    forms = [
        _one_key("damage", {"type": "array", "minItems": 1, "items": d.ref(DamageEventModel)}),
        _one_key("combat", {"anyOf": [*_EMPTY["anyOf"], d.ref(CombatModel)]}),
        _one_key("activate", d.ref(ActivateModel)),
        _one_key("cast", {"anyOf": [ident, d.ref(CastModel)]}),
        _one_key("create", {"type": "object"}),
        _one_key("lose_life", d.ref(LifeModel)),
        _one_key("gain_life", d.ref(LifeModel)),
        _one_key("enter", {"$ref": "#/$defs/EnterModel"}),
        _one_key("tap_for_mana", {"anyOf": [ident, d.ref(TapForManaModel)]}),
        *(_one_key(k, ident) for k in ("leave", "leave_game", "could_produce")),
        *(_one_key(k, _EMPTY) for k in ("end_step", "upkeep", "declare_attackers")),
        {"type": "object", "properties": {"may": _ACTION, "by": ident}, "required": ["may"],
         "additionalProperties": False},
        # a one-shot: its keys are read by the vocabulary (model.vocab.actions.parse_one_shot)
        {"type": "object", "anyOf": [*({"required": [k]} for k in ONE_SHOT_KEYS),
                                     *({"required": [k], "minProperties": 2} for k in ONE_SHOT_WITH_OTHERS)]},
    ]
    return {"description": "one action of the timeline (a mapping with one action key, or a one-shot)",
            "anyOf": forms}


def case_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a case file, built from the validating models."""
    d = _Defs()
    top = copy.deepcopy(CaseModel.model_json_schema(ref_template="#/$defs/{model}"))
    d.defs.update(top.pop("$defs", {}))
    props = top["properties"]
    props["players"]["items"] = d.ref(PlayerModel)
    props["battlefield"]["items"] = d.ref(PermanentModel)
    props["sources"]["items"] = d.ref(SourceModel)
    props["effects"]["items"] = {"type": "object"}
    props["expect"] = {"anyOf": [d.ref(ExpectModel), {"type": "null"}], "default": None}
    d.defs["Action"] = _action(d)
    props["actions"]["items"] = _ACTION
    top["description"] = ("An mtg-outcomes case file: the situation (players, battlefield, sources, effects), "
                          "the timeline (actions) and what the rules allow (expect). The shape only: "
                          "mtg-outcomes validate reads what each value means.")
    return {"$schema": DIALECT, **top, "title": "mtg-outcomes case file", "$defs": dict(sorted(d.defs.items()))}

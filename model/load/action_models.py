"""The schema of the timeline's actions: one pydantic model per action written as a mapping, like
the players, permanents and sources (:mod:`.schema`). The shape is checked here (unknown keys,
types, ranges, each error with its field path); what a value means (an amount expression, a
selector, a mana type, an id that must exist) is read afterwards by the vocabulary parsers and the
cross-reference checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from .schema import BIG, CHOOSE, _describe, _Strict

__all__ = ["DamageEventModel", "ActivateModel", "LifeModel", "CombatModel", "CastModel", "TapForManaModel",
           "EnterX"]


def _checked(test: Callable[[Any], bool], text: str, got: bool = False) -> BeforeValidator:
    """A field whose every problem is said in one sentence of ours (``got``: with the value)."""

    def check(value: Any) -> Any:
        if not test(value):
            message = text.replace("{got}", _describe(value)) if "{got}" in text else \
                f"{text}, got {_describe(value)}" if got else text
            raise PydanticCustomError("case_value", message.replace("{", "{{").replace("}", "}}"))
        return value

    return BeforeValidator(check)


def _whole(low: int, high: int | None) -> Callable[[Any], bool]:
    return lambda v: (not isinstance(v, bool) and isinstance(v, int) and v >= low
                      and (high is None or v <= high))


# (the Field bounds repeat the check for the JSON Schema, model.load.case_schema; the check says it first)
X = Annotated[int, Field(ge=0, le=BIG), _checked(_whole(0, BIG), f"x must be a whole number from 0 to {BIG}")]


def _x_choice(v: Any) -> bool:
    """A whole number, or ``{min: N, max: M}``: X left to its caster (107.3a) within that range."""
    if _whole(0, BIG)(v):
        return True
    return isinstance(v, dict) and set(v) == {"min", "max"} and _whole(0, BIG)(v["min"]) and _whole(0, BIG)(v["max"]) \
        and v["min"] <= v["max"] and v["max"] - v["min"] < MAX_X_CHOICES


MAX_X_CHOICES = 100  # the values one x: {min, max} may offer (each is a branch)
_X_SCHEMA = {"anyOf": [{"type": "integer", "minimum": 0, "maximum": BIG},
                      {"type": "object", "additionalProperties": False, "required": ["min", "max"],
                       "properties": {"min": {"type": "integer", "minimum": 0, "maximum": BIG},
                                      "max": {"type": "integer", "minimum": 0, "maximum": BIG}}}]}
XChoice = Annotated[Any, WithJsonSchema(_X_SCHEMA), _checked(_x_choice, f"x must be a whole number from 0 to {BIG}, or a mapping of min: and max: (X is "
                                  f"the caster's choice in that range, CR 107.3a; at most {MAX_X_CHOICES} values)")]
EnterX = Annotated[int, Field(ge=0, le=BIG),
                   _checked(_whole(0, BIG), f"x must be a whole number from 0 to {BIG} (the X paid for the spell)")]
Index = Annotated[int, Field(ge=0), _checked(_whole(0, None), "expected the ability's index (0 is the first)")]
Ref = Annotated[str, _checked(lambda v: isinstance(v, str), "expected a player name or permanent id", got=True)]
Flag = Annotated[bool, _checked(lambda v: isinstance(v, bool), "expected true or false", got=True)]


def _id(what: str) -> Any:
    return Annotated[str, _checked(lambda v: isinstance(v, str), f"expected the id of {what}", got=True)]


class DamageEventModel(_Strict):
    """One event of a ``damage:`` batch (120.2): who deals how much to whom, at once."""

    from_: _id("the source dealing the damage") = Field(alias="from")  # type: ignore[valid-type]
    to: Ref
    amount: Any
    combat: Flag = False
    excess_to: Annotated[str, _checked(lambda v: isinstance(v, str), "expected the player or permanent the excess "
                                       "damage is dealt to", got=True)] | None = None


class ActivateModel(_Strict):
    """``activate:`` an activated ability (602): which, X, its target, a chosen source (615.9)."""

    id: _id("the permanent whose ability is activated")  # type: ignore[valid-type]
    ability: Index | None = None
    x: XChoice | None = None  # (not given: an error where X is read, model.load.checks)
    target: Ref | None = None
    source: _id("the chosen source") | None = None  # type: ignore[valid-type]
    responses: list[Any] = []
    cast_exiled: bool | None = None  # (model.vocab.exiled: whether the exiled card is cast)


class LifeModel(_Strict):
    """``lose_life:`` / ``gain_life:`` (119.3): an amount, the players, the source if any."""

    amount: Any
    who: Any = "you"
    from_: _id("the source") | None = Field(default=None, alias="from")  # type: ignore[valid-type]


class CombatModel(_Strict):
    """``combat: {blocks: choose}``: the defending players choose every block (509.1)."""

    blocks: Annotated[str, _checked(lambda v: v == CHOOSE, "blocks: takes only choose (the defending players choose "
                                    "every block, CR 509.1), got {got}; fixed blocks are written as blocking: on the "
                                    "blockers"), Field(json_schema_extra={"const": CHOOSE})]


class CastModel(_Strict):
    """``cast:`` a spell (601): a ``sources:`` entry by id or a real card by name, its target, X."""

    id: _id("the sources: entry cast") | None = None  # type: ignore[valid-type]
    card: Annotated[str, Field(min_length=1, max_length=80)] | None = None
    controller: _id("the player casting the spell") | None = None  # type: ignore[valid-type]
    target: Ref | None = None
    targets: Any = None  # (their meaning is read by the builder: distinct, 601.2c)
    divide: Any = None  # (601.2d: each target at least 1)
    modes: list[Annotated[int, Field(ge=1, le=20)]] | None = None  # a modal spell's modes (700.2a)
    kicked: bool | None = None  # whether the kicker cost was paid (702.33a)
    x: XChoice | None = None  # (not given: an error where X is read, model.load.checks)
    source: _id("the chosen source") | None = None  # type: ignore[valid-type]  # "a source of your choice" (615.9)
    responses: list[Any] = []


class TapForManaModel(_Strict):
    """``tap_for_mana: {id, ability, choose, tap}``: a mana ability activated (605)."""

    id: _id("the permanent whose mana ability is activated")  # type: ignore[valid-type]
    ability: Index | None = None
    choose: Any = None
    tap: _id("the permanent its cost taps") | None = None  # type: ignore[valid-type]

"""The first pass: the pydantic schema of a case file (shape, unknown keys, types, ranges)
and how its errors become one line each, with the field path."""

from __future__ import annotations

import difflib
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import CaseError

BIG = 1_000_000
Count = Annotated[int, Field(ge=0, le=BIG, strict=True)]
Name = Annotated[str, Field(min_length=1, max_length=80)]
PLAYER_FIELDS = ("life", "poison", "life_lost", "life_gained", "cards_drawn", "damage_taken", "lost", "mana", "energy", "monarch")
PERMANENT_FIELDS = ("damage", "dies", "loyalty", "defense", "could_produce", "tapped")
EFFECT_FIELDS = ("remaining",)
TEAM_FIELDS = ("life", "poison")
_ID_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_\-]*$")
CHOOSE = "choose"  # blocking: choose, combat: {blocks: choose}
NO_ONE = "none"  # chosen: none: a permanent whose as-enters choice of a player chose no one (614.12)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


Stat = Annotated[int, Field(ge=-BIG, le=BIG, strict=True)]  # a life total, power or toughness


class PlayerModel(_Strict):
    name: Name
    life: Stat | None = None
    team: int | str | None = None
    life_lost_this_turn: Count = 0
    life_gained_this_turn: Count = 0
    poison: Count = 0
    energy: Count = 0  # energy counters (CR 107.14, 122.1)
    monarch: bool = False  # the monarch designation (CR 724.1): at most one player
    starting_life: Stat | None = None  # the life total the player began the game with (CR 103.4)
    hand: Count | None = None  # cards in hand as the case begins (CR 402.1), when an amount reads it


class _ObjectModel(_Strict):
    """What a permanent and a non-permanent source (a spell, an emblem) both say about themselves."""

    id: Name
    card: Name | None = None
    name: Name | None = None
    controller: Name
    owner: Name | None = None
    oracle: str | None = None
    types: list[str] | None = None
    subtypes: list[str] | None = None
    colors: list[str] | None = None
    keywords: list[str] | None = None
    power: Stat | None = None
    toughness: Stat | None = None
    abilities: list[Any] | None = None


class PermanentModel(_ObjectModel):
    supertypes: list[str] | None = None
    loyalty: Count | None = None
    defense: Count | None = None
    protector: Name | None = None  # a battle's protector (310.5, 310.8a)
    attacking: Name | None = None
    blocking: Name | list[Name] | None = None
    damage: Count = 0
    counters: dict[str, Count] = {}
    tapped: bool = False
    summoning_sick: bool = False
    monstrous: bool = False  # it became monstrous before the case (701.37b)
    attached_to: Name | None = None
    chosen: Name | None = None
    dealt_damage_by: list[Name] = []  # the objects that dealt it damage earlier this turn (120.1)
    # the colour chosen as it entered ("As ~ enters, choose a color", 614.1c)
    chosen_color: Literal["white", "blue", "black", "red", "green"] | None = None


class SourceModel(_ObjectModel):
    """A spell or emblem: no battlefield state."""


class ExpectModel(_Strict):
    complete: bool = False
    outcomes: list[dict[str, Any]] = []


class CaseModel(_Strict):
    """The file's top level. Players, permanents, sources and ``expect:`` are validated one entry
    at a time by the builder (:meth:`_Builder.entry`), so one bad entry doesn't hide the others'
    problems."""

    id: Name
    title: str = ""
    source: str = ""
    format: Literal["standard", "two-headed-giant"] = "standard"
    players: Annotated[list[Any], Field(min_length=1, max_length=16)]
    active: Name | None = None
    battlefield: Annotated[list[Any], Field(max_length=500)] = []
    sources: Annotated[list[Any], Field(max_length=500)] = []
    effects: Annotated[list[Any], Field(max_length=500)] = []
    actions: Annotated[list[Any], Field(max_length=500)] = []
    expect: Any = None
    objective: Any = None
    choices: dict[str, list[Any]] | None = None


# top-level lists every other part refers to: when one of them is the wrong shape (not a list, too
# long, missing) the cross-reference checks would only repeat that problem, so they don't run
_STRUCTURAL = ("players", "battlefield", "sources", "effects", "actions")


def _is_branch(part: Any) -> bool:
    """A union branch's tag in a pydantic error location (``str``, ``constrained-str``,
    ``list[constrained-str]``, ``function-...``): not a key of the file."""
    return isinstance(part, str) and (part in ("str", "int", "bool", "float") or "[" in part
                                      or part.startswith(("function-", "constrained-")))


def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _is_branch(part):
            continue
        else:
            out += f".{part}" if out else str(part)
    return out


_BRANCH_WORDS = {"str": "text", "int": "a whole number", "bool": "true or false", "float": "a number"}


def _branch_word(tag: str) -> str:
    if tag.startswith("list["):
        return "a list"
    if tag.startswith("dict["):
        return "a mapping"
    return _BRANCH_WORDS.get(tag.removeprefix("constrained-"), tag)


def _describe(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def _union_errors(raw: list[Any]) -> tuple[list[Any], dict[str, str]]:
    """A union (``blocking: <id> | [<ids>]``) reports one error per branch. Where a branch's error
    is deeper than the union itself, the value had that branch's shape: keep only those. Where all
    sit at the union, say once what the value may be ("expected text or a list")."""
    at_union: dict[str, list[Any]] = {}
    for err in raw:
        loc = tuple(err["loc"])
        first = next((i for i, part in enumerate(loc) if _is_branch(part)), None)
        if first is not None:
            at_union.setdefault(_loc(loc[:first]), []).append(err)
    drop: set[int] = set()
    merged: dict[str, str] = {}
    for base, errs in at_union.items():
        deeper = [e for e in errs if _loc(tuple(e["loc"])) != base]
        if deeper:
            drop.update(id(e) for e in errs if e not in deeper)
        elif len(errs) > 1:
            words = [_branch_word(next(str(p) for p in e["loc"] if _is_branch(p))) for e in errs]
            merged[base] = f"expected {' or '.join(dict.fromkeys(words))}, got {_describe(errs[0].get('input'))}"
    return [e for e in raw if id(e) not in drop], merged


def _did_you_mean(key: Any, model: type[BaseModel] | None) -> str:
    """``unknown key`` with the model's closest key, if one is close ("lief" -> "life")."""
    if model is None or not isinstance(key, str):
        return "unknown key"
    known = [f.alias or name for name, f in model.model_fields.items()]
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    return f"unknown key (did you mean {close[0]}:?)" if close else "unknown key"


def _pydantic_errors(exc: ValidationError, model: type[BaseModel] | None = None) -> list[CaseError]:
    """Each error one line with its field path; ``model``: the model validated, whose keys an
    unknown key is compared with (a flat model's: its keys are the error's last part)."""
    errors: list[CaseError] = []
    seen: set[str] = set()
    raw, merged = _union_errors(exc.errors())
    for err in raw:
        path = _loc(tuple(err["loc"]))
        if path in seen:
            continue  # (a union's branches, said once)
        seen.add(path)
        if path in merged:
            errors.append(CaseError(path, merged[path]))
            continue
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = _did_you_mean(err["loc"][-1] if len(err["loc"]) == 1 else None, model)
        elif err["type"] in ("dict_type", "model_type", "model_attributes_type"):
            msg = f"expected a mapping, got {_describe(err.get('input'))}"
        elif err["type"] == "list_type":
            msg = f"expected a list, got {_describe(err.get('input'))}"
        elif err["type"] == "too_short":
            msg = f"needs at least {err.get('ctx', {}).get('min_length', 1)} item(s)"
        elif err["type"] == "too_long":
            msg = f"too many items (at most {err.get('ctx', {}).get('max_length')})"
        elif err["type"] == "missing":
            msg = "required field is missing"
        elif msg.startswith("Input should be"):
            msg = "expected " + msg[len("Input should be "):]
            if "input" in err and not isinstance(err["input"], (dict, list)):
                msg += f" (got {_describe(err['input'])})"
            if err["type"] == "int_type" and isinstance(err.get("input"), str) and err["input"].strip().lstrip("+-").isdigit():
                msg += ": write the number without quotes"
        errors.append(CaseError(path, msg))
    return errors

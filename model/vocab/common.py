"""The vocabulary's shared readers: selectors, amounts, counts and flags at their field paths, and the
kinds each part of an ability may name."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import CaseError
from ..expr import ExprError, expr_vars, parse_expr
from ..kinds import ON_PERMANENTS, ActionKind, TriggerEvent
from ..selectors import Selector, SelectorError, SelectorKind, parse_selector
from ..types import (
    MANA_TYPES,
)

TRIGGERS = tuple(t.value for t in TriggerEvent)


# a colour: "whenever a player casts a red spell" (Kor Firewalker; 105.2, the spell's colour as cast)
CAST_SPELLS = ("any", "noncreature", "instant_or_sorcery", "white", "blue", "black", "red", "green")


ONE_SHOT_KINDS = ("deal", "lose_life", "gain_life", "draw", "set_life", "put_counters", "remove_counters", "destroy",
                  "sacrifice", "exile", "return_to_hand", "tap", "untap", "create_tokens", "get_energy", "become_monarch",
                  "fight", "mill", "monstrosity", "return_to_battlefield", "get_poison", "add_mana")


# one-shot actions on permanents whose value names them (model.kinds.ON_PERMANENTS; sacrifice
# takes only self, "sacrifice this creature", 701.21a)
PERMANENT_SHOTS = tuple(sorted(k.value for k in ON_PERMANENTS if k is not ActionKind.SACRIFICE))


EFFECT_FILTERS = ("to", "from", "combat", "next_time", "source_choice", "duration", "then", "shield", "may",
                  "if_you_control", "if_life_at_most", "if_life_at_least", "if_your_turn", "if_attacking", "if_untapped", "mana", "min_amount",
                  "amount")


# filters that only make sense on an effect that modifies a damage event
DAMAGE_ONLY_FILTERS = ("combat", "then", "shield", "source_choice", "next_time")


MANA_EFFECT_KEYS = ("mana", "min_amount", "amount")  # only with replace_mana / multiply_mana


# "you may prevent ...", "you may have ... dealt to ... instead": the effects that may be optional
_MAY_KINDS = ("shield", "prevent", "multiply", "add", "subtract", "cap", "halve", "redirect", "damage_to_counters")


RIDER_KINDS = ("deal", "gain_life", "draw", "lose_life", "put_counters", "remove_counters", "create_tokens")


MAX_AMOUNT = 1_000_000


def sel(value: Any, path: str) -> Selector:
    try:
        return parse_selector(value)
    except SelectorError as exc:
        key = exc.key if not exc.key or exc.key.startswith("[") else f".{exc.key}"
        raise CaseError(f"{path}{key}", str(exc)) from None


def amount(value: Any, path: str, lost_ok: bool = False, that_ok: bool = False) -> Any:
    """An amount; ``life_lost_this_way`` only where ``lost_ok`` (a lose_life action's ``then:``),
    ``that_damage`` only where ``that_ok`` (a prevention effect's ``then:``, 615.5)."""
    try:
        expr = parse_expr(value)
    except ExprError as exc:
        raise CaseError(path, str(exc)) from None
    if not lost_ok and "life_lost_this_way" in expr_vars(expr):
        raise CaseError(path, "life_lost_this_way is read only in the then: of a lose_life action")
    if not that_ok and "that_damage" in expr_vars(expr):
        raise CaseError(path, "that_damage is read only in the then: of a prevention effect (the damage it applied to)")
    return expr


def _mapping(value: Any, path: str, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise CaseError(path, f"expected a mapping ({what}), got {_kind(value)}")
    return value


def _parts(value: list[Any], path: str, what: str, keys: tuple[str, ...]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Each item of a list of mappings (a modal trigger's modes, an ``also:`` list) with its path,
    a key other than ``keys`` an error at that key's path."""
    for k, part in enumerate(value):
        q = f"{path}[{k}]"
        m = _mapping(part, q, what)
        for key in m:
            if key not in keys:
                raise CaseError(f"{q}.{key}", f"unknown key ({what} takes {' and '.join(f'{x}:' for x in keys)})")
        yield q, m


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    return type(value).__name__


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise CaseError(path, f"expected true or false, got {_kind(value)}")
    return value


def _count(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        hint = ": write the number without quotes" if isinstance(value, str) and value.strip().lstrip("+-").isdigit() else ""
        raise CaseError(path, f"expected a whole number, got {_kind(value)}{hint}")
    if value < 0:
        raise CaseError(path, f"must not be negative (got {value})")
    if value > MAX_AMOUNT:
        raise CaseError(path, f"{value} is absurdly large (at most {MAX_AMOUNT})")
    return value


def mana_type(value: Any, path: str) -> str:
    """One type of mana (CR 106.1): W U B R G or C."""
    if value not in MANA_TYPES:
        raise CaseError(path, f"expected one type of mana: {' '.join(MANA_TYPES)} (got {_kind(value)})")
    return str(value)


# counters with rules meaning (122.1) the tool doesn't model, and what to write instead
_COUNTERS_WITH_RULES = {
    "shield": "shield counters protect the permanent from damage and destruction (CR 122.1c): not modelled",
    "loyalty": "putting or removing loyalty counters is not modelled: a planeswalker's loyalty is its loyalty: field (CR 122.1e, 306.5b)",
    "defense": "putting or removing defense counters is not modelled: a battle's defense is its defense: field (CR 122.1g, 310.4b)",
    "poison": "poison counters are a player's (CR 122.1f): players[].poison",
}


def counter_problem(kind: str) -> str | None:
    """Why a permanent's ``counters:`` kind is refused, or None: one whose rules meaning the
    tool would otherwise ignore (122.1): a +X/+Y counter other than +1/+1 and -1/-1 changes
    power and toughness (122.1a), shield counters prevent damage (122.1c), and so on. Kinds
    with no rules meaning here (quest, charge, ...) are kept for abilities that count them."""
    if kind in ("+1/+1", "-1/-1"):
        return None
    if re.fullmatch(r"[+-]\d+/[+-]\d+", kind):
        return f"a {kind} counter changes power and toughness (CR 122.1a); only +1/+1 and -1/-1 counters are modelled"
    return _COUNTERS_WITH_RULES.get(kind.lower())


def _one_counter_kind(value: Any, path: str) -> tuple[str, Any]:
    """``{+1/+1: N}``: one counter kind and its (unparsed) amount."""
    kinds = _mapping(value, path, "a counter kind and amount such as {+1/+1: 1}")
    if len(kinds) != 1:
        raise CaseError(path, "name exactly one counter kind and its amount, e.g. {+1/+1: 1}")
    raw_kind, raw_n = next(iter(kinds.items()))
    return _counter_kind(raw_kind, path), raw_n


def _counter_kind(value: Any, path: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise CaseError(path, f"expected a counter kind such as +1/+1, got {_kind(value)}")
    if (why := counter_problem(value.strip())) is not None:
        raise CaseError(f"{path}.{value.strip()}", why)
    return value.strip()


_READ_KEYS = ("count", "power", "plus", "times")
POWER_OF = ("self", "target", "itself")  # {power: ...}: whose power an amount reads (608.2h)


def action_amount(value: Any, path: str) -> Any:
    """A one-shot action's amount: an :func:`amount`, or one read from the game as the action
    resolves (608.2h): ``{count: <selector>}`` the number of permanents it matches ("equal to the
    number of lands you control"; optionally ``times: N`` and ``plus: N``: "2 plus twice the
    number of ..."), ``{power: self}`` the power of the object the ability is of ("equal to its
    power"; as it last existed if it has left, 608.2h, 113.7a)."""
    if not isinstance(value, Mapping):
        return amount(value, path)
    for key in value:
        if key not in _READ_KEYS:
            raise CaseError(f"{path}.{key}", "unknown key (an amount read from the game is {count: <selector>} "
                            "with times: and plus:, or {power: self})")
    reads = [k for k in ("count", "power") if k in value]
    if len(reads) != 1:
        raise CaseError(path, "an amount read from the game is {count: <selector>} or {power: self}")
    if reads[0] == "power":
        # self: the object the ability is of; target: the ability's target; itself: each object
        # dealing damage to itself (a deal with from: itself)
        if value["power"] not in POWER_OF or set(value) != {"power"}:
            raise CaseError(f"{path}.power", "power: self (the power of the object the ability is of), target (its "
                            "target's) or itself (with from: itself, each recipient's own) is modelled")
        return ("power", value["power"])
    counted = sel(value["count"], f"{path}.count")
    if counted.kind not in (SelectorKind.OBJECTS, SelectorKind.ANY_OF) or any(p.kind != SelectorKind.OBJECTS for p in counted.parts):
        raise CaseError(f"{path}.count", f"count: counts permanents (e.g. lands you control), not {counted}")
    node: Any = ("count", counted)
    if "times" in value:
        node = ("mul", ("int", _count(value["times"], f"{path}.times")), node)
    if "plus" in value:
        node = ("add", ("int", _count(value["plus"], f"{path}.plus")), node)
    return node

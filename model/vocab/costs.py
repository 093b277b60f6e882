"""Costs of abilities (CR 602.1a, 118): tapping and untapping symbols, mana (not tracked), life,
energy, sacrifices, removed counters and loyalty (606.4)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..errors import CaseError
from ..kinds import AbilityKind
from ..selectors import Selector, SelectorKind
from ..types import Ability
from .common import _count, _counter_kind, _mapping, sel

_MANA_SYMBOL = re.compile(r"^(\d+|[WUBRGCXS]|[WUBRG2]/[WUBRGP])$")


def _cost(value: Any, path: str, mana_ability: bool = False) -> tuple[Any, ...]:
    """An ability's cost (602.1a): {T} (107.5), {Q} (107.6), mana symbols (mana isn't tracked),
    ``{pay_life: N}`` (119.4), ``{sacrifice: self}`` (701.21a) and, for activated abilities,
    ``{remove_counters: {+1/+1: 1}}``.
    An ability whose cost can't be paid can't be activated (the solver's ``cost_problem``)."""
    if not isinstance(value, list):
        raise CaseError(path, "expected a list such as [T] or [{remove_counters: {+1/+1: 1}}]")
    out: list[Any] = []
    for i, c in enumerate(value):
        q = f"{path}[{i}]"
        if c in ("T", "Q"):
            out.append(c)
        elif isinstance(c, int) and not isinstance(c, bool) and c >= 0:
            out.append(str(c))
        elif isinstance(c, str) and _MANA_SYMBOL.match(c.strip()):
            out.append(c.strip())
        elif isinstance(c, Mapping) and set(c) == {"pay_life"}:
            out.append(("pay_life", _count(c["pay_life"], f"{q}.pay_life")))
        elif isinstance(c, Mapping) and set(c) == {"pay_energy"}:
            # "Pay {E}{E}": remove that many of its controller's energy counters (107.14)
            out.append(("pay_energy", _count(c["pay_energy"], f"{q}.pay_energy")))
        elif isinstance(c, Mapping) and set(c) == {"sacrifice"}:
            # "Sacrifice this: ...": the permanent is put into its graveyard as the cost is paid (701.21a)
            if c["sacrifice"] != "self":
                out.append(("sacrifice", _sacrificed(c["sacrifice"], f"{q}.sacrifice", mana_ability)))
                continue
            out.append(("sacrifice", "self"))
        elif isinstance(c, Mapping) and set(c) == {"tap"}:
            # "Tap an untapped creature you control" (601.2h): one untapped permanent of its
            # controller's the selector matches, their choice as the cost is paid
            if not mana_ability:
                raise CaseError(f"{q}.tap", "tapping another permanent as a cost is modelled on mana abilities only")
            got = sel(c["tap"], f"{q}.tap")
            if got.kind not in (SelectorKind.OBJECTS, SelectorKind.ANY_OF) or any(p.kind != SelectorKind.OBJECTS for p in got.parts):
                raise CaseError(f"{q}.tap", f"the permanents one of which is tapped (e.g. creatures you control), not {got}")
            out.append(("tap", got))
        elif isinstance(c, Mapping) and set(c) == {"remove_counters"} and not mana_ability:
            kinds = _mapping(c["remove_counters"], f"{q}.remove_counters", "counter kinds and numbers such as {+1/+1: 1}")
            for kind, n in kinds.items():
                name = _counter_kind(kind, f"{q}.remove_counters")
                out.append(("remove_counters", name, _count(n, f"{q}.remove_counters.{name}")))
        elif isinstance(c, Mapping) and set(c) == {"loyalty"} and not mana_ability:
            # a loyalty ability's cost (606.4): put on (+N) or remove (-N, -X) loyalty counters
            out.append(("loyalty", _loyalty_cost(c["loyalty"], f"{q}.loyalty")))
        elif mana_ability:
            raise CaseError(q, "expected T, Q, a mana symbol (2, G, ...), {pay_life: N}, {pay_energy: N}, {sacrifice: self} "
                            "or {tap: <selector>}")
        else:
            raise CaseError(q, "expected T, Q, a mana symbol (4, X, R, ...), {pay_life: N}, {pay_energy: N}, "
                            "{remove_counters: {<kind>: N}}, {loyalty: N} or {sacrifice: self}")
    if "T" in out and "Q" in out:
        raise CaseError(path, "a cost can't both tap ({T}) and untap ({Q}) the permanent")
    if sum(1 for c in out if isinstance(c, tuple) and c[0] == "loyalty") > 1:
        raise CaseError(path, "a loyalty ability has one loyalty cost (606.4)")
    return tuple(out)


def _loyalty_cost(value: Any, path: str) -> int | str:
    """``{loyalty: 2}`` ([+2]), ``{loyalty: -3}`` ([−3]), ``{loyalty: 0}`` ([0]) or ``{loyalty: -X}``
    ([−X], X chosen by the activating player, 107.3, 606.4): the loyalty counters put on or removed."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip() in ("-X", "−X"):
        return "-X"
    raise CaseError(path, "expected a whole number (2 for [+2], -3 for [−3]) or -X")


def _sacrificed(value: Any, path: str, mana_ability: bool) -> Selector:
    """``{sacrifice: creatures}`` ("Sacrifice a creature", 701.21a): one permanent of its
    controller's that the selector matches, their choice as the cost is paid (601.2h)."""
    if mana_ability:
        raise CaseError(path, "a mana ability's cost sacrifices only self (the permanent itself)")
    got = sel(value, path)
    if got.kind not in (SelectorKind.OBJECTS, SelectorKind.ANY_OF) or any(p.kind != SelectorKind.OBJECTS for p in got.parts):
        raise CaseError(path, f"sacrifice: self, or the permanents one of which is sacrificed (e.g. creatures), not {got}")
    return got


def _ward(m: Mapping[str, Any], path: str, text: str) -> Ability:
    """``{ward: [2]}`` / ``{ward: [{pay_life: 2}]}``: "Ward {2}", "Ward—Pay 2 life" (702.21a: whenever
    this permanent becomes the target of a spell or ability an opponent controls, counter that
    spell or ability unless that player pays the cost). The cost is mana symbols (mana isn't
    tracked: always payable) and/or ``{pay_life: N}`` (119.4)."""
    for key in m:
        if key not in ("ward", "text"):
            raise CaseError(f"{path}.{key}", "unknown key (ward: takes its cost, e.g. [2] or [{pay_life: 2}])")
    cost = _cost(m["ward"], f"{path}.ward")
    for i, c in enumerate(cost):
        if c in ("T", "Q") or (isinstance(c, tuple) and c[0] != "pay_life"):
            raise CaseError(f"{path}.ward[{i}]", "a ward cost is mana symbols and/or {pay_life: N} (the targeting player pays it, 702.21a)")
    if not cost:
        raise CaseError(f"{path}.ward", "expected a cost such as [2] or [{pay_life: 2}]")
    return Ability(AbilityKind.WARD, cost=cost, text=text)


def _cast_cost(m: Mapping[str, Any], path: str, text: str) -> Ability:
    """``{cast_cost: [{sacrifice: creatures}]}``: "As an additional cost to cast this spell, sacrifice
    a creature." (601.2b), paid as the spell is cast (601.2h): ``{sacrifice: <permanents>}`` (one of
    the caster's, their choice, 701.21a), ``{pay_life: N}`` (119.4), ``{return_to_hand: <permanents>}``
    ("return a land you control to its owner's hand"); mana isn't tracked."""
    if set(m) - {"cast_cost", "text"}:
        raise CaseError(path, "cast_cost takes only its list of costs")
    raw = m["cast_cost"]
    if not isinstance(raw, list) or not raw:
        raise CaseError(f"{path}.cast_cost", "expected a list of costs: {sacrifice: creatures}, {pay_life: N}, {return_to_hand: lands}")
    out: list[Any] = []
    for i, c in enumerate(raw):
        q = f"{path}.cast_cost[{i}]"
        if isinstance(c, Mapping) and set(c) == {"return_to_hand"}:
            got = sel(c["return_to_hand"], f"{q}.return_to_hand")
            if got.kind not in ("objects", "any_of"):
                raise CaseError(f"{q}.return_to_hand", "expected the permanents one of which is returned (lands you control)")
            out.append(("return_to_hand", got))
            continue
        part = _cost([c], q)
        if any(isinstance(p, str) and p in ("T", "Q") for p in part) or ("sacrifice", "self") in part:
            raise CaseError(q, "a spell's cost is {sacrifice: <permanents>}, {pay_life: N}, {return_to_hand: <permanents>} "
                            "or mana (a spell has no {T} and can't sacrifice itself)")
        if any(isinstance(p, tuple) and p[0] not in ("sacrifice", "pay_life") for p in part):
            raise CaseError(q, "a spell's cost is {sacrifice: <permanents>}, {pay_life: N}, {return_to_hand: <permanents>} or mana")
        out.extend(part)
    if sum(1 for p in out if isinstance(p, tuple) and p[0] in ("sacrifice", "return_to_hand")) > 1:
        raise CaseError(f"{path}.cast_cost", "one permanent sacrificed or returned is modelled")
    return Ability(AbilityKind.CAST_COST, cost=tuple(out), text=text)

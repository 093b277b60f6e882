"""Why a permanent could produce what it could (CR 106.7): the ``mana`` command's explanation,
each mana ability with its own types and each order of the mana replacement effects (616.1)."""

from __future__ import annotations

from typing import Any

from mtg_outcomes.model.kinds import CostKind, ManaKind
from mtg_outcomes.model.types import Ability, PermanentSpec

from .costs import cost_problem, summoning_sick
from .mana import (
    _fmt_mana,
    _mana_abilities,
    _productions,
    _replacements,
    _sequences,
    _sorted,
    could_produce_all,
)
from .rules.effects import Instance
from .select import View, matches
from .state import GameState, Table

__all__ = ["why"]

_MAX_LISTED_ORDERS = 24


def _fmt(types: frozenset[str] | set[str] | tuple[str, ...]) -> str:
    return "[" + " ".join(_sorted(frozenset(types))) + "]"


def _ability_text(ab: Ability) -> str:
    if ab.text:
        return ab.text
    cost = ", ".join(_cost_text(c) for c in ab.cost)
    mana = ab.mana
    match mana[0] if mana else None:
        case ManaKind.ANY_TYPE_OF | ManaKind.ANY_COLOR_OF:
            what = f"one mana of any {'type' if mana[0] == ManaKind.ANY_TYPE_OF else 'color'} that {mana[1]} could produce"
        case ManaKind.ANY_COLOR | ManaKind.ANY:
            what = f"one mana of {'any color' if mana[0] == ManaKind.ANY_COLOR else 'any type'}"
        case ManaKind.CHOSEN_COLOR:
            what = "one mana of the chosen color"
        case ManaKind.ONE_OF:
            what = " or ".join("{" + s + "}" for s in mana[1])
        case _:
            what = "".join("{" + s + "}" for s in (mana or ()))
            if ab.amount != 1:
                what = f"{ab.amount} x {what}"
    return f"{cost + ': ' if cost else ''}Add {what}."


def _cost_text(c: Any) -> str:
    """One part of a mana ability's cost, as card text."""
    if isinstance(c, str):
        return "{" + c + "}"
    match c[0]:
        case CostKind.PAY_LIFE:
            return f"pay {c[1]} life"
        case CostKind.PAY_ENERGY:
            return f"pay {c[1]} energy"
        case CostKind.SACRIFICE:
            return "sacrifice it" if c[1] == "self" else f"sacrifice one of {c[1]}"
        case CostKind.TAP:
            return f"tap an untapped one of {c[1]}"
    return str(c)


def _describe(inst: Instance) -> str:
    spec = inst.spec
    what = f"{spec.kind} {spec.value}"
    if spec.mana_amount is not None:
        what += f" amount {spec.mana_amount}"
    if spec.mana is not None:
        what += f", only for {{{spec.mana}}}"
    if spec.min_amount is not None:
        what += f", only for {spec.min_amount}+ mana"
    return f"{inst.name or inst.key} ({what})"


def why(state: GameState, table: Table, pid: str) -> list[str]:
    """Human-readable reasons: each mana ability, its own types, and each replacement order."""
    known = could_produce_all(state, table)
    spec = table.spec_of(state, pid)
    name = spec.name if spec is not None else pid
    abilities = _mana_abilities(state, table, pid)
    lines = [f"{pid} ({name}) could produce {_fmt(known.get(pid, frozenset()))}  (CR 106.7)"]
    if not abilities:
        lines.append("  no mana ability")
        return lines
    perm = state.perm(pid)
    sick = perm is not None and isinstance(spec, PermanentSpec) and summoning_sick(table, perm, state) and \
        any(c in ("T", "Q") for _, ab in abilities for c in ab.cost)
    if sick:
        lines.append("  summoning sick: its {T}/{Q} abilities can't be activated (302.6), but could-produce "
                     "ignores whether costs could be paid (106.7)")
    for j, ab in abilities:
        lines.append(f"  ability {j}: {_ability_text(ab)}")
        problem = cost_problem(state, table, perm, ab.cost) if perm is not None else None
        if problem is not None and not (sick and "302.6" in problem):
            lines.append(f"    can't be activated now: {problem}")
        if ab.mana and ab.mana[0] in (ManaKind.ANY_TYPE_OF, ManaKind.ANY_COLOR_OF):
            perm_ctrl = perm.controller if perm is not None else ""
            refs = [o.id for o in state.perms if o.present and o.id in known
                    and matches(ab.mana[1], o.id, state, table, View(perm_ctrl, pid))]
            seen = ", ".join(f"{r} {_fmt(known[r])}" for r in refs) or "none"
            lines.append(f"    refers to: {seen} (least fixed point)")
        productions = _productions(state, table, pid, ab, known)
        if not productions:
            lines.append("    its type is undefined: it would produce no mana (106.7)")
            continue
        lines.append(f"    by itself: {_fmt(frozenset(s for m in productions for s in m))} x{ab.amount}")
        reps = _replacements(state, table, pid, ab)
        if not reps:
            lines.append("    no applicable mana replacement effects")
            continue
        lines.append("    mana replacement effects (616.1: one at a time, re-checked after each; each once, 614.5): "
                     + ", ".join(_describe(i) for i in reps))
        listed = 0
        for mana in productions:
            for order, out in _sequences(mana, reps):
                if listed >= _MAX_LISTED_ORDERS:
                    break
                listed += 1
                seq = " then ".join(i.name or i.key for i in order) or "none applies"
                skipped = [i.name or i.key for i in reps if i not in order]
                note = f" ({', '.join(skipped)} doesn't apply)" if skipped else ""
                start = f"{_fmt_mana(mana)}: " if len(productions) > 1 else ""
                lines.append(f"    {start}order {seq}: {_fmt(frozenset(out))} x{len(out)}{note}")
        if listed >= _MAX_LISTED_ORDERS:
            lines.append("    ... (more orders)")
    return lines

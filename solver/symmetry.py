"""Interchangeable blockers: creatures whose chosen blocks can be merged without changing any
requested outcome (issue "Rules breadth", blocks as a choice).

Two potential blockers are interchangeable when everything the rules read about them is the same
(the same permanent in all but its id: controller, characteristics, abilities, damage, counters,
block restrictions) and nothing in the case tells them apart: no other part of the file names
either, and no requested field is one of theirs. Then swapping them maps every play of the game
onto a play with the same requested outcome, so of the declarations that differ only by such a
swap (509.1a) one is enough: the one whose blocks, taken in id order, are sorted.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Any

from mtg_outcomes.model.types import Case, CombatAction

__all__ = ["interchangeable_blockers", "canonical"]


def _names(node: Any, ident: str, own: bool = False) -> bool:
    """Whether the raw case data ``node`` names ``ident`` anywhere (its own ``id:`` aside)."""
    if isinstance(node, str):
        return re.search(rf"(?<![A-Za-z0-9_\-]){re.escape(ident)}(?![A-Za-z0-9_\-])", node) is not None
    if isinstance(node, dict):
        return any(_names(v, ident) or (isinstance(k, str) and _names(k, ident))
                   for k, v in node.items() if not (own and k == "id"))
    if isinstance(node, list | tuple):
        return any(_names(x, ident, own=isinstance(x, dict) and x.get("id") == ident) for x in node)
    return False


def _combats(actions: Iterable[Any]) -> int:
    """How many combat actions the timeline has (nested ``may:`` and responses included)."""
    n = 0
    for act in actions:
        if isinstance(act, CombatAction):
            n += 1
        for name in ("action",):
            inner = getattr(act, name, None)
            if inner is not None:
                n += _combats([inner])
        n += _combats(getattr(act, "responses", ()) or ())
    return n


def interchangeable_blockers(case: Case, fields: Iterable[str] | None) -> tuple[tuple[str, ...], ...]:
    """Classes (two or more ids, sorted) of creatures whose blocks may be chosen and that are
    interchangeable for the requested ``fields``; none when every field is requested (``None``:
    each creature's own fields tell them apart)."""
    if fields is None or case.raw is None or _combats(case.actions) != 1:
        return ()  # (two declarations in one play could each need a different swap)
    wanted = list(fields)
    classes: dict[Any, list[str]] = {}
    for spec in case.permanents:
        if "creature" not in spec.types or spec.attacking is not None:
            continue
        if any(f.split(".", 1)[0] == spec.id for f in wanted) or _names(case.raw, spec.id):
            continue
        classes.setdefault(dataclasses.replace(spec, id=""), []).append(spec.id)
    return tuple(tuple(sorted(ids)) for ids in classes.values() if len(ids) > 1)


def canonical(ids: list[str], combo: tuple[str | None, ...], classes: tuple[tuple[str, ...], ...]) -> bool:
    """Whether a block declaration (``combo[i]``: what ``ids[i]`` blocks, None for no block) is the
    representative of its swaps: within each class, the blocks in id order are sorted."""
    at = {b: i for i, b in enumerate(ids)}
    for cls in classes:
        blocks = [combo[at[b]] or "" for b in cls if b in at]
        if blocks != sorted(blocks):
            return False
    return True

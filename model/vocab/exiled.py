"""Two parts of loyalty abilities that act outside the battlefield (CR 606, Chandra, Torch of
Defiance): "Add {R}{R}." as an instruction (``{add_mana: [R, R]}``: not a mana ability, a loyalty
ability never is, 605.1a; the mana goes to its controller's pool as it resolves, 106.4), and "Exile
the top card of your library. You may cast that card. If you don't, ~ deals 2 damage to each
opponent." (``{deal: 2, to: opponents, if_exiled_not_cast: true}``). The library isn't tracked, so
the card is unknown: whether it is cast is the case's to say (``activate: {..., cast_exiled:
false}``, the damage is dealt; ``true``, it isn't, and the spell, if it matters, is the case's next
``cast:``, as it would be put on the stack while the ability resolves, 608.2g, and resolve after).
Never a silent default: without ``cast_exiled:`` such an activation is an error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import CaseError
from ..kinds import ActionKind
from ..selectors import Selector, SelectorKind
from ..types import Ability, OneShot
from .common import _bool, amount

__all__ = ["add_mana", "if_not_cast", "cast_exiled_problem"]

_SYMBOLS = ("W", "U", "B", "R", "G", "C")


def add_mana(m: Mapping[str, Any], path: str) -> OneShot:
    """``{add_mana: [R, R]}``: the mana symbols its controller gets (106.4)."""
    if set(m) != {"add_mana"}:
        raise CaseError(path, "add_mana takes only its symbols ({add_mana: [R, R]}: its controller's, 106.4)")
    raw = m["add_mana"]
    symbols = list(raw) if isinstance(raw, str) else raw
    if not isinstance(symbols, list) or not symbols or any(s not in _SYMBOLS for s in symbols):
        raise CaseError(f"{path}.add_mana", "expected mana symbols W U B R G C, such as [R, R]")
    return OneShot(ActionKind.ADD_MANA, amount(len(symbols), f"{path}.add_mana"), Selector(SelectorKind.YOU),
                   mana=tuple(str(s) for s in symbols))


def if_not_cast(m: Mapping[str, Any], path: str) -> bool:
    if "if_exiled_not_cast" not in m:
        return False
    value = _bool(m["if_exiled_not_cast"], f"{path}.if_exiled_not_cast")
    if not value:
        raise CaseError(f"{path}.if_exiled_not_cast", "if_exiled_not_cast is true or left out")
    return True


def reads_cast_exiled(ab: Ability) -> bool:
    return any(shot is not None and shot.if_not_cast for shot in (ab.action, *ab.more))


def cast_exiled_problem(ab: Ability, given: bool | None, name: str) -> str | None:
    """Why an ``activate:`` of ``ab`` with ``cast_exiled: given`` is refused, or None."""
    if reads_cast_exiled(ab):
        if given is None:
            return (f"{name}'s ability exiles the top card of a library, which isn't tracked: say whether its controller "
                    "casts it (cast_exiled: true or false; CR 601.2, 608.2g)")
        return None
    if given is not None:
        return f"{name}'s ability exiles no card to cast: cast_exiled: would be ignored"
    return None

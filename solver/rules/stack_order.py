"""Putting triggered abilities on the stack (CR 603.3b): the order a player's waiting triggers
are offered in, one definition both engines use.

603.3b: each player, in APNAP order (101.4), puts the triggered abilities they control that are
waiting on the stack in any order they choose. The choice is a decision of the choice graph
(solver.triggers.place_triggers), one option per distinct waiting trigger, and a CP witness names
the same options (solver.cp.witness), so both read the triggers in :func:`stack_order`'s order.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..state import Trigger

__all__ = ["stack_order_key", "stack_order"]


def stack_order_key(t: Trigger) -> tuple[str, int, Any, str]:
    """The order a player's waiting triggers are offered in (603.3b): the one key both engines
    sort by, so a CP witness names the graph engine's options."""
    return (t.source, t.ability, t.values, t.player or "")


def stack_order(waiting: Iterable[Trigger]) -> list[Trigger]:
    """The distinct triggers of ``waiting`` (one player's), in the order they are offered (603.3b):
    identical triggers are one option, whichever of them goes first."""
    return sorted(set(waiting), key=stack_order_key)

"""616.1 for an event that isn't damage (a life gain, a mana production): one rule for both.

The affected player applies one applicable replacement effect of their choice, then the ones
left are checked again (616.1f), each applying at most once to the event (614.5); the damage batch
has its own, richer form of the same step (solver.damage: shields' shares, redirection).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mtg_outcomes.model.kinds import DecisionKind

from .decision import Decision, Option, decide, says
from .rules.effects import Instance, effect_name
from .state import GameState, Table

__all__ = ["apply_one"]


def apply_one(state: GameState, table: Table, who: str, at: str, what: str, value: Any,
              left: Sequence[Instance], apply: Callable[[Instance, Any], Any], show: Callable[[Any], str],
              then: Callable[[Any, str], GameState]) -> GameState | Decision:
    """``who`` picks which of ``left`` applies next to ``value`` (described as ``what``); each
    option continues with ``then(new value, the effect's key)``."""
    first = " first" if len(left) > 1 else ""
    options = []
    for inst in left:
        now = apply(inst, value)
        words = f"{says(who, 'applies')} {effect_name(inst, table, state)}{first} to {what}: {show(value)} becomes {show(now)}"
        options.append(Option(inst.key, words, then(now, inst.key)))
    return decide(who, DecisionKind.ORDER, at, options)

"""Triggers on drawing a card (CR 121.2, 603.2): "Whenever you draw a card, you gain 1 life."
(Sheoldred, the Apocalypse), "Whenever an opponent draws a card, ~ deals 1 damage to that
player." (Underworld Dreams), "Whenever you draw a card, ~ deals 1 damage to any target." (Niv-
Mizzet). One trigger for each card drawn (cards are drawn one at a time, 121.2); "that player" /
"they" is the player who drew it. Only cards drawn during the case count: "your second card each
turn" is not read (the turn's earlier draws aren't known)."""

from __future__ import annotations

import re
from typing import Any

from .base import Built, Ctx, template
from .thatplayer import _that_player
from .triggers import _trigger

_WHO = {"you": None, "a player": "each player", "an opponent": "opponents"}


@template("draw_trigger", r"(?:[a-z]+ — )?whenever (?P<who>you|a player|an opponent) (?:draw|draws) a card, (?P<what>[^:]+\.)",
          "CR 121.2, 603.2")
def _draws(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever you draw a card, you gain 2 life." / "Whenever an opponent draws a card, they lose 2
    life." / "Whenever a player draws a card, ~ deals 1 damage to that player.": a trigger on each
    card the players it names draw (``to:``), "that player" (or "they") the one who drew it."""
    who = m.group("who").lower()
    ab: dict[str, Any] = {"trigger": "draws"}
    if _WHO[who] is not None:
        ab["to"] = _WHO[who]
    what = m.group("what")
    what = re.sub(r"^they lose ", "that player loses ", what, flags=re.IGNORECASE)
    if "that player" in what.lower():
        return None if who == "you" else _that_player(ab, what)
    if re.search(r"\b(?:they|them|their|that card|it)\b", what, re.IGNORECASE):
        return None
    return _trigger(ab, what)

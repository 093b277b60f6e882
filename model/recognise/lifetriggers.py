"""Triggers on a life change (CR 603.2, 119.3, 119.9): "Whenever an opponent loses life, you gain
that much life." (Exquisite Blood), "Whenever you lose life, ...", "Whenever a player gains
life, ...". One trigger per life-loss or life-gain event, reading its ``amount`` ("that much").
Damage dealt to a player is life loss (120.3a), and so is paying life (119.4). A loop of such
triggers (Exquisite Blood with Sanguine Bond) ends when a player loses the game (104.3a, 704.5a)."""

from __future__ import annotations

import re
from typing import Any

from .base import WHO, WHO_TARGET, Built, Ctx, template
from .triggers import _trigger

_WHO = {"you": None, "an opponent": "opponents", "a player": "each player"}
_THAT_MUCH = re.compile(r"^(?:(?P<gain>you gain that much life)|(?P<who>target opponent|target player|each opponent) "
                        r"loses that much life)\.$", re.IGNORECASE)


@template("life_change_trigger", r"whenever (?P<who>you|an opponent|a player) (?P<verb>loses?|gains?) life, (?P<what>[^:]+\.)",
          "CR 603.2, 119.3, 119.9, 120.3a")
def _life_change(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever an opponent loses life, you gain that much life." (Exquisite Blood) / "Whenever a
    player gains life, ...": a trigger on each life-loss (or life-gain) event of the players it
    names, reading the amount lost or gained."""
    who, lose = m.group("who").lower(), m.group("verb").lower().startswith("lose")
    if not lose and who == "you":
        return None  # gain_life_trigger reads "whenever you gain life"
    if (who == "you") != (m.group("verb").lower() in ("lose", "gain")):
        return None  # "you lose" / "an opponent loses"
    ab: dict[str, Any] = {"trigger": "lose_life" if lose else "gain_life"}
    if _WHO[who] is not None:
        ab["to"] = _WHO[who]
    if much := _THAT_MUCH.match(m.group("what")):
        if much.group("gain"):
            ab["do"] = {"gain_life": "amount", "who": "you"}
            return [ab], []
        target = much.group("who").lower()
        ab["do"] = {"lose_life": "amount", "who": WHO[target]}
        if target in WHO_TARGET:
            ab["target"] = WHO_TARGET[target]
        return [ab], []
    if "that much" in m.group("what").lower() or "that player" in m.group("what").lower():
        return None
    return _trigger(ab, m.group("what"))

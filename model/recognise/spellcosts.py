"""An instant's or sorcery's additional cost (CR 601.2b, 601.2h), paid as the case casts it: "As an
additional cost to cast this spell, sacrifice a creature." (Bone Splinters, Fling), "..., pay 3
life.", "..., return a land you control to its owner's hand." (Devour in Flames): the spell's
``{cast_cost: [...]}``. A discard, or cards revealed or exiled from a graveyard, change nothing
computed here and stay ignored (:mod:`.ignores`); any other such cost is not understood."""

from __future__ import annotations

import re
from typing import Any

from .base import cost

_LINE = re.compile(r"^as an additional cost to cast (?:~|this spell), (?P<what>[^.]+)\.$", re.IGNORECASE)
_RETURN = {"return a land you control to its owner's hand": "lands you control",
           "return a creature you control to its owner's hand": "creatures you control"}


def spell_cost(text: str) -> list[dict[str, Any]] | None:
    """``[{cast_cost: [...]}]`` for the line, or None when it isn't one of these costs."""
    m = _LINE.match(text)
    if m is None:
        return None
    what = m.group("what").lower()
    if what in _RETURN:
        return [{"cast_cost": [{"return_to_hand": _RETURN[what]}]}]
    parts = cost(what)
    if not parts or any(not isinstance(p, dict) or set(p) - {"sacrifice", "pay_life"} or p.get("sacrifice") == "self"
                        for p in parts):
        return None
    return [{"cast_cost": parts}]

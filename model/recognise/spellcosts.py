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


# "~ deals damage equal to the sacrificed creature's power to any target." / "You gain life equal to
# the sacrificed creature's toughness.": the creature a cost sacrificed, as it last existed (608.2h,
# 113.7a): the amount sacrificed_power / sacrificed_toughness, read where the cost was paid
_SACRIFICED = re.compile(r"^(?:(?P<deal>(?:~|it) deals damage equal to the sacrificed creature's power to (?P<to>.+))|"
                         r"(?P<gain>you gain life equal to the sacrificed creature's (?P<what>power|toughness)))$")


def sacrificed_amount(low: str, allow_target: bool) -> tuple[dict[str, Any], Any] | None:
    """The one-shot action of such a sentence and its target requirement, or None."""
    from .base import recipient

    m = _SACRIFICED.match(low)
    if m is None:
        return None
    if m.group("gain"):
        return {"gain_life": f"sacrificed_{m.group('what')}", "who": "you"}, None
    rec = recipient(m.group("to"))
    if rec is None or (rec[1] is not None and not allow_target):
        return None
    to, req = rec
    return ({"deal": "sacrificed_power", "to": "any"}, None) if req == "any" and not allow_target else \
        ({"deal": "sacrificed_power", "to": to}, req)

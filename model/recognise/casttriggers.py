"""Triggers on any player's casting a spell, or a spell of a colour (CR 601.2i, 603.2, 105.2):
"Whenever a player casts a red spell, you may gain 1 life." (Kor Firewalker), "Whenever an
opponent casts a noncreature spell, ...", "Whenever you cast a green spell, ...". The trigger
resolves before the spell (it is put on the stack above it); only spells a case casts
(``cast:``) count."""

from __future__ import annotations

import re
from typing import Any

from .base import Built, Ctx, template
from .triggers import _trigger

_WHO = {"a player": "each player", "an opponent": "opponents", "you": None}
_SPELLS = {"a spell": "any", "a noncreature spell": "noncreature", "an instant or sorcery spell": "instant_or_sorcery",
           **{f"a {c} spell": c for c in ("white", "blue", "black", "red", "green")}}


@template("any_player_cast_trigger", r"whenever (?P<who>a player|an opponent|you) casts? (?P<spell>an? [a-z ]+?spell), "
          r"(?P<what>[^:]+\.)", "CR 601.2i, 603.2, 105.2")
def _cast_by(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever a player casts a red spell, you may gain 1 life." (Kor Firewalker): a trigger on
    the casting of a spell by the players it names, of the kind or colour it names."""
    who, spell = m.group("who").lower(), m.group("spell").lower()
    if spell not in _SPELLS or (who == "you") == m.group(0).lower().startswith(f"whenever {who} casts"):
        return None  # "you cast" / "a player casts"
    if who == "you" and _SPELLS[spell] in ("any", "noncreature", "instant_or_sorcery"):
        return None  # cast_trigger reads these
    ab: dict[str, Any] = {"trigger": "cast", "spells": _SPELLS[spell]}
    if _WHO[who] is not None:
        ab["to"] = _WHO[who]
    return _trigger(ab, m.group("what"))

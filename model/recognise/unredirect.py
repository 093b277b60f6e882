"""An instant's or sorcery's closing sentence on the damage it deals to some recipients (CR
615.12, 614.9): "If ~ would deal damage to a creature, that damage can't be prevented or dealt
instead to another permanent or player." (Lava Burst): effects the spell creates before its damage
is dealt, for that damage to the recipients named (``from: self``), read by
:func:`model.recognise.templates.read_line` as the unpreventable tail is."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["TAIL", "tail_effects"]

TAIL = re.compile(r" if ~ would deal damage to (?P<to>a creature|a player|a permanent), that damage can't be prevented"
                  r"(?P<redirect> or dealt instead to another permanent or player)?\.$", re.IGNORECASE)
_TO = {"a creature": "creatures", "a player": "each player", "a permanent": "permanents"}


def tail_effects(m: re.Match[str]) -> list[dict[str, Any]]:
    """The spell's effects for its own damage to those recipients: it can't be prevented (615.12)
    and, with "or dealt instead to another permanent or player", not redirected (614.9)."""
    to = _TO[m.group("to").lower()]
    out: list[dict[str, Any]] = [{"spell": {"cant_be_prevented": True, "from": "self", "to": to, "duration": "turn"}}]
    if m.group("redirect"):
        out.append({"spell": {"cant_be_redirected": True, "from": "self", "to": to, "duration": "turn"}})
    return out

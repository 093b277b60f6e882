"""Damage to a target player and the creatures they control, the planeswalkers' ultimate
("[−8]: ~ deals 10 damage to target player or planeswalker and each creature that player or that
planeswalker's controller controls.", Chandra Nalaar): one source, one batch (120.2), the
creatures read as it resolves (608.2h: the target permanent's controller as it last existed)."""

from __future__ import annotations

import re
from typing import Any

from .base import TARGETS, Built, Ctx, number, spell_or_activated, template

# the target phrase and the words that name its player again
_WHOSE = {
    ("target player", "that player controls"): TARGETS["target player"],
    ("target player", "they control"): TARGETS["target player"],
    ("target opponent", "that player controls"): TARGETS["target opponent"],
    ("target opponent", "they control"): TARGETS["target opponent"],
    ("target player or planeswalker", "that player or that planeswalker's controller controls"): TARGETS["target player or planeswalker"],
    ("target opponent or planeswalker", "that player or that planeswalker's controller controls"):
        TARGETS["target opponent or planeswalker"],
}


@template("player_and_their_creatures", r"(?:(?P<cost>[^:]+): )?~ deals (?P<n>\d+|x) damage to (?P<first>target [a-z ]+?) and "
          r"each (?P<what>creature(?: and planeswalker)?) (?P<whose>that player(?: or that planeswalker's controller)? controls|they control)\.",
          "CR 120.2, 115.1, 608.2h")
def _player_and_creatures(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"~ deals 10 damage to target player and each creature that player controls." (a spell or
    an activated ability, a loyalty ability among them): the target and, at the same time (120.2),
    each creature the target player (or the target planeswalker's controller) controls."""
    req = _WHOSE.get((m.group("first").lower(), m.group("whose").lower()))
    n = number(m.group("n"))
    if req is None or n is None:
        return None
    creatures: Any = {"types": ["creature"], "controller": "target"}
    if m.group("what").lower() != "creature":  # "each creature and planeswalker they control"
        creatures = [creatures, {"types": ["planeswalker"], "controller": "target"}]
    return spell_or_activated(ctx, m.group("cost"), {"deal": n, "to": "target", "also": [{"deal": n, "to": creatures}]}, req)


@template("emblem_static", r"(?P<cost>[^:]+): you get an emblem with \"(?P<inner>[^\"]+)\"", "CR 114.1, 114.4, 611.3a")
def _emblem(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"[−2]: You get an emblem with "Creatures you control get +1/+0."" (Sorin, Lord of
    Innistrad): the emblem's static ability applies to the creatures its owner controls at any time
    (611.3a, 114.4), for the rest of the game. Only a power/toughness change or keywords for a group
    of permanents (the static templates' reading of the quoted sentence) is read."""
    from . import UNDERSTOOD, read_text  # (the quoted text is a line of the emblem's own)

    inner = read_text(m.group("inner"), "emblem", ["enchantment"])
    if len(inner.lines) != 1 or inner.lines[0].status != UNDERSTOOD or len(inner.lines[0].abilities) != 1:
        return None
    ab = inner.lines[0].abilities[0]
    if not isinstance(ab, dict) or set(ab) - {"pt", "grant", "to"} or not isinstance(ab.get("to"), str) \
            or not ab["to"].endswith("you control"):
        return None
    return spell_or_activated(ctx, m.group("cost"), {"emblem": dict(ab)}, None, spell=False)

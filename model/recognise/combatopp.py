"""Triggers on combat damage to an opponent (CR 510.3a, 603.2): "Whenever ~ deals combat damage to
an opponent, ..." is a ``combat_damage_to_player`` trigger with ``to: opponents`` (combat damage
redirected to a player who isn't an opponent doesn't trigger it), and "it deals that much damage
to target planeswalker that player controls" (Questing Beast) targets among the permanents of the
player dealt the damage (the trigger's "that player", chosen as it is put on the stack, 603.3d)."""

from __future__ import annotations

import re
from typing import Any

from .base import Built, Ctx, template
from .triggers import _trigger

_RULE = "CR 510.3a, 603.2, 603.3d"
_WATCHED = {"~": None, "a creature you control": "creatures you control", "another creature you control":
            "other creatures you control", "enchanted creature": "enchanted creature", "equipped creature": "equipped creature"}
_WHO = r"(?P<who>~|a creature you control|another creature you control|enchanted creature|equipped creature)"
_TO = {"an opponent": "opponents", "a player": "each player"}
_THEIRS = {"creature": "creatures that player controls", "planeswalker": "planeswalkers that player controls",
           "creature or planeswalker": ["creatures that player controls", "planeswalkers that player controls"]}


def _watch(m: re.Match[str], to: str) -> dict[str, Any]:
    ab: dict[str, Any] = {"trigger": "combat_damage_to_player", "to": _TO[to]}
    watched = _WATCHED[m.group("who").lower()]
    if watched is not None:
        ab["from"] = watched
    return ab


@template("combat_damage_that_much_to_theirs", rf"whenever {_WHO} deals combat damage to (?P<to>an opponent|a player), "
          r"(?P<may>it deals|you may have it deal) (?P<n>that much|\d+) damage to target (?P<kind>creature or planeswalker|"
          r"creature|planeswalker) that player controls\.", _RULE)
def _that_much_to_theirs(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever ~ deals combat damage to an opponent, it deals that much damage to target
    planeswalker that player controls." (Questing Beast) / "Whenever ~ deals combat damage to a
    player, you may have it deal 2 damage to target creature that player controls.": damage (that
    much: the combat damage dealt to that player, 510.3a) dealt by the trigger's source to a
    permanent of theirs."""
    if m.group("who") != "~":
        return None  # ("it" is the creature that dealt the damage only for ~'s own trigger)
    ab = _watch(m, m.group("to").lower())
    amount = "damage_dealt" if m.group("n").lower() == "that much" else int(m.group("n"))
    shot: dict[str, object] = {"deal": amount, "to": "target"}
    do = {"may": shot} if m.group("may").lower().startswith("you may") else shot
    return [{**ab, "do": do, "target": _THEIRS[m.group("kind").lower()]}], []


@template("combat_damage_to_opponent_trigger", rf"whenever {_WHO} deals combat damage to an opponent, (?P<what>[^:]+\.)", _RULE)
def _to_opponent(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever ~ deals combat damage to an opponent, draw a card.": as "to a player", for the
    damage an opponent is dealt (603.2)."""
    return _trigger(_watch(m, "an opponent"), m.group("what"), that_much=True)

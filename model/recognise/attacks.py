"""Attack triggers (CR 508.1m, 508.2a): "Whenever ~ attacks, it deals 1 damage to defending player."
"Whenever a creature you control attacks, you gain 1 life.", "Whenever ~ enters or attacks, ...".
They trigger as attackers are declared: the case's ``declare_attackers: {}`` action (a creature
written ``attacking:`` without it was declared before the case, its triggers over, like an
``enters`` trigger of a permanent already on the battlefield). "Defending player" is the trigger's
``that player`` (506.2)."""

from __future__ import annotations

import re
from typing import Any

from .base import Built, Ctx, template
from .thatplayer import _that_player
from .triggers import _trigger

_WATCHED = {"~": None, "equipped creature": "equipped creature", "enchanted creature": "enchanted creature",
            "a creature you control": "creatures you control", "another creature you control": "other creatures you control"}
# words that name the attacking creature itself: read only when that is the ability's own permanent
_IT = re.compile(r"\b(?:it|its|itself|that creature|they|them)\b", re.IGNORECASE)


def _attack_trigger(ab: dict[str, Any], what: str, own: bool) -> Built | None:
    """``ab`` with the instructions ``what``; "defending player" read as the trigger's "that player"."""
    if not own and _IT.search(what):
        return None  # ("it" would be the attacker, not the Equipment or the watcher)
    low = what.lower()
    if "defending player" in low:
        if "that player" in low or "defending player's" in low:
            return None
        return _that_player(ab, re.sub("defending player", "that player", what, flags=re.IGNORECASE))
    if "that player" in low:
        return None
    return _trigger(ab, what)


@template("attacks_trigger", r"(?:[a-z]+ — )?whenever (?P<who>~|equipped creature|enchanted creature|a creature you control|"
          r"another creature you control) attacks, (?P<what>[^:]+\.)", "CR 508.1m, 508.2a, 603.2")
def _attacks(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever ~ attacks, it gets +1/+0 until end of turn." / "Whenever ~ attacks, each opponent
    loses 1 life." / "Whenever equipped creature attacks, you gain 2 life." / "Whenever a creature
    you control attacks, ...": a trigger on attackers being declared (508.1m), watching its own
    permanent or the creatures it names (``from:``), on the case's ``declare_attackers: {}``."""
    who = m.group("who").lower()
    if who == "~" and "creature" not in ctx["types"]:
        return None
    ab: dict[str, Any] = {"trigger": "attacks"}
    if _WATCHED[who] is not None:
        ab["from"] = _WATCHED[who]
    return _attack_trigger(ab, m.group("what"), who == "~")


@template("you_attack_trigger", r"(?:[a-z]+ — )?whenever you attack, (?P<what>[^:]+\.)", "CR 508.1m, 603.2")
def _you_attack(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever you attack, create a 1/1 white Soldier creature token.": a trigger once as its
    controller declares one or more attackers (508.1m), ``from: you``; with no one attacking creature
    nor one defending player, "it" and "defending player" aren't read."""
    if "defending player" in m.group("what").lower():
        return None
    return _attack_trigger({"trigger": "attacks", "from": "you"}, m.group("what"), False)


@template("enters_or_attacks_trigger", r"whenever ~ enters or attacks, (?P<what>[^:]+\.)", "CR 603.6a, 508.1m, 603.2")
def _enters_or_attacks(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever ~ enters or attacks, it deals 1 damage to any target.": one ability with two trigger
    events (603.2), written as the enters trigger and the attacks trigger with the same instructions."""
    if "creature" not in ctx["types"] or "defending player" in m.group("what").lower():
        return None
    enters = _trigger({"trigger": "enters"}, m.group("what"))
    attacks = _attack_trigger({"trigger": "attacks"}, m.group("what"), True)
    if enters is None or attacks is None:
        return None
    return [*enters[0], *attacks[0]], []

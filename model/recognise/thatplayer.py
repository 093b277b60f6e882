"""Triggers whose instructions name "that player", the player their event names (CR 603.2): the
player who cast the spell ("Whenever an opponent casts a noncreature spell, ~ deals 2 damage to
that player.", 601.2i) and the player whose upkeep or end step it is ("At the beginning of each
opponent's upkeep, ~ deals 1 damage to that player.", 503.1a, 513.1a)."""

from __future__ import annotations

import re
from typing import Any

from .base import Built, Ctx, template
from .casttriggers import _SPELLS
from .damage import ability_body

_WHO = {"a player": "each player", "an opponent": "opponents"}


def _that_player(ab: dict[str, Any], text: str) -> Built | None:
    """``ab`` with the instructions of ``text``, which name "that player": read as if they named
    "each player", then that recipient written ``that player`` (no instruction of the text may
    name each player itself)."""
    low = text.lower()
    if "that player" not in low or "each player" in low or "that player's" in low or "that player controls" in low:
        return None
    got = ability_body(re.sub("that player", "each player", text, flags=re.IGNORECASE))
    if got is None:
        return None
    do, req = got
    shots = do if isinstance(do, list) else [do]
    out = [_rename(shot) for shot in shots]
    if "each player" in repr(out):
        return None  # ("that player and each creature ...": a list of recipients isn't renamed)
    if req is not None:
        ab["target"] = req
    ab["do"] = out if isinstance(do, list) else out[0]
    return [ab], []


def _rename(shot: dict[str, Any]) -> dict[str, Any]:
    """An instruction whose recipients were "each player" now names "that player"."""
    if "may" in shot:
        return {"may": _rename(shot["may"])}
    return {k: ("that player" if k in ("to", "who") and v == "each player" else v) for k, v in shot.items()}


@template("cast_that_player", r"(?:[a-z]+ — )?whenever (?P<who>a player|an opponent) casts (?P<spell>an? [a-z ]+?spell), "
          r"(?P<what>[^:]+\.)", "CR 601.2i, 603.2")
def _cast(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever an opponent casts a noncreature spell, ~ deals 2 damage to that player." / "Whenever
    a player casts a red spell, that player loses 1 life.": a cast trigger (601.2i) whose "that
    player" is the spell's caster."""
    spell = m.group("spell").lower()
    own = re.sub(r"~ deals damage equal to its power", "~", m.group("what"), flags=re.IGNORECASE)  # (its: ~'s)
    if spell not in _SPELLS or re.search(r"\b(?:it|its|itself|that spell)\b", own, re.IGNORECASE):
        return None  # ("it" may be the spell cast, which the vocabulary can't name)
    return _that_player({"trigger": "cast", "spells": _SPELLS[spell], "to": _WHO[m.group("who").lower()]}, m.group("what"))


@template("step_that_player", r"at the beginning of (?P<whose>each player's|each opponent's|each) (?P<step>upkeep|end step), "
          r"(?P<what>[^:]+\.)", "CR 503.1a, 513.1a, 603.2")
def _step(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"At the beginning of each player's upkeep, ~ deals 1 damage to that player." (Copper Tablet)
    / "At the beginning of each opponent's end step, that player loses 1 life.": a beginning-of-step
    trigger whose "that player" is the player whose step it is, the active player."""
    ab: dict[str, Any] = {"trigger": "upkeep" if m.group("step").lower() == "upkeep" else "end_step"}
    if m.group("whose").lower() == "each opponent's":
        ab["turn"] = "opponents"
    return _that_player(ab, m.group("what"))

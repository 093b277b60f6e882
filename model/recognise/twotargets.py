"""Spells with two targets (CR 601.2c: each instance of the word "target" is its own target):
"Target creature you control deals damage equal to its power to target creature you don't
control." (a bite: the first target deals the damage, 120.1) and "~ deals 2 damage to target
creature and 2 damage to target player or planeswalker." (one source, two recipients at once,
120.2). The spell's ``target:`` and ``second_target:``; its actions name ``target`` and ``second
target``; a later sentence without a target ("Draw a card.") is another part of the spell."""

from __future__ import annotations

import re
from typing import Any

from .base import TARGETS, Built, Ctx, number, template

# the second target of a bite: its requirement and whether it is "another" (a different one)
_SECOND: dict[str, tuple[Any, bool]] = {
    **{k: (TARGETS[k], False) for k in (
        "target creature you don't control", "target creature an opponent controls",
        "target creature or planeswalker you don't control", "target creature or planeswalker an opponent controls",
        "target creature with flying", "target player", "target creature or planeswalker")},
    "another target creature": ("creature", True),
}
_FIRST = {"target creature you control": TARGETS["target creature you control"]}


def _rest(text: str | None) -> list[dict[str, Any]] | None:
    """The spell's later sentences as untargeted parts, in order (608.2c), or None."""
    from .damage import action_parts  # (damage reads base, as this module does)

    if not text:
        return []
    parts = action_parts(text)
    if parts is None or any(req is not None for _, req in parts):
        return None
    return [{"spell": action} for action, _ in parts]


def _spell(ctx: Ctx) -> bool:
    return bool({"instant", "sorcery"} & set(ctx["types"]))


@template("spell_bite", r"(?P<first>target [a-z' ]+?) deals damage equal to its power to (?P<second>[a-z' ]+?)\."
          r"(?: (?P<rest>.+))?", "CR 601.2c, 120.1, 608.2h, 608.2b")
def _bite(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Target creature you control deals damage equal to its power to target creature you don't
    control." (Rabid Bite): the first target is the source (120.1), its power read as the spell
    resolves (608.2h); an illegal target is neither dealt damage nor deals it (608.2b)."""
    if not _spell(ctx):
        return None
    first = _FIRST.get(m.group("first").lower())
    second = _SECOND.get(m.group("second").lower())
    rest = _rest(m.group("rest"))
    if first is None or second is None or rest is None:
        return None
    ab: dict[str, Any] = {"spell": {"deal": {"power": "target"}, "from": "target", "to": "second target"},
                          "target": first, "second_target": second[0]}
    if second[1]:
        ab["another"] = True
    return [ab, *rest], []


_RECIPIENTS = {k: TARGETS[k] for k in ("target creature", "target player or planeswalker", "target player",
                                        "target creature or planeswalker", "target planeswalker")}


@template("spell_two_recipients", r"~ deals (?P<n>\d+) damage to (?P<first>target [a-z ]+?) and (?P<m>\d+) damage to "
          r"(?P<second>target [a-z ]+?)\.(?: (?P<rest>.+))?", "CR 601.2c, 120.2")
def _two_recipients(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"~ deals 2 damage to target creature and 2 damage to target player or planeswalker."
    (Lunge): one source, two targets dealt damage at once (120.2); a target illegal as it
    resolves is dealt none, the other still is (608.2b)."""
    if not _spell(ctx):
        return None
    first = _RECIPIENTS.get(m.group("first").lower())
    second = _RECIPIENTS.get(m.group("second").lower())
    rest = _rest(m.group("rest"))
    if first is None or second is None or rest is None or first == second:
        return None
    ab = {"spell": {"deal": number(m.group("n")), "to": "target", "also": [{"deal": number(m.group("m")), "to": "second target"}]},
          "target": first, "second_target": second}
    return [ab, *rest], []

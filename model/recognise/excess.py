"""Excess damage dealt to a creature's controller instead (CR 120.4a): "~ deals 4 damage to target
creature. Excess damage is dealt to that creature's controller instead." (Flame Spill), and Ram
Through's bite, "If the creature you control has trample, excess damage is dealt to that
creature's controller instead." (only then). Lethal damage counts damage already marked and
deathtouch, not prevention or indestructible (120.4a-b; Flame Spill rulings 2020-04-17)."""

from __future__ import annotations

import re
from typing import Any

from .base import Built, Ctx, number, recipient, template
from .twotargets import _FIRST, _SECOND, _spell

_INSTEAD = r"excess damage is dealt to that creature's controller instead\."


@template("spell_excess_to_controller", rf"~ deals (?P<n>\d+|x) damage to (?P<t>target creature[a-z' ]*?)\. {_INSTEAD}",
          "CR 120.4a, 120.4b")
def _flame_spill(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"~ deals 4 damage to target creature. Excess damage is dealt to that creature's controller
    instead." (Flame Spill): lethal damage to the creature, the rest to its controller (120.4a)."""
    rec = recipient(m.group("t"))
    n = number(m.group("n"))
    if not _spell(ctx) or rec is None or rec[0] != "target" or n is None:
        return None
    return [{"spell": {"deal": n, "to": "target", "excess_to_controller": True}, "target": rec[1]}], []


@template("spell_bite_trample_excess", r"(?P<first>target creature you control) deals damage equal to its power to "
          rf"(?P<second>[a-z' ]+?)\. if the creature you control has trample, {_INSTEAD}", "CR 120.1, 120.4a, 601.2c")
def _ram_through(m: re.Match[str], ctx: Ctx) -> Built | None:
    """Ram Through: a bite (the first target deals damage equal to its power to the second, 120.1)
    whose excess beyond lethal goes to the damaged creature's controller if the first has
    trample, checked as it deals the damage (120.4a, 608.2h)."""
    first = _FIRST.get(m.group("first").lower())
    second = _SECOND.get(m.group("second").lower())
    if not _spell(ctx) or first is None or second is None:
        return None
    ab: dict[str, Any] = {"spell": {"deal": {"power": "target"}, "from": "target", "to": "second target",
                                    "excess_to_controller": "trample"}, "target": first, "second_target": second[0]}
    if second[1]:
        ab["another"] = True
    return [ab], []

"""Excess damage dealt to another player instead (CR 120.4a): "~ deals 4 damage to target creature.
Excess damage is dealt to that creature's controller instead." (Flame Spill). The damage beyond
lethal for the creature (damage already marked and deathtouch counted, not indestructible: the
Flame Spill rulings, 2020-04-17) is dealt to its controller, as the damage is dealt."""

from __future__ import annotations

import re

from .base import Built, Ctx, number, template


@template("excess_to_controller", r"~ deals (?P<n>\d+|x) damage to target creature\. excess damage is dealt to that "
          r"creature's controller instead\.", "CR 120.4a, 608.2h")
def _excess(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"~ deals 4 damage to target creature. Excess damage is dealt to that creature's controller
    instead." (Flame Spill): one event to the creature, split at lethal as it is dealt."""
    if not {"instant", "sorcery"} & set(ctx["types"]):
        return None
    return [{"spell": {"deal": number(m.group("n")), "to": "target", "excess_to": "target's controller"},
             "target": "creature"}], []

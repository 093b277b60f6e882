"""A target creature as the source of a spell's damage to a group (CR 120.1, 608.2c, 115.1):
"Target creature you control deals damage equal to its power to each other creature and each
opponent." (Chandra's Ignition): the target deals the damage, its power read as the spell
resolves (608.2h); "each other creature" is every creature but the target; one batch (120.2)."""

from __future__ import annotations

import re

from .base import Built, Ctx, template

_TO = {"each other creature and each opponent": ["other creatures", "opponents"],
       "each other creature": "other creatures", "each opponent": "opponents",
       "each creature your opponents control": "creatures an opponent controls",
       "each creature you don't control": "creatures you don't control"}
_WHO = {"target creature you control": "creatures you control", "target creature": "creature"}


@template("target_deals_to_group", r"(?P<who>target creature you control|target creature) deals damage equal to its power to "
          r"(?P<to>each other creature and each opponent|each other creature|each opponent|each creature your opponents "
          r"control|each creature you don't control)\.", "CR 120.1, 608.2c, 608.2h")
def _target_deals(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Target creature you control deals damage equal to its power to each other creature and
    each opponent." (Chandra's Ignition)."""
    if not {"instant", "sorcery"} & set(ctx["types"]):
        return None
    return [{"spell": {"deal": {"power": "target"}, "from": "target", "to": _TO[m.group("to").lower()]},
             "target": _WHO[m.group("who").lower()]}], []

"""A choice made by another player as a spell resolves (CR 101.4, 608.2d): "~ deals 3 damage to
target creature unless that creature's controller has ~ deal 5 damage to them." (Blazing Salvo):
the creature's controller chooses which of the two deals happens."""

from __future__ import annotations

import re

from .base import Built, Ctx, number, template


@template("deal_unless_controller", r"~ deals (?P<n>\d+) damage to target creature unless that creature's controller "
          r"has ~ deal (?P<m>\d+) damage to them\.", "CR 608.2d, 101.4, 120.1")
def _unless(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"~ deals 3 damage to target creature unless that creature's controller has ~ deal 5 damage
    to them." (Blazing Salvo): one deal or the other, the creature's controller's choice."""
    if not {"instant", "sorcery"} & set(ctx["types"]):
        return None
    return [{"spell": {"deal": number(m.group("n")), "to": "target",
                       "unless": {"deal": number(m.group("m")), "to": "target's controller"}}, "target": "creature"}], []

"""Monstrosity (CR 701.37): "{5}{G}{G}: Monstrosity 3." (701.37a: if this permanent isn't
monstrous, put three +1/+1 counters on it and it becomes monstrous) and "When ~ becomes
monstrous, ..." (701.37b: a trigger on that event; X in it is the monstrosity's X, 701.37c)."""

from __future__ import annotations

import re

from .base import Built, Ctx, number, spell_or_activated, template
from .triggers import _trigger


@template("monstrosity", r"(?P<cost>[^:]+): monstrosity (?P<n>\d+|x)\.", "CR 701.37a, 602.1")
def _monstrosity(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{5}{G}{G}: Monstrosity 3." / "{X}{X}{R}: Monstrosity X.": an activated ability (602.1)."""
    n = number(m.group("n"))
    return None if n is None else spell_or_activated(ctx, m.group("cost"), {"monstrosity": n}, None, spell=False)


@template("becomes_monstrous_trigger", r"when ~ becomes monstrous, (?P<what>[^:]+\.)", "CR 701.37b, 701.37c, 603.2")
def _becomes(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"When ~ becomes monstrous, it deals 4 damage to target creature." (603.2: the event of its
    own monstrosity resolving while it wasn't monstrous)."""
    return _trigger({"trigger": "becomes_monstrous"}, m.group("what"))

"""Static abilities of an attacking creature: those that apply only while it is attacking (CR 506.4, 611.3a):
"~ has first strike as long as it's attacking." → ``{grant: [first strike], to: self,
if_attacking: true}``; "As long as ~ is attacking, it gets +1/+0." → ``{pt: [1, 0], ...}``; and "you may
have ~ assign its combat damage as though it weren't blocked" → ``{as_unblocked: true, to: self}`` (510.1b)."""

from __future__ import annotations

import re
from typing import Any

from .base import Built, Ctx, template
from .pt import keyword_list

_RULE = "CR 506.4, 611.3a, 613.4c, 613.1f"


def _static(ctx: Ctx, effect: dict[str, Any]) -> Built | None:
    if {"instant", "sorcery"} & set(ctx["types"]) or "creature" not in ctx["types"]:
        return None  # a creature's own static ability (an attacking creature, 506.4)
    return [{**effect, "to": "self", "if_attacking": True}], []


@template("has_while_attacking", r"~ has (?P<kws>[a-z ,]+?) as long as it's attacking\.", _RULE)
def _has_while_attacking(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"~ has first strike as long as it's attacking." (Kor Scythemaster, Soltari Lancer)."""
    kws = keyword_list(m.group("kws"))
    return None if kws is None else _static(ctx, {"grant": kws})


@template("gets_while_attacking", r"(?:as long as ~ is attacking, it gets (?P<p>[+-]\d+)/(?P<t>[+-]\d+)|"
          r"~ gets (?P<p2>[+-]\d+)/(?P<t2>[+-]\d+) as long as it's attacking)\.", _RULE)
def _gets_while_attacking(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"As long as ~ is attacking, it gets +2/+0." / "~ gets +1/+0 as long as it's attacking."."""
    p, t = (m.group("p"), m.group("t")) if m.group("p") else (m.group("p2"), m.group("t2"))
    return _static(ctx, {"pt": [int(p), int(t)]})


@template("as_unblocked", r"(?P<who>you may have ~|enchanted creature's controller may have it|equipped creature's "
          r"controller may have it) assign its combat damage as though it weren't blocked\.", "CR 510.1b, 510.1c")
def _as_unblocked(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"You may have ~ assign its combat damage as though it weren't blocked." (Thorn Elemental,
    Lone Wolf) / "Enchanted creature's controller may have it ..." (Indomitable Might): blocked,
    its controller may assign as 510.1b says instead of 510.1c."""
    who = m.group("who").lower()
    if who.startswith("you"):
        if "creature" not in ctx["types"]:
            return None
        return [{"as_unblocked": True, "to": "self"}], []
    if {"instant", "sorcery"} & set(ctx["types"]):
        return None
    return [{"as_unblocked": True, "to": "enchanted creature" if who.startswith("enchanted") else "equipped creature"}], []

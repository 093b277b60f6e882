"""Protection given by an effect (CR 702.16): "Equipped creature gets +2/+2 and has protection from
red and from blue." (a static ability of an Equipment or Aura, 611.3a; Sword of Fire and Ice), "~
gains protection from black until end of turn." / "Target creature gains protection from red until
end of turn." (an effect of a resolving ability or spell, 611.2c). Protection does what the
vocabulary's ``protection:`` does everywhere: damage from those sources is prevented (702.16e),
they can't target (702.16b), block it (702.16f) or stay attached (702.16c). "The color of your
choice" is not read here (no quality the phrase names)."""

from __future__ import annotations

import re
from typing import Any

from .base import TARGETS, Built, Ctx, spell_or_activated, template
from .keywordlines import protection_ability

_PT = r"(?P<p>[+-]\d+)/(?P<t>[+-]\d+)"


def _protection(phrase: str, to: Any) -> dict[str, Any] | None:
    """``{protection: {from: ...}, to: <to>}`` for "protection from red and from blue", or None."""
    got = protection_ability(phrase)
    return None if got is None else {**got, "to": to}


@template("protection_static", rf"(?P<who>equipped creature|enchanted creature) (?:gets? {_PT} and )?has (?P<prot>protection from [^.]+)\.",
          "CR 702.16, 611.3a, 613.4c")
def _static(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Equipped creature gets +2/+2 and has protection from red and from blue." (Sword of Fire and
    Ice) / "Enchanted creature has protection from black.": a static ability giving the creature it
    names, at each moment, the power and toughness (613.4c) and protection from those qualities
    (702.16a): two effects of one ability."""
    if {"instant", "sorcery"} & set(ctx["types"]):
        return None
    who = m.group("who").lower()
    prot = _protection(m.group("prot"), who)
    if prot is None:
        return None
    out: list[Any] = []
    if m.group("p"):
        out.append({"pt": [int(m.group("p")), int(m.group("t"))], "to": who})
    return [*out, prot], []


_WHO = {"~": "self", "target creature": "target", "target creature you control": "target",
        "target creature an opponent controls": "target", "target creature you don't control": "target"}


@template("protection_until_end_of_turn", r"(?:(?P<cost>[^:]+): )?(?P<who>~|target creature(?: you control| an opponent controls| you don't control)?) "
          r"gains (?P<prot>protection from [^.]+?) until end of turn\.", "CR 702.16, 611.2c, 602.1")
def _eot(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{W}: ~ gains protection from black until end of turn." / "Target creature gains protection
    from red until end of turn." (a spell): an effect for the rest of the turn on the ability's
    permanent or the target, protection from those qualities (702.16a)."""
    who = m.group("who").lower()
    prot = _protection(m.group("prot"), _WHO[who])
    if prot is None:
        return None
    req = TARGETS[who] if who != "~" else None
    return spell_or_activated(ctx, m.group("cost"), prot, req, spell=who != "~")

"""Static abilities on the creatures in combat with the permanent: "Creatures blocking or blocked
by ~ have lifelink." (Alms Beast), "Creatures blocking ~ get -1/-0." (CR 509.1g, 506.4, 611.3a,
613.4c, 613.1f). They apply while those creatures are blocking it or blocked by it, and end with
combat: at the end of combat every creature is removed from combat (511.3)."""

from __future__ import annotations

import re

from .base import Built, Ctx, template
from .pt import keyword_list

_RELATION = {"blocking or blocked by": ["blocking_it", "blocked_by_it"], "blocked by": ["blocked_by_it"],
             "blocking": ["blocking_it"]}


@template("in_combat_with_it", r"creatures (?P<rel>blocking or blocked by|blocked by|blocking) ~ (?:gets? "
          r"(?P<p>[+-]\d+)/(?P<t>[+-]\d+)|(?:has|have) (?P<kws>[a-z ,]+?))\.", "CR 509.1g, 506.4, 611.3a, 613.4c, 613.1f")
def _in_combat_with_it(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Creatures blocking or blocked by ~ have lifelink." (Alms Beast): a creature's static
    ability giving the creatures in combat with it a keyword (613.1f) or a P/T change (613.4c)."""
    if "creature" not in ctx["types"]:
        return None
    to = {"types": ["creature"], "in_combat": _RELATION[m.group("rel").lower()]}
    if m.group("p"):
        return [{"pt": [int(m.group("p")), int(m.group("t"))], "to": to}], []
    kws = keyword_list(m.group("kws"))
    return None if kws is None else ([{"grant": kws, "to": to}], [])

"""Triggers on other creatures dying, and on this one or another dying (CR 603.6c, 603.10a, 700.4):
"Whenever ~ or another creature dies, target player loses 1 life and you gain 1 life." (Blood
Artist), "Whenever a creature you control dies, ...", "Whenever another creature dies, ...". A
dies trigger with ``from:`` (the creatures it watches), as the look-back rule reads it: the
watchers on the battlefield just before the event, one dying at the same time among them
(603.10a), the creature as it last existed."""

from __future__ import annotations

import re

from .base import Built, Ctx, template
from .triggers import _trigger

# what the trigger watches -> the dies trigger's from: selector ("~ or another creature" is every
# creature, itself included; "another creature" every other one)
WATCHED = {
    "~ or another creature": "creatures",
    "a creature": "creatures",
    "another creature": "other creatures",
    "~ or another creature you control": "creatures you control",
    "a creature you control": "creatures you control",
    "another creature you control": "other creatures you control",
    "a creature an opponent controls": "creatures an opponent controls",
    "a creature your opponents control": "creatures an opponent controls",
    "a creature you don't control": "creatures you don't control",
}
# words naming the creature that died: the trigger's object, which the vocabulary can't name
_IT = re.compile(r"\b(?:it|its|itself|that creature|they|them|their)\b", re.IGNORECASE)
_WHO = "|".join(re.escape(k) for k in sorted(WATCHED, key=len, reverse=True))


@template("dies_watch_trigger", rf"(?:[a-z]+ — )?whenever (?P<who>{_WHO}) (?:dies|is put into a graveyard from the battlefield), "
          r"(?P<what>[^:]+\.)", "CR 603.6c, 603.10a, 700.4")
def _dies_watch(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever ~ or another creature dies, target player loses 1 life and you gain 1 life."
    (Blood Artist) / "Whenever a creature you control dies, each opponent loses 1 life." / "Whenever
    another creature dies, you may gain 1 life.": a dies trigger watching the creatures it names
    (``from:``), itself too when it says so; it looks back in time (603.10a), so it triggers for
    creatures dying at the same time as it."""
    who = m.group("who").lower()
    if "~" in who and "creature" not in ctx["types"]:
        return None  # ("~ or another creature": the card is a creature)
    if _IT.search(m.group("what")):
        return None  # ("it" would be the creature that died, which the vocabulary's self isn't)
    return _trigger({"trigger": "dies", "from": WATCHED[who]}, m.group("what"))

"""One-shot actions met on loyalty lines (CR 606) that the vocabulary already does, read for any
spell or activated ability: a loyalty ability is an activated ability (606.3, 606.4: its cost is
the loyalty symbol, read by :func:`.base.cost`), so it takes the same effects as "{T}: ..." lines;
these phrases extend :func:`.base.one_shot`, which every spell, activation and trigger reads.

* "Put a +1/+1 counter on each creature you control." (Ajani Goldmane's kin): a counter on each
  permanent the group names as it resolves (122.1, 608.2c; "each" doesn't target, 115.10).
* "Put a +1/+1 counter on each Cat you control." (a subtype, 205.3): the permanents of that
  subtype its controller controls.
* "Destroy all lands target player controls." / "Destroy all creatures target opponent controls."
  (Ajani Vengeant's, Angrath's ultimates): the permanents of the target player as it resolves
  (115.1, 608.2h), the same selector as "each creature that player controls" (walkers.py).
* "Destroy all creatures." / "Exile all creatures you don't control." / "Return all creatures to their
  owners' hands." (Elspeth's and Wrath's kin): each permanent of the group at once (701.8a, 406.2,
  400.7), no target (115.10); indestructible ones aren't destroyed (701.8b), regeneration applies.
* "Destroy all creatures with power 4 or greater." (Elspeth, Sun's Champion), "Exile target creature
  with power 4 or greater." (The Wanderer): the permanents by their power as it resolves (208.1,
  608.2h; a target's legality is checked as it is chosen and on resolution, 608.2b).
* "Destroy target nonland permanent." (Vraska the Unseen), "Exile target noncreature permanent an
  opponent controls.", "Untap target permanent.": "non" and a card type (205.4b), a target of a
  destroy, exile, return, tap or untap (701.8a, 406.2, 400.7, 701.26).
* "target tapped creature" / "target untapped creature" (Gideon Jura's "Destroy target tapped
  creature.", Nahiri's "deals X damage to target tapped creature"): a target filter on the
  permanent's tapped status (701.26a, 115.1), read where the shared target tables are (this module
  adds to them as it is imported: model.recognise.templates imports it).
"""

from __future__ import annotations

import re
from typing import Any

from ..subtypes import subtype_of
from .base import _DESTROY_TARGETS, EACH, TARGETS, WHO_TARGET, number

__all__ = ["more_one_shot"]

# the groups of permanents a counter may go on: "each creature you control", "each other creature"...
_ON_EACH = {k: EACH[k] for k in (
    "each creature", "each other creature", "each creature you control", "each other creature you control",
    "each creature your opponents control", "each creature an opponent controls", "each creature you don't control",
    "each creature without flying", "each creature with flying", "each attacking creature", "each blocking creature",
    "each attacking or blocking creature")}


# "all <group>": the permanents a destroy, exile or return acts on (701.8a, 406.2, 400.7)
_ALL = {"all creatures": "creatures", "all other creatures": "other creatures", "all creatures you control": "creatures you control",
        "all creatures you don't control": "creatures you don't control",
        "all creatures your opponents control": "creatures an opponent controls",
        "all creatures an opponent controls": "creatures an opponent controls",
        "all creatures with flying": {"types": ["creature"], "with": ["flying"]},
        "all creatures without flying": {"types": ["creature"], "without": "flying"},
        "all attacking creatures": {"types": ["creature"], "in_combat": ["attacking"]},
        "all tapped creatures": {"types": ["creature"], "tapped": True},
        "all untapped creatures": {"types": ["creature"], "tapped": False},
        "all planeswalkers": "planeswalkers", "all artifacts": "artifacts", "all enchantments": "enchantments",
        "all creatures and planeswalkers": ["creatures", "planeswalkers"],
        "all artifacts and enchantments": ["artifacts", "enchantments"],
        "all artifacts, creatures, and enchantments": ["artifacts", "creatures", "enchantments"],
        "all nonland permanents": {"types": ["permanent"], "not_types": ["land"]},
        "all noncreature permanents": {"types": ["permanent"], "not_types": ["creature"]}}

# 701.26a, 115.1: a target permanent's tapped status is checked as it is chosen and on resolution (608.2b)
_TAPPED_TARGETS = {"target tapped creature": {"types": ["creature"], "tapped": True},
                   "target untapped creature": {"types": ["creature"], "tapped": False},
                   "target tapped creature an opponent controls": {"types": ["creature"], "tapped": True, "controller": "opponents"},
                   "target tapped creature you don't control": {"types": ["creature"], "tapped": True, "controller": "not_you"}}
# 205.4b: "nonland permanent", "noncreature permanent" (a type with "non"); 115.1
_NON = {"nonland": ["land"], "noncreature": ["creature"], "nonartifact": ["artifact"], "nonenchantment": ["enchantment"]}
_WHOSE = {"": None, " an opponent controls": "opponents", " you don't control": "not_you", " you control": "you"}
_NON_TARGETS = {f"target {non} permanent{whose}": {"types": ["permanent"], "not_types": types, **({"controller": c} if c else {})}
                for non, types in _NON.items() for whose, c in _WHOSE.items()}
_NON_TARGETS |= {f"target permanent{whose}": {"types": ["permanent"], **({"controller": c} if c else {})} for whose, c in _WHOSE.items()}
TARGETS.update(_TAPPED_TARGETS)
_DESTROY_TARGETS.update(_TAPPED_TARGETS)
_DESTROY_TARGETS.update(_NON_TARGETS)
# 115.1: a target of one of several card types (701.8a: "Destroy target artifact, creature, or enchantment.")
_DESTROY_TARGETS.update({
    "target artifact, creature, or enchantment": ["artifacts", "creatures", "enchantments"],
    "target creature or enchantment": ["creatures", "enchantments"],
    "target artifact, enchantment, or planeswalker": ["artifacts", "enchantments", "planeswalkers"],
    "target creature or enchantment an opponent controls": ["creatures an opponent controls", "enchantments an opponent controls"],
    "target creature or enchantment you don't control": ["creatures you don't control", "enchantments you don't control"],
})


def _each_subtype(phrase: str) -> Any | None:
    """"each Cat you control" (205.3: a subtype): the permanents of that subtype you control."""
    m = re.fullmatch(r"each ([a-z'-]+) you control", phrase)
    sub = subtype_of(m.group(1)) if m else None
    return {"types": ["permanent"], "subtypes": [sub.capitalize()], "controller": "you"} if sub else None


def more_one_shot(low: str, allow_target: bool) -> tuple[dict[str, Any], Any] | None:
    """The actions of this module for a lower-case clause without its full stop, or None."""
    if m := re.fullmatch(r"put (a|an|one|two|three|four|five|\d+|x) (\+1/\+1|-1/-1) counters? on (each [a-z' ]+)", low):
        n, group = number(m.group(1)), _ON_EACH.get(m.group(3)) or _each_subtype(m.group(3))
        if n is None or group is None:
            return None
        return {"put_counters": {m.group(2): n}, "to": group}, None  # 122.1, 608.2c
    if m := re.fullmatch(r"(destroy|exile) (all creatures|target creature) with power (\d+) or (greater|less)", low):
        group = {"types": ["creature"], "power_at_least" if m.group(4) == "greater" else "power_at_most": int(m.group(3))}
        if m.group(2) == "all creatures":
            return {m.group(1): group}, None  # 701.8a, 406.2, 208.1
        return ({m.group(1): "target"}, group) if allow_target else None  # 115.1, 608.2b
    if (m := re.fullmatch(r"(destroy|exile|tap|untap) (target [a-z']+, [a-z, ']+)", low)) and m.group(2) in _DESTROY_TARGETS:
        # "Destroy target artifact, creature, or enchantment." (a list with commas, 115.1, 701.8a)
        return ({m.group(1): "target"}, _DESTROY_TARGETS[m.group(2)]) if allow_target else None
    if (m := re.fullmatch(r"(destroy|exile) all (creatures|lands|artifacts|enchantments|planeswalkers|nonland permanents|permanents) "
                          r"(target player|target opponent) controls", low)) and allow_target:
        kinds = {"nonland permanents": {"types": ["permanent"], "not_types": ["land"]}}.get(m.group(2), {"types": [m.group(2)[:-1]]})
        return {m.group(1): {**kinds, "controller": "target"}}, WHO_TARGET[m.group(3)]  # 115.1, 608.2h, 701.8a
    if (m := re.fullmatch(r"(destroy|exile) (all [a-z', ]+)", low)) and m.group(2) in _ALL:
        return {m.group(1): _ALL[m.group(2)]}, None  # 701.8a, 406.2: all at once, no target
    if (m := re.fullmatch(r"return (all [a-z' ]+) to their owners' hands", low)) and m.group(1) in _ALL:
        return {"return_to_hand": _ALL[m.group(1)]}, None  # 400.7: each leaves at once, a new object in the hand
    return None

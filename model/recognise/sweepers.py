"""Destroying or exiling every permanent of a group (CR 701.8a, 406.2), and destruction that can't be
regenerated (701.19c): "Destroy all creatures. They can't be regenerated." (Wrath of God), "Exile all
creatures you don't control.", "Destroy target creature. It can't be regenerated." (Terminate).
"Each"/"all" doesn't target (115.10): the group is read as the instruction resolves."""

from __future__ import annotations

import re
from typing import Any

_CREATURES_WITH = {"types": ["creature"]}
# "all <group>" -> the selector of the permanents it destroys or exiles
GROUPS: dict[str, Any] = {
    "all creatures": "creatures",
    "all other creatures": "other creatures",
    "all creatures you control": "creatures you control",
    "all creatures you don't control": "creatures you don't control",
    "all creatures your opponents control": "creatures an opponent controls",
    "all creatures an opponent controls": "creatures an opponent controls",
    "all creatures with flying": {**_CREATURES_WITH, "with": ["flying"]},
    "all creatures without flying": {**_CREATURES_WITH, "without": "flying"},
    "all attacking creatures": {**_CREATURES_WITH, "in_combat": ["attacking"]},
    "all blocking creatures": {**_CREATURES_WITH, "in_combat": ["blocking"]},
    "all artifacts": "artifacts",
    "all enchantments": "enchantments",
    "all planeswalkers": "planeswalkers",
    "all lands": "lands",
    "all artifacts and enchantments": ["artifacts", "enchantments"],
    "all artifacts and creatures": ["artifacts", "creatures"],
    "all creatures and planeswalkers": ["creatures", "planeswalkers"],
    "all artifacts, creatures, and enchantments": ["artifacts", "creatures", "enchantments"],
    "all artifacts, creatures, and lands": ["artifacts", "creatures", "lands"],
}
_ALL = re.compile(r"^(?P<verb>destroy|exile) (?P<what>all [a-z ,']+)$")
# "It can't be regenerated." / "They can't be regenerated." after a destruction (701.19c)
NO_REGENERATE = re.compile(r"^(?:it|they) can't be regenerated\.$", re.IGNORECASE)


def destroy_all(low: str) -> tuple[dict[str, Any], Any] | None:
    """"destroy all creatures" (701.8a) / "exile all creatures you don't control" (406.2): the
    one-shot action on that group, no target (115.10); None for a group not in :data:`GROUPS`."""
    m = _ALL.match(low)
    if m is None or m.group("what") not in GROUPS:
        return None
    return {m.group("verb"): GROUPS[m.group("what")]}, None


def cant_be_regenerated(parts: list[tuple[dict[str, Any], Any]]) -> bool:
    """Mark the destruction just before "It/They can't be regenerated." (701.19c) as one no
    regeneration shield replaces; False when the sentence before isn't a destruction."""
    if not parts or "destroy" not in parts[-1][0] or "cant_be_regenerated" in parts[-1][0]:
        return False
    parts[-1] = ({**parts[-1][0], "cant_be_regenerated": True}, parts[-1][1])
    return True


# "You gain life equal to the life lost this way." after a loss of life (Kokusho, Blood Tithe): the
# lose_life action's rider, reading what it made its players lose (119.3; 0 for a player who can't)
LIFE_LOST_THIS_WAY = re.compile(r"^you gain life equal to the life lost this way\.$", re.IGNORECASE)


def gain_life_lost(parts: list[tuple[dict[str, Any], Any]]) -> bool:
    """Give the life loss just before "You gain life equal to the life lost this way." its
    ``then: {gain_life: life_lost_this_way}``; False when the part before isn't a loss of life."""
    if not parts or "lose_life" not in parts[-1][0] or "then" in parts[-1][0]:
        return False
    parts[-1] = ({**parts[-1][0], "then": {"gain_life": "life_lost_this_way"}}, parts[-1][1])
    return True


# in an instant or sorcery with one creature target, after the instruction on it: "Its controller
# gains life equal to its power." (Swords to Plowshares) / "You gain life equal to its power."
# (Chastise): the target's power as it last existed (608.2h, 113.7a), its controller as it last was
TARGET_POWER_LIFE = re.compile(r"^(?P<who>its controller gains|you gain) life equal to its power\.$", re.IGNORECASE)


def gain_target_power(parts: list[tuple[dict[str, Any], Any]], who: str) -> bool:
    """Append the gain of life equal to the one creature target's power; False unless the parts
    so far have exactly one target, a creature."""
    reqs = [r for _, r in parts if r is not None]
    if len(reqs) != 1 or not _creature_req(reqs[0]):
        return False
    player = "target's controller" if who.lower().startswith("its controller") else "you"
    parts.append(({"gain_life": {"power": "target"}, "who": player}, None))
    return True


def _creature_req(req: Any) -> bool:
    """Is every object the target requirement allows a creature (only creatures have power)?"""
    if isinstance(req, dict):
        return req.get("types") == ["creature"]
    return isinstance(req, str) and req.split()[0] in ("creature", "creatures")

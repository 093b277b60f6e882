"""Poison counters given by an effect (CR 122.1, 704.5c): "Whenever ~ deals combat damage to a
player, that player gets two poison counters." (and Poisonous N, 702.70a, read as a keyword by
:mod:`.keywordlines`): a ``combat_damage_to_player`` trigger whose ``get_poison`` names the player
dealt the damage (510.3a)."""

from __future__ import annotations

import re
from typing import Any

from .base import Built, Ctx, number, template

_WATCHED = {"~": None, "a creature you control": "creatures you control", "enchanted creature": "enchanted creature",
            "equipped creature": "equipped creature"}


@template("damage_poison", r"whenever (?P<who>~|a creature you control|enchanted creature|equipped creature) deals "
          r"(?P<combat>combat )?damage to a player, that player gets (?P<n>a|an|one|two|three|\d+) poison counters?\.",
          "CR 122.1, 510.3a, 603.2, 704.5c")
def _poison(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever ~ deals combat damage to a player, that player gets a poison counter." (Poisonous 1's
    own text) / "Whenever ~ deals damage to a player, that player gets two poison counters." (Marsh
    Viper, Pit Scorpion: any damage, one trigger per player dealt damage, 120.2)."""
    shot = {"get_poison": number(m.group("n")), "who": "that player"}
    ab: dict[str, Any] = {"trigger": "combat_damage_to_player", "do": shot} if m.group("combat") else \
        {"trigger": "deals_damage", "to": "each player", "do": shot}
    watched = _WATCHED[m.group("who").lower()]
    if watched is not None:
        ab["from"] = watched
    return [ab], []


_CANT = {"you": "you", "players": "each player", "your opponents": "opponents"}


@template("cant_get_poison", r"(?P<who>you|players|your opponents) can't get poison counters\.", "CR 122.1, 120.3b, 120.3g")
def _cant_get_poison(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"You can't get poison counters." (Melira, Sylvok Outcast): infect's and toxic's poison and an
    effect's aren't given to those players."""
    if {"instant", "sorcery"} & set(ctx["types"]):
        return None
    return [{"cant_get_poison": _CANT[m.group("who").lower()]}], []

"""Prevention effects: shields, "prevent all", static prevention (CR 615)."""

from __future__ import annotations

import re
from typing import Any

from .base import TARGETS, Built, Ctx, cost, number, spell_or_activated, template

# --- prevention and replacement -------------------------------------------------------------------

_PROT_TO = {"you": "you", "~": "self", "any target": "target", "target creature": "target",
            "target player": "target", "target creature or player": "target",
            "target player or planeswalker": "target", "target creature or planeswalker": "target"}


@template("prevent_next_n", r"(?:(?P<cost>[^:]+): )?prevent the next (?P<n>\d+|X) (?P<combat>combat )?damage that would be dealt to (?P<to>[^.]+?) this turn\.", "CR 615.7")
def _prevent_next(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Prevent the next 3 damage that would be dealt to any target this turn.": a prevention
    shield (615.7), on a spell or an activated ability."""
    to = m.group("to").lower()
    if to not in _PROT_TO:
        return None
    req = TARGETS.get(to)
    effect: dict[str, Any] = {"shield": number(m.group("n")), "to": _PROT_TO[to]}
    if m.group("combat"):
        effect["combat"] = True
    return spell_or_activated(ctx, m.group("cost"), effect, req)


@template("prevent_all_turn", r"(?:(?P<cost>[^:]+): )?prevent all (?P<combat>combat )?damage that would be dealt(?P<by> by| to)? ?(?P<who>you|target creature|target player|target creature or player|any target|~|creatures you control|players)? ?this turn\.", "CR 615.1a")
def _fog(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Prevent all combat damage that would be dealt this turn." (Fog), "Prevent all damage that
    would be dealt to you this turn.", "Prevent all damage that would be dealt by target creature
    this turn.": a prevention effect for the rest of the turn (615.1a), from a spell or an
    activated ability."""
    by, who = (m.group("by") or "").strip(), (m.group("who") or "").lower()
    if bool(by) != bool(who):
        return None
    effect: dict[str, Any] = {"prevent": "all"}
    if m.group("combat"):
        effect["combat"] = True
    req = None
    if who:
        sel = {"you": "you", "~": "self", "creatures you control": "creatures you control", "players": "each player"}.get(who)
        if sel is None:
            sel, req = "target", TARGETS[who]
        effect["to" if by == "to" else "from"] = sel
    effect["duration"] = "turn"
    return spell_or_activated(ctx, m.group("cost"), effect, req)


_STATIC_TO = {"~": "self", "you": "you", "creatures you control": "creatures you control",
              "you and creatures you control": ["you", "creatures you control"],
              "you and permanents you control": ["you", "permanents you control"],
              "you or a permanent you control": ["you", "permanents you control"],
              "a creature you control": "creatures you control",
              "enchanted creature": "enchanted creature", "equipped creature": "equipped creature",
              "a permanent or player": None, "a player or permanent": None,
              "any permanent or player": None,
              "an opponent or a permanent an opponent controls": ["opponents", "permanents an opponent controls"],
              "a creature": "creatures", "a player": "each player", "an opponent": "opponents"}


@template("prevent_all_static", r"prevent all (?P<combat>combat )?damage that would be dealt (?P<by>to|by) (?P<to>~|you|enchanted creature|equipped creature|creatures you control)\.", "CR 615.1a")
def _prevent_static(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Prevent all damage that would be dealt to ~." / "... dealt by enchanted creature.": a
    static prevention effect (615.1a) on damage to it or from it."""
    if {"instant", "sorcery"} & set(ctx["types"]):
        return None
    ab: dict[str, Any] = {"prevent": "all", "to" if m.group("by") == "to" else "from": _STATIC_TO[m.group("to").lower()]}
    if m.group("combat"):
        ab["combat"] = True
    return [ab], []


@template("prevent_to_and_by", r"prevent all (?P<combat>combat )?damage that would be dealt to and dealt by (?P<who>~|enchanted creature|equipped creature)\.", "CR 615.1a")
def _prevent_to_and_by(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Prevent all combat damage that would be dealt to and dealt by ~.": two prevention effects,
    one on the damage it is dealt, one on the damage it deals (615.1a)."""
    if {"instant", "sorcery"} & set(ctx["types"]):
        return None
    who = _STATIC_TO[m.group("who").lower()]
    extra = {"combat": True} if m.group("combat") else {}
    return [{"prevent": "all", "to": who, **extra}, {"prevent": "all", "from": who, **extra}], []


def static_to(phrase: str) -> Any:
    """A static effect's recipients: the table above, or "a <Subtype> creature you control"."""
    low = phrase.lower()
    if low in _STATIC_TO:
        return _STATIC_TO[low]
    if m := re.fullmatch(r"an? ([A-Z][a-z]+) creature you control", phrase):
        return {"controller": "you", "types": ["creature"], "subtypes": [m.group(1)]}
    return "?"


@template("prevent_n_static", r"if (?P<src>a source(?: an opponent controls| you control)?|a (?:white|blue|black|red|green) source) would deal damage to (?P<to>[^,]+), prevent (?P<n>\d+|half) (?:of )?that damage(?P<round>, rounded (?:up|down))?\.", "CR 615.1a")
def _prevent_n(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If a source would deal damage to you, prevent 1 of that damage." / "... prevent half that
    damage, rounded up." (Gisela): a static prevention effect on each damage event (615.1a)."""
    to = static_to(m.group("to"))
    if to in ("?", None) or (m.group("n").lower() == "half") != bool(m.group("round")):
        return None
    n: Any = int(m.group("n")) if m.group("n").isdigit() else ("half_up" if "up" in m.group("round") else "half_down")
    ab: dict[str, Any] = {"prevent": n, "to": to}
    src = m.group("src").lower()
    if src != "a source":
        ab["from"] = src[2:].replace("source", "sources")
    return [ab], []


@template("prevent_next_then_deal", r"(?P<cost>[^:]+): prevent the next (?P<n>\d+|X) damage that would be dealt to you this turn\. if damage is prevented this way, ~ deals that much damage to (?P<to>[^.]+)\.", "CR 615.7, 615.5")
def _archon(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{X}: Prevent the next X damage that would be dealt to you this turn. If damage is prevented
    this way, ~ deals that much damage to target player or planeswalker." (Vengeful Archon): a
    shield (615.7) whose rider acts on the damage it prevented (615.5)."""
    c, req = cost(m.group("cost")), TARGETS.get(m.group("to").lower())
    if c is None or req is None:
        return None
    ab: dict[str, Any] = {"activated": {"shield": number(m.group("n")), "to": "you", "then": {"deal": "prevented", "to": "target"}},
                          "target": req}
    if c:
        ab["cost"] = c
    return [ab], []


@template("circle_of_protection", r"(?P<cost>[^:]+): the next time an? (?P<color>white|blue|black|red|green) source of your choice would deal damage to you this turn, prevent that damage\.", "CR 615.8, 609.7a")
def _cop(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{1}: The next time a red source of your choice would deal damage to you this turn, prevent
    that damage." (the Circles of Protection): a next-time shield (615.8) from a source chosen as
    the effect is created (609.7a)."""
    c = cost(m.group("cost"))
    if c is None:
        return None
    ab: dict[str, Any] = {"activated": {"shield": "all", "next_time": True, "to": "you",
                                        "from": f"{m.group('color').lower()} sources", "source_choice": "chosen_source"}}
    if c:
        ab["cost"] = c
    return [ab], []

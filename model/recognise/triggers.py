"""Triggered abilities whose effect is one action or a few done in order (CR 603): on entering,
dying, casting, combat damage, damage dealt or received, life gained, and the beginning of a step.
Their instructions are read by :func:`.damage.ability_body`, as an activated ability's are."""

from __future__ import annotations

import re
from typing import Any

from .base import WHO, WHO_TARGET, Built, Ctx, template
from .damage import ability_body
from .pt import pt_sentence


def _trigger(ab: dict[str, Any], text: str, that_much: bool = False) -> Built | None:
    """``ab`` (the trigger and its filters) with the ``do:`` and ``target:`` of ``text``: one
    action, several, or an effect for the turn ("~ gets +1/+1 until end of turn", :mod:`.pt`)."""
    got = pt_sentence(text) or ability_body(text, that_much)
    if got is None:
        return None
    do, req = got
    if req is not None:
        ab["target"] = req
    ab["do"] = do
    return [ab], []


_ENTERS = r"when (?:~|this) enters(?: the battlefield)?"


@template("enters_trigger", rf"{_ENTERS}, (?P<what>[^:]+\.)", "CR 603.6a, 603.2, 603.3d")
def _enters(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"When ~ enters, it deals 2 damage to any target." / "..., you gain 3 life.": a triggered
    ability on entering (603.6a); a target is chosen as it's put on the stack (603.3d)."""
    return _trigger({"trigger": "enters"}, m.group("what"))


@template("dies_trigger", r"when ~ (?:dies|is put into a graveyard from the battlefield), (?P<what>[^:]+\.)", "CR 603.6c, 603.10a, 700.4")
def _dies(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"When ~ dies, you gain 2 life." / "..., it deals 1 damage to any target." / "When ~ is put
    into a graveyard from the battlefield, draw a card." (the same event, 700.4): a
    leaves-the-battlefield trigger on its being put into a graveyard from the battlefield (700.4,
    603.6c), which looks back in time (603.10a: its controller and characteristics as it last
    existed; damage "it" deals is dealt by it as it last existed, 113.7a)."""
    return _trigger({"trigger": "dies"}, m.group("what"))


@template("dealt_damage_dies_trigger", r"whenever a creature dealt damage by ~ this turn dies, (?P<what>[^:]+\.)", "CR 603.6c, 603.10a, 120.1")
def _dealt_dies(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever a creature dealt damage by this creature this turn dies, put a +1/+1 counter on
    this creature." (Sengir Vampire): a dies trigger watching the creatures it dealt damage to
    this turn (``from:`` with ``dealt_damage_by: self``), looking back in time (603.10a: it
    triggers even if it dies at the same time)."""
    return _trigger({"trigger": "dies", "from": {"types": ["creature"], "dealt_damage_by": "self"}}, m.group("what"))


_CAST = {"a noncreature spell": "noncreature", "an instant or sorcery spell": "instant_or_sorcery", "a spell": "any"}


@template("cast_trigger", r"(?:[a-z]+ — )?whenever you cast (?P<what_spell>a noncreature spell|an instant or sorcery spell|a spell), (?P<what>[^:]+\.)", "CR 601.2i, 603.2, 207.2c")
def _cast(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever you cast a noncreature spell, ~ deals 1 damage to each opponent." / "Magecraft —
    Whenever you cast an instant or sorcery spell, ...": a trigger on your casting a spell
    (601.2i), which resolves before the spell; only spells a case casts (``cast:``) count."""
    return _trigger({"trigger": "cast", "spells": _CAST[m.group("what_spell").lower()]}, m.group("what"))


_ENTERING_WATCHED = {"another creature you control": "other creatures you control",
                     "a creature you control": "creatures you control",
                     "a land you control": "lands you control",
                     "another creature": "other creatures", "a creature": "creatures"}


@template("enters_watch_trigger", r"(?:[a-z]+ — )?whenever (?P<who>another creature you control|a creature you control|a land you control|another creature|a creature) enters, (?P<what>[^:]+\.)", "CR 603.6a, 603.2, 207.2c")
def _enters_watch(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever another creature you control enters, you gain 1 life." / "Landfall — Whenever
    a land you control enters, ~ gets +2/+2 until end of turn.": a trigger on other permanents
    entering (603.6a), watched by the ``from:`` selector; an ability word ("Landfall") has no
    rules meaning (207.2c)."""
    return _trigger({"trigger": "enters", "from": _ENTERING_WATCHED[m.group("who").lower()]}, m.group("what"))


_WATCHED = {"~": None, "a creature you control": "creatures you control",
            "another creature you control": "other creatures you control",
            "enchanted creature": "enchanted creature", "equipped creature": "equipped creature"}


@template("combat_damage_trigger", r"whenever (?P<who>~|a creature you control|another creature you control|enchanted creature|equipped creature) deals combat damage to a player, (?P<what>[^:]+\.)", "CR 603.2, 510.2")
def _combat_damage(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever ~ deals combat damage to a player, draw a card." / "Whenever a creature you
    control deals combat damage to a player, you may draw a card.": triggers on combat damage
    (510.2) to a player (603.2), by it or by the creatures it watches."""
    ab: dict[str, Any] = {"trigger": "combat_damage_to_player"}
    watched = _WATCHED[m.group("who").lower()]
    if watched is not None:
        ab["from"] = watched
    return _trigger(ab, m.group("what"), that_much=True)


_DEALT_TO = {"an opponent": "opponents", "a player": "each player", "a creature": "creatures",
             "a player or planeswalker": ["each player", "planeswalkers"]}


@template("deals_damage_to_trigger", r"whenever (?P<who>~|enchanted creature|equipped creature) deals (?P<combat>combat )?"
          r"damage to (?P<to>an opponent|a player|a creature), (?P<what>[^:]+\.)", "CR 603.2, 120.2")
def _deals_damage_to(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever enchanted creature deals damage to an opponent, you may draw a card." (Curiosity):
    a ``deals_damage`` trigger with ``to:``, one trigger for each recipient it matches (each is
    its own damage event, 120.2); combat damage to a player has its own trigger
    (``combat_damage_to_player``), so "combat damage to a player" isn't read here."""
    to = m.group("to").lower()
    if m.group("combat") and to != "a creature":
        return None
    ab: dict[str, Any] = {"trigger": "deals_damage", "to": _DEALT_TO[to]}
    if m.group("who").lower() != "~":
        ab["from"] = m.group("who").lower()
    if m.group("combat"):
        ab["combat"] = True
    return _trigger(ab, m.group("what"), that_much=True)


@template("dealt_damage_fling", r"(?:[a-z]+ — )?whenever ~ is dealt damage, it deals that much damage to (?P<to>any target|each opponent)\.", "CR 603.2, 120.3")
def _dealt(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever ~ is dealt damage, it deals that much damage to any target." (Boros Reckoner):
    a trigger on damage dealt to it (603.2) for the amount dealt."""
    to = "any" if m.group("to").lower() == "any target" else "opponents"
    return [{"trigger": "dealt_damage", "do": {"deal": "damage_dealt", "to": to}}], []


@template("dealt_damage_trigger", r"(?:[a-z]+ — )?whenever ~ is dealt damage, (?P<what>[^:]+\.)", "CR 603.2, 120.3")
def _dealt_trigger(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever ~ is dealt damage, you gain that much life." (Spiritual Guardian's kin) and other
    one-shots after it: a trigger on damage dealt to it (603.2), "that much" the damage dealt."""
    if {"instant", "sorcery"} & set(ctx["types"]):
        return None
    return _trigger({"trigger": "dealt_damage"}, m.group("what"), that_much=True)


@template("deals_damage_gain", r"whenever (?P<who>~|enchanted creature|equipped creature) deals (?P<combat>combat )?damage, you gain that much life\.", "CR 603.2, 119.3, 510.2")
def _deals_gain(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever ~ deals damage, you gain that much life." / "Whenever enchanted creature deals
    damage, you gain that much life." (Armadillo Cloak) / "... deals combat damage, ..." (510.2):
    a trigger on its (or its host's) damage (603.2), once per batch it deals damage in."""
    ab: dict[str, Any] = {"trigger": "deals_damage"}
    if m.group("who").lower() != "~":
        ab["from"] = m.group("who").lower()
    if m.group("combat"):
        ab["combat"] = True
    ab["do"] = {"gain_life": "damage_dealt", "who": "you"}
    return [ab], []


@template("end_step_if_gained_trigger", r"at the beginning of (?P<whose>each|your) end step, if you gained "
          r"(?:(?P<n>\d+) or more )?life this turn, (?P<what>[^:]+\.)", "CR 603.6, 513.1a, 603.4")
def _end_step_if_gained(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"At the beginning of your end step, if you gained life this turn, create a Blood token.":
    an end step trigger with an intervening "if" (603.4), checked as the step begins and again as
    it resolves: ``if: {life_gained_at_least: N}`` (1 for "gained life")."""
    ab: dict[str, Any] = {"trigger": "end_step", "if": {"life_gained_at_least": int(m.group("n") or 1)}}
    if m.group("whose").lower() == "your":
        ab["turn"] = "yours"
    return _trigger(ab, m.group("what"))


@template("end_step_trigger", r"at the beginning of (?P<whose>each|your|the) end step, (?P<what>[^:]+\.)", "CR 603.6, 513.1a")
def _end_step(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"At the beginning of your end step, you gain 1 life.": a beginning-of-step trigger (513.1a);
    "At the beginning of the end step, sacrifice ~." (Ball Lightning) triggers at every end step."""
    ab: dict[str, Any] = {"trigger": "end_step"}
    if m.group("whose").lower() == "your":
        ab["turn"] = "yours"
    return _trigger(ab, m.group("what"))


@template("gain_life_trigger", r"whenever you gain life, (?P<what>[^:]+\.)", "CR 603.2, 119.9")
def _gain_trigger(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever you gain life, each opponent loses 1 life.": a trigger on a life gain event (119.9);
    "..., target opponent loses that much life." (Sanguine Bond) reads the life gained, the
    trigger's ``amount`` (one trigger per life-gain event, 119.9)."""
    if much := _THAT_MUCH_LOSS.match(m.group("what")):
        who = much.group("who").lower()
        ab: dict[str, Any] = {"trigger": "gain_life", "do": {"lose_life": "amount", "who": WHO[who]}}
        if who in WHO_TARGET:
            ab["target"] = WHO_TARGET[who]
        return [ab], []
    return _trigger({"trigger": "gain_life"}, m.group("what"))


_THAT_MUCH_LOSS = re.compile(r"^(?P<who>target opponent|target player|each opponent) loses that much life\.$", re.IGNORECASE)


@template("upkeep_trigger", r"at the beginning of (?P<whose>each|your|each opponent's) upkeep, (?P<what>[^:]+\.)", "CR 603.6, 503.1a")
def _upkeep(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"At the beginning of your upkeep, ~ deals 1 damage to you.": a beginning-of-step trigger
    (503.1a), on the case's ``upkeep: {}`` action."""
    ab: dict[str, Any] = {"trigger": "upkeep"}
    whose = m.group("whose").lower()
    if whose != "each":
        ab["turn"] = "yours" if whose == "your" else "opponents"
    return _trigger(ab, m.group("what"))

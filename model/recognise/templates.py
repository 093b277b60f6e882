"""The templates: one entry per Oracle-text template, each citing the rule it relies on.

A template is a regular expression over a whole normalised line (reminder text removed, the card
naming itself written ``~``, see :func:`model.recognise.normalise`) and a builder that returns the
abilities in the case-file vocabulary. Phrases shared by many templates (who is dealt damage, what
an activation costs, a one-shot action) are small tables below; a phrase not in them makes the
template not match, so the line is "not understood" rather than read loosely.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..keywords import EFFECTIVE, NO_EFFECT
from . import IGNORED, NOT_UNDERSTOOD, UNDERSTOOD, Reading

__all__ = ["TEMPLATES", "IGNORES", "BLOCKS_AS_WRITTEN", "read_line", "Template"]

Ctx = Mapping[str, Any]
Built = tuple[list[Any], list[str]]  # abilities, keywords


@dataclass(frozen=True)
class Template:
    name: str
    pattern: re.Pattern[str]
    build: Callable[[re.Match[str], Ctx], Built | None]
    rule: str
    doc: str


TEMPLATES: list[Template] = []


def template(name: str, pattern: str, rule: str) -> Callable[[Callable[[re.Match[str], Ctx], Built | None]], Any]:
    """Register a template: ``pattern`` must match the whole normalised line (case-insensitive);
    the builder may still refuse (return None) when a phrase isn't in the tables."""
    def register(fn: Callable[[re.Match[str], Ctx], Built | None]) -> Callable[[re.Match[str], Ctx], Built | None]:
        TEMPLATES.append(Template(name, re.compile(rf"^{pattern}$", re.IGNORECASE), fn, rule, (fn.__doc__ or "").strip()))
        return fn
    return register


# --- shared phrases -----------------------------------------------------------------------------

N = r"(?P<n>\d+|X)"
# "target ..." phrases: the activated/spell ability's target requirement (CR 115.1, 601.2c)
TARGETS: dict[str, Any] = {
    "any target": "any",
    "target player": "player",
    "target opponent": "opponent",
    "target creature": "creature",
    "target planeswalker": "planeswalker",
    "target creature or player": ["creatures", "each player"],
    "target player or planeswalker": ["each player", "planeswalkers"],
    "target opponent or planeswalker": ["opponents", "planeswalkers"],
    "target creature or planeswalker": ["creatures", "planeswalkers"],
    "target creature an opponent controls": "creatures an opponent controls",
    "target creature you don't control": "creatures an opponent controls",
    "target creature you control": "creatures you control",
}
# "each ..." phrases and other fixed recipients: a selector, no target (CR 115.10: "each" doesn't target)
EACH: dict[str, Any] = {
    "each opponent": "opponents",
    "each player": "each player",
    "you": "you",
    "each creature": "creatures",
    "each other creature": "other creatures",
    "each creature you control": "creatures you control",
    "each creature your opponents control": "creatures an opponent controls",
    "each creature an opponent controls": "creatures an opponent controls",
    "each creature you don't control": "creatures an opponent controls",
    "each planeswalker": "planeswalkers",
    "each creature without flying": {"types": ["creature"], "without": "flying"},
    "each creature and each player": ["creatures", "each player"],
    "each creature and each opponent": ["creatures", "opponents"],
    "each player and each creature": ["each player", "creatures"],
    "each opponent and each creature your opponents control": ["opponents", "creatures an opponent controls"],
    "each creature without flying and each player": ["each player", {"types": ["creature"], "without": "flying"}],
}
WHO = {"you": "you", "each opponent": "opponents", "each player": "each player",
       "target player": "target", "target opponent": "target"}
WHO_TARGET = {"target player": "player", "target opponent": "opponent"}
WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}


def number(raw: str) -> Any:
    raw = raw.strip().lower()
    if raw == "x":
        return "X"
    if raw.isdigit():
        return int(raw)
    return WORDS.get(raw)


_COST_PART = re.compile(r"^(\{[^}]+\})+$")


def mana_cost(text: str) -> list[Any] | None:
    """A mana ability's cost: as :func:`cost`, without counters (the vocabulary's mana abilities
    pay {T}, {Q}, mana and life)."""
    c = cost(text)
    return None if c is None or any(isinstance(p, dict) and "remove_counters" in p for p in c) else c


def cost(text: str) -> list[Any] | None:
    """An activated ability's cost (CR 602.1a): {T} (107.5), {Q} (107.6), mana symbols (107.4),
    "Pay N life" (119.4), "Remove a +1/+1 counter from ~" (122); anything else: None."""
    out: list[Any] = []
    for part in [p.strip() for p in text.split(",")]:
        low = part.lower()
        if _COST_PART.match(part):
            for sym in re.findall(r"\{([^}]+)\}", part):
                s = sym.upper()
                if s in ("T", "Q"):
                    out.append(s)
                elif re.fullmatch(r"\d+|[WUBRGCXS]|[WUBRG2]/[WUBRGP]", s):
                    out.append(int(s) if s.isdigit() else s)
                else:
                    return None
        elif m := re.fullmatch(r"pay (\d+) life", low):
            out.append({"pay_life": int(m.group(1))})
        elif m := re.fullmatch(r"remove (a|one|two|three|\d+) \+1/\+1 counters? from ~", low):
            out.append({"remove_counters": {"+1/+1": number(m.group(1))}})
        else:
            return None
    return out


def recipient(phrase: str) -> tuple[Any, Any] | None:
    """(``to:`` of the deal, the ``target:`` requirement or None) for "any target", "each opponent"..."""
    low = phrase.lower().strip()
    if low in TARGETS:
        return "target", TARGETS[low]
    if low in EACH:
        return EACH[low], None
    return None


def one_shot(phrase: str, allow_target: bool, that_much: bool = False) -> tuple[dict[str, Any], Any] | None:
    """A one-shot action of the vocabulary (``deal``, ``gain_life``, ``lose_life``, ``draw``) and
    its target requirement: "you gain 3 life" (CR 119.3), "each opponent loses 2 life" (119.3),
    "draw a card" (121.1), "~ deals 3 damage to any target" (120.1); "you may ..." is the same
    action made optional (its controller's choice, 603.5). ``that_much``: in a trigger on damage,
    "you gain that much life" / "draw that many cards" read the damage dealt."""
    low = phrase.strip().lower()
    if low.startswith("you may "):
        rest = low[len("you may "):]
        inner = one_shot(rest if rest.startswith(("draw ", "have ")) else "you " + rest, allow_target, that_much)
        if inner is None or inner[1] is not None:
            return None
        return {"may": inner[0]}, None
    if that_much and low in ("you gain that much life", "draw that many cards", "you draw that many cards"):
        return ({"gain_life": "damage_dealt", "who": "you"} if "life" in low else {"draw": "damage_dealt", "who": "you"}), None
    if m := re.fullmatch(r"(?:~|it) deals (\d+|x) damage to (.+)", low):
        rec = recipient(m.group(2))
        if rec is None or (rec[1] is not None and not allow_target and rec[1] != "any"):
            return None
        to, req = rec
        if not allow_target and req == "any":
            return {"deal": number(m.group(1)), "to": "any"}, None
        return {"deal": number(m.group(1)), "to": to}, req
    if m := re.fullmatch(r"(you|each opponent|each player|target player|target opponent) (gain|gains|lose|loses) (\d+|x) life", low):
        who, verb = m.group(1), m.group(2)
        if (verb in ("gain", "lose")) != (who == "you"):
            return None
        if who in WHO_TARGET and not allow_target:
            return None
        kind = "gain_life" if verb.startswith("gain") else "lose_life"
        return {kind: number(m.group(3)), "who": WHO[who]}, WHO_TARGET.get(who)
    if m := re.fullmatch(r"each opponent loses life equal to the life that player lost this turn", low):
        return {"lose_life": "life_lost_this_turn", "who": "opponents"}, None
    if m := re.fullmatch(r"(you draw|draw|target player draws) (a|one|two|three|four|\d+) cards?", low):
        if m.group(1) == "target player draws":
            if not allow_target:
                return None
            return {"draw": number(m.group(2)), "who": "target"}, "player"
        return {"draw": number(m.group(2)), "who": "you"}, None
    return None


# --- keyword lines --------------------------------------------------------------------------------

# keywords and keyword abilities that can't change anything this tool computes
IGNORED_KEYWORDS: dict[str, str] = {
    **{k: f"keyword without effect here: {v}" for k, v in NO_EFFECT.items()},
    "horsemanship": "keyword without effect here: blocks are taken from blocking: as written (CR 702.31)",
    "shadow": "keyword without effect here: blocks are taken from blocking: as written (CR 702.28)",
    "fear": "keyword without effect here: blocks are taken from blocking: as written (CR 702.36)",
    "intimidate": "keyword without effect here: blocks are taken from blocking: as written (CR 702.13)",
    "skulk": "keyword without effect here: blocks are taken from blocking: as written (CR 702.118)",
    "changeling": "keyword without effect here: creature types are given in the data (CR 702.73)",
    "devoid": "keyword without effect here: the card data already gives it no colour (CR 702.114)",
    "partner": "keyword without effect here: a deck-building rule (CR 702.124)",
    "convoke": "keyword without effect here: casting costs aren't modelled (CR 702.51)",
    "delve": "keyword without effect here: casting costs aren't modelled (CR 702.66)",
    "improvise": "keyword without effect here: casting costs aren't modelled (CR 702.126)",
    "split second": "keyword without effect here: the case's actions say what is cast when (CR 702.61)",
}
_COSTED_IGNORED = {
    "equip": "keyword without effect here: what it's attached to is given by attached_to: (CR 702.6)",
    "cycling": "keyword without effect here: an ability of a card in hand (CR 702.29)",
    "basic landcycling": "keyword without effect here: an ability of a card in hand (CR 702.29)",
    "landcycling": "keyword without effect here: an ability of a card in hand (CR 702.29)",
    "plainscycling": "keyword without effect here: an ability of a card in hand (CR 702.29)",
    "islandcycling": "keyword without effect here: an ability of a card in hand (CR 702.29)",
    "swampcycling": "keyword without effect here: an ability of a card in hand (CR 702.29)",
    "mountaincycling": "keyword without effect here: an ability of a card in hand (CR 702.29)",
    "forestcycling": "keyword without effect here: an ability of a card in hand (CR 702.29)",
    "flashback": "keyword without effect here: casting from a graveyard isn't modelled; the spell's effect is the same (CR 702.34)",
}
_ENCHANT = re.compile(r"^enchant (creature|permanent|player|land|artifact|planeswalker|creature you control|"
                      r"creature or planeswalker|artifact or creature|nonland permanent)$")


def _keyword_part(part: str) -> tuple[str, str, str] | None:
    """(status, keyword or "", reason) for one keyword of a keyword line, or None if unknown."""
    low = " ".join(part.lower().split())
    if low in EFFECTIVE and low != "toxic":
        return UNDERSTOOD, low, ""
    if m := re.fullmatch(r"toxic (\d+)", low):
        return UNDERSTOOD, f"toxic {m.group(1)}", ""
    if low in NO_EFFECT:
        return IGNORED, low, IGNORED_KEYWORDS[low]
    if low in IGNORED_KEYWORDS:
        return IGNORED, "", IGNORED_KEYWORDS[low]
    if _ENCHANT.match(low):
        return IGNORED, "", "keyword without effect here: what it's attached to is given by attached_to: (CR 303.4, 702.5)"
    for word, reason in _COSTED_IGNORED.items():
        if low.startswith(word + " ") and re.fullmatch(r"(\{[^}]+\})+", low[len(word) + 1:]):
            return IGNORED, "", reason
    return None


def read_keywords(text: str) -> Reading | None:
    """A line of keywords, "Flying, first strike" (CR 702.1: keywords are abilities; 702.2 deathtouch,
    702.4 double strike, 702.7 first strike, 702.10 haste, 702.11 hexproof, 702.12 indestructible,
    702.15 lifelink, 702.18 shroud, 702.19 trample, 702.80 wither, 702.90 infect, 702.164 toxic).
    Keywords the tool accepts without effect (flying: evasion isn't checked) are kept as facts
    (a selector such as "without flying" reads them) but the line counts as ignored if that is all."""
    parts = [p for p in re.split(r",\s*|;\s*", text.rstrip(".")) if p]
    if not parts:
        return None
    got = [_keyword_part(p) for p in parts]
    if any(g is None for g in got):
        return None
    found = [g for g in got if g is not None]
    kws = tuple(k for _, k, _ in found if k)
    reasons = "; ".join(f"{parts[i].strip()}: {r}" for i, (_, _, r) in enumerate(found) if r)
    if any(s == UNDERSTOOD for s, _, _ in found):
        return Reading(text, UNDERSTOOD, "keywords", "CR 702.1", (), kws, reasons)
    return Reading(text, IGNORED, "keywords", "CR 702.1", (), kws, reasons)


# --- mana abilities -------------------------------------------------------------------------------

_BASIC = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


def basic_land_mana(ctx: Ctx) -> list[Any]:
    """CR 305.6: a land with a basic land type has "{T}: Add [its mana symbol]" for each type.
    Two or more such {T} abilities are one ``one_of`` ability here: activating one of them is the
    same choice of a type (605.1a), and ``tap_for_mana: <id>`` then offers every type instead of
    taking the first ability."""
    syms = [sym for t, sym in _BASIC.items() if t in ctx["subtypes"]]
    if len(syms) > 1:
        return [{"mana": {"one_of": syms}, "cost": ["T"]}]
    return [{"mana": syms, "cost": ["T"]}] if syms else []


@template("mana", r"(?P<cost>[^:]+): add (?P<what>(\{[WUBRGC]\})+)\.", "CR 605.1a, 106.1")
def _mana(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{T}: Add {G}." / "{T}: Add {C}{C}.": a mana ability (605.1a) producing those mana symbols."""
    c = mana_cost(m.group("cost"))
    if c is None:
        return None
    syms = [s.upper() for s in re.findall(r"\{([WUBRGC])\}", m.group("what"), re.IGNORECASE)]
    return [{"mana": syms, "cost": c}], []


@template("mana_one_of", r"(?P<cost>[^:]+): add (?P<what>\{[WUBRGC]\}(?:, \{[WUBRGC]\})*,? or \{[WUBRGC]\})\.", "CR 605.1a, 106.1")
def _mana_one_of(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{T}: Add {R} or {G}." / "{T}: Add {W}, {U}, or {B}.": one mana ability whose controller
    chooses one of these types as it resolves (605.1a, 106.1)."""
    c = mana_cost(m.group("cost"))
    if c is None:
        return None
    syms = [s.upper() for s in re.findall(r"\{([WUBRGC])\}", m.group("what"), re.IGNORECASE)]
    return [{"mana": {"one_of": syms}, "cost": c}], []


@template("mana_any_color", r"(?P<cost>[^:]+): add (?P<n>one|two|three) mana of any (?:one )?color\.", "CR 605.1a, 106.1")
def _mana_any(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{T}: Add one mana of any color." / "{T}: Add two mana of any one color.": its controller
    chooses one colour (605.1a), the amount of mana of that colour."""
    c = mana_cost(m.group("cost"))
    n = number(m.group("n"))
    if c is None or (n != 1 and " one color" not in m.group(0).lower()):
        return None
    ab: dict[str, Any] = {"mana": "any_color", "cost": c}
    if n != 1:
        ab["amount"] = n
    return [ab], []


# --- damage, life and cards -----------------------------------------------------------------------

@template("spell_one_shot", r"(?P<what>[^.:]+)\.", "CR 608.2, 120.1, 119.3, 121.1")
def _spell(m: re.Match[str], ctx: Ctx) -> Built | None:
    """An instant's or sorcery's effect (608.2): "~ deals 3 damage to any target.", "You gain 4
    life.", "Draw two cards.", "Each opponent loses 2 life."."""
    if not {"instant", "sorcery"} & set(ctx["types"]):
        return None
    got = one_shot(m.group("what"), allow_target=True)
    if got is None:
        return None
    action, req = got
    ab: dict[str, Any] = {"spell": action}
    if req is not None:
        ab["target"] = req
    return [ab], []


@template("activated_one_shot", r"(?P<cost>[^:]+): (?P<what>[^.:]+)\.", "CR 602.1, 120.1, 119.3, 121.1")
def _activated(m: re.Match[str], ctx: Ctx) -> Built | None:
    """An activated ability (602.1) whose effect is one action: "{T}: ~ deals 1 damage to any
    target.", "{2}, {T}: You gain 1 life.", "{1}, Pay 1 life: Draw a card."."""
    c = cost(m.group("cost"))
    got = one_shot(m.group("what"), allow_target=True)
    if c is None or got is None:
        return None
    action, req = got
    ab: dict[str, Any] = {"activated": action}
    if req is not None:
        ab["target"] = req
    if c:
        ab["cost"] = c
    return [ab], []


_ENTERS = r"when (?:~|this) enters(?: the battlefield)?"


@template("enters_trigger", rf"{_ENTERS}, (?P<what>[^.]+)\.", "CR 603.6a, 603.2")
def _enters(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"When ~ enters, it deals 2 damage to any target." / "..., you gain 3 life.": a triggered
    ability on entering (603.6a); a target is chosen as it's put on the stack (603.3d)."""
    got = one_shot(m.group("what"), allow_target=False)
    return None if got is None else ([{"trigger": "enters", "do": got[0]}], [])


_WATCHED = {"~": None, "a creature you control": "creatures you control",
            "another creature you control": "other creatures you control"}


@template("combat_damage_trigger", r"whenever (?P<who>~|a creature you control|another creature you control) deals combat damage to a player, (?P<what>[^.]+)\.", "CR 603.2, 510.2")
def _combat_damage(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever ~ deals combat damage to a player, draw a card." / "Whenever a creature you
    control deals combat damage to a player, you may draw a card.": triggers on combat damage
    (510.2) to a player (603.2), by it or by the creatures it watches."""
    got = one_shot(m.group("what"), allow_target=False, that_much=True)
    if got is None:
        return None
    ab: dict[str, Any] = {"trigger": "combat_damage_to_player", "do": got[0]}
    watched = _WATCHED[m.group("who").lower()]
    if watched is not None:
        ab["from"] = watched
    return [ab], []


@template("dealt_damage_fling", r"whenever ~ is dealt damage, it deals that much damage to (?P<to>any target|each opponent)\.", "CR 603.2, 120.3")
def _dealt(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever ~ is dealt damage, it deals that much damage to any target." (Boros Reckoner):
    a trigger on damage dealt to it (603.2) for the amount dealt."""
    to = "any" if m.group("to").lower() == "any target" else "opponents"
    return [{"trigger": "dealt_damage", "do": {"deal": "damage_dealt", "to": to}}], []


@template("deals_damage_gain", r"whenever ~ deals damage, you gain that much life\.", "CR 603.2, 119.3")
def _deals_gain(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever ~ deals damage, you gain that much life.": a trigger on its damage (603.2)."""
    return [{"trigger": "deals_damage", "do": {"gain_life": "damage_dealt", "who": "you"}}], []


@template("end_step_trigger", r"at the beginning of (?P<whose>each|your) end step, (?P<what>[^.]+)\.", "CR 603.6, 513.1a")
def _end_step(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"At the beginning of your end step, you gain 1 life.": a beginning-of-step trigger (513.1a)."""
    got = one_shot(m.group("what"), allow_target=False)
    if got is None:
        return None
    ab: dict[str, Any] = {"trigger": "end_step", "do": got[0]}
    if m.group("whose").lower() == "your":
        ab["turn"] = "yours"
    return [ab], []


@template("gain_life_trigger", r"whenever you gain life, (?P<what>[^.]+)\.", "CR 603.2, 119.9")
def _gain_trigger(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever you gain life, each opponent loses 1 life.": a trigger on a life gain event (119.9)."""
    got = one_shot(m.group("what"), allow_target=False)
    return None if got is None else ([{"trigger": "gain_life", "do": got[0]}], [])


# --- prevention and replacement -------------------------------------------------------------------

_PROT_TO = {"you": "you", "~": "self", "any target": "target", "target creature": "target",
            "target player": "target", "target creature or player": "target",
            "target player or planeswalker": "target", "target creature or planeswalker": "target"}


def _prevent_wrapper(ctx: Ctx, cost_text: str | None, effect: dict[str, Any], req: Any) -> Built | None:
    """A spell (instant/sorcery), an activated ability (``cost_text``), or else nothing."""
    if cost_text is not None:
        c = cost(cost_text)
        if c is None:
            return None
        ab: dict[str, Any] = {"activated": effect}
        if c:
            ab["cost"] = c
    elif {"instant", "sorcery"} & set(ctx["types"]):
        ab = {"spell": effect}
    else:
        return None
    if req is not None:
        ab["target"] = req
    return [ab], []


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
    return _prevent_wrapper(ctx, m.group("cost"), effect, req)


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
    return _prevent_wrapper(ctx, m.group("cost"), effect, req)


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


@template("life_floor", r"if you control an? (?P<what>creature|artifact|enchantment|land|planeswalker), damage that would reduce your life total to less than 1 reduces it to 1 instead\.", "CR 614.1a, 120.3")
def _worship(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If you control a creature, damage that would reduce your life total to less than 1 reduces
    it to 1 instead." (Worship): a replacement effect on the life loss from damage (614.1a)."""
    return [{"life_floor": 1, "to": "you", "if_you_control": m.group("what").lower() + "s"}], []


@template("mana_of_lands", r"(?P<cost>[^:]+): add one mana of any (?P<kind>color|type) that a land (?P<whose>you|an opponent) controls? could produce\.", "CR 106.7, 605.1a")
def _orchard(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{T}: Add one mana of any color that a land an opponent controls could produce." (Exotic
    Orchard, Fellwar Stone) / "... any type that a land you control could produce." (Reflecting
    Pool): what those lands could produce (106.7)."""
    c = mana_cost(m.group("cost"))
    if c is None:
        return None
    key = "any_color_of" if m.group("kind").lower() == "color" else "any_type_of"
    lands = "lands you control" if m.group("whose").lower() == "you" else "lands an opponent controls"
    return [{"mana": {key: lands}, "cost": c}], []


@template("mana_doubling", r"if you tap a permanent for mana, it produces twice as much of that mana instead\.", "CR 106.12, 614.1a")
def _mana_reflection(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If you tap a permanent for mana, it produces twice as much of that mana instead." (Mana
    Reflection): a replacement effect on mana production (106.12)."""
    return [{"multiply_mana": 2, "to": "permanents you control"}], []


@template("tapped_for_mana_damage", r"whenever a player taps an? (?P<what>land|nonbasic land|creature) for mana, ~ deals (?P<n>\d+) damage to that player\.", "CR 605.1a, 603.2")
def _manabarbs(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Whenever a player taps a land for mana, ~ deals 1 damage to that player." (Manabarbs): a
    trigger on a permanent being tapped for mana (605, 603.2)."""
    return [{"trigger": "tapped_for_mana", "from": m.group("what").lower() + "s", "do": {"deal": int(m.group("n")), "to": "that player"}}], []


_FROM = {"a source": None, "a source you control": "sources you control",
         "a red source you control": "red sources you control",
         "a source an opponent controls": "sources an opponent controls"}
_THAT = r"(?:that (?:permanent or player|player or permanent|creature|player)|it)"


@template("multiply", rf"if (?P<src>a source(?: you control| an opponent controls)?|a red source you control) would deal damage to (?P<to>[^,]+), (?:it|that source) deals (?P<k>double|triple) that damage(?: to {_THAT})? instead\.", "CR 614.1a")
def _multiply(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If a source would deal damage to a permanent or player, it deals double that damage to
    that permanent or player instead." (Furnace of Rath): a replacement effect (614.1a)."""
    return _amount_replacement(m, {"multiply": 2 if m.group("k").lower() == "double" else 3})


@template("halve_damage", rf"if (?P<src>a source(?: you control| an opponent controls)?) would deal damage to (?P<to>[^,]+), (?:it|that source) deals half that damage, rounded (?P<r>down|up),(?: to {_THAT})? instead\.", "CR 614.1a")
def _halve(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If a source would deal damage to a permanent or player, it deals half that damage, rounded
    down, to that permanent or player instead." (Ghosts of the Innocent): a replacement effect
    (614.1a), not a prevention, so it halves damage that can't be prevented too (615.12)."""
    return _amount_replacement(m, {"halve": m.group("r").lower()})


@template("add_damage", rf"if (?P<src>a source(?: you control)?|a red source you control) would deal damage to (?P<to>[^,]+), it deals that much damage plus (?P<n>\d+)(?: to {_THAT})? instead\.", "CR 614.1a")
def _add(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If a red source you control would deal damage to an opponent or a permanent an opponent
    controls, it deals that much damage plus 2 instead." (Torbran): a replacement effect (614.1a)."""
    return _amount_replacement(m, {"add": int(m.group("n"))})


def _amount_replacement(m: re.Match[str], ab: dict[str, Any]) -> Built | None:
    """A damage-amount replacement ``ab`` with the ``from:`` and ``to:`` filters the sentence's
    source and recipient phrases give (or None when a phrase is not one the vocabulary has)."""
    to, src = m.group("to").lower(), m.group("src").lower().strip()
    if static_to(to) == "?" or src not in _FROM:
        return None
    if _FROM[src] is not None:
        ab["from"] = _FROM[src]
    if static_to(to) is not None:
        ab["to"] = static_to(to)
    return [ab], []


@template("cant_gain_life", r"(?P<who>your opponents|players) can't gain life\.", "CR 119.7")
def _cant_gain(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Your opponents can't gain life.": life gain that can't happen doesn't (119.7)."""
    who = "opponents" if m.group("who").lower() == "your opponents" else "each player"
    return [{"cant_gain_life": who}], []


@template("cant_be_prevented", r"damage can't be prevented\.", "CR 615.12")
def _cant_prevent(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Damage can't be prevented.": prevention effects don't apply (615.12)."""
    return [{"cant_be_prevented": True}], []


_HAVE = {"you have": "you", "creatures you control have": "creatures you control",
         "other creatures you control have": "other creatures you control",
         "permanents you control have": "permanents you control",
         "other permanents you control have": "other permanents you control",
         "enchanted creature has": "enchanted creature", "equipped creature has": "equipped creature",
         "you and permanents you control have": ["you", "permanents you control"],
         "you and other permanents you control have": ["you", "other permanents you control"]}


@template("grant_hexproof", r"(?P<who>you have|(?:other )?(?:creatures|permanents) you control have|enchanted creature has|equipped creature has|you and (?:other )?permanents you control have) (?P<kw>hexproof|shroud)\.", "CR 702.11, 702.18")
def _hexproof(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"You have hexproof." / "Creatures you control have hexproof." / "Enchanted creature has
    shroud.": a static effect giving hexproof (702.11) or shroud (702.18): no targeting by
    opponents' (hexproof) or any (shroud) spells and abilities."""
    return [{m.group("kw").lower(): True, "to": _HAVE[m.group("who").lower()]}], []


@template("redirect_to_self", r"all damage that would be dealt to (?P<to>you|you and other creatures you control|you and other permanents you control) is dealt to (?P<who>~|enchanted creature) instead\.", "CR 614.1b, 614.9")
def _redirect(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"All damage that would be dealt to you is dealt to enchanted creature instead." (Pariah):
    a redirection replacement effect (614.1b, 614.9)."""
    to = {"you": "you", "you and other creatures you control": ["you", "other creatures you control"],
          "you and other permanents you control": ["you", "other permanents you control"]}[m.group("to").lower()]
    who = "self" if m.group("who") == "~" else "enchanted creature"
    return [{"redirect": who, "to": to}], []


@template("enters_with_x", r"~ enters with X \+1/\+1 counters on it\.", "CR 614.1c, 107.3m")
def _enters_with(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"~ enters with X +1/+1 counters on it." (Walking Ballista): an enters-with replacement
    (614.1c) using the spell's X (107.3m)."""
    return [{"enters_with": {"+1/+1": "X"}}], []


@template("enters_with_counters", r"~ enters with (?P<n>a|an|one|two|three|four|five|\d+|X) (?P<kind>\+1/\+1|-1/-1) counters? on it\.", "CR 614.1c, 122.6")
def _enters_with_n(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"~ enters with two +1/+1 counters on it.": an enters-with replacement (614.1c, 122.6);
    a permanent already on the battlefield has its counters in counters:."""
    n = number(m.group("n"))
    return None if n is None else ([{"enters_with": {m.group("kind"): n}}], [])


@template("as_enters_choose_opponent", r"as ~ enters, (?:secretly )?choose an opponent\.", "CR 614.12, 607.2")
def _choose_opponent(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"As ~ enters, choose an opponent.": a choice made as it enters (614.12), which later text
    reads as "the chosen player" (607.2); on the battlefield already, chosen: gives it."""
    return [{"as_enters": "choose_opponent"}], []


@template("prevent_count_static", r"if a source would deal damage to (?P<to>[^,]+), prevent X of that damage, where X is the number of (?P<what>creatures|artifacts|lands|enchantments) you control\.", "CR 615.1a")
def _prevent_count(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If a source would deal damage to equipped creature, prevent X of that damage, where X is
    the number of creatures you control." (Shield of the Avatar): X counted as it applies (615.1a)."""
    to = static_to(m.group("to"))
    if to in ("?", None):
        return None
    return [{"prevent": {"count": f"{m.group('what').lower()} you control"}, "to": to}], []


@template("land_mana_replacement", r"(?P<until>until end of turn, )?if (?:a land is tapped for (?P<two>two or more )?mana|a player taps an? (?P<which>nonbasic )?land for mana), it produces (?:\{(?P<sym>[WUBRGC])\}|(?P<colorless>colorless) mana) instead of any other type(?P<amount> and amount)?\.", "CR 106.12, 614.1a")
def _mana_replacement(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If a land is tapped for mana, it produces {B} instead of any other type and amount."
    (Contamination), "... two or more mana ... {C} ..." (Damping Sphere), "Until end of turn, if a
    player taps a nonbasic land for mana, it produces colorless mana instead of any other type."
    (Pale Moon): replacement effects on mana production (106.12, 614.1a)."""
    effect: dict[str, Any] = {"replace_mana": m.group("sym").upper() if m.group("sym") else "C"}
    if m.group("amount"):
        effect["amount"] = 1
    if m.group("two"):
        effect["min_amount"] = 2
    effect["to"] = "nonbasic lands" if m.group("which") else "lands"
    if m.group("until"):
        if not {"instant", "sorcery"} & set(ctx["types"]):
            return None
        return [{"spell": {**effect, "duration": "turn"}}], []
    if {"instant", "sorcery"} & set(ctx["types"]):
        return None
    return [effect], []


@template("next_time_from_target", r"the next time target creature would deal damage this turn, prevent that damage\.(?P<gain> you gain life equal to the damage prevented this way\.)?", "CR 615.8, 615.5")
def _awe_strike(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"The next time target creature would deal damage this turn, prevent that damage. You gain
    life equal to the damage prevented this way." (Awe Strike): a next-time shield on the
    target's damage (615.8) with a rider on the damage it prevented (615.5)."""
    effect: dict[str, Any] = {"shield": "all", "next_time": True, "from": "target"}
    if m.group("gain"):
        effect["then"] = {"gain_life": "prevented"}
    return _prevent_wrapper(ctx, None, effect, "creature")


@template("redirect_next_n", r"the next (?P<n>\d+) damage that a source of your choice would deal to you and/or permanents you control this turn is dealt to (?P<to>any target|target creature|target player) instead\.", "CR 615.7, 609.7a, 614.9")
def _harms_way(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"The next 2 damage that a source of your choice would deal to you and/or permanents you
    control this turn is dealt to any target instead." (Harm's Way): a partial redirection
    (614.9) of the next N damage (615.7) from a source chosen as it resolves (609.7a)."""
    effect = {"redirect": "target", "shield": int(m.group("n")), "to": ["you", "permanents you control"],
              "source_choice": "chosen_source"}
    return _prevent_wrapper(ctx, None, effect, TARGETS[m.group("to").lower()])


# --- what happens as a permanent enters ------------------------------------------------------------

# what happens as a permanent enters: nothing to a permanent already on the battlefield (its state
# is given: tapped:, counters:), not modelled for one entering during the actions (CR 614.1c, 614.12)
ENTERING = re.compile(r"^(?:~ enters tapped(?: unless [^.]+)?\.|as ~ enters, (?:you may )?(?:secretly )?(?:choose|reveal|pay|name) [^.]+\.(?: if you don't, (?:~|it) enters tapped\.)?"
                      r"|if you control (?:two|three) or more other lands, ~ enters tapped\.)$", re.IGNORECASE)
ENTERING_REASON = "it is already on the battlefield (tapped: and counters: give its state); not modelled as it enters (CR 614.1c, 614.12)"


# --- text that can't matter -----------------------------------------------------------------------

# lines both ignored whole and dropped from a longer line (no effect on anything computed here)
_SCRY = (re.compile(r"^(?:when ~ enters, )?(?:scry|surveil) (?:\d+|x)\.$", re.IGNORECASE),
         "the order of a library isn't tracked (CR 701.22, 701.25)")
_CAST_COST = (re.compile(r"^as an additional cost to cast ~, (?:sacrifice|discard|pay|exile|tap|reveal|return) [^.]+\.$",
                         re.IGNORECASE),
              "a cost to cast it: the case starts after it was cast, with its battlefield as written (CR 601.2b)")

# a restriction on attacks or blocks: nothing to compute while blocks are written as they were
# declared, but a case that lets blocks be chosen (509.1) must not drop it (model.load refuses it)
BLOCKS_AS_WRITTEN = "attacks and blocks are taken from attacking:/blocking: as written (CR 508, 509)"

IGNORES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^~ can't block\.$|^~ can't be blocked\.$|^~ can block only creatures with flying\.$|"
                r"^~ can't be blocked except by [^.]+\.$|^~ attacks each (combat|turn) if able\.$|"
                r"^~ can block an additional creature each combat\.$", re.IGNORECASE),
     BLOCKS_AS_WRITTEN),
    (re.compile(r"^(?:~|this spell) costs \{\d+\} (less|more) to cast[^.]*\.$|"
                r"^each spell a player casts costs \{\d+\} more to cast for each other spell that player has cast this turn\.$", re.IGNORECASE),
     "casting costs aren't modelled: mana spent isn't tracked (CR 601.2f)"),
    _SCRY,
    _CAST_COST,
    (re.compile(r"^~ can't be countered\.$", re.IGNORECASE),
     "countering spells isn't modelled (CR 701.6)"),
    (re.compile(r"^if ~ is in your opening hand, you may begin the game with it on the battlefield\.$", re.IGNORECASE),
     "the case starts with the battlefield as written (CR 103.6)"),
]


# "Activate only once each turn." (CR 602.5b): the vocabulary's once: true (a case is one turn)
_ONCE = " activate only once each turn."
# sentences that can't change anything this tool computes, dropped from a line before matching
DROPPABLE: list[tuple[re.Pattern[str], str]] = [
    _SCRY,
    _CAST_COST,
    (re.compile(r"^spend this mana only (?:to cast|on) [^.]+\.$", re.IGNORECASE),
     "a restriction on spending the mana: spending isn't modelled, the mana is produced all the same (CR 106.6)"),
]


def _drop_sentences(text: str) -> tuple[str, list[str]]:
    """The line without droppable sentences (each with why it was dropped)."""
    parts = re.split(r"(?<=\.) (?=[A-Z~{])", text)
    kept, dropped = [], []
    for part in parts:
        why = next((r for p, r in DROPPABLE if p.match(part)), None)
        if why is None or len(parts) == 1:
            kept.append(part)
        else:
            dropped.append(f"{part} ({why})")
    return " ".join(kept), dropped


def read_line(raw: str, text: str, ctx: Ctx) -> Reading:
    """What one Oracle line (``raw``; ``text`` normalised) becomes: the first matching template,
    else an ignore rule, else not understood."""
    if not text:
        if raw.strip().startswith("(") and basic_land_mana(ctx) and re.search(r"add \{", raw, re.IGNORECASE):
            return Reading(raw, UNDERSTOOD, "basic_land_mana", "CR 305.6", tuple(basic_land_mana(ctx)))
        return Reading(raw, IGNORED, reason="reminder text only (CR 207.2)")
    kw = read_keywords(text)
    if kw is not None:
        return Reading(raw, kw.status, kw.template, kw.rule, kw.abilities, kw.keywords, kw.reason)
    core, dropped = _drop_sentences(text)
    once = core.lower().endswith(_ONCE)
    if once:
        core = core[: -len(_ONCE)].rstrip()
    for t in TEMPLATES:
        m = t.pattern.match(core) if core else None
        if m is None:
            continue
        built = t.build(m, ctx)
        if built is None:
            continue
        abilities, kws = built
        if {"instant", "sorcery"} & set(ctx["types"]) and not all("spell" in ab for ab in abilities):
            continue  # an instant's or sorcery's text is its spell ability (CR 113.3a, 608.2), never static
        if once:
            if len(abilities) != 1 or "activated" not in abilities[0]:
                continue
            abilities = [{**abilities[0], "once": True}]
        return Reading(raw, UNDERSTOOD, t.name, t.rule, tuple(abilities), tuple(kws), "; ".join(dropped))
    for pattern, reason in IGNORES:
        if pattern.match(text):
            return Reading(raw, IGNORED, reason=reason)
    if ENTERING.match(text):
        return Reading(raw, IGNORED, reason=ENTERING_REASON, on_entering=True)
    return Reading(raw, NOT_UNDERSTOOD)

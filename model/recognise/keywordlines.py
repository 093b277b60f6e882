"""Keyword lines ("Flying, first strike"): keywords the tool uses and keywords without effect here (CR 702)."""

from __future__ import annotations

import re
from typing import Any

from ..keywords import EFFECTIVE, NO_EFFECT
from . import IGNORED, UNDERSTOOD, Reading
from .ignores import BLOCKS_AS_WRITTEN

# --- keyword lines --------------------------------------------------------------------------------



def _evasion(rule: str) -> str:
    """The reason of an evasion keyword (which creatures can block it): nothing to compute while
    blocks are written as declared; a case that chooses blocks refuses the card (model.load reads
    BLOCKS_AS_WRITTEN in the reason, as for "can't be blocked")."""
    return f"keyword without effect here: {BLOCKS_AS_WRITTEN}; evasion, CR {rule}"


# keywords and keyword abilities that can't change anything this tool computes
IGNORED_KEYWORDS: dict[str, str] = {
    **{k: f"keyword without effect here: {v}" for k, v in NO_EFFECT.items()},
    "horsemanship": _evasion("702.31"),
    "shadow": _evasion("702.28"),
    "fear": _evasion("702.36"),
    "intimidate": _evasion("702.13"),
    "skulk": _evasion("702.118"),
    "devoid": "keyword without effect here: the card data already gives it no colour (CR 702.114)",
    "partner": "keyword without effect here: a deck-building rule (CR 702.124)",
    "convoke": "keyword without effect here: casting costs aren't modelled (CR 702.51)",
    "delve": "keyword without effect here: casting costs aren't modelled (CR 702.66)",
    "improvise": "keyword without effect here: casting costs aren't modelled (CR 702.126)",
    "split second": "keyword without effect here: the case's actions say what is cast when (CR 702.61)",
    "assist": "keyword without effect here: another player helping to pay its cost; casting costs aren't modelled (CR 702.132)",
    "jump-start": "keyword without effect here: casting from a graveyard isn't modelled; the spell's effect is the same (CR 702.133)",
    "rebound": "keyword without effect here: the spell is exiled as it resolves and cast again at your next upkeep, "
               "after the case (a case is one turn; CR 702.88a)",
    "retrace": "keyword without effect here: casting from a graveyard isn't modelled; the spell's effect is the same (CR 702.81)",
    "living weapon": "keyword without effect here: a trigger on its entering (CR 702.92a); it is already on the battlefield, "
                     "so the trigger is over (its Germ token, if any, is on the battlefield as written)",
}
# keywords whose whole text is of the form "<keyword> <something>": the pattern of the rest, and why
_OTHER_IGNORED: list[tuple[re.Pattern[str], str]] = [
    # 702.122a: "Tap creatures with total power N or more: this Vehicle becomes an artifact creature
    # until end of turn" (a case is one turn, so it still is one)
    (re.compile(r"crew \d+"),
     "keyword without effect here: a Vehicle crewed before the case is written with types: [artifact, creature] (an "
     "artifact creature until end of turn, CR 702.122a); crewing during the case isn't modelled"),
    # what happens as it enters: over for a permanent on the battlefield (counters: give its
    # state), not modelled for one entering during the case (_ON_ENTERING)
    (re.compile(r"bloodthirst \d+"),
     "keyword without effect here: it acts as the permanent enters (CR 702.54a); it is already on the battlefield "
     "(counters: give its state)"),
    (re.compile(r"offspring (?:\{[^}]+\})+"),
     "keyword without effect here: an additional cost and a trigger on its entering (CR 702.175a); it is already on the "
     "battlefield, so the trigger is over (a token it created is on the battlefield as written)"),
    (re.compile(r"fabricate \d+"),
     "keyword without effect here: a trigger on its entering (CR 702.123a); it is already on the battlefield, so it is over "
     "(counters: and the battlefield give what it did)"),
    (re.compile(r"devour \d+"),
     "keyword without effect here: it acts as the permanent enters (CR 702.82a); it is already on the battlefield "
     "(counters: give its state)"),
    # 702.150a: a planeswalker with compleated enters with two fewer loyalty counters for each
    # Phyrexian mana paid with life; one on the battlefield has its loyalty: as written
    (re.compile(r"compleated"),
     "keyword without effect here: it acts as the planeswalker enters (CR 702.150a); it is already on the battlefield "
     "(loyalty: gives its loyalty)"),
    (re.compile(r"soulshift \d+"),
     "keyword without effect here: a dies trigger that only returns a card from a graveyard to a hand (CR 702.46a); "
     "graveyards and hands aren't tracked"),
    (re.compile(r"unleash"),
     "keyword without effect here: it acts as the permanent enters (CR 702.98a; counters: give its state), and \"can't "
     f"block as long as it has a +1/+1 counter on it\": {BLOCKS_AS_WRITTEN}"),
    # landwalk (702.14a-c): unblockable while the defending player controls such a land
    (re.compile(r"(?:island|swamp|forest|mountain|plains|desert|nonbasic land|legendary land|snow land|artifact land)walk"),
     _evasion("702.14")),
    (re.compile(r"affinity for [a-z]+(?: [a-z]+)?"),
     "keyword without effect here: a reduction of its cost; casting costs aren't modelled (CR 702.41)"),
    # 702.138a: an ability of a card in a graveyard; the permanent or spell is the same ("escapes
    # with" counters are a line of their own, read as it enters)
    (re.compile(r"escape—(?:\{[^}]+\})+(?:, exile [a-z ]+ other cards? from your graveyard)?"),
     "keyword without effect here: casting from a graveyard isn't modelled; the spell is the same (CR 702.138a)"),
    (re.compile(r"evoke—exile an? [a-z]+ card from your hand"),
     "keyword without effect here: an alternative cost and a trigger on its entering that sacrifices it if it was paid "
     "(CR 702.74a); it is already on the battlefield, so that is over"),
    (re.compile(r"suspend \d+—(?:\{[^}]+\})+"),
     "keyword without effect here: an ability of a card in hand or exile (CR 702.62a); a spell cast with it has the "
     "same effect; a creature cast with it has haste (its state is given: summoning_sick:, keywords: [haste])"),
]
_COSTLY = {
    # abilities of a card in hand, graveyard or exile, or optional costs: nothing of a case reads them
    "ninjutsu": "keyword without effect here: an ability of a card in hand (CR 702.49a); hands aren't tracked",
    "madness": "keyword without effect here: it acts as the card is discarded from a hand (CR 702.35a); a spell cast "
               "with it has the same effect; hands aren't tracked",
    "buyback": "keyword without effect here: an additional cost that returns the spell to its owner's hand as it resolves "
               "instead of the graveyard (CR 702.27a): hands and graveyards aren't tracked, its effect is the same",
    "morph": "keyword without effect here: it acts on a card cast face down or a face-down permanent (CR 702.37); the "
             "case's permanents are face up",
    "megamorph": "keyword without effect here: it acts on a card cast face down or a face-down permanent (CR 702.37b); the "
                 "case's permanents are face up",
    "unearth": "keyword without effect here: an ability of a card in a graveyard (CR 702.84a); graveyards aren't "
               "tracked (a creature returned by it: give keywords: [haste] and {exile_instead: true, to: it})",
    # alternative costs (118.9): the spell cast is the same spell, and mana spent isn't tracked
    "spectacle": "keyword without effect here: an alternative cost (CR 702.137a); the spell is the same, casting costs "
                 "aren't modelled",
    "surge": "keyword without effect here: an alternative cost (CR 702.117a); the spell is the same, casting costs "
             "aren't modelled",
    "prowl": "keyword without effect here: an alternative cost (CR 702.76a); the spell is the same, casting costs "
             "aren't modelled",
    "miracle": "keyword without effect here: an alternative cost as the card is drawn (CR 702.94a); hands aren't "
               "tracked, the spell is the same",
    "foretell": "keyword without effect here: an ability of a card in hand and a cost to cast it from exile "
                "(CR 702.143a); hands and exile aren't tracked, the spell is the same",
    "plot": "keyword without effect here: an ability of a card in hand, cast later from exile without paying its cost "
            "(CR 702.170a); the spell is the same",
    # evoke (702.74a): an alternative cost and a sacrifice trigger as it enters; over for a permanent
    # already on the battlefield, not understood for one entering during the case (_ON_ENTERING)
    "evoke": "keyword without effect here: an alternative cost and a trigger on its entering that sacrifices it if "
             "it was paid (CR 702.74a); it is already on the battlefield, so that is over",
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
    **_COSTLY,
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
    if low in ABILITY_KEYWORDS:
        return UNDERSTOOD, "", ""
    if ward_ability(low) is not None or protection_ability(low) is not None or afterlife_ability(low) is not None \
            or poisonous_ability(low) is not None:
        return UNDERSTOOD, "", ""
    if _ENCHANT.match(low):
        return IGNORED, "", "keyword without effect here: what it's attached to is given by attached_to: (CR 303.4, 702.5)"
    for pattern, reason in _OTHER_IGNORED:
        if pattern.fullmatch(low):
            return IGNORED, "", reason
    for word, reason in _COSTED_IGNORED.items():
        if low.startswith(word + " ") and re.fullmatch(r"(\{[^}]+\})+", low[len(word) + 1:]):
            return IGNORED, "", reason
    return None


# keywords that are triggered abilities of the vocabulary: their abilities, not a keyword fact
ABILITY_KEYWORDS: dict[str, dict[str, Any]] = {
    # 702.108a: "Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn."
    "prowess": {"trigger": "cast", "spells": "noncreature", "do": {"pt": [1, 1], "to": "self"}},
    # 702.79a / 702.93a: "When this permanent dies, if it had no -1/-1 (+1/+1) counters on it,
    # return it to the battlefield under its owner's control with a -1/-1 (+1/+1) counter on it."
    "persist": {"trigger": "dies", "do": {"return_to_battlefield": "self", "with_counter": "-1/-1"}},
    "undying": {"trigger": "dies", "do": {"return_to_battlefield": "self", "with_counter": "+1/+1"}},
}


def ward_ability(part: str) -> dict[str, Any] | None:
    """"Ward {2}", "Ward—Pay 2 life", "Ward—{1}, Pay 1 life" (702.21a): ``{ward: <cost>}``, a cost
    of mana symbols and life (the costs the targeting player can be asked for here); None else."""
    from .base import cost  # (base registers no keyword lines)

    m = re.fullmatch(r"ward(?: |—)(.+)", " ".join(part.lower().split()))
    if m is None:
        return None
    got = cost(m.group(1))
    if not got or any(c in ("T", "Q") or (isinstance(c, dict) and set(c) != {"pay_life"}) for c in got):
        return None
    return {"ward": got}


# keyword parts whose effect is as the permanent enters: not understood for one entering during the case
_ON_ENTERING = re.compile(r"bloodthirst \d+|offspring (?:\{[^}]+\})+|unleash|fabricate \d+|devour \d+|living weapon|compleated|"
                          r"evoke(?: (?:\{[^}]+\})+|—exile an? [a-z]+ card from your hand)")


def afterlife_ability(part: str) -> dict[str, Any] | None:
    """"Afterlife 2" (702.135a): "When this permanent dies, create two 1/1 white and black Spirit
    creature tokens with flying." — a dies trigger of the vocabulary; None else."""
    m = re.fullmatch(r"afterlife (\d+)", " ".join(part.lower().split()))
    if m is None or int(m.group(1)) < 1:
        return None
    token = {"types": ["creature"], "subtypes": ["Spirit"], "colors": ["white", "black"], "power": 1, "toughness": 1,
             "keywords": ["flying"]}
    return {"trigger": "dies", "do": {"create_tokens": int(m.group(1)), "token": token}}


def poisonous_ability(part: str) -> dict[str, Any] | None:
    """"Poisonous 1" (702.70a): "Whenever this creature deals combat damage to a player, that player
    gets N poison counters." — a combat_damage_to_player trigger of the vocabulary; None else."""
    m = re.fullmatch(r"poisonous (\d+)", " ".join(part.lower().split()))
    if m is None or int(m.group(1)) < 1:
        return None
    return {"trigger": "combat_damage_to_player", "do": {"get_poison": int(m.group(1)), "who": "that player"}}


_COLOURS = ("white", "blue", "black", "red", "green")
_CARD_TYPES = {"artifacts": "artifact", "creatures": "creature", "enchantments": "enchantment",
               "planeswalkers": "planeswalker", "instants": "instant", "sorceries": "sorcery", "lands": "land"}


def _quality(word: str) -> Any:
    """One quality of "protection from X" (702.16a) as an object selector: a colour ("from red":
    red sources), a card type ("from artifacts") or a subtype ("from Demons"); None else."""
    from ..subtypes import subtype_of

    if word in _COLOURS:
        return f"{word} sources"
    if word in _CARD_TYPES:
        return {"types": [_CARD_TYPES[word]]}
    sub = subtype_of(word) if word.endswith("s") else None  # a plural: "Demons", "Werewolves"
    if sub is not None and sub != word:
        return {"subtypes": [sub.capitalize()]}
    return None


def protection_ability(part: str) -> dict[str, Any] | None:
    """"Protection from red", "protection from black and from red", "protection from Demons and
    from Dragons" (702.16a, 702.16g: each "from" a protection ability of its own, one effect here
    with any of the qualities): ``{protection: {from: <objects>}, to: self}``; None else."""
    m = re.fullmatch(r"protection (from .+)", " ".join(part.lower().split()))
    if m is None:
        return None
    words = re.split(r",? (?:and )?(?=from )|, (?=from )", m.group(1))
    qualities = []
    for w in words:
        q = _quality(w[len("from "):]) if w.startswith("from ") else None
        if q is None:
            return None
        qualities.append(q)
    return {"protection": {"from": qualities[0] if len(qualities) == 1 else qualities}, "to": "self"}


def _ability_of(part: str) -> dict[str, Any] | None:
    low = " ".join(part.lower().split())
    if low in ABILITY_KEYWORDS:
        return dict(ABILITY_KEYWORDS[low])
    return ward_ability(low) or protection_ability(low) or afterlife_ability(low) or poisonous_ability(low)


def _join_protection(parts: list[str]) -> list[str]:
    out: list[str] = []
    for p in parts:
        if out and re.match(r"(?:and )?from ", p, re.IGNORECASE) and out[-1].lower().startswith("protection from "):
            out[-1] = f"{out[-1]}, {p}"
        else:
            out.append(p)
    return out


def read_keywords(text: str) -> Reading | None:
    """A line of keywords, "Flying, first strike" (CR 702.1: keywords are abilities; 702.2 deathtouch,
    702.4 double strike, 702.7 first strike, 702.10 haste, 702.11 hexproof, 702.12 indestructible,
    702.15 lifelink, 702.18 shroud, 702.19 trample, 702.80 wither, 702.90 infect, 702.164 toxic).
    Ward (702.21a) is a triggered ability of the vocabulary, ``{ward: [2]}``.
    Keywords the tool accepts without effect (flying: evasion isn't checked) are kept as facts
    (a selector such as "without flying" reads them) but the line counts as ignored if that is all."""
    body = text.rstrip(".")
    # "Ward—{1}, Pay 1 life": a ward cost of several parts is one keyword (702.21a)
    parts = [body] if re.match(r"(?:ward|escape)—", body, re.IGNORECASE) else [p for p in re.split(r",\s*|;\s*", body) if p]
    # "protection from Vampires, from Werewolves, and from Zombies": one keyword (702.16g)
    parts = _join_protection(parts)
    if not parts:
        return None
    got = [_keyword_part(p) for p in parts]
    if any(g is None for g in got):
        return None
    found = [g for g in got if g is not None]
    entering = any(_ON_ENTERING.fullmatch(" ".join(p.lower().split())) for p in parts)
    kws = tuple(k for _, k, _ in found if k)
    reasons = "; ".join(f"{parts[i].strip()}: {r}" for i, (_, _, r) in enumerate(found) if r)
    abilities = tuple(a for a in (_ability_of(p) for p in parts) if a is not None)
    if any(s == UNDERSTOOD for s, _, _ in found):
        rules = ["CR 702.1"] + (["702.108a"] if any(a.get("trigger") == "cast" for a in abilities) else []) + \
            (["702.135a"] if any(a.get("trigger") == "dies" and "create_tokens" in a["do"] for a in abilities) else []) + \
            (["702.79a, 702.93a"] if any(a.get("trigger") == "dies" and "return_to_battlefield" in a["do"] for a in abilities)
             else []) + \
            (["702.21a"] if any("ward" in a for a in abilities) else []) + \
            (["702.70a"] if any(a.get("trigger") == "combat_damage_to_player" for a in abilities) else []) + \
            (["702.16a"] if any("protection" in a for a in abilities) else [])
        return Reading(text, UNDERSTOOD, "keywords", ", ".join(rules), abilities, kws, reasons, entering)
    return Reading(text, IGNORED, "keywords", "CR 702.1", (), kws, reasons, entering)

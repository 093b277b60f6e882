"""Prevention effects: shields, "prevent all", static prevention (CR 615)."""

from __future__ import annotations

import re
from typing import Any

from .base import TARGETS, Built, Ctx, cost, number, spell_or_activated, template

# --- prevention and replacement -------------------------------------------------------------------

_PROT_TO = {"you": "you", "~": "self", "any target": "target", "target creature": "target",
            "target artifact creature": "target",
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


@template("prevent_next_counters", r"(?:(?P<cost>[^:]+): )?prevent the next (?P<n>\d+|X) damage that would be dealt to target creature this turn\. for each 1 damage prevented this way, put a \+1/\+1 counter on that creature\.", "CR 615.7, 615.5")
def _test_of_faith(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Prevent the next 3 damage that would be dealt to target creature this turn. For each 1
    damage prevented this way, put a +1/+1 counter on that creature." (Test of Faith, Temper): a
    shield (615.7) whose rider puts the counters as the damage is prevented, before state-based
    actions (615.5)."""
    effect = {"shield": number(m.group("n")), "to": "target",
              "then": {"put_counters": {"+1/+1": "prevented"}, "to": "target"}}
    return spell_or_activated(ctx, m.group("cost"), effect, "creature")


@template("prevent_to_self_counters", r"if (?P<non>noncombat )?damage would be dealt to ~, prevent that damage\. put an? (?P<kind>\+1/\+1|-1/-1) counter on ~ for each 1 damage prevented this way\.", "CR 615.1a, 615.5")
def _capridor(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If noncombat damage would be dealt to this creature, prevent that damage. Put a +1/+1
    counter on this creature for each 1 damage prevented this way." (Stormwild Capridor; Phyrexian
    Hydra's -1/-1): a static prevention whose rider puts the counters at once (615.5)."""
    ab: dict[str, Any] = {"prevent": "all", "to": "self",
                          "then": {"put_counters": {m.group("kind"): "prevented"}, "to": "self"}}
    if m.group("non"):
        ab["combat"] = False
    return [ab], []


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


# the sources "prevent all damage that would be dealt to ~ by ..." names (615.1a; read as the damage
# would be dealt, 609.7c); a source is any object, so "artifact sources" is a mapping on types
_BY_SOURCES: dict[str, Any] = {
    "creatures": "creatures", "artifact creatures": {"types": ["artifact", "creature"]},
    "artifact sources": {"types": ["artifact"]},
    **{f"{c} sources": f"{c} sources" for c in ("white", "blue", "black", "red", "green")},
    **{f"{c} creatures": f"{c} creatures" for c in ("white", "blue", "black", "red", "green")},
}
_STATIC_PREVENT_TO = ("~|you|enchanted creature|equipped creature|creatures you control|other creatures you control|"
                     "you and creatures you control|attacking creatures you control|creatures")


# recipients only this template names: Bubble Matrix's "creatures", Dolmen Gate's "attacking
# creatures you control" (read as the damage would be dealt, 609.7c)
_STATIC_ONLY_TO: dict[str, Any] = {
    "other creatures you control": "other creatures you control", "creatures": "creatures",
    "attacking creatures you control": {"controller": "you", "types": ["creature"], "in_combat": ["attacking"]}}


@template("prevent_all_static", r"prevent all (?P<combat>combat |noncombat )?damage that would be dealt (?P<by>to|by) "
          rf"(?P<to>{_STATIC_PREVENT_TO})(?: by (?P<src>[a-z ]+?))?\.", "CR 615.1a")
def _prevent_static(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Prevent all damage that would be dealt to ~." / "... dealt by enchanted creature." /
    "... dealt to ~ by creatures." / "Prevent all noncombat damage that would be dealt to other
    creatures you control." / "... to creatures." (Bubble Matrix) / "Prevent all combat damage that
    would be dealt to attacking creatures you control." (Dolmen Gate): a static prevention effect (615.1a) on damage to it or from it,
    maybe only from some sources, only combat or only noncombat damage."""
    if {"instant", "sorcery"} & set(ctx["types"]):
        return None
    who = _STATIC_TO.get(m.group("to").lower(), _STATIC_ONLY_TO.get(m.group("to").lower()))
    if who is None or (m.group("src") and m.group("by") != "to"):
        return None
    ab: dict[str, Any] = {"prevent": "all", "to" if m.group("by") == "to" else "from": who}
    if m.group("src"):
        if m.group("src").lower() not in _BY_SOURCES:
            return None
        ab["from"] = _BY_SOURCES[m.group("src").lower()]
    if m.group("combat"):
        ab["combat"] = m.group("combat").strip() == "combat"
    return [ab], []


# "this turn" effects' recipients and sources (a spell's or ability's, 615.1a): target phrases
# are the ability's one target
_TURN_TO: dict[str, Any] = {"you": "you", "~": "self", "creatures you control": "creatures you control",
                            "creatures": "creatures", "you and creatures you control": ["you", "creatures you control"],
                            "creatures you control and you": ["you", "creatures you control"]}
_TURN_BY: dict[str, Any] = {"creatures your opponents control": "creatures an opponent controls",
                            "creatures an opponent controls": "creatures an opponent controls",
                            "attacking creatures": {"types": ["creature"], "in_combat": ["attacking"]},
                            "attacking creatures without flying": {"types": ["creature"], "in_combat": ["attacking"], "without": "flying"},
                            "creatures": "creatures",
                            **{f"{c} sources": f"{c} sources" for c in ("white", "blue", "black", "red", "green")}}
_TURN_BY_TARGET = ("target creature", "target attacking creature", "target attacking or blocking creature",
                   "target blocking creature", "target creature an opponent controls")


@template("prevent_all_turn_filtered", r"(?:(?P<cost>[^:]+): )?prevent all (?P<combat>combat )?damage that would be dealt "
          r"(?:to (?P<to>[a-z~ ]+?) )?(?:(?P<turn1>this turn) )?(?:to (?P<to2>[a-z~ ]+?)|by (?P<by>[a-z ]+?))(?P<turn2> this turn)?\.",
          "CR 615.1a")
def _fog_filtered(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Prevent all damage that would be dealt this turn to creatures you control." (Divine Light),
    "... dealt this turn by creatures your opponents control." (Obscuring Haze), "... dealt to you
    this turn by attacking creatures." (Deep Wood), "Prevent all combat damage that would be dealt
    by target attacking creature this turn." (Restrain): a prevention effect until end of turn
    (615.1a) on the damage to those recipients and/or from those sources."""
    if bool(m.group("turn1")) == bool(m.group("turn2")):
        return None  # "this turn" exactly once
    if m.group("to") and m.group("to2"):
        return None
    to_phrase = (m.group("to") or m.group("to2") or "").lower()
    by_phrase = (m.group("by") or "").lower()
    effect: dict[str, Any] = {"prevent": "all"}
    if m.group("combat"):
        effect["combat"] = True
    req = None
    if to_phrase:
        if to_phrase not in _TURN_TO:
            return None
        effect["to"] = _TURN_TO[to_phrase]
    if by_phrase:
        if by_phrase in _TURN_BY:
            effect["from"] = _TURN_BY[by_phrase]
        elif by_phrase in _TURN_BY_TARGET:
            effect["from"], req = "target", TARGETS[by_phrase]
        else:
            return None
    effect["duration"] = "turn"
    return spell_or_activated(ctx, m.group("cost"), effect, req)


@template("prevent_remove_counter", r"if damage would be dealt to ~, prevent that damage\. remove an? \+1/\+1 counter from ~\.",
          "CR 615.1a, 615.5")
def _phantom(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"If damage would be dealt to ~, prevent that damage. Remove a +1/+1 counter from ~."
    (Phantom Centaur, Phantom Flock): a static prevention effect whose additional effect removes a
    counter, once per prevention of simultaneous damage, even if the damage can't be prevented
    (615.5, 615.12; the Phantom Tiger rulings)."""
    if {"instant", "sorcery"} & set(ctx["types"]):
        return None
    return [{"prevent": "all", "to": "self", "then": {"remove_counters": {"+1/+1": 1}, "to": "self"}}], []


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


_CHOSEN_TO = {"you": ("you", None), "any target": ("target", "any"), "target creature": ("target", "creature")}
_CHOSEN_RIDERS: dict[str, dict[str, Any]] = {
    "you gain life equal to the damage prevented this way.": {"gain_life": "prevented", "who": "you"},
    "if damage is prevented this way, ~ deals that much damage to that source's controller.":
        {"deal": "prevented", "to": "chosen source's controller", "if_prevented": True},
}


@template("next_time_chosen_source", r"(?:(?P<cost>[^:]+): )?the next time a source of your choice would deal damage to (?P<to>you|any target|target creature) this turn, prevent (?:that damage|half that damage, rounded (?P<half>down|up))\.(?: (?P<rider>you gain life equal to the damage prevented this way\.|if damage is prevented this way, ~ deals that much damage to that source's controller\.))?", "CR 615.8, 615.9, 615.5")
def _chosen_source_shield(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"The next time a source of your choice would deal damage to you this turn, prevent that
    damage." (Invulnerability, Righteous Aura, Pentagram of the Ages; "prevent half that damage,
    rounded down": Dark Sphere), with "You gain life equal
    to the damage prevented this way." (Reverse Damage) or "If damage is prevented this way, ~
    deals that much damage to that source's controller." (Deflecting Palm): a next-time shield
    (615.8) from a source chosen as the effect is created (615.9, 609.7a), its rider done with
    what it prevented (615.5)."""
    to, req = _CHOSEN_TO[m.group("to").lower()]
    effect: dict[str, Any] = {"shield": "all", "next_time": True, "to": to, "source_choice": "chosen_source"}
    if m.group("half"):  # "prevent half that damage, rounded down" (Dark Sphere): a prevention of half (615.1a)
        del effect["shield"]
        effect["prevent"] = f"half_{m.group('half').lower()}"
    if m.group("rider"):
        effect["then"] = dict(_CHOSEN_RIDERS[m.group("rider").lower()])
    return spell_or_activated(ctx, m.group("cost"), effect, req)


_SOURCE_COLOURS = r"(?:white|blue|black|red|green)(?: or (?:white|blue|black|red|green))?"


@template("prevent_all_chosen_source", r"(?:(?P<cost>[^:]+): )?prevent all damage (?:an? (?P<color>"
          + _SOURCE_COLOURS + r") source|a source) of your choice would deal(?: to (?P<to>you|~))? this turn\.|"
          r"(?:(?P<cost2>[^:]+): )?prevent all damage that would be dealt(?: to (?P<to2>you))? this turn by a source of your choice\.",
          "CR 615.1a, 609.7a")
def _prevent_chosen_source(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Prevent all damage a source of your choice would deal this turn." (Pay No Heed, Prahv),
    "... a red source of your choice ..." (Burrenton Forge-Tender), "... would deal to you this
    turn." (Auriok Replica), "Prevent all damage that would be dealt to you this turn by a source
    of your choice." (Consulate Surveillance): a prevention effect for the rest of the turn
    (615.1a) on the damage of one source, chosen as the effect is created (609.7a) among those
    of the named colours; not used up, unlike a next-time shield (615.8)."""
    effect: dict[str, Any] = {"prevent": "all", "source_choice": "chosen_source", "duration": "turn"}
    to = (m.group("to") or m.group("to2") or "").lower()
    if to:
        effect["to"] = "self" if to == "~" else "you"
    if m.group("color"):
        colours = m.group("color").lower().split(" or ")
        effect["from"] = f"{colours[0]} sources" if len(colours) == 1 else [f"{c} sources" for c in colours]
    return spell_or_activated(ctx, m.group("cost") or m.group("cost2"), effect, None)


_NEXT_DEST = {"that source's controller": ("chosen source's controller", None), "~": ("self", None),
              "target creature you control": ("target", "creatures you control"), "you": ("you", None)}


@template("next_time_redirect", r"(?:(?P<cost>[^:]+): )?the next time a source of your choice would deal damage(?: to (?P<to>you|target creature))? this turn, (?:that damage is dealt to (?P<dest>that source's controller|~|target creature you control)|that source deals that damage to (?P<you>you)) instead\.", "CR 614.9, 615.9, 609.7a")
def _next_redirect(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"The next time a source of your choice would deal damage this turn, that damage is dealt to
    that source's controller instead." (Reflect Damage), "... to you this turn, that damage is
    dealt to this creature instead." (Beacon of Destiny), "... to target creature this turn, that
    source deals that damage to you instead." (Jade Monolith): a redirection (614.9) of the chosen
    source's next damage (615.9, 609.7a), used up once it has applied."""
    dest, dest_req = _NEXT_DEST[(m.group("dest") or m.group("you")).lower()]
    to = (m.group("to") or "").lower()
    if to == "target creature" and dest == "target":
        return None  # two targets
    effect: dict[str, Any] = {"redirect": dest, "next_time": True, "source_choice": "chosen_source"}
    req = dest_req
    if to == "you":
        effect["to"] = "you"
    elif to:
        effect["to"], req = "target", "creature"
    return spell_or_activated(ctx, m.group("cost"), effect, req)


@template("next_time_redirect_from_self", r"(?:(?P<cost>[^:]+): )?the next time damage would be dealt to ~(?P<you> and/or you)? this turn, that damage is dealt to any target instead\.", "CR 614.9, 609.7a")
def _next_redirect_from_self(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{2}{R}{W}: The next time damage would be dealt to this creature this turn, that damage is
    dealt to any target instead." (Mirrorwood Treefolk; "to this creature and/or you": Glarecaster):
    a redirection (614.9) of the next damage dealt to it (or you), from any source, to the target
    chosen as the ability is activated; used up once it has applied. (Damage to both at once
    would be two events its one next time meets: refused when the case has them.)"""
    to: Any = ["self", "you"] if m.group("you") else "self"
    return spell_or_activated(ctx, m.group("cost"), {"redirect": "target", "next_time": True, "to": to}, "any")


@template("circle_of_protection", r"(?P<cost>[^:]+): the next time an? (?P<kind>" + _SOURCE_COLOURS + r"|artifact|land) "
          r"source of your choice would deal damage(?P<you> to you)? this turn, prevent that damage\.", "CR 615.8, 609.7a")
def _cop(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{1}: The next time a red source of your choice would deal damage to you this turn, prevent
    that damage." (the Circles of Protection; "a black or red source": Greater Realm of
    Preservation, either colour; "an artifact source": Circle of Protection: Artifacts; without
    "to you", damage to anything: Pilgrim of Justice): a next-time shield (615.8) from a source
    chosen as the effect is created (609.7a) among those of that kind."""
    c = cost(m.group("cost"))
    if c is None:
        return None
    kind = m.group("kind").lower()
    sources: Any = {"types": [kind]} if kind in ("artifact", "land") else \
        [f"{colour} sources" for colour in kind.split(" or ")]
    effect: dict[str, Any] = {"shield": "all", "next_time": True,
                              "from": sources[0] if isinstance(sources, list) and len(sources) == 1 else sources,
                              "source_choice": "chosen_source"}
    if m.group("you"):
        effect["to"] = "you"
    ab: dict[str, Any] = {"activated": effect}
    if c:
        ab["cost"] = c
    return [ab], []

"""Statics that remove a keyword or keep counters off (CR 613.1f, 122.6; model.vocab.losekw):
"Creatures your opponents control lose infect." and "Creatures you control can't have -1/-1
counters put on them." (Melira, Sylvok Outcast)."""

from __future__ import annotations

import re

from .base import Built, Ctx, template
from .pt import keyword_list

_GROUPS = {"creatures your opponents control": "creatures an opponent controls", "creatures you control": "creatures you control",
           "other creatures you control": "other creatures you control", "all creatures": "creatures", "creatures": "creatures"}
_WHO = r"(?P<who>creatures your opponents control|(?:other )?creatures you control|all creatures|creatures)"


def _permanent(ctx: Ctx) -> bool:
    return bool(ctx["types"]) and not {"instant", "sorcery"} & set(ctx["types"])


@template("lose_keyword_static", rf"{_WHO} lose (?P<kws>[a-z ,]+?)\.", "CR 613.1f, 611.3a")
def _lose(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Creatures your opponents control lose infect." (Melira, Sylvok Outcast)."""
    kws = keyword_list(m.group("kws"))
    if kws is None or not _permanent(ctx):
        return None
    return [{"lose": kws, "to": _GROUPS[m.group("who").lower()]}], []


@template("cant_have_counters", rf"{_WHO} can't have (?P<kind>-1/-1|\+1/\+1) counters put on them\.", "CR 122.6, 120.3d, 611.3a")
def _cant_have(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Creatures you control can't have -1/-1 counters put on them." (Melira, Sylvok Outcast):
    none is put, by wither or infect damage (120.3d-e), an instruction, or as one enters with
    them (122.6: persist's return)."""
    if not _permanent(ctx):
        return None
    return [{"fewer_counters": {m.group("kind"): "all"}, "to": _GROUPS[m.group("who").lower()]}], []


@template("grant_poisonous", r"(?P<who>all [a-z]+ creatures|(?:other )?[a-z]+ creatures you control|(?:other )?creatures you "
          r"control) have poisonous (?P<n>\d+)\.", "CR 702.70a, 702.70b, 613.1f, 611.3a")
def _grant_poisonous(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"All Sliver creatures have poisonous 1." (Virulent Sliver): each has the triggered ability
    "Whenever this creature deals combat damage to a player, that player gets N poison counters"
    (702.70a), one instance for each effect granting it (702.70b)."""
    from mtg_outcomes.model.selectors import SelectorError, parse_selector

    if not _permanent(ctx):
        return None
    who = m.group("who").lower()
    who = who[len("all "):] if who.startswith("all ") else who
    try:
        sel = parse_selector(who)
    except SelectorError:
        return None
    if sel.kind != "objects" or (who.split()[0] not in ("creatures", "other") and not sel.subtypes):
        return None
    ab = {"trigger": "combat_damage_to_player", "do": {"get_poison": int(m.group("n")), "who": "that player"}}
    return [{"grant_trigger": ab, "to": who}], []


_PT = r"(?P<p>[+-]\d+)/(?P<t>[+-]\d+)"
_HOST = {"equipped creature": "equipped creature", "enchanted creature": "enchanted creature"}


@template("host_loses_keyword", rf"(?P<who>equipped creature|enchanted creature) (?:gets {_PT} and )?loses (?P<kws>[a-z ,]+?)\.",
          "CR 613.1f, 613.4c, 611.3a")
def _host_loses(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Equipped creature gets +1/+1 and loses flying." / "Enchanted creature loses flying." (an
    Aura's or Equipment's static ability: its creature at each moment)."""
    kws = keyword_list(m.group("kws"))
    if kws is None or not _permanent(ctx):
        return None
    who = _HOST[m.group("who").lower()]
    out: list[dict[str, object]] = []
    if m.group("p"):
        out.append({"pt": [int(m.group("p")), int(m.group("t"))], "to": who})
    return [*out, {"lose": kws, "to": who}], []

"""Power/toughness and keyword changes: "~ gets +1/+1 until end of turn", "target creature gains
first strike until end of turn", "equipped creature gets +2/+2 and has trample", "creatures you
control get +1/+1" (CR 613.4c layer 7c, 613.1f layer 6; 611.2c, 611.3a).

An effect created by a resolving spell or ability changes the permanents it names as it resolves
(611.2c): ``self``, a target, or a group ("creatures you control get +1/+1 until end of turn"),
which the engine fixes as the effect is created (solver.activation.fixed_as_it_resolves); a static
ability changes whatever it names at each moment (611.3a).
"""

from __future__ import annotations

import re
from typing import Any

from ..types import GRANTABLE
from .base import TARGETS, Built, Ctx, spell_or_activated, template

__all__ = ["keyword_list", "pt_sentence", "pt_and_keywords"]

_PT = r"(?P<p>[+-]\d+)/(?P<t>[+-]\d+)"
_KWS = r"(?P<kws>[a-z ,]+?)"
# the groups a resolving effect changes, fixed as it resolves (611.2c)
_GROUPS: dict[str, Any] = {
    "creatures you control": "creatures you control", "other creatures you control": "other creatures you control",
    "each creature you control": "creatures you control", "permanents you control": "permanents you control",
    "creatures your opponents control": "creatures an opponent controls", "all creatures": "creatures",
    "attacking creatures you control": {"types": ["creature"], "in_combat": ["attacking"], "controller": "you"},
    "attacking creatures": {"types": ["creature"], "in_combat": ["attacking"]},
}
_WHO_EOT = (r"(?P<who>~|it|target creature(?: you control| an opponent controls| you don't control)?|"
            + "|".join(sorted(_GROUPS, key=len, reverse=True)) + ")")


def keyword_list(text: str | None) -> list[str] | None:
    """"first strike", "flying and lifelink", "flying, first strike, and trample": keywords a
    grant may give, else None."""
    if not text:
        return None
    parts = [p.strip() for p in re.split(r",? and |, ", text.strip().lower()) if p.strip()]
    return parts if parts and all(p in GRANTABLE for p in parts) else None


def _effect(m: re.Match[str], to: Any) -> dict[str, Any] | None:
    """The ``pt``/``grant`` effect of a matched sentence (groups p, t, kws), or None."""
    effect: dict[str, Any] = {}
    if m.groupdict().get("p"):
        effect["pt"] = [int(m.group("p")), int(m.group("t"))]
    raw = m.groupdict().get("kws") or m.groupdict().get("kws2")
    if raw:
        kws = keyword_list(raw)
        if kws is None:
            return None
        effect["grant"] = kws
    if not effect:
        return None
    effect["to"] = to
    return effect


_EOT = re.compile(rf"^{_WHO_EOT} (?:gets? {_PT}(?: and gains? {_KWS})?|gains? (?P<kws2>[a-z ,]+?)) until end of turn\.$",
                  re.IGNORECASE)


def pt_sentence(sentence: str) -> tuple[dict[str, Any], Any] | None:
    """"~ gets +2/+2 until end of turn." / "Target creature gets +3/+0 and gains first strike
    until end of turn." / "Target creature gains lifelink until end of turn.": an effect lasting
    the turn (the whole case, 514.2) and its target requirement (or None for ~)."""
    m = _EOT.match(sentence.strip())
    if m is None:
        return None
    who = m.group("who").lower()
    if who in ("~", "it"):  # "it": the object the ability is of
        effect = _effect(m, "self")
        return None if effect is None else (effect, None)
    if who in _GROUPS:  # the permanents there as it resolves (611.2c)
        effect = _effect(m, _GROUPS[who])
        return None if effect is None else (effect, None)
    effect = _effect(m, "target")
    return None if effect is None else (effect, TARGETS[who])


@template("pt_until_end_of_turn", r"(?:(?P<cost>[^:]+): )?(?P<what>[^:]+ until end of turn\.)", "CR 613.4c, 613.1f, 611.2c")
def _pt_eot(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"{R}: ~ gets +1/+0 until end of turn." (Shivan Dragon), "{B}: ~ gains deathtouch until end
    of turn.", "Target creature gets +3/+3 and gains trample until end of turn." (a spell): an
    effect for the rest of the turn (613.4c power/toughness, 613.1f keywords) on the ability's
    source or its target, from an activated ability (602) or an instant or sorcery (608.2)."""
    got = pt_sentence(m.group("what"))
    if got is None:
        return None
    effect, req = got
    # a spell's effect on "~" would be on the spell itself: only a target is read there
    return spell_or_activated(ctx, m.group("cost"), effect, req, spell=effect["to"] != "self")


_STATIC_WHO = {"equipped creature": "equipped creature", "enchanted creature": "enchanted creature",
               "creatures you control": "creatures you control",
               "other creatures you control": "other creatures you control"}


@template("pt_static", rf"(?P<who>equipped creature|enchanted creature|(?:other )?creatures you control) (?:gets? {_PT}(?: and (?:has|have) {_KWS})?|(?:has|have) (?P<kws2>[a-z ,]+?))\.", "CR 613.4c, 613.1f, 611.3a")
def _pt_static(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Equipped creature gets +2/+2." / "Enchanted creature gets +1/+1 and has flying." /
    "Equipped creature has first strike." / "Creatures you control get +1/+1." / "Other creatures
    you control have trample.": a static ability (611.3a) changing power and toughness (613.4c)
    or giving keywords (613.1f) to what it names at each moment (an Aura's or Equipment's
    creature: ``attached_to:``)."""
    effect = pt_and_keywords(m)
    if effect is None:
        return None
    effect["to"] = _STATIC_WHO[m.group("who").lower()]
    return [effect], []


@template("pt_static_subtype", rf"(?P<who>(?:other )?[a-z]+(?: creatures)? you control) (?:gets? {_PT}(?: and (?:has|have) {_KWS})?|"
          rf"(?:has|have) (?P<kws2>[a-z ,]+?))\.", "CR 613.4c, 613.1f, 611.3a, 205.3")
def _pt_static_subtype(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Other Elves you control get +1/+1." (a lord) / "Zombie creatures you control have
    deathtouch.": as "creatures you control", for the creatures of that subtype (205.3m) — the
    selector phrase itself (model.selectors reads a plural subtype), refused if it isn't one."""
    from ..selectors import SelectorError, parse_selector

    who = m.group("who").lower()
    words = who.split()
    if words[0] == "other":
        words = words[1:]
    if words[0] in ("creatures", "permanents") or not ctx["types"] or {"instant", "sorcery"} & set(ctx["types"]):
        return None
    try:
        sel = parse_selector(who)
    except SelectorError:
        return None
    if not sel.subtypes:
        return None
    effect = pt_and_keywords(m)
    if effect is None:
        return None
    effect["to"] = who
    return [effect], []


def pt_and_keywords(m: re.Match[str]) -> dict[str, Any] | None:
    """The ``pt:`` and ``grant:`` of "gets +N/+N (and has <keywords>)" / "has <keywords>" (613.4c,
    613.1f), or None when a keyword isn't one the vocabulary grants."""
    effect: dict[str, Any] = {}
    if m.group("p"):
        effect["pt"] = [int(m.group("p")), int(m.group("t"))]
    raw = m.group("kws") or m.group("kws2")
    if raw:
        kws = keyword_list(raw)
        if kws is None:
            return None
        effect["grant"] = kws
    return effect


@template("pt_during_your_turn", rf"(?P<when>during your turn|as long as it's your turn), (?P<who>~|equipped creature|enchanted creature|(?:other )?creatures you control) "
          rf"(?:gets? {_PT}(?: and (?:has|have) {_KWS})?|(?:has|have) (?P<kws2>[a-z ,]+?))\.", "CR 613.4c, 613.1f, 611.3a, 500.1")
def _pt_your_turn(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"During your turn, ~ has first strike." / "During your turn, creatures you control get
    +1/+0.": a static ability (611.3a) that applies only while it's its controller's turn (the
    case's active player), ``if_your_turn: true``."""
    if {"instant", "sorcery"} & set(ctx["types"]):
        return None
    effect = pt_and_keywords(m)
    if effect is None:
        return None
    who = m.group("who").lower()
    effect["to"] = "self" if who == "~" else _STATIC_WHO[who]
    effect["if_your_turn"] = True
    return [effect], []

"""Token creation phrases (CR 111): "create a Food token", "create two 1/1 white Soldier
creature tokens with lifelink", "create a tapped Powerstone token".

The phrase is a one-shot action of :func:`model.recognise.base.one_shot`, so every template that
reads actions (spells, activated abilities, enters / dies / combat damage / end step triggers)
reads it too. The token is a predefined one (111.10, :data:`model.vocab.tokens.PREDEFINED_TOKENS`)
or a creature token whose characteristics the phrase gives in full (111.3: power and toughness,
colours, subtypes, card types, keywords the tool knows); a token with any other ability
(quoted abilities, "decayed", "that's a copy of") is not read.
"""

from __future__ import annotations

import re
from typing import Any

from ..keywords import KEYWORDS
from ..vocab.tokens import PREDEFINED_TOKENS

__all__ = ["create_phrase"]

_NUM = r"(?P<n>a|an|one|two|three|four|five|six|seven|\d+|x)"
_PREDEFINED = {k.lower(): k for k in PREDEFINED_TOKENS}
_COLOR = r"(?:white|blue|black|red|green)"
_COLORS = rf"(?P<colors>colorless|{_COLOR}(?:(?:,| and|, and) {_COLOR})*)"
_PRED = re.compile(rf"^(?:you )?create {_NUM} (?P<tapped>tapped )?(?P<kind>{'|'.join(_PREDEFINED)}) tokens?$")
_CREATURE = re.compile(rf"^(?:you )?create {_NUM} (?P<tapped>tapped )?(?P<p>\d+)/(?P<t>\d+) {_COLORS} "
                       r"(?P<subtypes>[a-z]+(?: [a-z]+)*?) (?P<types>(?:artifact |enchantment )?creature) tokens?"
                       r"(?: with (?P<kws>[a-z0-9 ,]+))?$")
_KW_SPLIT = re.compile(r", and |, | and ")


def _keywords(text: str | None) -> list[str] | None:
    if not text:
        return []
    out = []
    for kw in _KW_SPLIT.split(text.strip()):
        word = kw.strip()
        base = "toxic" if re.fullmatch(r"toxic \d+", word) else word
        if base not in KEYWORDS:
            return None
        out.append(word)
    return out


def create_phrase(low: str, that_much: bool = False) -> tuple[dict[str, Any], Any] | None:
    """``{create_tokens: N, token: ...}`` for a lower-case token-creation phrase (no target), or None;
    ``that_much``: in a trigger on damage, "create that many ..." reads the damage dealt."""
    from .base import number

    if that_much and " that many " in low:
        got = create_phrase(low.replace(" that many ", " 2 "))
        if got is None:
            return None
        return {**got[0], "create_tokens": "damage_dealt"}, None

    if m := _PRED.match(low):
        action: dict[str, Any] = {"create_tokens": number(m.group("n")), "token": _PREDEFINED[m.group("kind")]}
    elif m := _CREATURE.match(low):
        kws = _keywords(m.group("kws"))
        if kws is None:
            return None
        colors = [] if m.group("colors") == "colorless" else re.findall(_COLOR, m.group("colors"))
        subtypes = [w.capitalize() for w in m.group("subtypes").split()]
        types = m.group("types").split()
        token: dict[str, Any] = {"types": types, "subtypes": subtypes, "colors": colors,
                                 "power": int(m.group("p")), "toughness": int(m.group("t"))}
        if kws:
            token["keywords"] = kws
        action = {"create_tokens": number(m.group("n")), "token": token}
    else:
        return None
    if action["create_tokens"] is None:
        return None
    if m.group("tapped"):
        action["tapped"] = True
    return action, None


# --- a token with an ability in quotes (111.3: the abilities the effect gives it) ----------------

from .base import Built, Ctx, template  # noqa: E402  (the phrase reader above is imported by base)

_QUOTED = (r"(?P<head>[^\"]*\bcreate [^\"]*?\btokens?)"
           r"(?: with (?:(?P<kws>[a-z0-9 ,]+?),? and )?|\. it has |\. they have |\. each of them has )"
           r"\"(?P<ability>[^\"]+)\"\.?")


def _with_token_abilities(node: Any, abilities: list[Any]) -> int:
    """Give the token of each creature-token ``create_tokens`` under ``node`` these abilities;
    how many there were."""
    if isinstance(node, list):
        return sum(_with_token_abilities(n, abilities) for n in node)
    if not isinstance(node, dict):
        return 0
    if "create_tokens" in node:
        if not isinstance(node.get("token"), dict):
            return 99  # a predefined token's abilities are its own (111.10)
        node["token"]["abilities"] = list(node["token"].get("abilities", [])) + abilities
        return 1
    return sum(_with_token_abilities(v, abilities) for v in node.values())


@template("token_with_ability", _QUOTED, "CR 111.1, 111.3, 113.2")
def _token_with_ability(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"When ~ enters, create a 1/1 colorless Eldrazi Scion creature token. It has "Sacrifice this
    token: Add {C}."", "Create two 1/1 red Devil creature tokens with "When this token dies, it
    deals 1 damage to any target."": the creation read as any other line, and the quoted text as
    a line of the token's own (the token naming itself "this token", 201.5), understood in full."""
    from . import UNDERSTOOD
    from .templates import read_line

    quoted = re.sub(r"\bthis token\b", "~", m.group("ability"), flags=re.IGNORECASE)
    inner = read_line(quoted, quoted, {"name": "token", "types": ["creature"], "subtypes": []})
    head = m.group("head") + (f" with {m.group('kws')}" if m.group("kws") else "") + "."
    outer = read_line(head, head, ctx)
    if inner.status != UNDERSTOOD or outer.status != UNDERSTOOD or inner.keywords or outer.keywords or outer.reason:
        return None
    abilities = [dict(ab) for ab in outer.abilities]
    import copy

    abilities = copy.deepcopy(abilities)
    if _with_token_abilities(abilities, list(inner.abilities)) != 1:
        return None
    return abilities, []

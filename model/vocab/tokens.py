"""Tokens (CR 111): what a ``create_tokens`` action creates.

``token:`` is a predefined token's name (111.10: ``Food``, ``Treasure``, ``Clue``, ``Blood``,
``Gold``, ``Powerstone``) or a mapping of the characteristics the spell or ability gives it
(111.3): ``{types: [creature], subtypes: [Soldier], colors: [white], power: 1, toughness: 1,
keywords: [lifelink], abilities: [...]}``, ``name:`` optional (111.4: its subtypes plus "Token"),
and the action's ``tapped: true`` is "create a tapped ... token". A predefined token's abilities are the
vocabulary's own (an activated ability with a sacrifice cost, a mana ability).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..errors import CaseError
from ..keywords import KEYWORDS, known_keywords_text
from ..kinds import AbilityKind
from ..types import TokenSpec
from .common import _mapping

__all__ = ["PREDEFINED_TOKENS", "parse_token", "token_id", "token_creator"]

# a created token's id: its creator's id (the object whose ability created it, or the player of an
# action without a source) and a number, 1 for the first that creator created (``pest-token1``);
# a case names it in later actions and in expect: fields (``pest-token1.dies``)
_TOKEN_ID = re.compile(r"^(?P<creator>.+)-token(?P<n>[1-9][0-9]*)$")


def token_id(creator: str, n: int) -> str:
    return f"{creator}-token{n}"


def token_creator(oid: str) -> str | None:
    """The creator named in a token's id, or None when ``oid`` is no token's id."""
    m = _TOKEN_ID.match(oid)
    return m.group("creator") if m else None

# 111.10a-h: the predefined tokens whose abilities the vocabulary states (Blood's "Discard a card"
# cost: hands aren't tracked, so it is assumed payable, as mana is; Powerstone's spending
# restriction: spending isn't modelled, 106.4)
PREDEFINED_TOKENS: dict[str, dict[str, Any]] = {
    "Treasure": {"types": ["artifact"], "subtypes": ["Treasure"],
                 "abilities": [{"mana": "any_color", "cost": ["T", {"sacrifice": "self"}]}]},
    "Food": {"types": ["artifact"], "subtypes": ["Food"],
             "abilities": [{"activated": {"gain_life": 3, "who": "you"}, "cost": [2, "T", {"sacrifice": "self"}]}]},
    "Gold": {"types": ["artifact"], "subtypes": ["Gold"],
             "abilities": [{"mana": "any_color", "cost": [{"sacrifice": "self"}]}]},
    "Clue": {"types": ["artifact"], "subtypes": ["Clue"],
             "abilities": [{"activated": {"draw": 1, "who": "you"}, "cost": [2, {"sacrifice": "self"}]}]},
    "Blood": {"types": ["artifact"], "subtypes": ["Blood"],
              "abilities": [{"activated": {"draw": 1, "who": "you"}, "cost": [1, "T", {"sacrifice": "self"}]}]},
    "Powerstone": {"types": ["artifact"], "subtypes": ["Powerstone"],
                   "abilities": [{"mana": ["C"], "cost": ["T"]}]},
}

_TYPES = ("artifact", "creature", "enchantment", "land")
_COLORS = ("white", "blue", "black", "red", "green")
_KEYS = {"name", "types", "subtypes", "colors", "power", "toughness", "keywords", "abilities"}


def parse_token(value: Any, path: str) -> TokenSpec:
    """A ``token:`` value: a predefined token's name or a mapping of characteristics (111.3)."""
    if isinstance(value, str):
        base = PREDEFINED_TOKENS.get(value)
        if base is None:
            raise CaseError(path, f"unknown predefined token {value!r} (one of {', '.join(PREDEFINED_TOKENS)}, "
                            "or a mapping such as {types: [creature], subtypes: [Soldier], colors: [white], power: 1, toughness: 1})")
        return _build({**base, "name": f"{value} Token"}, path)
    m = _mapping(value, path, "a predefined token's name or a token's characteristics")
    for key in m:
        if key not in _KEYS:
            raise CaseError(f"{path}.{key}", f"unknown key (a token takes {', '.join(sorted(_KEYS))})")
    return _build(m, path)


def _words(m: Mapping[str, Any], key: str, path: str, allowed: tuple[str, ...] | None = None) -> tuple[str, ...]:
    raw = m.get(key, [])
    if not isinstance(raw, list) or not all(isinstance(w, str) and w for w in raw):
        raise CaseError(f"{path}.{key}", "expected a list of words")
    if allowed is not None:
        for i, w in enumerate(raw):
            if w.lower() not in allowed:
                raise CaseError(f"{path}.{key}[{i}]", f"expected one of {', '.join(allowed)}")
        return tuple(w.lower() for w in raw)
    return tuple(raw)


def _build(m: Mapping[str, Any], path: str) -> TokenSpec:
    from .abilities import parse_ability  # (abilities reads one-shot actions, which read tokens)

    types = _words(m, "types", path, _TYPES)
    if not types:
        raise CaseError(f"{path}.types", "a token has at least one card type (111.3), e.g. [creature]")
    subtypes = _words(m, "subtypes", path)
    colors = _words(m, "colors", path, _COLORS)
    pt = []
    for key in ("power", "toughness"):
        v = m.get(key, 0)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise CaseError(f"{path}.{key}", "expected a whole number, 0 or more")
        pt.append(v)
    if "creature" in types and ("power" not in m or "toughness" not in m):
        raise CaseError(path, "a creature token needs power: and toughness: (111.3)")
    if "creature" not in types and ("power" in m or "toughness" in m):
        raise CaseError(path, "only a creature token has power and toughness (208.1)")
    keywords: list[str] = []
    toxic = 0
    for i, kw in enumerate(_words(m, "keywords", path)):
        word = kw.lower().strip()
        if word.startswith("toxic "):
            n = word[len("toxic "):]
            if not n.isdigit() or int(n) < 1:
                raise CaseError(f"{path}.keywords[{i}]", "toxic needs a number: 'toxic 2'")
            toxic, word = int(n), "toxic"
        if word not in KEYWORDS:
            raise CaseError(f"{path}.keywords[{i}]", f"unknown keyword {kw!r}; {known_keywords_text()}")
        keywords.append(word)
    raw_abs = m.get("abilities", [])
    if not isinstance(raw_abs, list):
        raise CaseError(f"{path}.abilities", "expected a list of abilities")
    abilities = []
    for i, raw in enumerate(raw_abs):
        q = f"{path}.abilities[{i}]"
        ab = parse_ability(raw, q)
        if ab.kind in (AbilityKind.AS_ENTERS, AbilityKind.SPELL, AbilityKind.MODES, AbilityKind.KICKER):
            raise CaseError(q, f"a token's ability can't be a {ab.kind} ability (a token is a permanent, 111.1)")
        abilities.append(ab)
    name = m.get("name")
    if name is None:
        name = " ".join(subtypes + ("Token",)) if subtypes else "Token"  # 111.4
    elif not isinstance(name, str) or not name.strip():
        raise CaseError(f"{path}.name", "expected the token's name")
    return TokenSpec(name, types, subtypes, colors, pt[0], pt[1], tuple(keywords), toxic, tuple(abilities))

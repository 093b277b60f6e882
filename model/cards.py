"""The card library: cards as data (one YAML file per card in ``model/cards/``), never code per card."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from .carddata import fold
from .errors import CaseError
from .yamlio import read_yaml

__all__ = ["card_library", "lookup_card", "CARD_KEYS"]

CARD_DIR = Path(__file__).parent / "cards"
CARD_KEYS = ("name", "oracle", "types", "subtypes", "supertypes", "colors", "power", "toughness",
             "loyalty", "defense", "keywords", "abilities", "omits")


@cache
def card_library() -> Mapping[str, Mapping[str, Any]]:
    """Every card of the library by lower-cased name. Raises CaseError on a broken entry."""
    cards: dict[str, Mapping[str, Any]] = {}
    for path in sorted(CARD_DIR.glob("*.yaml")):
        data = read_yaml(path)
        if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
            raise CaseError("name", "a card entry needs a name", str(path))
        for key in data:
            if key not in CARD_KEYS:
                raise CaseError(str(key), "unknown key in card entry", str(path))
        for i, item in enumerate(data.get("omits") or ()):
            # a line of the card the vocabulary can't state: {text, why}, said wherever it is used
            if not (isinstance(item, Mapping) and set(item) == {"text", "why"} and all(isinstance(v, str) for v in item.values())):
                raise CaseError(f"omits[{i}]", "expected {text: <the card's line>, why: <why it isn't modelled>}", str(path))
        cards[data["name"].lower()] = data
    return cards


@cache
def _folded() -> Mapping[str, Mapping[str, Any]]:
    return {fold(key): card for key, card in card_library().items()}


def lookup_card(name: str) -> Mapping[str, Any] | None:
    """A library card by name, compared as the card data compares names (case-insensitive,
    ASCII-folded, whitespace collapsed), so the library keeps precedence for every spelling."""
    return _folded().get(fold(name))

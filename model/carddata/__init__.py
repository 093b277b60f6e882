"""The facts of every real card (``cards.jsonl.gz``, made by :mod:`model.carddata.build`).

Loaded lazily, on the first look-up of a name the hand-written library (:mod:`model.cards`) doesn't
have. Names are matched case-insensitively and ASCII-folded (``Æther Vial`` = ``aether vial``,
``Lim-Dûl's Vault`` = ``lim-dul's vault``); a multi-face card is found by its full name
(``Fire // Ice``) or by one face's name (``Ice``). An unknown name is :class:`UnknownCard` with the
closest names.
"""

from __future__ import annotations

import difflib
import gzip
import hashlib
import json
import os
import pickle
import re
import tempfile
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..keywords import EFFECTIVE, NO_EFFECT
from ..recognise import read_face
from .build import face_colors
from .build import type_line as rebuilt

__all__ = ["DATA_FILE", "fold", "all_cards", "find", "Found", "UnknownCard", "MissingFace", "type_line", "real_card",
           "RealCard"]

DATA_FILE = Path(__file__).with_name("cards.jsonl.gz")
_LIGATURES = {"æ": "ae", "œ": "oe", "ß": "ss", "ø": "o", "ð": "d", "þ": "th", "ł": "l"}
_QUOTES = {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-", "\ua789": ":"}


def fold(name: str) -> str:
    """The form names are compared in: case-folded, ligatures spelled out (Æ -> ae), accents
    stripped (NFKD), curly quotes straightened, whitespace collapsed."""
    low = name.casefold()
    low = "".join(_LIGATURES.get(ch, _QUOTES.get(ch, ch)) for ch in low)
    low = "".join(ch for ch in unicodedata.normalize("NFKD", low) if not unicodedata.combining(ch))
    return " ".join(low.split())


class UnknownCard(LookupError):
    """No card has this name; ``suggestions`` are the closest names."""

    def __init__(self, name: str, suggestions: list[str], reason: str = "") -> None:
        self.name, self.suggestions = name, suggestions
        text = reason or f"no card is named {name[:200]!r}{'...' if len(name) > 200 else ''}"
        if suggestions:
            text += "; closest: " + ", ".join(suggestions)
        super().__init__(text)


class MissingFace(LookupError):
    """The name is a face of a multi-face card whose text the shipped data lacks."""


@dataclass(frozen=True)
class Found:
    """A card found by name: the card and the face the name means: the named face, or the front
    face for the full name (CR 712.8a: a double-faced card not on the battlefield or the stack has
    its front face's characteristics). :func:`real_card` refuses a split card's full name (709.3)."""

    card: Mapping[str, Any]
    face: Mapping[str, Any]
    by_face: bool  # the name given was a face's name, not the card's


def type_line(face: Mapping[str, Any]) -> str:
    """The printed type line (stored only where it isn't "Supertypes Types — Subtypes")."""
    return str(face.get("type_line") or rebuilt(face))


_NAME = re.compile(r'"name":"((?:[^"\\]|\\.)*)"')  # a "name" key's JSON string (an escaped quote can't start one)


@cache
def _lines() -> tuple[str, ...]:
    """The data file's lines, each one card's JSON, kept as text: a card is parsed when it is
    looked up, so the ~250k objects of the parsed file are never made (nor scanned by the cyclic
    garbage collector in every full collection of a process that answered one named card)."""
    return _cached()[0]


def _cache_file(raw: bytes) -> Path:
    """Where the decompressed lines and the name index of this data file are kept between
    processes: the user's cache folder, keyed by the file's contents and by this module's own
    source, which makes the index (a new card data file, or a new way of indexing it, never meets
    an old cache)."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    key = hashlib.sha256(raw + Path(__file__).read_bytes()).hexdigest()[:20]
    return base / "mtg-outcomes" / f"cards-{key}.pickle"


@cache
def _cached() -> tuple[tuple[str, ...], Any]:
    """The lines and the name index: read from the cache (decompressing and indexing ~34k cards
    cost each process ~0.3 s of its start), else made and written there for the next process;
    a cache that can't be read or written is made again, never an error."""
    raw = DATA_FILE.read_bytes()
    path = _cache_file(raw)
    try:
        with path.open("rb") as fh:
            got = pickle.load(fh)
        if isinstance(got, tuple) and len(got) == 2:
            return got
    except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError):
        pass
    text = gzip.decompress(raw).decode("utf-8")
    lines = tuple(line for line in text.split("\n") if line.strip())
    made = (lines, _make_index(lines))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False) as tmp:
            pickle.dump(made, tmp, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp.name, path)  # (atomic: a process reading at the same time sees all or nothing)
    except OSError:
        pass
    return made


@cache
def _card(i: int) -> Mapping[str, Any]:
    """Line ``i``'s card, each face's ``colors`` filled in."""
    card = json.loads(_lines()[i])
    for face in card.get("faces") or ():
        if not face.get("missing"):
            face["colors"] = face_colors(face)
    return card


def all_cards() -> tuple[Mapping[str, Any], ...]:
    """Every card of the data file, sorted by name (each face's ``colors`` filled in)."""
    return tuple(sorted((_card(i) for i in range(len(_lines()))), key=lambda c: str(c["name"])))


def _fast_fold(name: str) -> str:
    """:func:`fold` (the same result; ASCII names, nearly all, need only case and spaces)."""
    return " ".join(name.lower().split()) if name.isascii() else fold(name)


def _index() -> tuple[dict[str, int], dict[str, list[tuple[int, int]]]]:
    """:func:`_make_index` of the data file (kept with its lines, :func:`_cached`)."""
    return _cached()[1]


def _make_index(lines: tuple[str, ...]) -> tuple[dict[str, int], dict[str, list[tuple[int, int]]]]:
    """Folded card name -> line, folded face name -> (line, face) for cards of several faces
    (where two names fold alike, the first by name wins, as in :func:`all_cards`' order). A
    one-face card's line has two names, the face's and the card's, both the same, read off the
    text; a line with any other names is parsed."""
    named: dict[str, tuple[str, int]] = {}
    faced: dict[str, list[tuple[str, int, int]]] = {}
    for i, line in enumerate(lines):
        names = _NAME.findall(line)
        if len(names) == 2 and names[0] == names[1]:
            name = json.loads(f'"{names[0]}"') if "\\" in names[0] else names[0]
            key = _fast_fold(name)
            if key not in named or name < named[key][0]:
                named[key] = (name, i)
            continue
        card = json.loads(line)
        key = _fast_fold(card["name"])
        if key not in named or card["name"] < named[key][0]:
            named[key] = (card["name"], i)
        faces = card.get("faces") or []
        if len(faces) > 1:
            for j, face in enumerate(faces):
                faced.setdefault(_fast_fold(face["name"]), []).append((card["name"], i, j))
    by_face = {key: [(i, j) for _, i, j in sorted(hits)] for key, hits in faced.items()}
    return {key: i for key, (_, i) in named.items()}, by_face


def _keyword_named(key: str, name: str) -> str:
    """A keyword ability's name given for a card's (``card Hexproof``): said as such (CR 702),
    rather than the card names spelled most like it."""
    what = EFFECTIVE.get(key) or NO_EFFECT.get(key)
    if what is None:
        return ""
    rule = re.search(r"702\.\d+[a-z]?", what)
    return (f"{name!r} is a keyword ability (CR {rule.group(0) if rule else '702'}), not a card's name: "
            f"a permanent has it with keywords: [{key}]")


def find(name: str) -> Found:
    """The card called ``name`` (its full name or one face's). Raises :class:`UnknownCard` (with
    the closest names) or :class:`MissingFace`."""
    key = fold(name)
    by_name, by_face = _index()
    at = by_name.get(key)
    if at is not None:
        card = _card(at)
        return Found(card, card["faces"][0], False)
    hits = by_face.get(key, [])
    if len(hits) > 1:
        raise UnknownCard(name, sorted(_card(line)["name"] for line, _ in hits),
                          f"{name!r} is a face of more than one card; name the card")
    if hits:
        line, i = hits[0]
        card = _card(line)
        face = card["faces"][i]
        if face.get("missing"):
            raise MissingFace(f"{face['name']!r} is a face of {card['name']!r} whose text the shipped "
                              "card data lacks (regenerate it from MTGJSON AtomicCards: python -m mtg_outcomes.model.carddata.build)")
        return Found(card, face, True)
    keyword = _keyword_named(key, name)
    if keyword:
        raise UnknownCard(name, [], keyword)
    keys = list(by_name) + list(by_face)
    close = difflib.get_close_matches(key, keys, n=5, cutoff=0.6)
    names: list[str] = []
    for k in close:
        shown = _card(by_name[k])["name"] if k in by_name else _card(by_face[k][0][0])["faces"][by_face[k][0][1]]["name"]
        if shown not in names:
            names.append(shown)
    raise UnknownCard(name, names)


SPLIT_LAYOUTS = ("split", "aftermath")


@dataclass(frozen=True)
class RealCard:
    """A real card's characteristics in the card-library form (``name``, ``oracle``, ``types``,
    ..., ``abilities``), what the recogniser made of its text, and the characteristics the data
    can't give (``*`` power, colours of a face without a mana cost), each with the reason."""

    name: str
    base: Mapping[str, Any]
    reading: Any  # model.recognise.CardReading
    unknown: Mapping[str, str]
    # the card's other faces whose text the data lacks (an adventure's, a split card's other half,
    # a modal double-faced card's back): said wherever the card is named, never silent
    lacking: tuple[str, ...] = ()


def _printed_number(value: Any) -> int | None:
    return int(value) if isinstance(value, str) and value.isdigit() else None


def real_card(name: str) -> RealCard:
    """The face ``name`` means (the front face for a full name, CR 712.8a; a named face of a
    transforming card is that face, 712.8d) as characteristics. A split card must be named by
    the half: a split card on the stack has only that half's characteristics (709.3). Raises
    :class:`UnknownCard` or :class:`MissingFace`."""
    found = find(name)
    card, face = found.card, found.face
    faces = card.get("faces") or []
    if not found.by_face and card.get("layout") in SPLIT_LAYOUTS and len(faces) > 1:
        halves = " or ".join(repr(f["name"]) for f in faces)
        raise UnknownCard(name, [], f"{card['name']!r} is a split card: name the half that is cast ({halves}, CR 709.3)")
    reading = read_face(face)
    unknown: dict[str, str] = {}
    base: dict[str, Any] = {
        "name": face["name"], "oracle": face.get("text", ""),
        "types": list(face.get("types") or []), "subtypes": list(face.get("subtypes") or []),
        "supertypes": list(face.get("supertypes") or []),
        "keywords": reading.keywords, "abilities": reading.abilities,
    }
    if face.get("colors") is None:
        unknown["colors"] = (f"{face['name']} has no mana cost and the card data has no colour indicator for it "
                             "(CR 202.2, 204); give colors:")
    else:
        base["colors"] = list(face["colors"])
    for key in ("power", "toughness", "loyalty", "defense"):
        raw = face.get(key)
        if raw is None:
            continue
        value = _printed_number(raw)
        if value is None:
            unknown[key] = f"{face['name']}'s printed {key} is {raw!r}, not a number (CR 208.2: defined by an ability); give {key}:"
        else:
            base[key] = value
    if "battle" in base["types"] and face.get("defense") is None:
        unknown["defense"] = f"{face['name']}'s defense isn't in the card data; give defense:"
    lacking = tuple(str(f["name"]) for f in faces if f.get("missing"))
    return RealCard(face["name"], base, reading, unknown, lacking)

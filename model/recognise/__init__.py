"""The recogniser: a real card's Oracle text turned into the case-file vocabulary.

Oracle text is read one ability at a time (CR 113.2: each paragraph, a line of the text, is an
ability; reminder text in parentheses is not rules text, 207.2). Each line becomes one
:class:`Reading`:

* ``understood``: a template of :mod:`model.recognise.templates` matched the whole line; it gives
  abilities in the case-file vocabulary (the same mappings a case file writes, parsed by the same
  :func:`model.vocab.parse_ability`) and keywords;
* ``ignored``: text that can't change anything this tool computes (flying's evasion, cycling from
  a hand, attaching by equip), with the reason;
* ``not understood``: anything else. A card with such a line is never used silently: loading a
  case that names it is an error naming the card and the line, unless the case gives the card's
  ``abilities:`` itself.

A card is *damage-relevant* (:func:`damage_relevant`) when its text (reminder text left out)
mentions damage, prevention, life, poison or mana production, or it has a damage keyword.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = [
    "Reading", "CardReading", "read_face", "read_text", "damage_relevant", "family_of",
    "DAMAGE_KEYWORDS", "FAMILIES", "ReadingStatus",
]


class ReadingStatus(StrEnum):
    """What became of a line of Oracle text (str-valued: ``card --json`` says the same words)."""

    UNDERSTOOD = "understood"
    IGNORED = "ignored"  # provably can't change a damage answer (its rule and reason said)
    NOT_UNDERSTOOD = "not understood"


UNDERSTOOD, IGNORED, NOT_UNDERSTOOD = ReadingStatus.UNDERSTOOD, ReadingStatus.IGNORED, ReadingStatus.NOT_UNDERSTOOD
DAMAGE_KEYWORDS = ("deathtouch", "double strike", "first strike", "indestructible", "infect",
                   "lifelink", "toxic", "trample", "wither")
_RELEVANT = re.compile(
    r"damage|prevent|\blife\b|poison|lifelink|deathtouch|infect|wither|toxic|trample|first strike|"
    r"double strike|indestructible|\badd\b[^.]*(\{[WUBRGCS0-9X]\}|mana)", re.IGNORECASE)
FAMILIES = ("keyword", "modal", "mana", "damage", "prevention", "life", "trigger", "activated", "static")
# a modal spell's or ability's choice of modes ("Choose one —", "Choose one or both —", 700.2)
_MODAL_LINE = re.compile(r"^(?:[^.—]*?,\s*)?choose (?:one|two|three|four|five|any number|up to \w+)\b[^.]*—")


@dataclass(frozen=True)
class Reading:
    """What one line of Oracle text became."""

    text: str
    status: ReadingStatus
    template: str = ""
    rule: str = ""
    abilities: tuple[Any, ...] = ()
    keywords: tuple[str, ...] = ()
    reason: str = ""
    # ignored only for a permanent already on the battlefield: what happens as it enters
    # ("enters tapped") is not modelled, so it is not understood for one entering during a case
    on_entering: bool = False

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "status": self.status}
        if self.template:
            out["template"] = self.template
            out["rule"] = self.rule
        if self.abilities:
            out["abilities"] = list(self.abilities)
        if self.keywords:
            out["keywords"] = list(self.keywords)
        if self.reason:
            out["reason"] = self.reason
        if self.on_entering:
            out["not_understood_when_entering"] = True
        return out


@dataclass(frozen=True)
class CardReading:
    """A face's lines and what they became, in order."""

    name: str
    lines: tuple[Reading, ...] = field(default_factory=tuple)

    @property
    def understood(self) -> bool:
        """Every line understood or ignored: nothing is left out silently."""
        return all(r.status != NOT_UNDERSTOOD for r in self.lines)

    @property
    def not_understood(self) -> tuple[Reading, ...]:
        return tuple(r for r in self.lines if r.status == NOT_UNDERSTOOD)

    def not_understood_entering(self) -> tuple[Reading, ...]:
        """The lines not understood for a permanent that enters during the case's actions."""
        return tuple(r for r in self.lines if r.status == NOT_UNDERSTOOD or r.on_entering)

    @property
    def block_rules(self) -> tuple[Reading, ...]:
        """Lines, or ignored keywords of a keyword line ("Flying, shadow"), that restrict attacks or
        blocks ("can't block", evasion): ignored only while the case writes its blocks (see
        templates.BLOCKS_AS_WRITTEN)."""
        from .templates import BLOCKS_AS_WRITTEN

        return tuple(r for r in self.lines if r.status != NOT_UNDERSTOOD and BLOCKS_AS_WRITTEN in r.reason)

    @property
    def abilities(self) -> list[Any]:
        return [ab for r in self.lines if r.status == UNDERSTOOD for ab in r.abilities]

    @property
    def keywords(self) -> list[str]:
        """Keywords of understood and ignored lines (flying is a fact a selector may read)."""
        out: list[str] = []
        for r in self.lines:
            out.extend(k for k in r.keywords if k not in out)
        return out


_REMINDER = re.compile(r"\s*\([^()]*\)")


def strip_reminder(line: str) -> str:
    """Reminder text (parenthesised) is not rules text (CR 207.2)."""
    return " ".join(_REMINDER.sub("", line).split())


def self_names(name: str) -> list[str]:
    """The ways Oracle text names the card itself (CR 201.5: the card's name, or a legendary's
    short name before the comma; a rebalanced "A-" card's name without the prefix), longest first."""
    names = {name}
    if name.startswith("A-"):  # a digital rebalanced card's text names the card without "A-"
        names.add(name[2:])
    for n in list(names):
        if ", " in n:
            names.add(n.split(", ")[0])
    return sorted(names, key=len, reverse=True)


_THIS = re.compile(r"\bthis (creature|permanent|artifact|enchantment|land|spell|equipment|aura|"
                   r"vehicle|planeswalker|battle|card|siege|saga|class|case)\b", re.IGNORECASE)


def normalise(line: str, name: str, also: Sequence[str] = ()) -> str:
    """The line with reminder text removed and the card's references to itself written ``~``
    (``also``: more names it uses for itself, :func:`walker_names`)."""
    text = strip_reminder(line)
    for n in sorted({*self_names(name), *also}, key=len, reverse=True):
        text = re.sub(rf"(?<![\w']){re.escape(n)}(?![\w])", "~", text)
    return _THIS.sub("~", text)


def walker_names(name: str, types: Sequence[str], subtypes: Sequence[str]) -> list[str]:
    """A planeswalker's text names it by its first name, its planeswalker type ("Ajani deals 3
    damage" on Ajani Vengeant; CR 201.5, 205.3j): that word when the name starts with it."""
    first = name[2:] if name.startswith("A-") else name
    word = first.split(" ")[0].rstrip(",")
    if "planeswalker" in {t.lower() for t in types} and word in subtypes and word != first:
        return [word]
    return []


def read_text(text: str, name: str, types: Sequence[str] = (), subtypes: Sequence[str] = ()) -> CardReading:
    """Read Oracle ``text`` of a face named ``name`` with these card types and subtypes."""
    from .modal import (
        BULLET,
        ENTWINE,
        ESCALATE,
        MODAL_HEADER,
        TRIGGER_HEADER,
        read_escalate,
        read_modal,
        read_modal_trigger,
    )
    from .templates import read_line

    lines = [ln.strip() for ln in (text or "").split("\n") if ln.strip()]
    also = walker_names(name, types, subtypes)
    ctx = {"name": name, "types": [t.lower() for t in types], "subtypes": list(subtypes)}
    out: list[Reading] = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        if MODAL_HEADER.match(normalise(ln, name, also)):
            # a modal spell's header and its bullets are read together (CR 700.2)
            j = i + 1
            while j < len(lines) and lines[j].startswith(BULLET):
                j += 1
            # "Entwine {2}" after the bullets is read with them (702.42a)
            entwine = lines[j] if j < len(lines) and ENTWINE.match(normalise(lines[j], name, also)) else None
            out.extend(read_modal(ln, [(b, normalise(b, name, also)) for b in lines[i + 1:j]], ctx, read_line, entwine))
            i = j + (entwine is not None)
            continue
        if ESCALATE.match(normalise(ln, name, also)) and any(MODAL_HEADER.match(normalise(x, name, also)) for x in lines) \
                and {"instant", "sorcery"} & set(ctx["types"]):
            out.append(read_escalate(ln))  # a modal spell's "Escalate {1}" (702.120a)
            i += 1
            continue
        if TRIGGER_HEADER.match(normalise(ln, name, also)):
            # a modal trigger ("When ~ enters, choose one —") and its bullets (700.2b)
            j = i + 1
            while j < len(lines) and lines[j].startswith(BULLET):
                j += 1
            out.extend(read_modal_trigger(ln, normalise(ln, name, also), [(b, normalise(b, name, also)) for b in lines[i + 1:j]],
                                          ctx, read_line))
            i = j
            continue
        out.append(read_line(ln, normalise(ln, name, also), ctx))
        i += 1
    return CardReading(name, tuple(out))


def read_face(face: Mapping[str, Any]) -> CardReading:
    """Read one face of the card data (:mod:`model.carddata`)."""
    return read_text(str(face.get("text") or ""), str(face.get("name", "")),
                     face.get("types") or (), face.get("subtypes") or ())


def damage_relevant(face: Mapping[str, Any]) -> bool:
    """The definition ``cards --coverage`` counts: the Oracle text (reminder text left out)
    mentions damage, prevention, life, poison, or adds mana ("Add {G}", "Add one mana"), or the
    face has a damage keyword (deathtouch, double strike, first strike, indestructible, infect,
    lifelink, toxic, trample, wither)."""
    if _RELEVANT.search(strip_reminder(str(face.get("text") or ""))):
        return True
    kws = {str(k).lower() for k in face.get("keywords") or ()}
    return any(k in kws for k in DAMAGE_KEYWORDS)


# a line of keywords: capitalised words, each maybe with a number or a cost ("Ward {2}", "Bushido 1")
_KEYWORD_LINE = re.compile(r"^[A-Z][a-z]+(?: [a-z]+)?(?:[ —-]+(?:\d+|X|(?:\{[^}]+\})+|[A-Za-z ]+))?"
                           r"(?:, [A-Za-z]+(?: [a-z]+)?(?: (?:\d+|(?:\{[^}]+\})+))?)*$")


def family_of(reading: Reading) -> str:
    """The family of a line (for ``cards --coverage --family``): what the line is about, first
    match of keyword, modal (700.2), mana, damage, prevention, life, trigger, activated, static."""
    low = reading.text.lower()
    if reading.template == "keywords" or _KEYWORD_LINE.match(strip_reminder(reading.text)):
        return "keyword"
    if _MODAL_LINE.match(low):
        return "modal"
    if re.search(r"\badd\b[^.]*(\{[wubrgcs0-9x]\}|mana)", low):
        return "mana"
    if "prevent" in low:
        return "prevention"
    if "damage" in low:
        return "damage"
    if re.search(r"\blife\b", low):
        return "life"
    if re.match(r"(when|whenever|at)\b", low):
        return "trigger"
    if re.match(r"[^\"]*\}[^\"]*:|[^\"]*\{t\}", low) or ": " in low:
        return "activated"
    return "static"

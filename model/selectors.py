"""Selectors: who or what an effect, trigger or action talks about, written like card text.

A selector is parsed once into an immutable :class:`Selector`; it is read later from the point of
view of the effect's controller (``you`` is that controller), as on a card. Matching against a game
state lives in the solver; this module only knows the language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .keywords import KEYWORDS, known_keywords_text
from .subtypes import subtype_of

__all__ = ["Selector", "SelectorKind", "parse_selector", "SelectorError", "COLORS", "TYPES"]

COLORS = ("white", "blue", "black", "red", "green")
TYPES = ("artifact", "creature", "enchantment", "land", "planeswalker", "battle", "instant", "sorcery")
# Plural nouns of the phrase grammar and the object types they mean ("" = any object).
_NOUNS = {
    "creature": "creature", "creatures": "creature",
    "permanent": "permanent", "permanents": "permanent",
    "planeswalker": "planeswalker", "planeswalkers": "planeswalker",
    "battle": "battle", "battles": "battle",
    "land": "land", "lands": "land",
    "artifact": "artifact", "artifacts": "artifact",
    "enchantment": "enchantment", "enchantments": "enchantment",
    "source": "source", "sources": "source",
    "spell": "spell", "spells": "spell",
}
class SelectorKind(StrEnum):
    """What a selector names (str-valued: a case file and ``--json`` hold the same words)."""

    YOU = "you"
    OPPONENTS = "opponents"
    PLAYERS = "players"
    ANY = "any"  # any target: a player or a permanent
    SELF = "self"
    TARGET = "target"
    SECOND_TARGET = "second_target"  # a spell's second target (601.2c)
    CHOSEN = "chosen"
    CHOSEN_SOURCE = "chosen_source"
    EQUIPPED = "equipped"
    ENCHANTED = "enchanted"
    CHOICE = "choice"  # its controller picks when it happens
    THAT_PLAYER = "that_player"  # in a trigger's do:, the player its event names
    TARGET_CONTROLLER = "target_controller"  # the target's controller, as it last existed (608.2h)
    CHOSEN_SOURCE_CONTROLLER = "chosen_source_controller"  # the chosen source's controller (608.2h)
    # a prevention's rider, per source whose damage it prevented: that creature or the source's
    # controller (Comeuppance, 615.5; solver.persource)
    PREVENTED_SOURCE = "prevented_source"
    REF = "ref"  # a player name or object id (Selector.name)
    OBJECTS = "objects"  # the phrase grammar
    ANY_OF = "any_of"  # a list (Selector.parts)


# Fixed phrases -> selector kind.
_FIXED: dict[str, SelectorKind] = {
    "you": SelectorKind.YOU,
    "opponents": SelectorKind.OPPONENTS, "an opponent": SelectorKind.OPPONENTS, "each opponent": SelectorKind.OPPONENTS,
    "opponent": SelectorKind.OPPONENTS,
    "each player": SelectorKind.PLAYERS, "players": SelectorKind.PLAYERS, "player": SelectorKind.PLAYERS, "a player": SelectorKind.PLAYERS,
    "any": SelectorKind.ANY, "any target": SelectorKind.ANY, "anything": SelectorKind.ANY,
    "self": SelectorKind.SELF, "this": SelectorKind.SELF,
    "target": SelectorKind.TARGET,
    "second target": SelectorKind.SECOND_TARGET,  # a spell's second target (its second_target: requirement)
    "chosen": SelectorKind.CHOSEN, "the chosen player": SelectorKind.CHOSEN,
    "chosen_source": SelectorKind.CHOSEN_SOURCE,
    "equipped creature": SelectorKind.EQUIPPED, "enchanted creature": SelectorKind.ENCHANTED,
    "choice": SelectorKind.CHOICE,
    "that player": SelectorKind.THAT_PLAYER,
    # "that creature's controller" in an ability with a permanent target: the target's controller
    # (as it last existed if it has left, 608.2h)
    "target's controller": SelectorKind.TARGET_CONTROLLER, "target_controller": SelectorKind.TARGET_CONTROLLER,
    # "that source's controller" after "a source of your choice" (Deflecting Palm's rider, 615.9)
    "chosen source's controller": SelectorKind.CHOSEN_SOURCE_CONTROLLER, "chosen_source_controller": SelectorKind.CHOSEN_SOURCE_CONTROLLER,
    # a prevention's rider, for each source whose damage it prevented (Comeuppance, 615.5): that
    # source if it is a creature, else its controller (solver.persource)
    "that creature or the source's controller": SelectorKind.PREVENTED_SOURCE,
}
_NAME_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_\-.' ]*$")


class SelectorError(ValueError):
    """A phrase the selector language doesn't know; the message is the user-facing reason.

    ``key`` names the offending key of a mapping selector, so the error path can point at it.
    """

    def __init__(self, message: str, key: str = "") -> None:
        super().__init__(message)
        self.key = key


# what ``in_combat:`` may say (506.4, 509.1g-h): only permanents on the battlefield in combat
IN_COMBAT = ("attacking", "blocking", "unblocked", "blocking_it", "blocked_by_it")


@dataclass(frozen=True)
class Selector:
    """A parsed selector.

    ``kind`` is one of: ``you``, ``opponents``, ``players``, ``any``, ``self``, ``target``,
    ``chosen``, ``chosen_source``, ``equipped``, ``enchanted``, ``choice`` (its controller picks
    when it happens), ``that_player`` (in a trigger's ``do:``, the player its event names: for
    ``tapped_for_mana`` the player who tapped the permanent, its controller), ``ref`` (a player name or object id in ``name``), ``objects`` (the phrase
    grammar: ``other``, ``noun``, ``colors``, ``subtypes``, ``controller``, ``without``,
    ``nonbasic``), or ``any_of`` (a list, in ``parts``).
    """

    kind: SelectorKind
    name: str = ""
    noun: str = ""
    other: bool = False
    nonbasic: bool = False
    colors: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    # "", "you", "not_you" ("you don't control"), "opponents", "target" (the ability's target player, or
    # its target permanent's controller: "each creature that player or that planeswalker's
    # controller controls"), or a player name
    controller: str = ""
    without: tuple[str, ...] = ()
    parts: tuple[Selector, ...] = ()
    with_: tuple[str, ...] = ()  # ``with: [flying]``: has each of these keywords ("creature with flying")
    # ``in_combat: [attacking, blocking]``: attacking or blocking (506.4); ``unblocked``: an attacking
    # creature no creature blocked (509.1h: it stays blocked once blocked); ``blocking_it`` /
    # ``blocked_by_it``: a creature blocking the selector's own object, or one it blocks (509.1g)
    in_combat: tuple[str, ...] = ()
    # ``dealt_damage_by: self | <id>``: a permanent that object dealt damage to this turn (during
    # the case's actions, or named by the permanent's ``dealt_damage_by:`` state)
    dealt_damage_by: str = ""
    # ``tapped: true`` / ``false``: a tapped (untapped) permanent (701.26a; "target tapped creature")
    tapped: bool | None = None
    # ``power_at_least: N`` / ``power_at_most: N``: "creature with power 4 or greater / 2 or less"
    # (208.1: its power now, after every effect, 613.4); not in a continuous effect's own selector
    power_at_least: int | None = None
    power_at_most: int | None = None
    # ``not_types: [land]``: "nonland permanent", "noncreature permanent" (205.4b: "non" and a type)
    not_types: tuple[str, ...] = ()

    def reads_power(self) -> bool:
        """Whether this selector (or a part) reads power (a continuous effect's may not, 613.8)."""
        return self.power_at_least is not None or self.power_at_most is not None or any(p.reads_power() for p in self.parts)

    def refs(self) -> tuple[str, ...]:
        """Every player name or object id this selector names (for dangling-id checks)."""
        out: list[str] = []
        if self.kind == SelectorKind.REF:
            out.append(self.name)
        if self.controller and self.controller not in ("you", "not_you", "opponents", "target", "that_player"):
            out.append(self.controller)
        if self.dealt_damage_by and self.dealt_damage_by != "self":
            out.append(self.dealt_damage_by)
        for part in self.parts:
            out.extend(part.refs())
        return tuple(out)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", SelectorKind(self.kind))  # (an unknown kind is a ValueError)

    def mentions(self, kind: SelectorKind) -> bool:
        """Whether this selector (or a part) is of ``kind``; ``that_player`` also as a controller
        ("target planeswalker that player controls", Questing Beast)."""
        return (self.kind == kind or (kind == SelectorKind.THAT_PLAYER and self.controller == kind)
                or any(p.mentions(kind) for p in self.parts))

    def __str__(self) -> str:
        if self.kind == SelectorKind.REF:
            return self.name
        if self.kind == SelectorKind.ANY_OF:
            return " or ".join(str(p) for p in self.parts)
        if self.kind != SelectorKind.OBJECTS:
            return {"players": "each player", "equipped": "equipped creature",
                    "enchanted": "enchanted creature", "that_player": "that player",
                    "target_controller": "target's controller", "second_target": "second target",
                    "chosen_source_controller": "chosen source's controller",
                    "prevented_source": "that creature or the source's controller"}.get(self.kind, self.kind)
        words = (["other"] if self.other else []) + (["nonbasic"] if self.nonbasic else [])
        words += [f"non{t}" for t in self.not_types]
        words += [] if self.tapped is None else ["tapped" if self.tapped else "untapped"]
        words += [" or ".join(c.replace("_", " ") for c in self.in_combat)] if self.in_combat else []
        words += list(self.colors) + list(self.subtypes) + [(self.noun or "/".join(self.types) or "object") + "s"]
        words += [f"with {' and '.join(self.with_)}"] if self.with_ else []
        words += [f"dealt damage by {self.dealt_damage_by} this turn"] if self.dealt_damage_by else []
        words += [f"with power {self.power_at_least} or greater"] if self.power_at_least is not None else []
        words += [f"with power {self.power_at_most} or less"] if self.power_at_most is not None else []
        if self.controller:
            words.append({"you": "you control", "not_you": "you don't control", "opponents": "an opponent controls",
                          "target": "the target (or the target's controller) controls",
                          "that_player": "that player controls"}.get(
                self.controller, f"{self.controller} controls"))
        return " ".join(words)


def _parse_phrase(text: str) -> Selector:
    phrase = " ".join(text.strip().split())
    low = phrase.lower()
    if low in _FIXED:
        return Selector(_FIXED[low])
    words = low.split(" ")
    prefixed = False
    for prefix in ("each", "all", "a", "an", "target"):
        if words and words[0] == prefix and len(words) > 1 and (words[1] in _NOUNS | {"other": ""} or subtype_of(words[1])):
            words, prefixed = words[1:], True
            break
    other = nonbasic = False
    colors: list[str] = []
    if words and words[0] == "other":
        other, words = True, words[1:]
    if words and words[0] == "nonbasic":
        nonbasic, words = True, words[1:]
    while words and words[0] in COLORS:
        colors.append(words[0])
        words = words[1:]
    # subtypes (205.3): "Cleric creatures you control", "Clerics you control", "each Goblin"
    subtypes: list[str] = []
    while words and words[0] not in _NOUNS and subtype_of(words[0]):
        subtypes.append(str(subtype_of(words[0])))
        words = words[1:]
    if words and words[0] in _NOUNS or subtypes:
        noun = _NOUNS[words[0]] if words and words[0] in _NOUNS else "permanent"
        rest = words[1:] if words and words[0] in _NOUNS else words
        controller = _controller(rest, phrase)
        if subtypes and noun == "permanent" and not words[:1] == ["permanents"] and not (
                prefixed or other or colors or nonbasic or rest):
            # a bare word ("bears", "Wall") stays a name or id, as it always was
            return Selector(SelectorKind.REF, name=phrase) if _NAME_RE.match(phrase) else _unknown(text)
        if controller is None:
            if subtypes and not (prefixed or other or colors or nonbasic):
                return Selector(SelectorKind.REF, name=phrase) if _NAME_RE.match(phrase) else _unknown(text)
            raise SelectorError(f"unknown selector phrase {text!r}")
        return Selector(SelectorKind.OBJECTS, noun=noun, other=other, nonbasic=nonbasic, colors=tuple(colors),
                        subtypes=tuple(subtypes), controller=controller)
    if other or colors or nonbasic:
        raise SelectorError(f"unknown selector phrase {text!r}")
    if _NAME_RE.match(phrase) and " " not in phrase.strip():
        return Selector(SelectorKind.REF, name=phrase)
    if _NAME_RE.match(phrase):
        # multi-word bare phrases are names only if quoted as ids elsewhere; treat as a reference
        return Selector(SelectorKind.REF, name=phrase)
    raise SelectorError(f"unknown selector phrase {text!r}")


def _controller(rest: list[str], phrase: str) -> str | None:
    """The controller words after a noun ("you control", "an opponent controls", "A controls"):
    ``""`` for none, None when ``rest`` is not such words."""
    if not rest:
        return ""
    if rest == ["you", "control"]:
        return "you"
    if rest == ["that", "player", "controls"]:
        return "that_player"  # a trigger's player (the player dealt damage, 510.3a): Questing Beast
    if rest == ["you", "don't", "control"]:
        return "not_you"  # every other player's, a teammate's too (2HG, 810.2)
    if rest in (["an", "opponent", "controls"], ["opponents", "control"], ["your", "opponents", "control"]):
        return "opponents"
    if len(rest) >= 2 and rest[-1] == "controls":
        orig = phrase.split(" ")
        return " ".join(orig[len(orig) - len(rest):-1])
    return None


def _unknown(text: str) -> Selector:
    raise SelectorError(f"unknown selector phrase {text!r}")


_MAP_KEYS = {"controller", "types", "colors", "subtypes", "without", "other"}
_MAP_KEYS |= {"with", "in_combat"}  # "target creature with flying", "target attacking or blocking creature"
_MAP_KEYS |= {"dealt_damage_by"}  # "a creature dealt damage by ~ this turn"
_MAP_KEYS |= {"tapped"}  # "target tapped creature" (701.26a)
_MAP_KEYS |= {"power_at_least", "power_at_most"}  # "creature with power 4 or greater" (208.1)
_MAP_KEYS |= {"not_types"}  # "nonland permanent" (205.4b)


def _str_list(value: Any, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SelectorError(f"{key} must be a list of words", key)
    return tuple(v.lower() for v in value)


def _part(value: Any, index: int) -> Selector:
    """One phrase of a selector list; an error names its index (``to[1].without``)."""
    try:
        return parse_selector(value)
    except SelectorError as exc:
        raise SelectorError(str(exc), f"[{index}]" + (f".{exc.key}" if exc.key and not exc.key.startswith("[") else exc.key)) from None


def _parse_mapping(value: Mapping[str, Any]) -> Selector:
    """The mapping form: ``{types, colors, subtypes, controller, without, with, in_combat,
    dealt_damage_by, other, tapped, power_at_least, power_at_most, not_types}``, each checked
    against what the rules know."""
    unknown = set(value) - _MAP_KEYS
    if unknown:
        bad = sorted(map(str, unknown))[0]
        raise SelectorError("unknown selector key (a selector mapping takes controller, types, colors, subtypes, without, "
                            "with, in_combat, dealt_damage_by, other, tapped, power_at_least, power_at_most, not_types)", bad)
    types = _str_list(value.get("types", []), "types")
    for t in types:
        if t not in TYPES and t not in ("permanent", "source", "spell"):
            raise SelectorError(f"unknown card type {t!r}", "types")
    not_types = _str_list(value.get("not_types", []), "not_types")
    for t in not_types:
        if t not in TYPES:
            raise SelectorError(f"unknown card type {t!r}", "not_types")
    colors = _str_list(value.get("colors", []), "colors")
    for c in colors:
        if c not in COLORS:
            raise SelectorError(f"unknown colour {c!r}", "colors")
    without = _str_list(value.get("without", []), "without")
    for w in without:
        if " ".join(w.split()) not in KEYWORDS:
            raise SelectorError(f"unknown keyword {w!r} ({known_keywords_text()})", "without")
    with_ = _str_list(value.get("with", []), "with")
    for w in with_:
        if " ".join(w.split()) not in KEYWORDS:
            raise SelectorError(f"unknown keyword {w!r} ({known_keywords_text()})", "with")
    in_combat = _str_list(value.get("in_combat", []), "in_combat")
    for c in in_combat:
        if c not in IN_COMBAT:
            raise SelectorError("in_combat takes attacking, blocking and/or unblocked, or blocking_it / blocked_by_it "
                                "(creatures blocking its own object, or that it blocks)", "in_combat")
    controller = value.get("controller", "")
    if not isinstance(controller, str):
        raise SelectorError("controller must be you, not_you, opponents or a player name", "controller")
    controller = {"an opponent": "opponents", "opponent": "opponents", "that player": "that_player"}.get(controller, controller)
    other = value.get("other", False)
    if not isinstance(other, bool):
        raise SelectorError("other must be true or false", "other")
    tapped = value.get("tapped")
    if "tapped" in value and not isinstance(tapped, bool):
        raise SelectorError("tapped must be true (a tapped permanent) or false (an untapped one)", "tapped")
    bounds = {k: value.get(k) for k in ("power_at_least", "power_at_most")}
    for k, v in bounds.items():
        if k in value and (isinstance(v, bool) or not isinstance(v, int)):
            raise SelectorError(f"{k} must be a whole number", k)
    by = value.get("dealt_damage_by", "")
    if not isinstance(by, str) or ("dealt_damage_by" in value and not by.strip()):
        raise SelectorError("dealt_damage_by names the source: self or an id", "dealt_damage_by")
    return Selector(SelectorKind.OBJECTS, noun="source" if not types else "", types=types, colors=colors,
                    subtypes=_str_list(value.get("subtypes", []), "subtypes"),
                    controller=controller, without=tuple(" ".join(w.split()) for w in without),
                    other=other, with_=tuple(" ".join(w.split()) for w in with_), in_combat=in_combat,
                    dealt_damage_by=by, tapped=tapped, power_at_least=bounds["power_at_least"],
                    power_at_most=bounds["power_at_most"], not_types=not_types)


def parse_selector(value: Any) -> Selector:
    """Parse a selector from its YAML form (a phrase, a list of phrases, or a mapping).

    >>> parse_selector("other red creatures you control").colors
    ('red',)
    >>> parse_selector(["you", "opponents"]).kind is SelectorKind.ANY_OF
    True
    """
    if isinstance(value, bool) or value is None:
        raise SelectorError(f"expected a selector, got {value!r}")
    if isinstance(value, str):
        if not value.strip():
            raise SelectorError("empty selector")
        return _parse_phrase(value)
    if isinstance(value, list):
        if not value:
            raise SelectorError("empty selector list")
        parts = tuple(_part(v, i) for i, v in enumerate(value))
        return parts[0] if len(parts) == 1 else Selector(SelectorKind.ANY_OF, parts=parts)
    if isinstance(value, Mapping):
        return _parse_mapping(value)
    if isinstance(value, int):
        # a name is text: a number here is not silently read as the name "3"
        raise SelectorError(f"expected a selector (a player name, an id or a phrase), got the number {value}; "
                            "quote it if it is a name")
    raise SelectorError(f"expected a selector, got {type(value).__name__}")

"""Reading and validating case files: YAML -> :class:`~model.types.Case`.

Two passes: a pydantic schema checks the shape (unknown keys, types, ranges) and gives each error
its field path; then the vocabulary parsers and the cross-reference checks (dangling ids, a blocker
that isn't a creature, Two-Headed Giant teams) run with the same kind of path. Every problem of a
file is collected, so ``validate`` reports them all, one line each.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .blocks import defending_player, evasion_problem, menace_problem, same_side
from .cards import lookup_card
from .errors import CaseError, CaseErrors, CaseWarning
from .keywords import KEYWORDS, NO_EFFECT, known_keywords_text
from .selectors import Selector
from .types import (
    PLAYER_KINDS,
    Ability,
    Action,
    ActivateAction,
    Case,
    CastAction,
    CombatAction,
    CouldProduceAction,
    CreateAction,
    CreatedEffect,
    DamageAction,
    DamageSpec,
    EndStepAction,
    EnterAction,
    Expect,
    LeaveAction,
    LeaveGameAction,
    LifeAction,
    MayAction,
    OneShotAction,
    PermanentSpec,
    PlayerSpec,
    SourceSpec,
    TapForManaAction,
    with_pt_counters,
)
from .vocab import amount, mana_type, parse_ability, parse_effect, parse_one_shot, sel
from .yamlio import read_yaml

__all__ = ["load_case", "parse_case", "field_problem", "check_fields", "PLAYER_FIELDS", "PERMANENT_FIELDS", "EFFECT_FIELDS", "TEAM_FIELDS"]

BIG = 1_000_000
Count = Annotated[int, Field(ge=0, le=BIG, strict=True)]
Name = Annotated[str, Field(min_length=1, max_length=80)]
PLAYER_FIELDS = ("life", "poison", "life_lost", "life_gained", "cards_drawn", "damage_taken", "lost", "mana")
PERMANENT_FIELDS = ("damage", "dies", "loyalty", "defense", "could_produce", "tapped")
EFFECT_FIELDS = ("remaining",)
TEAM_FIELDS = ("life", "poison")
_ID_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_\-]*$")
CHOOSE = "choose"  # blocking: choose, combat: {blocks: choose}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class PlayerModel(_Strict):
    name: Name
    life: Annotated[int, Field(ge=-BIG, le=BIG, strict=True)] | None = None
    team: int | str | None = None
    life_lost_this_turn: Count = 0
    life_gained_this_turn: Count = 0
    poison: Count = 0


class PermanentModel(_Strict):
    id: Name
    card: Name | None = None
    name: Name | None = None
    controller: Name
    owner: Name | None = None
    oracle: str | None = None
    types: list[str] | None = None
    subtypes: list[str] | None = None
    supertypes: list[str] | None = None
    colors: list[str] | None = None
    power: Annotated[int, Field(ge=-BIG, le=BIG, strict=True)] | None = None
    toughness: Annotated[int, Field(ge=-BIG, le=BIG, strict=True)] | None = None
    loyalty: Count | None = None
    defense: Count | None = None
    keywords: list[str] | None = None
    abilities: list[Any] | None = None
    attacking: Name | None = None
    blocking: Name | list[Name] | None = None
    damage: Count = 0
    counters: dict[str, Count] = {}
    tapped: bool = False
    summoning_sick: bool = False
    attached_to: Name | None = None
    chosen: Name | None = None


class SourceModel(_Strict):
    id: Name
    card: Name | None = None
    name: Name | None = None
    controller: Name
    owner: Name | None = None
    oracle: str | None = None
    types: list[str] | None = None
    subtypes: list[str] | None = None
    colors: list[str] | None = None
    keywords: list[str] | None = None
    power: Annotated[int, Field(ge=-BIG, le=BIG, strict=True)] | None = None
    toughness: Annotated[int, Field(ge=-BIG, le=BIG, strict=True)] | None = None
    abilities: list[Any] | None = None


class ExpectModel(_Strict):
    complete: bool = False
    outcomes: list[dict[str, Any]] = []


class CaseModel(_Strict):
    """The file's top level. Players, permanents, sources and ``expect:`` are validated one entry
    at a time by the builder (:meth:`_Builder.entry`), so one bad entry doesn't hide the others'
    problems."""

    id: Name
    title: str = ""
    source: str = ""
    format: Literal["standard", "two-headed-giant"] = "standard"
    players: Annotated[list[Any], Field(min_length=1, max_length=16)]
    active: Name | None = None
    battlefield: Annotated[list[Any], Field(max_length=500)] = []
    sources: Annotated[list[Any], Field(max_length=500)] = []
    effects: Annotated[list[Any], Field(max_length=500)] = []
    actions: Annotated[list[Any], Field(max_length=500)] = []
    expect: Any = None
    objective: Any = None
    choices: dict[str, list[Any]] | None = None


# top-level lists every other part refers to: when one of them is the wrong shape (not a list, too
# long, missing) the cross-reference checks would only repeat that problem, so they don't run
_STRUCTURAL = ("players", "battlefield", "sources", "effects", "actions")


def _is_branch(part: Any) -> bool:
    """A union branch's tag in a pydantic error location (``str``, ``constrained-str``,
    ``list[constrained-str]``, ``function-...``): not a key of the file."""
    return isinstance(part, str) and (part in ("str", "int", "bool", "float") or "[" in part
                                      or part.startswith(("function-", "constrained-")))


def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _is_branch(part):
            continue
        else:
            out += f".{part}" if out else str(part)
    return out


_BRANCH_WORDS = {"str": "text", "int": "a whole number", "bool": "true or false", "float": "a number"}


def _branch_word(tag: str) -> str:
    if tag.startswith("list["):
        return "a list"
    if tag.startswith("dict["):
        return "a mapping"
    return _BRANCH_WORDS.get(tag.removeprefix("constrained-"), tag)


def _describe(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def _union_errors(raw: list[Any]) -> tuple[list[Any], dict[str, str]]:
    """A union (``blocking: <id> | [<ids>]``) reports one error per branch. Where a branch's error
    is deeper than the union itself, the value had that branch's shape: keep only those. Where all
    sit at the union, say once what the value may be ("expected text or a list")."""
    at_union: dict[str, list[Any]] = {}
    for err in raw:
        loc = tuple(err["loc"])
        first = next((i for i, part in enumerate(loc) if _is_branch(part)), None)
        if first is not None:
            at_union.setdefault(_loc(loc[:first]), []).append(err)
    drop: set[int] = set()
    merged: dict[str, str] = {}
    for base, errs in at_union.items():
        deeper = [e for e in errs if _loc(tuple(e["loc"])) != base]
        if deeper:
            drop.update(id(e) for e in errs if e not in deeper)
        elif len(errs) > 1:
            words = [_branch_word(next(str(p) for p in e["loc"] if _is_branch(p))) for e in errs]
            merged[base] = f"expected {' or '.join(dict.fromkeys(words))}, got {_describe(errs[0].get('input'))}"
    return [e for e in raw if id(e) not in drop], merged


def _pydantic_errors(exc: ValidationError) -> list[CaseError]:
    errors: list[CaseError] = []
    seen: set[str] = set()
    raw, merged = _union_errors(exc.errors())
    for err in raw:
        path = _loc(tuple(err["loc"]))
        if path in seen:
            continue  # (a union's branches, said once)
        seen.add(path)
        if path in merged:
            errors.append(CaseError(path, merged[path]))
            continue
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown key"
        elif err["type"] in ("dict_type", "model_type", "model_attributes_type"):
            msg = f"expected a mapping, got {_describe(err.get('input'))}"
        elif err["type"] == "list_type":
            msg = f"expected a list, got {_describe(err.get('input'))}"
        elif err["type"] == "too_short":
            msg = f"needs at least {err.get('ctx', {}).get('min_length', 1)} item(s)"
        elif err["type"] == "too_long":
            msg = f"too many items (at most {err.get('ctx', {}).get('max_length')})"
        elif err["type"] == "missing":
            msg = "required field is missing"
        elif msg.startswith("Input should be"):
            msg = "expected " + msg[len("Input should be "):]
            if "input" in err and not isinstance(err["input"], (dict, list)):
                msg += f" (got {_describe(err['input'])})"
            if err["type"] == "int_type" and isinstance(err.get("input"), str) and err["input"].strip().lstrip("+-").isdigit():
                msg += ": write the number without quotes"
        errors.append(CaseError(path, msg))
    return errors


class _Builder:
    """Second pass: vocabulary, cross references, derived defaults. Collects every error."""

    def __init__(self, m: CaseModel, errors: list[CaseError] | None = None) -> None:
        self.m = m
        self.errors: list[CaseError] = list(errors or ())
        self.warnings: list[tuple[str, CaseWarning]] = []  # (keyword, warning)
        self.zero_life: list[tuple[int, str, str | None, int]] = []  # players starting at 0 or less life
        # each entry on its own (a bad one is reported and skipped; its name or id still counts as
        # declared, so references to it are not reported a second time)
        self.player_models = [self.entry(PlayerModel, raw, f"players[{i}]") for i, raw in enumerate(m.players)]
        self.perm_models = [self.entry(PermanentModel, raw, f"battlefield[{i}]") for i, raw in enumerate(m.battlefield)]
        self.source_models = [self.entry(SourceModel, raw, f"sources[{i}]") for i, raw in enumerate(m.sources)]
        self.expect_model = self.entry(ExpectModel, m.expect, "expect") if m.expect is not None else None
        self.player_names = [p.name if p is not None else raw.get("name") for p, raw in zip(self.player_models, m.players, strict=True)
                             if p is not None or (isinstance(raw, Mapping) and isinstance(raw.get("name"), str))]
        self.object_ids: dict[str, str] = {}  # id -> "permanent" | "source" | "effect"
        self.mapping_actions: set[str] = set()  # paths of actions written as mappings (for error paths)

    def err(self, path: str, reason: str) -> None:
        self.errors.append(CaseError(path, reason))

    def entry(self, model: Any, raw: Any, path: str) -> Any:
        """Validate one entry (a player, permanent, source, ``expect:``) with its schema; on a
        problem, report it at the entry's path and return None."""
        try:
            return model.model_validate(raw)
        except ValidationError as exc:
            for e in _pydantic_errors(exc):
                self.err(f"{path}.{e.path}" if e.path else path, e.reason)
            return None

    def guard(self, fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except CaseError as exc:
            self.errors.append(exc)
            return None

    # ---- pieces -------------------------------------------------------------------------
    def players(self) -> tuple[PlayerSpec, ...]:
        m = self.m
        out = []
        seen: set[str] = set()
        two_hg = m.format == "two-headed-giant"
        for i, p in enumerate(self.player_models):
            if p is None:
                continue
            if p.name in seen:
                self.err(f"players[{i}].name", f"duplicate player name {p.name!r}")
            seen.add(p.name)
            team = None if p.team is None else str(p.team)
            if two_hg and team is None:
                self.err(f"players[{i}].team", "Two-Headed Giant players need a team")
            life = p.life if p.life is not None else (30 if two_hg else 20)
            # a case starts where a player could get priority, so state-based actions have been
            # checked (704.3): a player can't be there at 0 or less life or with lethal poison
            if life <= 0:
                # unless an effect says they don't lose for it (checked once permanents are read)
                self.zero_life.append((i, p.name, team, life))
            limit = 15 if two_hg else 10
            if p.poison >= limit:
                self.err(f"players[{i}].poison", f"a player with {p.poison} poison counters would already have lost the game "
                         f"(CR {'704.6b' if two_hg else '704.5c'}: {limit} or more)")
            out.append(PlayerSpec(p.name, life, team, p.life_lost_this_turn, p.life_gained_this_turn, p.poison))
        if two_hg and len(out) == len(m.players):  # (with a broken player the teams can't be counted)
            teams: dict[str, list[int]] = {}
            for i, spec in enumerate(out):
                if spec.team is not None:
                    teams.setdefault(spec.team, []).append(i)
            if len(teams) != 2:
                self.err("players", f"Two-Headed Giant needs exactly two teams, got {len(teams)}")
            for team, members in teams.items():
                if len(members) != 2:
                    self.err(f"players[{members[-1]}].team", f"team {team} has {len(members)} players; a Two-Headed Giant team has two")
                else:
                    lives = {out[j].life for j in members}
                    if len(lives) > 1:
                        self.err(f"players[{members[1]}].life", f"team {team} shares one life total; its players disagree ({sorted(lives)})")
                    poisons = {out[j].poison for j in members}
                    if len(poisons) > 1:  # 810.10: the team shares its poison counters
                        self.err(f"players[{members[1]}].poison", f"team {team} shares its poison counters (810.10); its players disagree ({sorted(poisons)})")
        return tuple(out)

    def _characteristics(self, entry: PermanentModel | SourceModel, path: str, entering: bool = False) -> dict[str, Any] | None:
        base: dict[str, Any] = {}
        if entry.card is not None:
            card = lookup_card(entry.card)
            if card is None:
                ok, real = self._real_card(entry, path, entering)
                if not ok:
                    return None
                base = {"name": entry.card} if real is None else dict(real)
            else:
                base = dict(card)
                if entry.abilities is None:
                    self._omitted(base, path)
        elif entry.name is None:
            self.err(path, "needs card: (from the library) or name: with its characteristics")
            return None
        for key in ("name", "types", "subtypes", "colors", "keywords", "power", "toughness", "abilities"):
            val = getattr(entry, key, None)
            if val is not None:
                base[key] = val
        for key in ("supertypes", "loyalty", "defense"):
            val = getattr(entry, key, None)
            if val is not None:
                base[key] = val
        return base

    def _omitted(self, card: Mapping[str, Any], path: str) -> None:
        """A library card's lines the vocabulary can't state yet (its ``omits:``) are said, one
        warning each, wherever a case names the card without giving its ``abilities:``: the tool
        answers as if the line weren't there, so the user must know (never a silent partial card)."""
        for item in card.get("omits") or ():
            self.warnings.append(("", CaseWarning(f"{path}.card", f"{card['name']}: {item['text']!r} is not modelled "
                                                  f"({item['why']}); give abilities: to state the card yourself")))

    def _real_card(self, entry: PermanentModel | SourceModel, path: str, entering: bool) -> tuple[bool, Mapping[str, Any] | None]:
        """A card the hand-written library doesn't have, from the card data (model/carddata):
        its characteristics, and abilities from the recogniser unless the case gives
        ``abilities:`` (an override). A line of its text the recogniser doesn't understand is an
        error naming it (never a silent partial card). (True, None): not a real card, but the case
        gives characteristics (an ad hoc card); (False, None): an error was reported.
        ``entering``: the permanent enters during the actions, so text about entering ("enters
        tapped") counts as not understood too."""
        from .carddata import MissingFace, UnknownCard, real_card

        name = str(entry.card)
        try:
            real = real_card(name)
        except MissingFace as exc:
            self.err(f"{path}.card", str(exc))
            return False, None
        except UnknownCard as exc:
            if entry.types is None and entry.abilities is None and entry.power is None:
                self.err(f"{path}.card", f"unknown card {name!r}: not in the card library or the card data ({exc}); "
                         "give its characteristics (name, types, power, toughness, abilities)")
                return False, None
            return True, None
        ok = True
        if entry.abilities is None:
            for line in (real.reading.not_understood_entering() if entering else real.reading.not_understood):
                when = " as it enters" if line.on_entering else ""
                self.err(f"{path}.card", f"{real.name}: not understood{when}: {line.text!r}; give abilities: to override")
                ok = False
        if entry.abilities is None:
            self.block_rules.extend((f"{path}.card", real.name, line.text) for line in real.reading.block_rules)
        for key, reason in real.unknown.items():
            if getattr(entry, key, None) is None:
                self.err(f"{path}.card", reason)
                ok = False
        return ok, (dict(real.base) if ok else None)

    def _keyword(self, kw: Any, path: str, written: bool) -> tuple[str, int] | None:
        """One keyword ability (CR 702): its word, and N for toxic N (702.164). ``written``: the
        case file names it (not the library card), so a keyword without effect here is warned of."""
        if not isinstance(kw, str):
            self.err(path, f"expected a keyword such as lifelink, got {_describe(kw)}")
            return None
        word = " ".join(kw.lower().split())
        toxic = 0
        if word.split(" ")[0] == "toxic":
            rest = word[5:].strip()
            if not rest.isdigit() or int(rest) < 1:
                self.err(path, "toxic needs a number: 'toxic 2'")
                return None
            toxic, word = int(rest), "toxic"
        elif word not in KEYWORDS:
            self.err(path, f"unknown keyword {kw!r} ({known_keywords_text()})")
            return None
        if written and word in NO_EFFECT:
            self.warnings.append((word, CaseWarning(path, f"{word!r} has no effect in this tool; {NO_EFFECT[word]}")))
        return word, toxic

    def _keywords_and_abilities(self, ch: Mapping[str, Any], e: PermanentModel | SourceModel,
                                path: str) -> tuple[tuple[str, ...], int, tuple[Ability, ...]]:
        """``keywords:`` and ``abilities:`` together: a keyword written as a plain string among the
        abilities is that keyword (702.1: keywords are abilities), as in ``keywords:``; it keeps
        its place in the abilities (an ``ability: N`` index is the file's own)."""
        found: list[tuple[str, int]] = []
        for j, kw in enumerate(ch.get("keywords") or []):
            one = self._keyword(kw, f"{path}.keywords[{j}]", e.keywords is not None)
            if one is not None:
                found.append(one)
        abilities = []
        for j, ab in enumerate(ch.get("abilities") or []):
            q = f"{path}.abilities[{j}]"
            if isinstance(ab, str):
                one = self._keyword(ab, q, e.abilities is not None)
                if one is not None:
                    found.append(one)
                    abilities.append(Ability("keyword", text=one[0]))
                continue
            parsed = self.guard(parse_ability, ab, q)
            if parsed is not None:
                abilities.append(parsed)
        kws = tuple(sorted({word for word, _ in found}))
        return kws, sum(n for _, n in found), tuple(abilities)

    def _types(self, raw: list[str], path: str) -> tuple[str, ...]:
        from .selectors import TYPES
        out = []
        for j, t in enumerate(raw):
            low = str(t).lower()
            if low not in TYPES:
                self.err(f"{path}[{j}]", f"unknown card type {t!r}")
            out.append(low)
        return tuple(out)

    def _colors(self, raw: list[str], path: str) -> tuple[str, ...]:
        from .selectors import COLORS
        out = []
        for j, c in enumerate(raw):
            low = str(c).lower()
            if low not in COLORS:
                self.err(f"{path}[{j}]", f"unknown colour {c!r}")
            out.append(low)
        return tuple(out)

    def _number(self, ch: Mapping[str, Any], e: PermanentModel | SourceModel, path: str, key: str) -> int:
        """Power, toughness, loyalty or defense: a whole number, not negative (the printed value;
        counters are given under counters:). A library card's value is reported at ``card:``."""
        value = ch.get(key)
        where = f"{path}.{key}" if getattr(e, key, None) is not None else f"{path}.card"
        if value is None:
            return 0
        if isinstance(value, bool) or not isinstance(value, int):
            self.err(where, f"{key} must be a whole number, got {_describe(value)}")
            return 0
        if value < 0:
            self.err(where, f"{key} must not be negative (got {value}): it is the printed value; counters go under counters:")
            return 0
        return value

    def _creature_state(self, e: PermanentModel, path: str, toughness: int, indestructible: bool) -> None:
        """A creature on the battlefield at the start is past state-based actions (704.3): its
        toughness with counters is above 0 (704.5f) and, unless indestructible, its marked damage
        is below that toughness (704.5g)."""
        counters = dict(e.counters)
        total = with_pt_counters(toughness, lambda kind: counters.get(kind, 0))
        if total <= 0:
            reason = f"a creature with toughness {total} would already be in its owner's graveyard (CR 704.5f)"
            if "-1/-1" in counters:
                self.err(f"{path}.counters", reason)
            elif e.toughness is not None or e.card is not None:
                self.err(f"{path}.toughness" if e.toughness is not None else f"{path}.card", reason)
            else:
                self.err(path, f"{reason}; give its toughness:")
        elif e.damage >= total and not indestructible:
            self.err(f"{path}.damage", f"{e.damage} damage is lethal for toughness {total}: the creature would already "
                     "have been destroyed (CR 704.5g)")

    def permanent(self, e: PermanentModel, path: str, initial: bool = False) -> PermanentSpec | None:
        """A permanent; ``initial``: one on the battlefield when the case starts (past state-based
        actions), not one entering during the actions."""
        ch = self._characteristics(e, path, entering=not initial)
        if ch is None:
            return None
        kws, toxic, abilities = self._keywords_and_abilities(ch, e, path)
        types = self._types(list(ch.get("types") or []), f"{path}.types")
        if not types:
            types = ("creature",) if ("power" in ch or "toughness" in ch) else ()
        if not types:
            self.err(f"{path}.types", "a permanent needs types (e.g. [creature]) or a library card")
        for t in types:
            if t in ("instant", "sorcery"):
                self.err(f"{path}.types", f"an {t} can't be a permanent on the battlefield; put it under sources:")
        blocking: tuple[str, ...] = ()
        choose_block = e.blocking == CHOOSE  # its block is chosen when blockers are declared (509.1a)
        if e.blocking is not None and not choose_block:
            blocking = (e.blocking,) if isinstance(e.blocking, str) else tuple(e.blocking)
            if CHOOSE in blocking:
                self.err(f"{path}.blocking[{blocking.index(CHOOSE)}]", "choose stands alone: blocking: choose "
                         "(the creature's block is chosen); a list names the attackers it blocks")
        bad = len(self.errors)
        power, toughness, loyalty, defense = (self._number(ch, e, path, k) for k in ("power", "toughness", "loyalty", "defense"))
        if initial and "creature" in types and len(self.errors) == bad:
            self._creature_state(e, path, toughness, "indestructible" in kws)
        return PermanentSpec(
            id=e.id, name=str(ch.get("name", e.id)), controller=e.controller, owner=e.owner or e.controller,
            types=types, subtypes=tuple(ch.get("subtypes") or ()), supertypes=tuple(str(s).lower() for s in ch.get("supertypes") or ()),
            colors=self._colors(list(ch.get("colors") or []), f"{path}.colors"),
            power=power, toughness=toughness, loyalty=loyalty, defense=defense,
            keywords=kws, toxic=toxic, abilities=abilities, attacking=e.attacking, blocking=blocking,
            damage=e.damage, counters=tuple(sorted(e.counters.items())), tapped=e.tapped,
            summoning_sick=e.summoning_sick, attached_to=e.attached_to, chosen=e.chosen, choose_block=choose_block,
        )

    def source(self, e: SourceModel, path: str) -> SourceSpec | None:
        ch = self._characteristics(e, path)
        if ch is None:
            return None
        kws, toxic, abilities = self._keywords_and_abilities(ch, e, path)
        return SourceSpec(
            id=e.id, name=str(ch.get("name", e.id)), controller=e.controller, owner=e.owner or e.controller,
            types=self._types(list(ch.get("types") or []), f"{path}.types"),
            subtypes=tuple(ch.get("subtypes") or ()),
            colors=self._colors(list(ch.get("colors") or []), f"{path}.colors"),
            keywords=kws, toxic=toxic, power=self._number(ch, e, path, "power"), toughness=self._number(ch, e, path, "toughness"),
            abilities=abilities,
        )

    def created_effect(self, raw: Any, path: str, default_id: str, controller: str | None = None) -> CreatedEffect | None:
        if not isinstance(raw, Mapping):
            self.err(path, "expected a mapping (an effect)")
            return None
        eid = raw.get("id", default_id)
        ctrl = raw.get("controller", controller)
        src = raw.get("source")
        target = raw.get("target")
        ok = True
        if not isinstance(eid, str) or not _ID_RE.match(eid):
            self.err(f"{path}.id", "expected an id (letters, digits, - and _)")
            ok = False
        if ctrl is None:
            self.err(path, "an effect needs controller:")
            ok = False
        elif not isinstance(ctrl, str):
            self.err(f"{path}.controller", "expected a player name")
            ok = False
        for key, value in (("source", src), ("target", target)):
            if value is not None and not isinstance(value, str):
                self.err(f"{path}.{key}", f"expected the id of the effect's {key} (a permanent, source or player), got {_describe(value)}")
                ok = False
        body = {k: v for k, v in raw.items() if k not in ("id", "controller", "source", "target")}
        spec = self.guard(parse_effect, body, path)
        if spec is None or not ok:
            return None
        return CreatedEffect(eid, spec, ctrl, src, target)

    def action(self, raw: Any, path: str) -> Action | None:
        if not isinstance(raw, Mapping) or not raw:
            self.err(path, "expected a mapping with one action key (damage:, combat:, activate:, ...)")
            return None
        if "may" in raw:
            return self.may_action(raw, path)
        if "deal" in raw or "set_life" in raw or "put_counters" in raw or (len(raw) > 1 and ("lose_life" in raw or "gain_life" in raw or "draw" in raw)):
            one = self.guard(parse_one_shot, dict(raw), path)
            if one is None:
                return None
            return OneShotAction(one, "")
        if len(raw) != 1:
            self.err(path, f"an action has one key, got {', '.join(map(str, raw))}")
            return None
        key, val = next(iter(raw.items()))
        p = f"{path}.{key}"
        if key == "damage":
            if not isinstance(val, list) or not val:
                self.err(p, "expected a non-empty list of {from, to, amount}")
                return None
            events = []
            for i, ev in enumerate(val):
                q = f"{p}[{i}]"
                if not isinstance(ev, Mapping):
                    self.err(q, "expected a mapping {from, to, amount}")
                    continue
                bad = set(ev) - {"from", "to", "amount", "combat", "excess_to"}
                if bad:
                    self.err(f"{q}.{sorted(map(str, bad))[0]}", "unknown key")
                    continue
                missing = [k for k in ("from", "to", "amount") if k not in ev]
                if missing:
                    self.err(q, f"missing {missing[0]}:")
                    continue
                if not isinstance(ev["from"], str) or not isinstance(ev["to"], str):
                    self.err(q, "from: and to: name a source id and a player or permanent id")
                    continue
                amt = self.guard(amount, ev["amount"], f"{q}.amount")
                combat = ev.get("combat", False)
                if not isinstance(combat, bool):
                    self.err(f"{q}.combat", "expected true or false")
                    continue
                excess = ev.get("excess_to")
                if excess is not None and not isinstance(excess, str):
                    self.err(f"{q}.excess_to", f"expected the player or permanent the excess damage is dealt to, got {_describe(excess)}")
                    continue
                if amt is not None:
                    events.append(DamageSpec(ev["from"], ev["to"], amt, combat, excess))
            return DamageAction(tuple(events)) if len(events) == len(val) else None
        if key == "combat":
            return self.combat_action(val, p)
        if key == "activate":
            if not isinstance(val, Mapping):
                self.err(p, "expected {id: <permanent>, x: N, target: <player or id>}")
                return None
            bad = set(val) - {"id", "ability", "x", "target", "source", "responses"}
            if bad:
                self.err(f"{p}.{sorted(map(str, bad))[0]}", "unknown key")
                return None
            if not isinstance(val.get("id"), str):
                self.err(f"{p}.id", "required: the id of the permanent whose ability is activated")
                return None
            x = val.get("x", 0)
            if isinstance(x, bool) or not isinstance(x, int) or x < 0 or x > BIG:
                self.err(f"{p}.x", f"x must be a whole number from 0 to {BIG}")
                return None
            ability = val.get("ability")
            if ability is not None and (isinstance(ability, bool) or not isinstance(ability, int) or ability < 0):
                self.err(f"{p}.ability", "expected the ability's index (0 is the first)")
                return None
            target = val.get("target")
            if target is not None and not isinstance(target, str):
                self.err(f"{p}.target", "expected a player name or permanent id")
                return None
            if val.get("source") is not None and not isinstance(val["source"], str):
                self.err(f"{p}.source", f"expected the id of the chosen source, got {_describe(val['source'])}")
                return None
            responses = self._responses(val, p)
            if responses is None:
                return None
            return ActivateAction(val["id"], ability, x, target, val.get("source"), responses)
        if key == "cast":
            return self.cast_action(val, p)
        if key == "create":
            eff = self.created_effect(val, p, f"created{len(self.created_ids)}")
            if eff is None:
                return None
            self.created_ids.append(eff.id)
            return CreateAction(eff)
        if key in ("lose_life", "gain_life"):
            if isinstance(val, Mapping):
                bad = set(val) - {"amount", "who", "from"}
                if bad:
                    self.err(f"{p}.{sorted(map(str, bad))[0]}", "unknown key")
                    return None
                if "amount" not in val:
                    self.err(p, "missing amount:")
                    return None
                amt = self.guard(amount, val["amount"], f"{p}.amount")
                who = self.guard(sel, val.get("who", "you"), f"{p}.who")
                src = val.get("from")
                if src is not None and not isinstance(src, str):
                    self.err(f"{p}.from", f"expected the id of the source, got {_describe(src)}")
                    return None
            else:
                self.err(p, "expected {amount: N, who: <player>}")
                return None
            if amt is None or who is None:
                return None
            return LifeAction(key == "gain_life", amt, who, src)
        if key == "enter":
            # x: the X chosen for the spell that became this permanent (CR 107.3m)
            x = val.get("x", 0) if isinstance(val, Mapping) else 0
            if isinstance(x, bool) or not isinstance(x, int) or x < 0 or x > BIG:
                self.err(f"{p}.x", f"x must be a whole number from 0 to {BIG} (the X paid for the spell)")
                return None
            pm = self.entry(PermanentModel, {k: v for k, v in val.items() if k != "x"} if isinstance(val, Mapping) else val, p)
            if pm is None:
                return None
            spec = self.permanent(pm, p)
            if spec is None:
                self.declared.setdefault(pm.id, "permanent")  # broken, reported here: not again where named
                return None
            self.entered.append((spec, p))
            return EnterAction(spec, x)
        if key == "tap_for_mana":
            return self.tap_for_mana(val, p)
        if key in ("leave", "leave_game", "could_produce"):
            if not isinstance(val, str):
                self.err(p, "expected an id" if key != "leave_game" else "expected a player name")
                return None
            return {"leave": LeaveAction, "leave_game": LeaveGameAction, "could_produce": CouldProduceAction}[key](val)
        if key == "end_step":
            if val not in ({}, None):
                self.err(p, "end_step takes no options: end_step: {}")
                return None
            return EndStepAction()
        self.err(p, f"unknown action {key!r}")
        return None

    def combat_action(self, val: Any, p: str) -> CombatAction | None:
        """``combat: {}`` (blocks as written with ``blocking:``) or ``combat: {blocks: choose}``:
        the defending players choose every block (CR 509.1)."""
        if val in ({}, None):
            return CombatAction()
        if not isinstance(val, Mapping):
            self.err(p, f"expected combat: {{}} or combat: {{blocks: choose}}, got {_describe(val)}")
            return None
        bad = set(val) - {"blocks"}
        if bad:
            self.err(f"{p}.{sorted(map(str, bad))[0]}", "unknown key (combat: takes only blocks: choose)")
            return None
        if val["blocks"] != CHOOSE:
            self.err(f"{p}.blocks", f"blocks: takes only choose (the defending players choose every block, CR 509.1), "
                     f"got {_describe(val['blocks'])}; fixed blocks are written as blocking: on the blockers")
            return None
        return CombatAction(choose_blocks=True)

    def cast_action(self, val: Any, p: str) -> CastAction | None:
        """``cast: <source id>`` or ``{id | card: <name>, controller:, target:, x:, responses:}``:
        a spell is cast and resolves (601, 608); ``card:`` makes the spell a source of its own."""
        if isinstance(val, str):
            return CastAction(val)
        if not isinstance(val, Mapping):
            self.err(p, "expected a source id or {card: <name>, controller: <player>, target: <player or id>}")
            return None
        bad = set(val) - {"id", "card", "controller", "target", "x", "responses"}
        if bad:
            self.err(f"{p}.{sorted(map(str, bad))[0]}", "unknown key")
            return None
        x = val.get("x", 0)
        if isinstance(x, bool) or not isinstance(x, int) or x < 0 or x > BIG:
            self.err(f"{p}.x", f"x must be a whole number from 0 to {BIG}")
            return None
        target = val.get("target")
        if target is not None and not isinstance(target, str):
            self.err(f"{p}.target", f"expected a player name or permanent id, got {_describe(target)}")
            return None
        sid = val.get("id")
        if "card" in val:
            if not isinstance(val.get("controller"), str):
                self.err(f"{p}.controller", "required with card: the player casting the spell")
                return None
            sid = sid if isinstance(sid, str) else re.sub(r"[^a-z0-9]+", "-", str(val["card"]).lower()).strip("-") or "spell"
            try:
                sm = SourceModel.model_validate({"id": sid, "card": val["card"], "controller": val["controller"]})
            except ValidationError as exc:
                for e in _pydantic_errors(exc):
                    self.err(f"{p}.{e.path}" if e.path else p, e.reason)
                return None
            spec = self.source(sm, p)
            if spec is None:
                return None
            self.cast_sources.append((spec, p))
        elif "controller" in val:
            self.err(f"{p}.controller", "controller: goes with card:; a sources: entry has its own controller")
            return None
        if not isinstance(sid, str):
            self.err(f"{p}.id", "required: the id of the sources: entry cast (or card: <name>)")
            return None
        responses = self._responses(val, p)
        if responses is None:
            return None
        if "card" not in val:
            self.mapping_actions.add(p)
        return CastAction(sid, target, x, responses)

    def _responses(self, val: Mapping[str, Any], p: str) -> tuple[Action, ...] | None:
        """An activation's or a spell's ``responses:``: actions done before it resolves (608.2)."""
        raw = val.get("responses", [])
        if not isinstance(raw, list):
            self.err(f"{p}.responses", "expected a list of actions")
            return None
        responses = tuple(a for a in (self.action(r, f"{p}.responses[{i}]") for i, r in enumerate(raw)) if a is not None)
        return responses if len(responses) == len(raw) else None

    def may_action(self, raw: Mapping[str, Any], path: str) -> MayAction | None:
        """``{may: <action>, by: <player>}``: any action, made optional (design.md, "Actions")."""
        bad = set(raw) - {"may", "by"}
        if bad:
            self.err(f"{path}.{sorted(map(str, bad))[0]}", "unknown key (a may: action takes may: and by:)")
            return None
        by = raw.get("by")
        if by is not None and not isinstance(by, str):
            self.err(f"{path}.by", "expected the name of the player who chooses")
            return None
        inner = self.action(raw["may"], f"{path}.may")
        return None if inner is None else MayAction(inner, by)

    def tap_for_mana(self, val: Any, p: str) -> TapForManaAction | None:
        """``tap_for_mana: <id>`` or ``{id, ability: N, choose: G}``: activate a mana ability (605)."""
        if isinstance(val, str):
            return TapForManaAction(val)
        if not isinstance(val, Mapping):
            self.err(p, "expected a permanent id or {id: <permanent>, ability: N, choose: <W U B R G C>}")
            return None
        self.mapping_actions.add(p)
        bad = set(val) - {"id", "ability", "choose"}
        if bad:
            self.err(f"{p}.{sorted(map(str, bad))[0]}", "unknown key")
            return None
        if not isinstance(val.get("id"), str):
            self.err(f"{p}.id", "required: the id of the permanent whose mana ability is activated")
            return None
        ability = val.get("ability")
        if ability is not None and (isinstance(ability, bool) or not isinstance(ability, int) or ability < 0):
            self.err(f"{p}.ability", "expected the ability's index (0 is the first)")
            return None
        choose = self.guard(mana_type, val["choose"], f"{p}.choose") if "choose" in val else None
        if "choose" in val and choose is None:
            return None
        return TapForManaAction(val["id"], ability, choose)

    def _tap_for_mana_refs(self, act: TapForManaAction, path: str, any_ref: Any) -> None:
        q = f"{path}.tap_for_mana" + (".id" if f"{path}.tap_for_mana" in self.mapping_actions else "")
        any_ref(act.id, q, ("permanent",))
        spec = self.spec_by_id.get(act.id)
        if not isinstance(spec, PermanentSpec):
            return
        mana = [j for j, ab in enumerate(spec.abilities) if ab.kind == "mana"]
        if act.ability is not None and act.ability not in mana:
            self.err(f"{path}.tap_for_mana.ability", f"{spec.name} has no mana ability number {act.ability} (its mana abilities: {mana or 'none'})")
        elif not mana:
            self.err(q, f"{spec.name} has no mana ability")

    # ---- the whole case -------------------------------------------------------------------
    def build(self) -> Case:
        m = self.m
        self.created_ids: list[str] = []
        self.entered: list[tuple[PermanentSpec, str]] = []
        self.cast_sources: list[tuple[SourceSpec, str]] = []  # spells cast by card: name (cast:)
        self.block_rules: list[tuple[str, str, str]] = []  # (path, card, line): block restrictions left out
        # ids the file declares, even where the entry itself is broken: references to them are
        # not reported again (one problem, one line)
        self.declared: dict[str, str] = {}
        for kind, entries in (("permanent", m.battlefield), ("source", m.sources), ("effect", m.effects)):
            self.declared.update({e["id"]: kind for e in entries if isinstance(e, Mapping) and isinstance(e.get("id"), str)})
        players = self.players()
        active = m.active or (self.player_names[0] if self.player_names else "")
        if m.active is not None and m.active not in self.player_names:
            self.err("active", f"active player {m.active!r} is not in players")
        perms = []
        for i, e in enumerate(self.perm_models):
            if e is None:
                continue
            spec = self.permanent(e, f"battlefield[{i}]", initial=True)
            if spec is not None:
                perms.append((spec, f"battlefield[{i}]"))
        sources = []
        for i, s in enumerate(self.source_models):
            if s is None:
                continue
            spec2 = self.source(s, f"sources[{i}]")
            if spec2 is not None:
                sources.append((spec2, f"sources[{i}]"))
        effects = []
        for i, raw in enumerate(m.effects):
            eff = self.created_effect(raw, f"effects[{i}]", f"effect{i}")
            if eff is not None:
                effects.append((eff, f"effects[{i}]"))
        actions = []
        for i, raw in enumerate(m.actions):
            act = self.action(raw, f"actions[{i}]")
            if act is not None:
                actions.append(act)
        sources += self.cast_sources
        self.check_zero_life(players, perms, effects)
        self.cross_check(players, perms, sources, effects, actions)
        expect = self.expectation(players, perms, sources, effects)
        objective = None
        if m.objective is not None:
            from .objective import parse_objective

            objective = self.guard(parse_objective, m.objective, "objective")
            if objective is not None:
                for chooser, _ in objective.goals:
                    if chooser not in self.player_names:
                        self.err(f"objective.{chooser}", f"{chooser!r} is not a player")
        choices = tuple(sorted((k, tuple(v)) for k, v in (m.choices or {}).items()))
        for k in dict(choices):
            if k not in self.player_names:
                self.err(f"choices.{k}", f"{k!r} is not a player")
        return Case(
            id=m.id, title=m.title, source=m.source, format=m.format, players=players, active=active,
            permanents=tuple(p for p, _ in perms), sources=tuple(s for s, _ in sources),
            effects=tuple(e for e, _ in effects), actions=tuple(actions), expect=expect,
            objective=objective, choices=choices,
        )

    def check_zero_life(self, players: Any, perms: Any, effects: Any) -> None:
        """A case starts after state-based actions (704.3): a player at 0 or less life has lost
        (704.5a) unless an effect on the battlefield (or created) says they don't lose the game
        for having 0 or less life (Phyrexian Unlife; in Two-Headed Giant, for the team, 810.8a)."""
        team_of = {p.name: p.team for p in players}
        found: list[tuple[str, Selector]] = []
        for spec, _ in perms:
            for ab in spec.abilities:
                if ab.kind == "static" and ab.effect is not None and ab.effect.kind == "no_loss_for_0_life":
                    found.append((spec.controller, ab.effect.value))
        for eff, _ in effects:
            if eff.spec.kind == "no_loss_for_0_life":
                found.append((eff.controller, eff.spec.value))

        def covers(controller: str, sel: Selector, name: str) -> bool:
            if sel.kind == "any_of":
                return any(covers(controller, part, name) for part in sel.parts)
            if sel.kind == "you":
                return name == controller
            if sel.kind == "ref":
                return name == sel.name
            if sel.kind in ("players", "any"):
                return True
            if sel.kind == "opponents":
                return name != controller and (team_of.get(name) is None or team_of.get(name) != team_of.get(controller))
            return False

        for i, name, team, life in self.zero_life:
            members = [n for n, t in team_of.items() if team is not None and t == team] or [name]
            if not any(covers(ctrl, sel, member) for ctrl, sel in found for member in members):
                self.err(f"players[{i}].life", f"a player at {life} life would already have lost the game (CR 704.5a, "
                         "state-based actions are checked before anyone gets priority, 704.3)")

    def cross_check(self, players: Any, perms: Any, sources: Any, effects: Any, actions: Any) -> None:
        names = set(self.player_names)
        ids: dict[str, str] = {}
        all_objects = [(p.id, path, "permanent") for p, path in perms] + [(s.id, path, "source") for s, path in sources] \
            + [(e.id, path, "effect") for e, path in effects] + [(p.id, path, "permanent") for p, path in self.entered]
        for oid, path, kind in all_objects:
            if not _ID_RE.match(oid):
                self.err(f"{path}.id", f"invalid id {oid!r} (letters, digits, - and _)")
            if oid in names:
                self.err(f"{path}.id", f"id {oid!r} is also a player's name")
            elif oid in ids and not (kind == "permanent" and ids[oid] == "permanent" and path.startswith("actions")):
                self.err(f"{path}.id", f"duplicate id {oid!r}")
            ids[oid] = kind
        for cid in self.created_ids:
            ids.setdefault(cid, "effect")
        for did, kind in self.declared.items():
            ids.setdefault(did, kind)
        self.object_ids = ids
        perm_by_id = {p.id: p for p, _ in perms}
        self.spec_by_id: dict[str, Any] = {p.id: p for p, _ in perms + self.entered}
        self.spec_by_id.update({s.id: s for s, _ in sources})
        self.effect_ids = {e.id for e, _ in effects}

        def player_ref(value: str | None, path: str) -> None:
            if value is not None and value not in names:
                self.err(path, f"{value!r} is not a player")

        def any_ref(value: str | None, path: str, kinds: tuple[str, ...] = ("permanent", "source")) -> None:
            if value is None:
                return
            if value not in names and ids.get(value) not in kinds:
                self.err(path, f"unknown id {value!r}")

        def selector_refs(s: Selector | None, path: str, that_player_ok: bool = False) -> None:
            if s is None:
                return
            if s.mentions("that_player") and not that_player_ok:
                self.err(path, "'that player' is only for a tapped_for_mana trigger's do: (the player who tapped the permanent)")
            for ref in s.refs():
                if ref not in names and ref not in ids:
                    self.err(path, f"unknown player or id {ref!r}")

        def ability_refs(abilities: tuple[Ability, ...], path: str) -> None:
            for j, ab in enumerate(abilities):
                q = f"{path}.abilities[{j}]"
                selector_refs(ab.target, f"{q}.target")
                selector_refs(ab.trigger_to, f"{q}.to")
                selector_refs(ab.trigger_from, f"{q}.from")
                # the path of the ability's body as the file writes it: a static ability's effect
                # is the ability itself; the others sit under their key (do:, activated:, spell:)
                body = {"trigger": f"{q}.do", "activated": f"{q}.activated", "spell": f"{q}.spell"}.get(ab.kind, q)
                if ab.effect is not None:
                    effect_refs(ab.effect, body)
                if ab.action is not None:
                    one_shot_refs(ab.action, body, ab.kind == "trigger")
                if ab.kind == "mana" and len(ab.mana) == 2 and isinstance(ab.mana[1], Selector):
                    selector_refs(ab.mana[1], f"{q}.mana.{ab.mana[0]}")  # {any_type_of: <selector>}

        def one_shot_refs(shot: Any, path: str, that_player_ok: bool = False) -> None:
            """A one-shot action's references, at the file's paths (``may:`` wraps the action)."""
            where = f"{path}.may" if shot.may else path
            selector_refs(shot.to, f"{where}.{'to' if shot.kind in ('deal', 'put_counters') else 'who'}", that_player_ok)
            any_ref(shot.source, f"{where}.from")
            if shot.then is not None:
                selector_refs(shot.then.to, f"{where}.then.who", that_player_ok)

        def effect_refs(spec: Any, path: str) -> None:
            selector_refs(spec.to, f"{path}.to")
            selector_refs(spec.from_, f"{path}.from")
            if spec.kind in ("redirect", "protection", *PLAYER_KINDS):
                selector_refs(spec.value, f"{path}.{spec.kind}")
            if spec.then is not None:
                selector_refs(spec.then.to, f"{path}.then.to")
            selector_refs(spec.if_you_control, f"{path}.if_you_control")
            if spec.source_choice is not None and spec.source_choice not in ids and spec.source_choice != "chosen_source":
                self.err(f"{path}.source_choice", f"unknown id {spec.source_choice!r}")

        controllers = {p.id: p.controller for p, _ in perms}
        active = self.m.active or (self.player_names[0] if self.player_names else "")
        teams = {pl.name: pl.team for pl in players} if self.m.format == "two-headed-giant" else {}
        chosen_combat = _choosing_combat(actions)
        written_blockers: dict[str, list[str]] = {}  # attacker -> the paths of its legal written blocks
        for p, path in perms + self.entered:
            player_ref(p.controller, f"{path}.controller")
            if p.owner != p.controller:
                player_ref(p.owner, f"{path}.owner")
            ability_refs(p.abilities, path)
            if p.chosen is not None:
                player_ref(p.chosen, f"{path}.chosen")
                if p.chosen == p.controller:
                    self.err(f"{path}.chosen", "the chosen player must be an opponent")
            if p.attached_to is not None and p.attached_to not in perm_by_id and p.attached_to not in names \
                    and self.declared.get(p.attached_to) != "permanent":  # (a broken entry is reported where it is)
                self.err(f"{path}.attached_to", f"unknown id {p.attached_to!r}")
            entering = path.startswith("actions")
            if p.attacking is not None and entering:
                self.err(f"{path}.attacking", "a permanent entering during the actions isn't attacking "
                         "(entering attacking isn't modelled; attackers are the battlefield's attacking: entries)")
            elif p.attacking is not None:
                if "creature" not in p.types:
                    self.err(f"{path}.attacking", f"{p.id!r} is not a creature and can't attack")
                elif "defender" in p.keywords:
                    self.err(f"{path}.attacking", f"{p.id!r} has defender and can't attack (CR 702.3b)")
                target = perm_by_id.get(p.attacking)
                if p.attacking in names:
                    if p.attacking == p.controller:
                        self.err(f"{path}.attacking", "a creature can't attack its own controller")
                elif target is None:
                    if self.declared.get(p.attacking) != "permanent":  # (a broken entry is reported where it is)
                        self.err(f"{path}.attacking", f"{p.attacking!r} is not a player, planeswalker or battle")
                elif "planeswalker" not in target.types and "battle" not in target.types:
                    self.err(f"{path}.attacking", f"{p.attacking!r} is not a planeswalker or battle")
            if p.choose_block:
                if "creature" not in p.types:
                    self.err(f"{path}.blocking", f"{p.id!r} is not a creature and can't block")
                elif CHOOSE in ids:
                    self.err(f"{path}.blocking", f"{CHOOSE!r} is also a permanent's id: blocking: choose would be ambiguous; "
                             "rename that permanent")
                elif same_side(p.controller, active, teams):
                    self.err(f"{path}.blocking", f"{p.controller} is the active player{' (team)' if teams else ''}, who attacks "
                             "and declares no blockers (CR 509.1)")
            if p.blocking and entering:
                self.err(f"{path}.blocking", "a creature entering during the actions blocks nothing as written (blockers "
                         "are declared at combat:); write blocking: choose to choose its block")
                continue
            if p.blocking and chosen_combat is not None:
                self.err(f"{path}.blocking", f"{chosen_combat}: combat: {{blocks: choose}} chooses every block; leave out "
                         "blocking: here, or use combat: {} with blocking: choose on the creatures whose block is chosen")
            for k, b in enumerate(p.blocking):
                q = f"{path}.blocking" + (f"[{k}]" if len(p.blocking) > 1 else "")
                if b in p.blocking[:k]:
                    self.err(q, f"{b!r} is listed twice")
                    continue
                if "creature" not in p.types:
                    self.err(q, f"{p.id!r} is not a creature and can't block")
                    break
                att = perm_by_id.get(b)
                if att is None and self.declared.get(b) == "permanent":
                    continue  # a broken entry, reported where it is
                if att is None:
                    self.err(q, f"unknown id {b!r}")
                elif att.attacking is None:
                    self.err(q, f"{b!r} is not attacking")
                elif att.controller == p.controller:
                    self.err(q, f"{p.id!r} can't block its own controller's creature")
                elif not same_side(p.controller, defending_player(att.attacking, controllers), teams):
                    self.err(q, f"{p.id!r} can block only a creature attacking {p.controller} or a planeswalker or battle "
                             f"{p.controller} controls (CR 509.1a); {b!r} is attacking {att.attacking}")
                elif (why := evasion_problem(att.keywords, p.keywords)) is not None:
                    self.err(q, f"{p.id!r} can't block {b!r}: {why}")
                else:
                    written_blockers.setdefault(b, []).append(q)
            if p.attacking is not None and (p.blocking or p.choose_block):
                self.err(f"{path}.blocking", "a creature can't both attack and block")
        # 702.111b: one written blocker on a creature with menace, and no block left to choose
        choosing = any(p.choose_block for p, _ in perms + self.entered) or chosen_combat is not None
        if choosing:
            for where, card, line in self.block_rules:  # 509.1: the declaration must honour it
                self.err(where, f"{card}: {line!r} restricts attacks or blocks, which chosen blocks don't model; "
                                "write its blocks, or give abilities: to override")
        for b, paths in written_blockers.items():
            why = menace_problem(perm_by_id[b].keywords, len(paths))
            if why is not None and not choosing:
                self.err(paths[0], f"{b!r} is blocked by one creature: {why}; add a blocker, or write blocking: choose "
                         "on the creatures whose block is chosen")
        for s, path in sources:
            player_ref(s.controller, f"{path}.controller")
            ability_refs(s.abilities, path)
        for e, path in effects:
            player_ref(e.controller, f"{path}.controller")
            any_ref(e.source, f"{path}.source")
            any_ref(e.target, f"{path}.target", ("permanent",))
            effect_refs(e.spec, path)
        self._action_refs(actions, "actions", player_ref, any_ref, selector_refs, effect_refs, one_shot_refs)

    def _action_refs(self, actions: Any, base: str, player_ref: Any, any_ref: Any, selector_refs: Any, effect_refs: Any,
                     one_shot_refs: Any, wrapped: bool = False) -> None:
        for i, act in enumerate(actions):
            path = base if wrapped else f"{base}[{i}]"
            if isinstance(act, DamageAction):
                for j, ev in enumerate(act.events):
                    if ev.source in self.player_names and ev.source not in self.spec_by_id:
                        self.err(f"{path}.damage[{j}].from", f"{ev.source!r} is a player; the source of damage is an object (a permanent or a sources: entry)")
                    else:
                        any_ref(ev.source, f"{path}.damage[{j}].from")
                    any_ref(ev.to, f"{path}.damage[{j}].to", ("permanent",))
                    target = self.spec_by_id.get(ev.to)
                    if isinstance(target, PermanentSpec) and not set(target.types) & {"creature", "planeswalker", "battle"}:
                        self.err(f"{path}.damage[{j}].to", f"{ev.to!r} can't be dealt damage: only players, creatures, planeswalkers and battles can (CR 120.1a)")
                    if ev.excess_to is not None:
                        q = f"{path}.damage[{j}].excess_to"
                        any_ref(ev.excess_to, q, ("permanent",))
                        if ev.to in self.player_names:
                            self.err(q, "excess damage is damage beyond what is lethal for a permanent (CR 120.4a); "
                                     f"{ev.to!r} is a player")
                        elif ev.excess_to == ev.to:
                            self.err(q, "the excess damage goes to another permanent or player (CR 120.4a)")
                        elif any(o.to == ev.to and o.excess_to is not None for o in act.events[:j]):
                            self.err(q, f"two excess-damage events to {ev.to!r} in one batch are not modelled")
            elif isinstance(act, ActivateAction):
                any_ref(act.id, f"{path}.activate.id", ("permanent",))
                spec = self.spec_by_id.get(act.id)
                if spec is not None:
                    activated = [j for j, ab in enumerate(spec.abilities) if ab.kind == "activated"]
                    if act.ability is not None and act.ability not in activated:
                        self.err(f"{path}.activate.ability", f"{spec.name} has no activated ability number {act.ability} (its activated abilities: {activated or 'none'})")
                    elif not activated:
                        self.err(f"{path}.activate.id", f"{spec.name} has no activated ability")
                    else:
                        ab = spec.abilities[act.ability if act.ability is not None else activated[0]]
                        if act.target is not None and ab.target is None:
                            self.err(f"{path}.activate.target", f"{spec.name}'s ability has no target")
                        if act.source_choice is not None and (ab.effect is None or ab.effect.source_choice != "chosen_source"):
                            self.err(f"{path}.activate.source", f"{spec.name}'s ability doesn't choose a source")
                any_ref(act.target, f"{path}.activate.target", ("permanent",))
                any_ref(act.source_choice, f"{path}.activate.source")
                self._action_refs(act.responses, f"{path}.activate.responses", player_ref, any_ref, selector_refs, effect_refs,
                                  one_shot_refs)
            elif isinstance(act, CreateAction):
                if act.effect.id in self.effect_ids:
                    self.err(f"{path}.create.id", f"duplicate id {act.effect.id!r}")
                self.effect_ids.add(act.effect.id)
                player_ref(act.effect.controller, f"{path}.create.controller")
                any_ref(act.effect.source, f"{path}.create.source")
                effect_refs(act.effect.spec, f"{path}.create")
            elif isinstance(act, LifeAction):
                selector_refs(act.who, f"{path}.{'gain_life' if act.gain else 'lose_life'}.who")
                any_ref(act.source, f"{path}.{'gain_life' if act.gain else 'lose_life'}.from")
            elif isinstance(act, LeaveAction | CouldProduceAction):
                if act.id != "all" or isinstance(act, LeaveAction):
                    any_ref(act.id, f"{path}.{act.kind}", ("permanent",))
            elif isinstance(act, TapForManaAction):
                self._tap_for_mana_refs(act, path, any_ref)
            elif isinstance(act, LeaveGameAction):
                player_ref(act.player, f"{path}.leave_game")
            elif isinstance(act, OneShotAction):
                one_shot_refs(act.action, path)
            elif isinstance(act, CastAction):
                q = f"{path}.cast" + (".id" if f"{path}.cast" in self.mapping_actions else "")
                any_ref(act.id, q, ("source",))
                spec = self.spec_by_id.get(act.id)
                if isinstance(spec, SourceSpec):
                    spells = [ab for ab in spec.abilities if ab.kind == "spell"]
                    targeted = [ab for ab in spells if ab.target is not None]
                    if not spells:
                        self.err(q, f"{spec.name} has no spell ability to resolve (give it abilities: [{{spell: ...}}])")
                    elif len(targeted) > 1:
                        self.err(q, f"{spec.name} has {len(targeted)} targeted parts: a spell with several targets isn't modelled yet")
                    elif act.target is not None and not targeted:
                        self.err(f"{path}.cast.target", f"{spec.name} has no target")
                any_ref(act.target, f"{path}.cast.target", ("permanent",))
                self._action_refs(act.responses, f"{path}.cast.responses", player_ref, any_ref, selector_refs, effect_refs,
                                  one_shot_refs)
            elif isinstance(act, MayAction):
                player_ref(act.chooser, f"{path}.by")
                self._action_refs((act.action,), f"{path}.may", player_ref, any_ref, selector_refs, effect_refs,
                                  one_shot_refs, wrapped=True)

    def expectation(self, players: Any, perms: Any, sources: Any, effects: Any) -> Expect | None:
        e = self.expect_model
        if e is None:
            return None
        names = set(self.player_names)
        teams = {p.team for p in players if p.team is not None}
        kinds = self.object_ids
        outcomes = []
        for i, outcome in enumerate(e.outcomes):
            items = []
            if not outcome:
                self.err(f"expect.outcomes[{i}]", "an expected outcome needs at least one field")
            for key, value in outcome.items():
                path = f"expect.outcomes[{i}].{key}"
                reason = _field_problem(key, names, teams, kinds, self.spec_by_id)
                if reason:
                    self.err(path, reason)
                    continue
                if isinstance(value, dict):
                    self.err(path, "expected a number, true/false or a list")
                    continue
                problem = _value_problem(key.partition(".")[2], value)
                if problem:
                    self.err(path, problem)
                    continue
                if isinstance(value, list):
                    value = tuple(value)
                items.append((key, value))
            outcomes.append(tuple(sorted(items)))
        if e.complete and not outcomes:
            self.err("expect.outcomes", "complete: true needs at least one expected outcome")
        return Expect(e.complete, tuple(outcomes))


_BOOL_FIELDS = ("lost", "dies", "tapped")
_LIST_FIELDS = ("mana", "could_produce")


def _value_problem(name: str, value: Any) -> str:
    """An expected value of the field's type: a quoted "19" is text, and would silently never match."""
    if name in _BOOL_FIELDS:
        return "" if isinstance(value, bool) else f"expected true or false, got {_describe(value)}"
    if name in _LIST_FIELDS:
        return "" if isinstance(value, list) else f"expected a list such as [G], got {_describe(value)}"
    if isinstance(value, bool) or not isinstance(value, int):
        hint = ": write the number without quotes" if isinstance(value, str) and value.strip().lstrip("+-").isdigit() else ""
        return f"expected a whole number, got {_describe(value)}{hint}"
    return ""


def _field_problem(key: str, players: set[str], teams: set[str | None], kinds: Mapping[str, str],
                   specs: Mapping[str, Any] | None = None) -> str:
    head, dot, rest = key.partition(".")
    if not dot:
        return "expected a field path such as you.life or thief.dies"
    if head in players:
        return "" if rest in PLAYER_FIELDS else f"unknown player field {rest!r} (one of {', '.join(PLAYER_FIELDS)})"
    kind = kinds.get(head)
    if kind == "permanent":
        if rest in PERMANENT_FIELDS or rest.startswith("counters."):
            spec = (specs or {}).get(head)
            return _not_recorded(head, rest, spec) if isinstance(spec, PermanentSpec) else ""
        return f"unknown permanent field {rest!r} (one of {', '.join(PERMANENT_FIELDS)}, counters.<kind>)"
    if kind == "effect":
        return "" if rest in EFFECT_FIELDS else "unknown effect field (remaining)"
    if head in {f"team{t}" for t in teams} or head in teams:
        return "" if rest in TEAM_FIELDS else "unknown team field (life, poison)"
    return f"unknown player, team, permanent or effect {head!r}"


def _not_recorded(pid: str, rest: str, spec: PermanentSpec) -> str:
    """A permanent field the outcome record doesn't keep for this permanent ("" if it does): it
    would read as nothing in every outcome (design.md, "Outcomes")."""
    if rest == "loyalty" and "planeswalker" not in spec.types:
        return f"{pid} is not a planeswalker: it has no loyalty"
    if rest == "defense" and "battle" not in spec.types:
        return f"{pid} is not a battle: it has no defense"
    if rest in ("tapped", "could_produce") and not any(ab.kind == "mana" for ab in spec.abilities):
        return f"{pid} has no mana ability: {rest} is kept only for permanents with one (tapping is tracked for mana)"
    return ""


_CREATED_EFFECT_RE = re.compile(r"^(?P<perm>[^.]+)\.\d+\.\d+\.remaining$")


def _case_kinds(case: Case) -> dict[str, str]:
    """Every object id a case's outcome records can name, with its kind (as ``expect:`` sees them)."""
    kinds: dict[str, str] = {}
    kinds.update({p.id: "permanent" for p in case.permanents})
    kinds.update({s.id: "source" for s in case.sources})
    kinds.update({e.id: "effect" for e in case.effects})
    todo = list(case.actions)
    while todo:
        act = todo.pop()
        if isinstance(act, EnterAction):
            kinds[act.permanent.id] = "permanent"
        elif isinstance(act, CreateAction):
            kinds[act.effect.id] = "effect"
        elif isinstance(act, ActivateAction):
            todo.extend(act.responses)
        elif isinstance(act, MayAction):
            todo.append(act.action)
    return kinds


def field_problem(case: Case, key: str) -> str:
    """Why ``key`` is not a field of ``case``'s outcomes ("" if it is), with the closest names.

    The same check as ``expect:`` (design.md, "Outcomes"); effects that activated abilities create
    during the actions are named ``<permanent>.<ability>.<n>`` and have ``remaining``.
    """
    import difflib

    kinds = _case_kinds(case)
    created = _CREATED_EFFECT_RE.match(key)
    if created and kinds.get(created["perm"]) == "permanent":
        return ""
    players = {p.name for p in case.players}
    teams: set[str | None] = {p.team for p in case.players if p.team is not None}
    specs: dict[str, Any] = {p.id: p for p in case.permanents}
    todo = list(case.actions)
    produce = False
    while todo:
        act = todo.pop()
        if isinstance(act, EnterAction):
            specs[act.permanent.id] = act.permanent
        elif isinstance(act, ActivateAction):
            todo.extend(act.responses)
        elif isinstance(act, MayAction):
            todo.append(act.action)
        produce = produce or isinstance(act, CouldProduceAction)
    reason = _field_problem(key, players, teams, kinds, specs)
    if not reason and key.endswith(".could_produce") and not produce:
        reason = "the case has no could_produce: action, so no outcome records what it could produce"
    if not reason:
        return ""
    known = [f"{p}.{f}" for p in sorted(players) for f in PLAYER_FIELDS]
    known += [f"{i}.{f}" for i, k in kinds.items() if k == "permanent" for f in PERMANENT_FIELDS]
    known += [f"{i}.remaining" for i, k in kinds.items() if k == "effect"]
    known += [f"team{t}.{f}" for t in sorted(str(t) for t in teams) for f in TEAM_FIELDS]
    close = difflib.get_close_matches(key, known, n=3, cutoff=0.6)
    return reason + (f"; did you mean {' or '.join(close)}?" if close else "")


def check_fields(case: Case, fields: Iterable[str] | None, where: str = "fields") -> None:
    """Raise :class:`CaseErrors` naming every field of ``fields`` that ``case``'s outcomes don't
    have: a typo would otherwise project every outcome onto ``None`` (a silent wrong answer)."""
    errors = [CaseError(where, f"{key!r}: {reason}", case.path)
              for key in fields or () if (reason := field_problem(case, key))]
    if errors:
        raise CaseErrors(errors)


def _selector_keywords(node: Any) -> set[str]:
    """Every keyword a selector anywhere in ``node`` (a case, an ability, ...) reads with ``without:``."""
    if isinstance(node, Selector):
        return set(node.without).union(*(_selector_keywords(p) for p in node.parts))
    if isinstance(node, tuple):
        return set().union(*(_selector_keywords(x) for x in node))
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return set().union(*(_selector_keywords(getattr(node, f.name)) for f in dataclasses.fields(node) if f.name != "raw"))
    return set()


def parse_case(data: Any, file: str = "") -> Case:
    """Validate already-loaded YAML data; raise :class:`CaseErrors` listing every problem."""
    if not isinstance(data, Mapping):
        raise CaseErrors([CaseError("", "a case file must be a mapping at the top level", file)])
    odd = [k for k in data if not isinstance(k, str)]
    if odd:
        raise CaseErrors([CaseError("null" if k is None else str(k).lower() if isinstance(k, bool) else str(k),
                                    "unknown key", file) for k in odd])
    first: list[CaseError] = []
    try:
        m = CaseModel.model_validate(data)
    except ValidationError as exc:
        # a bad top-level value is reported and dropped, and the rest is still checked, unless it
        # is one of the lists everything else refers to
        first = _pydantic_errors(exc)
        bad = {err["loc"][0] for err in exc.errors() if err["loc"]}
        if bad & set(_STRUCTURAL):
            raise CaseErrors([CaseError(e.path, e.reason, file) for e in first]) from None
        rest = {k: v for k, v in data.items() if k not in bad}
        rest.setdefault("id", "_")  # (a missing or bad id: the case isn't built anyway)
        try:
            m = CaseModel.model_validate(rest)
        except ValidationError:
            raise CaseErrors([CaseError(e.path, e.reason, file) for e in first]) from None
    builder = _Builder(m, first)
    case = builder.build()
    if builder.errors:
        for err in builder.errors:
            err.file = file
        raise CaseErrors(builder.errors)
    # a keyword a selector reads ("each creature without flying") does have an effect
    read = _selector_keywords(case)
    warnings = tuple(CaseWarning(w.path, w.reason, file) for word, w in builder.warnings if word not in read)
    return Case(**{**case.__dict__, "path": file, "raw": data, "warnings": warnings})


def _choosing_combat(actions: list[Action]) -> str | None:
    """The path of the first ``combat: {blocks: choose}`` action (at the top level or under ``may:``), if any."""
    for i, act in enumerate(actions):
        inner, where = act, f"actions[{i}]"
        while isinstance(inner, MayAction):
            inner, where = inner.action, f"{where}.may"
        if isinstance(inner, CombatAction) and inner.choose_blocks:
            return f"{where}.combat"
    return None


def load_case(path: str | Path) -> Case:
    """Load and validate one case file.

    Raises :class:`~model.errors.CaseErrors` (every problem, each with file and field path).
    """
    try:
        data = read_yaml(path)
    except CaseError as exc:
        raise CaseErrors([exc]) from None
    return parse_case(data, str(path))


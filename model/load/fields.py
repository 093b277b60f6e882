"""Output field names (``you.life``, ``thief.dies``): which a case records, and why a name isn't one."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import CaseError, CaseErrors
from ..kinds import AbilityKind
from ..types import (
    ActivateAction,
    Case,
    CouldProduceAction,
    CreateAction,
    EnterAction,
    MayAction,
    PermanentSpec,
)
from ..vocab.tokens import token_creator
from .schema import EFFECT_FIELDS, PERMANENT_FIELDS, PLAYER_FIELDS, TEAM_FIELDS, _describe

_BOOL_FIELDS = ("lost", "dies", "tapped", "monarch")
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
    creator = token_creator(head)
    if kind is None and creator is not None and (creator in players or kinds.get(creator) in ("permanent", "source")):
        kind = "permanent"  # a token its creator may create during the actions (111.1)
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
    would read as nothing in every outcome (docs/design.md, "Outcomes")."""
    if rest == "loyalty" and "planeswalker" not in spec.types:
        return f"{pid} is not a planeswalker: it has no loyalty"
    if rest == "defense" and "battle" not in spec.types:
        return f"{pid} is not a battle: it has no defense"
    if rest in ("tapped", "could_produce") and not any(ab.kind == AbilityKind.MANA for ab in spec.abilities):
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

    The same check as ``expect:`` (docs/design.md, "Outcomes"); effects that activated abilities create
    during the actions are named ``<permanent>.<ability>.<n>`` and have ``remaining``.
    """
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


def check_choosers(case: Case, choosers: Iterable[str], where: str = "objective") -> None:
    """Raise :class:`CaseErrors` naming every chooser of an objective that is not one of
    ``case``'s players: its goals would be read by no one and the other players' alone decide
    the answer (a silent wrong answer)."""
    errors = [CaseError(path, reason, case.path)
              for path, reason in chooser_problems(choosers, {p.name for p in case.players}, where)]
    if errors:
        raise CaseErrors(errors)


def chooser_problems(choosers: Iterable[str], names: Iterable[str], where: str = "objective") -> list[tuple[str, str]]:
    """(path, reason) for each chooser that is not one of the player ``names``: the one check of
    an objective's choosers, the case file's (model.load.build) and the command line's."""
    known = set(names)
    return [(f"{where}.{c}" if c else where, f"{c!r} is not a player (players: {', '.join(sorted(known))})")
            for c in choosers if c not in known]

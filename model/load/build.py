"""Putting the passes together: YAML data or a file in, a validated :class:`~model.types.Case` out."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import CaseError, CaseErrors, CaseWarning
from ..objective import parse_objective
from ..selectors import Selector
from ..types import (
    Case,
    PermanentSpec,
    SourceSpec,
)
from ..yamlio import read_yaml
from .checks import _Checks
from .fields import chooser_problems
from .schema import _STRUCTURAL, CaseModel, _pydantic_errors


class _Builder(_Checks):
    """Second pass: vocabulary, cross references, derived defaults. Collects every error."""

    def build(self) -> Case:
        m = self.m
        self.created_ids: list[str] = []
        self.entered: list[tuple[PermanentSpec, str]] = []
        self.cast_sources: list[tuple[SourceSpec, str]] = []  # spells cast by card: name (cast:)
        self.block_rules: list[tuple[str, str, str]] = []  # (path, card, line): block restrictions left out
        self.hand_rules: list[tuple[str, str, str]] = []  # (path, card, line): effects on hands left out (402)
        # ids the file declares, even where the entry itself is broken: references to them are
        # not reported again (one problem, one line)
        self.declared: dict[str, str] = {}
        for kind, entries in (("permanent", m.battlefield), ("source", m.sources), ("effect", m.effects)):
            self.declared.update({e["id"]: kind for e in entries if isinstance(e, Mapping) and isinstance(e.get("id"), str)})
        players = self.players()
        active = self.active_player()
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
        self.known_perms = {spec.id: spec for spec, _ in perms}  # (an activate: of a mana ability, 605.1a)
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
            objective = self.guard(parse_objective, m.objective, "objective")
            if objective is not None:
                for path, reason in chooser_problems([c for c, _ in objective.goals], self.player_names):
                    self.err(path, reason)
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
        first = _pydantic_errors(exc, CaseModel)
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



def load_case(path: str | Path) -> Case:
    """Load and validate one case file.

    Raises :class:`~model.errors.CaseErrors` (every problem, each with file and field path).
    """
    try:
        data = read_yaml(path)
    except CaseError as exc:
        raise CaseErrors([exc]) from None
    return parse_case(data, str(path))

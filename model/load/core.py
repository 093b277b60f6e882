"""The second pass's shared state: errors collected with their paths, one entry validated at a time."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import CaseError, CaseWarning
from ..types import (
    PermanentSpec,
    SourceSpec,
)
from .schema import (
    CaseModel,
    ExpectModel,
    PermanentModel,
    PlayerModel,
    SourceModel,
    _pydantic_errors,
)

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

class _Core:
    """What every part of the second pass shares: the validated schema, the errors and warnings
    collected so far, and the names and ids declared."""

    # set by :meth:`_Builder.build` before the parts that read them run
    created_ids: list[str]
    entered: list[tuple[PermanentSpec, str]]
    cast_sources: list[tuple[SourceSpec, str]]
    block_rules: list[tuple[str, str, str]]
    hand_rules: list[tuple[str, str, str]]
    declared: dict[str, str]
    effect_ids: set[str]
    spec_by_id: dict[str, Any]

    def __init__(self, m: CaseModel, errors: list[CaseError] | None = None) -> None:
        self.m = m
        self.errors: list[CaseError] = list(errors or ())
        self.warnings: list[tuple[str, CaseWarning]] = []  # (keyword, warning)
        self.zero_life: list[tuple[int, str, str | None, int]] = []  # players starting at 0 or less life
        self.lethal_poison: list[tuple[int, str, str | None, int, int]] = []  # ... with lethal poison, and the limit (704.5c)
        # each entry on its own (a bad one is reported and skipped; its name or id still counts as
        # declared, so references to it are not reported a second time)
        self.player_models = [self.entry(PlayerModel, raw, f"players[{i}]") for i, raw in enumerate(m.players)]
        self.perm_models = [self.entry(PermanentModel, raw, f"battlefield[{i}]") for i, raw in enumerate(m.battlefield)]
        self.source_models = [self.entry(SourceModel, raw, f"sources[{i}]") for i, raw in enumerate(m.sources)]
        self.expect_model = self.entry(ExpectModel, m.expect, "expect") if m.expect is not None else None
        self.player_names = [p.name if p is not None else raw.get("name") for p, raw in zip(self.player_models, m.players, strict=True)
                             if p is not None or (isinstance(raw, Mapping) and isinstance(raw.get("name"), str))]
        self.known_perms: dict[str, PermanentSpec] = {}  # by id, once built (model.load.build)
        self.object_ids: dict[str, str] = {}  # id -> "permanent" | "source" | "effect"
        self.mapping_actions: set[str] = set()  # paths of actions written as mappings (for error paths)

    def err(self, path: str, reason: str) -> None:
        self.errors.append(CaseError(path, reason))

    def entry(self, model: type[M], raw: object, path: str) -> M | None:
        """Validate one entry (a player, permanent, source, ``expect:``) with its schema; on a
        problem, report it at the entry's path and return None."""
        try:
            return model.model_validate(raw)
        except ValidationError as exc:
            for e in _pydantic_errors(exc, model):
                self.err(f"{path}.{e.path}" if e.path else path, e.reason)
            return None

    def guard(self, fn: Callable[..., T], *args: object) -> T | None:
        try:
            return fn(*args)
        except CaseError as exc:
            self.errors.append(exc)
            return None

    # ---- pieces -------------------------------------------------------------------------

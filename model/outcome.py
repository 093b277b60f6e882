"""Outcome records: a flat, sorted mapping of field paths (``A.life``, ``thief.dies``) to values.

An expectation matches a set of outcomes when each expected outcome agrees with some state on the
fields it names; with ``complete: true`` every state projected onto the union of named fields must
also be expected (docs/design.md, "Outcomes, projections, expectations").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .types import Expect

__all__ = ["Outcome", "Witness", "sort_key", "project", "agrees", "expectation_report", "ExpectationReport"]


@dataclass(frozen=True)
class Witness:
    """One choice on the way to an outcome."""

    chooser: str
    kind: str
    at: str
    picked: str

    def as_dict(self) -> dict[str, str]:
        return {"chooser": self.chooser, "kind": self.kind, "at": self.at, "picked": self.picked}


@dataclass(frozen=True)
class Outcome:
    """One distinct end state, one witness (the choices that produce it) and how many paths do."""

    state: tuple[tuple[str, Any], ...]
    witness: tuple[Witness, ...] = ()
    paths: int = 1
    words: tuple[str, ...] = field(default=(), compare=False)

    @property
    def values(self) -> dict[str, Any]:
        return dict(self.state)

    def as_dict(self) -> dict[str, Any]:
        return {
            "state": {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.state},
            "paths": self.paths,
            "witness": [w.as_dict() for w in self.witness],
        }


def project(state: Mapping[str, Any], fields: Iterable[str]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((f, state.get(f)) for f in fields))


def agrees(state: Mapping[str, Any], expected: Iterable[tuple[str, Any]]) -> bool:
    return all(_same(state.get(k), v) for k, v in expected)


def _same(actual: Any, expected: Any) -> bool:
    if isinstance(actual, tuple | list) or isinstance(expected, tuple | list):
        return list(actual or []) == list(expected or [])
    if isinstance(expected, bool) or isinstance(actual, bool):
        return actual is expected or actual == expected
    return bool(actual == expected)


@dataclass(frozen=True)
class ExpectationReport:
    """What an expectation missed: expected outcomes no state agrees with (unreachable), and
    states that a complete expectation does not list (missing from the ruling)."""

    unreachable: tuple[tuple[tuple[str, Any], ...], ...]
    unexpected: tuple[int, ...]  # indices of outcomes not covered by a complete expectation
    fields: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.unreachable and not self.unexpected


def expectation_report(expect: Expect, states: Sequence[Mapping[str, Any]]) -> ExpectationReport:
    fields = sorted({k for outcome in expect.outcomes for k, _ in outcome})
    unreachable = tuple(o for o in expect.outcomes if not any(agrees(s, o) for s in states))
    unexpected: list[int] = []
    if expect.complete:
        # every state, projected onto the named fields, must be one of the expected outcomes
        unexpected = [i for i, s in enumerate(states) if not any(agrees(s, o) for o in expect.outcomes)]
    return ExpectationReport(unreachable, tuple(unexpected), tuple(fields))


def sort_key(state: tuple[tuple[str, Any], ...]) -> tuple[Any, ...]:
    """Outcomes sort by their fields' values, None < bools < numbers < lists < text: the same
    order whichever engine found them (same input, same bytes)."""
    return tuple((k, _orderable(v)) for k, v in state)


def _orderable(v: Any) -> tuple[int, Any]:
    if v is None:
        return (0, 0)
    if isinstance(v, bool):
        return (1, int(v))
    if isinstance(v, int):
        return (2, v)
    if isinstance(v, tuple):
        return (3, tuple(str(x) for x in v))
    return (4, str(v))

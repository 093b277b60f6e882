"""Objectives: per chooser, maximize / minimize a field or a linear expression of fields, or a
lexicographic list of those (``{you: [maximize you.life, minimize A.cards_drawn]}``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import CaseError
from .expr import MAX_INT
from .yamlio import load_text

__all__ = ["Goal", "Objective", "parse_objective", "parse_objective_text"]

_TERM = re.compile(r"\s*([+-]?)\s*(?:(\d+)\s*\*?\s*)?([A-Za-z_][\w\-]*(?:\.[\w\-/+]+)+)\s*")


@dataclass(frozen=True)
class Goal:
    """One lexicographic level: sense (+1 maximize, -1 minimize) and terms (coefficient, field)."""

    sense: int
    terms: tuple[tuple[int, str], ...]

    def score(self, values: Mapping[str, Any]) -> int:
        total = 0
        for coef, field in self.terms:
            v = values.get(field, 0)
            total += coef * int(v if v is not None else 0)
        return self.sense * total

    def __str__(self) -> str:
        expr = " ".join(f"{'+' if c > 0 else '-'} {abs(c)}*{f}" if abs(c) != 1 else f"{'+' if c > 0 else '-'} {f}"
                        for c, f in self.terms).lstrip("+ ")
        return f"{'maximize' if self.sense > 0 else 'minimize'} {expr}"


@dataclass(frozen=True)
class Objective:
    """Goals per chooser (player name)."""

    goals: tuple[tuple[str, tuple[Goal, ...]], ...]

    def of(self, chooser: str) -> tuple[Goal, ...] | None:
        return dict(self.goals).get(chooser)

    def fields(self) -> set[str]:
        return {f for _, gs in self.goals for g in gs for _, f in g.terms}


def _goal(value: Any, path: str) -> Goal:
    if isinstance(value, Mapping):
        if len(value) != 1 or next(iter(value)) not in ("maximize", "minimize"):
            raise CaseError(path, "expected {maximize: <expression>} or {minimize: <expression>}")
        sense_word, expr = next(iter(value.items()))
    elif isinstance(value, str):
        parts = value.strip().split(None, 1)
        if len(parts) != 2 or parts[0] not in ("maximize", "minimize"):
            raise CaseError(path, f"expected 'maximize <expression>' or 'minimize <expression>', got {value!r}")
        sense_word, expr = parts
    else:
        raise CaseError(path, "expected 'maximize <field>' or a list of them")
    if not isinstance(expr, str):
        raise CaseError(path, "the expression must be text such as 'A.life - you.life'")
    terms = []
    pos = 0
    while pos < len(expr):
        m = _TERM.match(expr, pos)
        if not m or m.end() == pos:
            raise CaseError(path, f"can't read the expression {expr!r} (fields joined by + and -, e.g. A.life - you.life)")
        sign = -1 if m.group(1) == "-" else 1
        coef = int(m.group(2)) if m.group(2) else 1
        if coef > MAX_INT:  # (an objective is a sum of fields: a weight past the amounts' bound is a typo)
            raise CaseError(path, f"a weight of at most {MAX_INT} per field, got {m.group(2)[:30]}")
        terms.append((sign * coef, m.group(3)))
        pos = m.end()
    if not terms:
        raise CaseError(path, "empty expression")
    return Goal(1 if sense_word == "maximize" else -1, tuple(terms))


def parse_objective(value: Any, path: str = "objective") -> Objective:
    if not isinstance(value, Mapping) or not value:
        raise CaseError(path, "expected a mapping from chooser to goals, e.g. {you: maximize you.life}")
    goals = []
    for chooser, spec in value.items():
        items = spec if isinstance(spec, list) else [spec]
        if not items:
            raise CaseError(f"{path}.{chooser}", "at least one goal")
        goals.append((str(chooser), tuple(_goal(g, f"{path}.{chooser}[{i}]" if isinstance(spec, list) else f"{path}.{chooser}")
                                           for i, g in enumerate(items))))
    return Objective(tuple(goals))


MAX_OBJECTIVE_TEXT = 100_000  # characters of --objective in all (a bound, said, as a case file's size)


def parse_objective_text(texts: list[str]) -> Objective:
    """Command-line form: ``'you: maximize you.life'`` or ``'you: [maximize you.life, minimize A.cards_drawn]'``.

    A list is read by the case files' bounded YAML reader (no alias bomb, base-10 numbers), in
    time linear in its length; the text in all is at most :data:`MAX_OBJECTIVE_TEXT` characters."""
    if isinstance(texts, str):
        texts = [texts]
    if sum(len(t) for t in texts) > MAX_OBJECTIVE_TEXT:
        raise CaseError("--objective", f"longer than {MAX_OBJECTIVE_TEXT} characters in all")
    merged: dict[str, Any] = {}
    for text in texts:
        chooser, sep, rest = text.partition(":")
        chooser, rest = chooser.strip(), rest.strip()
        if not sep or not chooser:
            raise CaseError("--objective", f"expected 'CHOOSER: maximize FIELD', got {text[:200]!r}")
        if chooser in merged:
            raise CaseError(f"--objective {chooser}", "given twice: put its goals in one list, in order")
        try:
            value: Any = load_text(rest) if rest.startswith("[") else rest
        except CaseError as exc:
            raise CaseError(f"--objective {chooser}", f"expected '[maximize FIELD, ...]': {exc.reason}") from None
        merged[chooser] = value
    return parse_objective(merged, "--objective")

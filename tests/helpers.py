"""Small helpers to state a situation inline and read its outcome set."""

from __future__ import annotations

from typing import Any

import yaml

from model import parse_case
from model.types import Case
from solver import enumerate_outcomes


def case_from(text: str) -> Case:
    data = yaml.safe_load(text)
    data.setdefault("id", "inline")
    return parse_case(data, "<inline>")


def outcome_set(text: str, *fields: str, engine: str = "graph") -> set[tuple[Any, ...]]:
    """The distinct outcomes projected on ``fields`` (in that order)."""
    result = enumerate_outcomes(case_from(text), engine=engine)
    assert result.complete
    return {tuple(o.values.get(f) for f in fields) for o in result.outcomes}

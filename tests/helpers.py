"""Small helpers to state a situation inline and read its outcome set."""

from __future__ import annotations

from typing import Any

import yaml

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.model import parse_case
from mtg_outcomes.model.types import Case


def case_from(text: str) -> Case:
    data = yaml.safe_load(text)
    data.setdefault("id", "inline")
    return parse_case(data, "<inline>")


def outcome_set(text: str, *fields: str, engine: str = "graph") -> set[tuple[Any, ...]]:
    """The distinct outcomes projected on ``fields`` (in that order)."""
    result = enumerate_outcomes(case_from(text), engine=engine)
    assert result.complete
    return {tuple(o.values.get(f) for f in fields) for o in result.outcomes}


def both_engines(text: str, *fields: str) -> set[tuple[Any, ...]]:
    """The outcome set on ``fields`` (read off each outcome's whole state: a field at 0 is 0, one
    the state lacks is None) from the graph engine, checked equal to the CP engine's; the CP
    engine must model the case."""
    from mtg_outcomes.cp import cp_supported

    case = case_from(text)
    assert cp_supported(case) is None, cp_supported(case)
    got = [{tuple(dict(o.state).get(f) for f in fields) for o in enumerate_outcomes(case, engine=e).outcomes}
           for e in ("graph", "cp")]
    assert got[0] == got[1]
    return got[0]


def problems(text: str) -> list[tuple[str, str]]:
    """Every (path, reason) the loader reports for ``text`` (which must be refused)."""
    import pytest

    from mtg_outcomes.model.errors import CaseErrors

    with pytest.raises(CaseErrors) as exc:
        case_from(text)
    return [(e.path, e.reason) for e in exc.value.errors]


def case_error(text: str) -> str:
    """The loader's whole message for ``text`` (which must be refused)."""
    import pytest

    from mtg_outcomes.model.errors import CaseErrors

    with pytest.raises(CaseErrors) as exc:
        case_from(text)
    return str(exc.value)


def reading(name: str) -> Any:
    """The recogniser's reading of the real card ``name`` (its first face), which must be
    understood in full (the lines not understood are the assertion's message)."""
    from mtg_outcomes.model.carddata import find
    from mtg_outcomes.model.recognise import read_face

    r = read_face(find(name).face)
    assert r.understood, [x.text for x in r.not_understood]
    return r

"""Ruling checks: does a case's ``expect:`` name every outcome, and is every named outcome reachable?"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtg_outcomes.model.errors import CaseErrors, MtgOutcomesError
from mtg_outcomes.model.load import load_case
from mtg_outcomes.model.outcome import Outcome, agrees, expectation_report
from mtg_outcomes.model.types import Case
from mtg_outcomes.model.versions import stamps

from .api import Result, check_case, enumerate_outcomes
from .contract import PASSING, Status
from .decision import CHOICE, NOT_DONE
from .explain import replay
from .limits import Deadline, as_deadline
from .words import value_text

__all__ = ["CheckReport", "check", "check_paths", "case_files"]


@dataclass
class CheckReport:
    """Status of one case: OK, INCOMPLETE, UNREACHABLE, NO-EXPECT or ERROR."""

    case: str
    path: str
    status: Status
    detail: list[str] = field(default_factory=list)
    missing: list[Outcome] = field(default_factory=list)  # found, not in a complete expectation
    unreachable: list[dict[str, Any]] = field(default_factory=list)
    closest: list[dict[str, Any]] = field(default_factory=list)
    outcomes: int = 0
    seconds: float = 0.0
    bad_input: bool = False
    # what the file says that the tool accepts without acting on (omitted lines, keywords without
    # effect here): shown with the status so a check never hides them
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status in PASSING

    def as_dict(self) -> dict[str, Any]:
        return {"case": self.case, "path": self.path, "status": self.status, "detail": self.detail,
                "outcomes": self.outcomes,
                "missing": [o.as_dict() for o in self.missing],
                "unreachable": self.unreachable, "closest": self.closest, "warnings": self.warnings, **stamps()}


def check(case: Case, engine: str = "auto", timeout: float | Deadline | None = None) -> CheckReport:
    """Compare every reachable outcome of ``case`` with its ``expect:``."""
    start = time.perf_counter()
    check_case(case)
    as_deadline(timeout)  # a bad limit is a ValueError even for a case without expect:
    if case.expect is None:
        return verdict(case, None, start)
    return verdict(case, enumerate_outcomes(case, engine=engine, timeout=timeout), start)


def verdict(case: Case, result: Result | None, start: float | None = None) -> CheckReport:
    """The ruling's verdict on ``result`` (the case's outcomes, not projected): ``check`` without
    enumerating again (the report has them already)."""
    start = time.perf_counter() if start is None else start
    warnings = [str(w) for w in case.warnings]
    if case.expect is None or result is None:
        return CheckReport(case.id, case.path, Status.NO_EXPECT, ["the case has no expect: section, so there is no ruling to compare its outcomes with"], warnings=warnings)
    states = [o.values for o in result.outcomes]
    rep = expectation_report(case.expect, states)
    report = CheckReport(case.id, case.path, Status.OK, outcomes=len(result.outcomes), warnings=warnings)
    if not result.complete:
        report.status = Status.ERROR
        report.detail.append("a limit cut the search; the outcome list is partial")
    fields = list(rep.fields)
    if rep.unexpected:
        report.status = Status.INCOMPLETE
        for i in rep.unexpected:
            o = result.outcomes[i]
            report.missing.append(o)
            shown = ", ".join(f"{k}={value_text(o.values.get(k))}" for k in fields)
            report.detail.append(f"not in the ruling: {shown}  <- " + "; ".join(choice_words(case, o) or ("no choices",)))
    if rep.unreachable:
        report.status = report.status.and_unreachable()
        for exp in rep.unreachable:
            want = dict(exp)
            report.unreachable.append(want)
            close = sorted(states, key=lambda s: sum(0 if agrees(s, [(k, v)]) else 1 for k, v in exp))[:2]
            report.closest.extend({k: s.get(k) for k in want} for s in close)
            shown = ", ".join(f"{k}={value_text(v)}" for k, v in exp)
            near = " | ".join(", ".join(f"{k}={value_text(s.get(k))}" for k in want) for s in close)
            report.detail.append(f"unreachable: {shown}  (closest reachable: {near})")
    report.seconds = time.perf_counter() - start
    return report


def choice_words(case: Case, outcome: Outcome) -> list[str]:
    """An outcome's choices in words, each with its chooser and rule (solver.explain), as every
    text output says them; the witness's own words if it doesn't replay."""

    try:
        return [s.text() for s in replay(case, outcome).steps if s.kind in (CHOICE, NOT_DONE)]
    except MtgOutcomesError:
        return list(outcome.words)


def case_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """YAML files named by ``paths`` (directories are searched recursively), sorted.

    Every ``*.yaml``/``*.yml`` entry but a directory is yielded, so a FIFO, device or dangling link
    named like a case is reported by the reader instead of silently skipped.
    """
    for p in paths:
        path = Path(p)
        if path.is_dir():
            yield from sorted(q for q in path.rglob("*") if q.suffix in (".yaml", ".yml") and not q.is_dir())
        else:
            yield path


def check_paths(paths: Iterable[str | Path], engine: str = "auto", timeout: float | None = None) -> list[CheckReport]:
    reports = []
    for path in case_files(paths):
        try:
            case = load_case(path)
        except CaseErrors as exc:
            reports.append(CheckReport(path.stem, str(path), Status.ERROR, [str(e) for e in exc.errors], bad_input=True))
            continue
        try:
            reports.append(check(case, engine=engine, timeout=timeout))
        except MtgOutcomesError as exc:
            reports.append(CheckReport(case.id, str(path), Status.ERROR, [str(exc)], warnings=[str(w) for w in case.warnings]))
    return reports

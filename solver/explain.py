"""Why an outcome happens: its witness replayed step by step, with the forced steps between.

A witness lists only real choices (docs/design.md). Replaying it through the rules engine recovers
everything else that happened on the way, as :func:`solver.decision.note` recorded it: options the
rules left no alternative to (a shield that had to take everything, CR 615.7; a single legal
target), and actions that could not happen (an activation without a legal target, CR 601.2c; an
ability whose target became illegal, CR 608.2b). Both engines' witnesses replay the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.outcome import Outcome
from mtg_outcomes.model.types import Case

from .decision import CHOICE, Decision, Step, explaining, find_option
from .engine import advance, final_fields
from .state import initial_state, replace
from .words import Namer

__all__ = ["Replay", "replay"]


@dataclass(frozen=True)
class Replay:
    steps: tuple[Step, ...]
    fields: dict[str, Any]
    names: dict[str, str] = field(default_factory=dict)  # object id -> name, where they differ (solver.words)

    @property
    def forced(self) -> tuple[str, ...]:
        return tuple(s.words for s in self.steps if s.kind != CHOICE)


def replay(case: Case, outcome: Outcome) -> Replay:
    """Follow ``outcome``'s witness from the case's initial state; raise :class:`EngineError` if
    a step of the witness is not a decision the rules offer there. What happened on the way
    (solver.decision.event) is recorded only here, not while solving."""
    with explaining():
        return _replay(case, outcome)


def _replay(case: Case, outcome: Outcome) -> Replay:
    state, table = initial_state(case)
    res = advance(state, table)
    steps: list[Step] = []
    seen = 0
    for w in outcome.witness:
        if not isinstance(res, Decision):
            raise EngineError(f"witness step {w.chooser} {w.kind} at {w.at} comes after the end of the timeline")
        steps += res.log.after(seen)
        if (w.chooser, w.kind, w.at) != (res.chooser, res.kind, res.at):
            raise EngineError(f"witness step {w.chooser} {w.kind} at {w.at} does not match the decision "
                              f"{res.chooser} {res.kind} at {res.at}")
        picked = find_option(res, w.picked)
        if picked is None:
            raise EngineError(f"witness step {w.picked!r} is not an option at {res.at}")
        steps.append(Step(CHOICE, picked.words, res.cr, res.chooser))
        seen = len(res.log)
        res = advance(picked.state, table)
    if isinstance(res, Decision):
        raise EngineError(f"the witness stops at the decision {res.chooser} {res.kind} at {res.at}")
    steps += res.log.after(seen)
    named = Namer(res, table)  # the ids older texts still say, as names (solver.words)
    return Replay(tuple(replace(s, words=named(s.words)) for s in steps), final_fields(res, table), dict(named.map))

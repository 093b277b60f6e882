"""Decisions: who chooses what, with one option per legal choice, and the steps nobody chose.

A :class:`Decision` stops the timeline where a player has a real choice (CR 616.1 orders, 615.7
shield splits, 510.1 damage assignment, 603.3b trigger order, 601.2c targets, ...). Where the rules
leave exactly one legal option, or an action can't happen at all, nothing is chosen, but a user
asking *why* an outcome happens needs to see it: :func:`note` records such a **forced step** on
the state's log, which the choice graph turns into the outcome's explanation (``--explain``).
The log is not part of the game state (it is excluded from equality and hashing), so it never
stops the graph from merging identical states.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from model.errors import CaseError
from model.types import Case

from .log import CHOICE, EMPTY_LOG, FORCED, NOT_DONE, Log, Step
from .state import GameState, replace

__all__ = ["Step", "Option", "Decision", "find_option", "settle", "decide", "note", "says", "scripted", "decision_key", "CHOICE", "FORCED", "NOT_DONE"]

@dataclass(frozen=True)
class Option:
    picked: str
    words: str
    state: GameState


@dataclass(frozen=True)
class Decision:
    chooser: str
    kind: str  # order | split | assign | target | stack_order | may | choose | source | mode | kick
    at: str
    options: Sequence[Option]  # (a declaration of blockers builds them as read: solver.declare)
    log: Log = EMPTY_LOG  # the forced steps of the path up to this decision


def settle(res: Any) -> Any:
    """``res`` with a decision's options all built (solver.declare builds a declaration's as they
    are read): an expansion that reads them all does it here, under its limits."""
    if isinstance(res, Decision) and not isinstance(res.options, tuple):
        return dataclasses.replace(res, options=tuple(res.options))
    return res


def find_option(d: Decision, picked: str) -> Option | None:
    """The option of ``d`` labelled ``picked`` (a witness's step), None if it has none; built alone
    where the options are built as read (solver.declare.Declarations)."""
    find = getattr(d.options, "find", None)
    if find is not None:
        return find(picked)
    return next((o for o in d.options if o.picked == picked), None)


def says(chooser: str, verb: str) -> str:
    """"A applies" but "you apply": witnesses read as sentences."""
    if chooser != "you":
        return f"{chooser} {verb}"
    base = verb[:-3] + "y" if verb.endswith("ies") else verb[:-1] if verb.endswith("s") else verb
    return f"you {base}"


def note(state: GameState, words: str, kind: str = FORCED) -> GameState:
    """Record a forced step (``FORCED``: an only option; ``NOT_DONE``: an action that can't
    happen) on the state's log."""
    return replace(state, log=state.log.add(Step(kind, words)))


def decide(chooser: str, kind: str, at: str, options: list[Option] | tuple[Option, ...]) -> GameState | Decision:
    """A decision, or, when the rules leave one legal option, that option taken as a forced step."""
    if len(options) == 1:
        only = options[0]
        return note(only.state, f"{only.words} (the only legal option)")
    return Decision(chooser, kind, at, tuple(options))


def scripted(d: Decision, case: Case) -> Decision:
    """Replay ``choices:`` (docs/design.md): while the chooser's queue lasts, keep only its next pick."""
    names = [name for name, _ in case.choices]
    if d.chooser not in names:
        return d
    i = names.index(d.chooser)
    queue = case.choices[i][1]
    script = d.options[0].state.script or (0,) * len(names)
    pos = script[i]
    if pos >= len(queue):
        return d
    want = str(queue[pos])
    kept = [o for o in d.options if o.picked == want]
    if not kept:
        offered = ", ".join(o.picked for o in d.options)
        raise CaseError(f"choices.{d.chooser}[{pos}]", f"{want!r} is not an option of {'your' if d.chooser == 'you' else d.chooser + chr(39) + 's'} {d.kind} at {d.at} (options: {offered})", case.path)
    step = script[:i] + (pos + 1,) + script[i + 1:]
    return replace(d, options=tuple(replace(o, state=replace(o.state, script=step)) for o in kept))


def decision_key(d: Decision) -> Any:
    """What identifies a decision in the choice graph: equal keys are merged into one node."""
    return ("decision", d.chooser, d.kind, d.at, tuple((o.picked, o.state) for o in d.options))

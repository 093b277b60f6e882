"""The choices before the CP step: the graph engine's rules expand every step of the timeline up
to the last damage step, merging equal states as the choice graph does; the CP model then solves
that one step from each distinct state reached (solver.cp.plan, solver.cp.search).

The CP step is the last action when it is a ``damage:`` batch, or the last combat damage step of
a ``combat: {}`` action: with first or double strike the regular combat damage step, after the
first-strike damage step (CR 510.4) with its state-based actions and triggers, which the rules
engine runs (704.3, 603.3b). Earlier actions (activations and their targets, 601.2c; a source of
your choice, 615.9 / 609.7a; declared blocks, 509.1; ``enter:`` choices; trigger orders) are
decisions of this prefix. A branch where the game ends before the step (104.2a) is an outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from model.errors import EngineError
from model.outcome import Witness
from model.types import Case, CombatAction, DamageAction

from ..combat import END_OF_DAMAGE
from ..decision import Decision, decision_key, scripted
from ..engine import LOOP, advance
from ..limits import Deadline
from ..state import GameState, Table, initial_state

PREFIX_NODES = 5_000  # states the expansion before the CP step may visit (beyond: the CP declines)
MAX_STARTS = 64  # distinct states at the start of the CP step (one CP model each; beyond: declined)

__all__ = ["Prefix", "Start", "expand", "script_left", "PREFIX_NODES", "MAX_STARTS"]

_EXPANDING = "expanding the choices before the last damage step"


@dataclass(frozen=True)
class Start:
    """A distinct state at a point of the timeline (the start of the CP step, or the end), with
    the first choice path reaching it (the graph engine's labels, replayable)."""

    state: GameState
    witness: tuple[Witness, ...]
    words: tuple[str, ...]


@dataclass
class Prefix:
    """Every distinct state at the start of the CP step (``starts``), the end states of branches
    where the game ended before it (``ended``, 104.2a), and whether a node limit cut the expansion."""

    table: Table
    last: DamageAction | CombatAction
    starts: list[Start] = field(default_factory=list)
    ended: list[Start] = field(default_factory=list)
    complete: bool = True
    nodes: int = 0
    decisions: int = 0  # decisions expanded before the step (0: the step follows the case directly)

    def step(self, start: Start) -> int | None:
        """The combat damage step the CP models from ``start`` (0: the only one, 2: the regular
        one after a first-strike step, CR 510.4), None for a ``damage:`` batch."""
        return start.state.queue[0][1] if isinstance(self.last, CombatAction) else None


def _at_step(last: Any) -> Any:
    """The stop point of the expansion: only the last action is left (a ``damage:`` batch), or
    only the last combat damage step and the step's end (510.4: the first-strike step is done)."""
    if isinstance(last, DamageAction):
        tail = (("act", last),)
        return lambda s: s.queue == tail
    return lambda s: len(s.queue) == 2 and s.queue[0][0] == "step" and s.queue[0][1] in (0, 2) \
        and s.queue[1] == ("step", END_OF_DAMAGE)


def expand(case: Case, deadline: Deadline | None = None, max_nodes: int = PREFIX_NODES) -> Prefix:
    """Expand every decision before the CP step (depth-first, options in order, equal states
    merged as in solver.graph.build_graph; ``choices:`` scripts applied). The last action must
    be a ``damage:`` or ``combat:`` action. A ``max_nodes`` cut leaves ``complete`` False;
    :class:`~solver.limits.LimitReached` when ``deadline`` passes; a choice that leads back to a
    decision on its own path (a loop that never ends) is an :class:`EngineError`, as in the graph."""
    state0, table = initial_state(case)
    last = case.actions[-1]
    assert isinstance(last, DamageAction | CombatAction)
    stop = _at_step(last)
    out = Prefix(table, last)
    seen: set[Any] = set()  # every state and decision reached
    path: set[Any] = set()  # the decisions on the current path (a child among them is a loop)
    cut = False

    def visit(raw: GameState, wit: tuple[Witness, ...], words: tuple[str, ...]) -> list[Any] | None:
        """The frame of a new decision to expand, else None (an end, a start, or seen before)."""
        nonlocal cut
        if deadline is not None:
            deadline.check(_EXPANDING)
        res = advance(raw, table, stop)
        if isinstance(res, Decision) and case.choices:
            res = scripted(res, case)
        key = res if isinstance(res, GameState) else decision_key(res)
        if key in path:
            raise EngineError(LOOP)
        if key in seen:
            return None
        if out.nodes >= max_nodes:
            cut = True
            return None
        seen.add(key)
        out.nodes += 1
        if isinstance(res, GameState):
            if not res.dead:
                (out.starts if stop(res) else out.ended).append(Start(res, wit, words))
            return None
        out.decisions += 1
        path.add(key)
        return [key, res, wit, words, 0]

    frames = [f for f in [visit(state0, (), ())] if f is not None]
    while frames and not cut:
        frame = frames[-1]
        key, res, wit, words, i = frame
        if i == len(res.options):
            frames.pop()
            path.discard(key)
            continue
        frame[4] = i + 1
        opt = res.options[i]
        child = visit(opt.state, (*wit, Witness(res.chooser, res.kind, res.at, opt.picked)), (*words, opt.words))
        if child is not None:
            frames.append(child)
    out.complete = not cut
    return out


def script_left(case: Case, state: GameState) -> bool:
    """Whether a ``choices:`` script still has picks for decisions after ``state``."""
    pos = state.script or (0,) * len(case.choices)
    return any(p < len(queue) for p, (_, queue) in zip(pos, case.choices, strict=True))



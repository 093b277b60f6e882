"""One wall-clock limit for every phase of an answer (planning, model building, solving, witness
replay, graph expansion and its outcome pass): the engines hold a :class:`Deadline` made when the
answer was asked for and check it often, so ``--timeout`` bounds the whole run, not one phase.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["Deadline", "LimitReached", "as_deadline", "WITNESS_STEPS", "WitnessBudget", "running_under",
           "check_running", "NodeLimitReached"]

# the choices the witnesses of one answer may hold together, in either engine (a memory bound:
# a long chain of riders' damage with an end state at every link makes them grow with outcomes x
# depth); past it the answer is cut, said
WITNESS_STEPS = 2_000_000


class WitnessBudget:
    """What is left of :data:`WITNESS_STEPS` for one answer's witnesses (the graph's outcomes, the
    optimal lines, the CP expansions' states), and what to say once they passed it."""

    def __init__(self) -> None:
        self.bound = WITNESS_STEPS
        self.held = 0

    def spend(self, steps: int) -> bool:
        """Count a witness of ``steps`` choices; False once all of them pass the bound."""
        self.held += steps
        return self.held <= self.bound

    @property
    def cut(self) -> str:
        return (f"the outcomes' witnesses hold more than {self.bound} choices in all (a memory bound): "
                "the outcomes after them are not listed")


class LimitReached(Exception):
    """The deadline passed during ``phase`` (the answer so far is partial)."""

    def __init__(self, phase: str) -> None:
        super().__init__(f"the time limit was reached while {phase}")
        self.phase = phase


class Deadline:
    """``seconds`` from now (None: no limit)."""

    def __init__(self, seconds: float | None) -> None:
        self.start = time.perf_counter()
        self.seconds = seconds

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def left(self) -> float | None:
        """Seconds left (never negative), or None without a limit."""
        return None if self.seconds is None else max(0.0, self.seconds - self.elapsed())

    def expired(self, margin: float = 0.0) -> bool:
        """Whether the deadline has passed, or will have ``margin`` seconds from now."""
        return self.seconds is not None and self.elapsed() + margin > self.seconds

    def share(self, fraction: float) -> Deadline:
        """A deadline ``fraction`` of the time left from now (same start; no limit stays none):
        a budget for one phase that leaves the rest to the phases after it."""
        part = Deadline(None)
        part.start = self.start
        left = self.left()
        if left is not None and self.seconds is not None:
            part.seconds = self.seconds - left + fraction * left
        return part

    def check(self, phase: str) -> None:
        """Raise :class:`LimitReached` once the deadline has passed."""
        if self.expired():
            raise LimitReached(phase)


def as_deadline(limit: float | Deadline | None) -> Deadline:
    """``limit`` as a deadline: a number of seconds from now (infinity: none), an existing deadline
    (shared with the phases before), or None (no limit). A ValueError for anything else: NaN (no
    limit to one engine, cut at once to the other, were it let through), a negative number, text."""
    if isinstance(limit, Deadline):
        return limit
    if limit is None:
        return Deadline(None)
    if isinstance(limit, bool) or not isinstance(limit, int | float):
        raise ValueError(f"timeout must be a number of seconds or None, got {type(limit).__name__} {limit!r}")
    if limit != limit or limit < 0:
        raise ValueError(f"timeout must be a number of seconds >= 0 or None, got {limit!r}")
    return Deadline(None if limit == float("inf") else float(limit))


class NodeLimitReached(LimitReached):
    """One decision would have more options than the node limit (``--max-nodes``) allows states."""

    def __init__(self, phase: str, nodes: int) -> None:
        Exception.__init__(self, f"the node limit (max_nodes={nodes}) was reached while {phase}: one decision "
                                 "has more options than that")
        self.phase = phase


# the limits of the expansion step running now: checked inside a step's own long loops (a block
# declaration's combinations, a chain of triggers), which know neither the deadline nor the node
# limit of the expansion they are part of
_RUNNING: ContextVar[tuple[Deadline | None, int | None] | None] = ContextVar("mtg_outcomes_running", default=None)


@contextmanager
def running_under(deadline: Deadline | None, max_nodes: int | None = None) -> Iterator[None]:
    """Within this block :func:`check_running` raises :class:`LimitReached` once ``deadline`` has
    passed, and :class:`NodeLimitReached` for a decision of more than ``max_nodes`` options: the
    caller catches it (the step is cut, the answer partial)."""
    if deadline is not None and deadline.seconds is None:
        deadline = None
    token = _RUNNING.set(None if deadline is None and max_nodes is None else (deadline, max_nodes))
    try:
        yield
    finally:
        _RUNNING.reset(token)


def check_running(phase: str, options: int = 0) -> None:
    """Raise :class:`LimitReached` if the deadline of the step running now has passed, or
    :class:`NodeLimitReached` if ``options`` (of the decision being built) pass its node limit."""
    running = _RUNNING.get()
    if running is None:
        return
    deadline, nodes = running
    if deadline is not None:
        deadline.check(phase)
    if nodes is not None and options > nodes:
        raise NodeLimitReached(phase, nodes)

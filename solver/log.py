"""The forced steps of a path (solver.decision.note), kept on each state as a persistent list.

Each state of a path carries the log of the steps before it. Copied at every step (a tuple), a
path of depth d held d(d+1)/2 steps over its states: on a long chain of riders' damage the
choice graph's states grew quadratic in memory (a random case: 4x the memory and twice the
time at 20,000 states). Here adding a step shares the log before it: one cell per step.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["Step", "Log", "EMPTY_LOG", "CHOICE", "FORCED", "NOT_DONE", "EVENT"]

CHOICE, FORCED, NOT_DONE, EVENT = "choice", "forced", "not_done", "event"


@dataclass(frozen=True)
class Step:
    """One step of an outcome's explanation: a player's ``choice``, a ``forced`` step (the only
    legal option), an action of the case that was ``not_done`` because the rules forbid it, or an
    ``event``: what happened (damage dealt and its results, a state-based action, a trigger
    resolving, a combat damage step beginning). ``rule``: the CR rule that grants the choice,
    forces the step or makes the event happen; ``who``: the player who chooses."""

    kind: str  # CHOICE | FORCED | NOT_DONE | EVENT
    words: str
    rule: str = ""
    who: str = ""

    def as_dict(self) -> dict[str, str]:
        out = {"kind": self.kind, "words": self.words}
        if self.rule:
            out["rule"] = self.rule
        if self.who:
            out["who"] = self.who
        return out

    def text(self) -> str:
        """The step as one line: a choice says who makes it and under which rule."""
        rule = f"CR {self.rule}" if self.rule and f"CR {self.rule}" not in self.words else ""
        if self.kind == CHOICE:
            whose = "your" if self.who == "you" else f"{self.who}'s"
            return f"{self.words} ({whose} choice{', ' + rule if rule else ''})"
        if self.kind == FORCED:
            return f"({self.words}{', ' + rule if rule else ''})"
        return f"{self.words} ({rule})" if rule else self.words


@dataclass(frozen=True, eq=False)
class Log:
    """The steps so far, newest last: ``step`` after the log ``before`` (``size`` steps in all)."""

    before: Log | None
    step: Step | None
    size: int

    def add(self, step: Step) -> Log:
        return Log(self, step, self.size + 1)

    def after(self, n: int) -> list[Step]:
        """The steps after the first ``n``, in order (walks back only over them)."""
        out: list[Step] = []
        node: Log | None = self
        while node is not None and node.size > n:
            assert node.step is not None
            out.append(node.step)
            node = node.before
        out.reverse()
        return out

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[Step]:
        return iter(self.after(0))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Log) and self.size == other.size and list(self) == list(other)

    def __hash__(self) -> int:
        return hash(tuple(self))


EMPTY_LOG = Log(None, None, 0)

"""What a peer engine is to the comparison: a thing that runs a case and returns its end states.

A *peer* is another rules engine (phase.rs, or a test double). It gets the case, sets the board up
as far as it can, explores every branch its own prompts offer, and reports each end state read on
the case's field paths (``you.life``, ``thief.dies``). What it could not set up or read is listed,
never dropped (docs/design.md: no silent wrong answer).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from mtg_outcomes.model.errors import MtgOutcomesError
from mtg_outcomes.model.types import Case

__all__ = ["PeerOutcome", "PeerRun", "Peer", "PeerUnavailable", "CannotSetUp"]


@dataclass(frozen=True)
class PeerOutcome:
    """One end state the peer reached: field path -> value, and the peer's choices on the way."""

    state: tuple[tuple[str, Any], ...]
    steps: tuple[str, ...] = ()

    @property
    def values(self) -> dict[str, Any]:
        return dict(self.state)


@dataclass(frozen=True)
class PeerRun:
    """Everything one peer run found. ``fields`` are the paths the peer can read at all;
    ``prompts`` counts each kind of prompt it offered (``{"ReplacementChoice": {"times": 3,
    "options": 2, "by": "explored"}}``); ``complete`` is false when a limit cut the exploration."""

    peer: str
    outcomes: tuple[PeerOutcome, ...]
    fields: frozenset[str]
    prompts: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    unsupported: tuple[str, ...] = ()
    complete: bool = True
    nodes: int = 0
    cut: str = ""


class PeerUnavailable(MtgOutcomesError):
    """The peer engine is not installed; the message says how to install it."""


class CannotSetUp(MtgOutcomesError):
    """The case asks for something the peer cannot set up: ``unsupported`` lists each item."""

    def __init__(self, unsupported: list[str]) -> None:
        self.unsupported = unsupported
        super().__init__("the peer cannot set this case up: " + "; ".join(unsupported))


class Peer(Protocol):
    """A rules engine the tool can compare itself with."""

    name: str

    def run(self, case: Case, *, max_nodes: int, timeout: float | None) -> PeerRun:
        """Set ``case`` up, explore every branch, read each end state; raise :class:`CannotSetUp`
        when the board can't be set (listing every reason) or :class:`PeerUnavailable`."""
        ...

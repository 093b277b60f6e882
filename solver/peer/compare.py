"""Our outcome set against a peer's, on the fields both can read.

Both sets are projected onto the same field paths (docs/design.md, "Outcomes, projections"): the fields
asked for, else every field our outcomes carry, keeping only those the peer can read — a field it
can't read is listed, not compared as if it agreed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mtg_outcomes.model.outcome import Outcome, project
from mtg_outcomes.model.types import Case

from .protocol import PeerOutcome, PeerRun

__all__ = ["Comparison", "compare"]


@dataclass(frozen=True)
class Comparison:
    """``only_peer``: projected states only the peer reaches (with the peer's choices);
    ``only_ours``: only we reach (with our outcome, whose witness says how)."""

    case: str
    peer: str
    fields: tuple[str, ...]
    only_peer: tuple[tuple[dict[str, Any], PeerOutcome], ...]
    only_ours: tuple[tuple[dict[str, Any], Outcome], ...]
    both: tuple[dict[str, Any], ...]
    unsupported: tuple[str, ...]
    run: PeerRun
    ours_complete: bool

    @property
    def agree(self) -> bool:
        """The same set of projected outcomes, and neither search was cut."""
        return not self.only_peer and not self.only_ours and self.run.complete and self.ours_complete


def compare(case: Case, run: PeerRun, ours: Sequence[Outcome], *, ours_complete: bool = True,
            fields: Iterable[str] | None = None) -> Comparison:
    """Project both outcome sets onto the shared fields and split them three ways. A peer state
    that lacks a field (not readable in that state) matches any value of it."""
    wanted = sorted(fields) if fields is not None else sorted({k for o in ours for k in o.values})
    used = tuple(f for f in wanted if f in run.fields)
    unread = [f"field {f}: {run.peer} has no reading of it (not compared)" for f in wanted if f not in run.fields]
    if fields is None and unread:
        unread = [f"fields not compared ({run.peer} has no reading of them): " + ", ".join(
            f for f in wanted if f not in run.fields)]
    mine: dict[tuple[tuple[str, Any], ...], Outcome] = {}
    for o in ours:
        mine.setdefault(project(o.values, used), o)
    theirs: dict[tuple[tuple[str, Any], ...], PeerOutcome] = {}
    for p in run.outcomes:
        theirs.setdefault(tuple((f, v) for f, v in project(p.values, used) if f in p.values), p)
    only_peer = [(dict(k), v) for k, v in sorted(theirs.items(), key=_key)
                 if not any(_matches(k, m) for m in mine)]
    only_ours = [(dict(k), v) for k, v in sorted(mine.items(), key=_key)
                 if not any(_matches(t, k) for t in theirs)]
    return Comparison(
        case=case.id, peer=run.peer, fields=used, only_peer=tuple(only_peer), only_ours=tuple(only_ours),
        both=tuple(dict(k) for k in sorted(mine, key=repr) if any(_matches(t, k) for t in theirs)),
        unsupported=tuple(run.unsupported) + tuple(unread), run=run, ours_complete=ours_complete)


def _matches(peer_state: tuple[tuple[str, Any], ...], ours: tuple[tuple[str, Any], ...]) -> bool:
    """A peer end state matches one of ours when every field the peer read in it agrees (a field
    it couldn't read in that state — a dead creature's damage — is no evidence either way)."""
    mine = dict(ours)
    return all(mine.get(f) == v for f, v in peer_state)


def _key(item: tuple[tuple[tuple[str, Any], ...], Any]) -> str:
    return repr(item[0])

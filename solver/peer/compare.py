"""Our outcome set against a peer's, on the fields both can read.

Both sets are projected onto the same field paths (design.md, "Outcomes, projections"): the fields
asked for, else every field our outcomes carry, keeping only those the peer can read — a field it
can't read is listed, not compared as if it agreed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from model.outcome import Outcome, project
from model.types import Case

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
    """Project both outcome sets onto the shared fields and split them three ways."""
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
        theirs.setdefault(project(p.values, used), p)
    return Comparison(
        case=case.id, peer=run.peer, fields=used,
        only_peer=tuple((dict(k), v) for k, v in sorted(theirs.items(), key=_key) if k not in mine),
        only_ours=tuple((dict(k), v) for k, v in sorted(mine.items(), key=_key) if k not in theirs),
        both=tuple(dict(k) for k in sorted(mine, key=repr) if k in theirs),
        unsupported=tuple(run.unsupported) + tuple(unread), run=run, ours_complete=ours_complete)


def _key(item: tuple[tuple[tuple[str, Any], ...], Any]) -> str:
    return repr(item[0])

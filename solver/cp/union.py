"""The CP answer as a union over the states at the step's start (solver.cp.prefix): each
distinct outcome once, with its first witness, the prefix's choices joined to the step's."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from mtg_outcomes.model.outcome import Outcome, Witness, sort_key
from mtg_outcomes.model.types import Case

from ..contract import Result
from ..engine import final_fields
from ..limits import Deadline
from ..state import GameState, Table
from ..words import name as obj_name
from .blocks import join_witness
from .prefix import Prefix, Start

if TYPE_CHECKING:
    from .search import Search

__all__ = ["joined", "with_witness", "namer"]


def joined(case: Case, prefix: Prefix, searches: list[Search], fields: Iterable[str] | None,
            deadline: Deadline, complete: bool, extra: dict[str, Any] | None = None,
            after: list[Start] | None = None) -> Result:
    """The union of the step's outcomes over the states at its start, each outcome once (its
    first witness: the choices before the step, then the step's own), with the end states of
    branches that ended without reaching the step (the game ended, 104.2a; no later damage batch)
    and those the rules engine reached after the steps it continues (``after``, solver.cp.suffix)."""
    wanted = list(fields) if fields is not None else None
    found: dict[Any, Outcome] = {}
    for end in [*prefix.ended, *(after or [])]:
        values = final_fields(end.state, prefix.table)
        key = tuple(sorted(values.items())) if wanted is None else tuple(sorted((f, values.get(f)) for f in wanted))
        found.setdefault(key, Outcome(key, end.witness, 0, end.words))
    for start, search in zip(prefix.starts, searches, strict=True):
        if search.plan.suffix:
            continue  # its outcomes are the ends after it (``after``)
        for o in search.outcomes:
            found.setdefault(o.state, with_witness(o.state, join_witness(start.witness, start.words, o.witness, o.words,
                                                                     namer(start.state, prefix.table))))
    outcomes = sorted(found.values(), key=lambda o: sort_key(o.state))
    stats: dict[str, Any] = {"solves": sum(s.solves for s in searches),
                             "tables": sum(bool(u.columns) for s in searches for u in s.built.units),
                             "slot_events": sum(u.slots is not None for s in searches for u in s.built.units)}
    if prefix.decisions:  # choices before the step: one model per distinct state at its start
        stats.update({"prefix_nodes": prefix.nodes, "models": len(searches)})
    stats.update(extra or {})
    stats["seconds"] = round(deadline.elapsed(), 3)
    return Result(case.id, "cp", complete and prefix.complete, outcomes, stats)


def with_witness(state: tuple[tuple[str, Any], ...], witness: tuple[tuple[Witness, ...], tuple[str, ...]]) -> Outcome:
    """An outcome with the prefix's witness joined to the step's (solver.cp.blocks.join_witness)."""
    return Outcome(state, witness[0], 0, witness[1])


def namer(state: GameState, table: Table) -> Callable[[str], str]:
    """An object's name as a judge says it in ``state`` (solver.words.name)."""
    return lambda oid: obj_name(state, table, oid)

"""What follows the CP step, the mirror of the prefix: the rules engine continues from each of
the step's results to the end of the timeline (docs/design.md, "Choice graph and CP model").

When more of the timeline follows the step (a later action or instruction of the resolution,
608.2c; the end of the combat damage step and what comes after, 510.4; the triggers the step
fires, put on the stack after state-based actions and resolved one at a time, 603.3b, 704.3,
with any batch they deal; a rider whose damage is a batch of choices of its own, 615.5), the
model's solutions are enumerated distinct on everything the state after the step is made of
(every output, and solver.cp.encode's ``hidden`` parts: each batch's damage per source and
recipient, each prevention's amount, deathtouch, the life-gain orders), not only on the fields
asked for. Each distinct solution's witness is replayed through the rules engine's decisions
(:func:`after_step`) to the exact state after its last choice; from all of them, equal states
merged, the rules engine expands every later decision as the choice graph would
(:func:`solver.cp.prefix.explore`), and the outcomes are its end states, each witness the
prefix's choices, the step's, then the suffix's. ``--max-nodes`` and ``--timeout`` bound the
expansion; a cut answer is partial.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.outcome import Witness
from mtg_outcomes.model.types import Case

from ..decision import Decision, find_option
from ..engine import advance
from ..limits import Deadline, LimitReached
from ..state import Table
from .prefix import Prefix, Start, Walk, explore

if TYPE_CHECKING:
    from .search import Search

__all__ = ["after_step", "continue_after", "ends_after", "SUFFIX_PHASE", "SUFFIX_CUT"]

SUFFIX_PHASE = "expanding the choices after the CP step"
SUFFIX_CUT = "the node limit (max_nodes) was reached while expanding the choices after the CP step"


def after_step(case: Case, table: Table, start: Start, witness: tuple[Witness, ...],
               words: tuple[str, ...]) -> Start:
    """The state right after the step's last choice (``witness``, a solution's, in the rules
    engine's labels), replayed through the rules engine's decisions from the step's ``start``,
    with the choices that reach it (the prefix's, then the step's). A step without a choice is
    its start. A witness that doesn't replay is an :class:`EngineError` (a fault of the model,
    said, never a silent answer)."""
    raw = start.state
    res = advance(raw, table)
    for w in witness:
        if not isinstance(res, Decision) or (w.chooser, w.kind, w.at) != (res.chooser, res.kind, res.at):
            got = f"{res.chooser} {res.kind} at {res.at}" if isinstance(res, Decision) else "the end of the timeline"
            raise EngineError(f"{case.id}: the CP step's choice {w.chooser} {w.kind} at {w.at} does not replay "
                              f"through the rules engine (it asks {got})")
        opt = find_option(res, w.picked)
        if opt is None:
            raise EngineError(f"{case.id}: the CP step's choice {w.picked!r} is not an option at {w.at}")
        raw = opt.state
        res = advance(raw, table)
    return Start(raw, start.witness + witness, start.words + words)


def continue_after(case: Case, table: Table, roots: list[Start], deadline: Deadline,
                   max_nodes: int | None) -> tuple[Walk, str | None]:
    """Every end state the rules engine reaches from ``roots`` (the states after the step's
    solutions), equal states merged across them, with the first choice path to each; and what
    cut the expansion (``max_nodes`` states, or ``deadline``), None when it is complete."""
    out = Walk()
    try:
        explore(case, table, roots, None, out, deadline, max_nodes, SUFFIX_PHASE)
    except LimitReached as cut:
        out.complete = False
        return out, str(cut)
    return out, None if out.complete else out.limit or SUFFIX_CUT


def ends_after(case: Case, prefix: Prefix, searches: Sequence[Search], deadline: Deadline,
               max_nodes: int | None) -> tuple[list[Start], str | None]:
    """The end states the rules engine reaches after the steps it continues (solver.cp.suffix):
    each distinct solution's witness replayed to the state after its last choice, then every
    later decision expanded from all of them, equal states merged; and what cut it, if anything."""
    roots = []
    try:
        for start, search in zip(prefix.starts, searches, strict=True):
            if search.plan.suffix:
                for o in search.outcomes:
                    deadline.check(SUFFIX_PHASE)
                    roots.append(after_step(case, prefix.table, start, o.witness, o.words))
    except LimitReached as cut:
        return [], str(cut)
    if not roots:
        return [], None
    walk, cut_by = continue_after(case, prefix.table, roots, deadline, max_nodes)
    return walk.ended, cut_by

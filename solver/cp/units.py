"""The encoded units of a CP model: events encoded together (a table's rows or one event's slot
permutation) and the built model with its outputs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .tables import Layers, Rows, Seq, unchain


@dataclass
class Unit:
    """Events encoded together: one event as a slot permutation, or groups of events whose
    results only matter through their sums (per group), as one table of their distinct results."""

    events: list[int]  # indices into plan.events (table mode: in the order of ``layers``)
    final: Any  # block mode: the damage dealt
    dealt: list[tuple[int, Any]] = field(default_factory=list)  # table mode: (a group's first event, its damage)
    shares: dict[str, Any] = field(default_factory=dict)  # shield key -> damage it prevented
    full: dict[str, Any] = field(default_factory=dict)  # shield key -> took all it was offered
    prevented: dict[str, Any] = field(default_factory=dict)  # prevention with a rider -> amount
    slots: list[list[Any]] | None = None  # block mode: x[b][q], slot b holds non-shield q
    plain: list[int] = field(default_factory=list)  # block mode: the non-shield effects' indices
    placed: list[tuple[int, list[Any], Any, Any]] = field(default_factory=list)  # (j, y[b], none, w)
    columns: list[Any] = field(default_factory=list)  # table mode: the table's variables
    layers: Layers = field(default_factory=list)  # table mode: the merge's back pointers
    top: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict)  # table row -> its row in layers[-1]
    rows: list[Rows] = field(default_factory=list)  # per member: its own results
    enter: Any = 0  # block mode: the amount the event starts with (a variable for a division choice)
    # tree mode (a redirection applies, solver.cp.trees): (event, final recipient, damage dealt)
    hits: list[tuple[int, str, Any]] | None = None
    uses: dict[str, Any] = field(default_factory=dict)  # block mode: an optional effect's key -> applied


@dataclass
class BuiltModel:
    model: Any
    units: list[Unit]
    combat_to: dict[tuple[str, str], Any]  # (source, player) -> combat damage dealt
    outputs: dict[str, tuple[str, Any]]  # field -> ("int" | "opt" | "bool", expr or constant)
    bound: int  # every output lies in [-bound, bound]
    picks: list[list[Any]] = field(default_factory=list)  # per plan.assigns: a literal per option
    over: Any = False  # the game ended at the step's state-based actions (104.2a)
    # how many solutions the model has at most, when every choice is a table's row (None: unknown)
    solutions: int | None = None
    # lifelink's gain events with life-gain replacements (119.10), in the graph engine's order:
    # (gaining player, source, the gain before them, the replacements' keys, (order, literal) per order)
    gains: list[tuple[str, str, Any, tuple[str, ...], list[tuple[tuple[int, ...], Any]]]] = field(default_factory=list)
    fired: list[Any] = field(default_factory=list)  # per plan.triggers: the amount it reads (it triggers at 1 or more)
    # with the rules engine continuing after the step (solver.cp.suffix): the rest of the state
    # after it that solutions may differ by, beside the outputs (solver.cp.encode._state_after)
    hidden: dict[str, tuple[str, Any]] = field(default_factory=dict)
    # a declaration of blockers in the model (solver.cp.blocks): each (blocker, attacker) pair's
    # literal, and each (creature, recipient) pair's assigned amount
    declared: dict[tuple[str, str], Any] = field(default_factory=dict)
    divided: dict[tuple[str, str], Any] = field(default_factory=dict)


def sequences(unit: Unit, values: tuple[int, ...]) -> dict[int, Seq]:
    """Each member event's sequence for the table row ``values`` (following back pointers)."""
    out: dict[int, Seq] = {}
    key = unit.top[values] if unit.columns else next(iter(unit.top.values()))
    for pos in range(len(unit.events) - 1, -1, -1):
        prev, own = unit.layers[pos][key]
        out[unit.events[pos]] = unchain(unit.rows[pos][own])
        key = prev
    return out

"""The encoded units of a CP model: events encoded together (a table's rows or one event's slot
permutation) and the built model with its outputs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .tables import Layers, Rows, Seq, unchain

if TYPE_CHECKING:
    from typing import TypeAlias

    from .cptypes import Expr, Lit, Model, Var

    # a model's output: its kind ("int", "opt": a field absent unless set, "bool") and its value
    Output: TypeAlias = tuple[str, Expr]
    # lifelink's gain event with life-gain replacements (119.10): (gaining player, source, the gain
    # before them, the replacements' keys, (order, literal) per order, 616.1)
    GainEvent: TypeAlias = tuple[str, str, Expr, tuple[str, ...], list[tuple[tuple[int, ...], Lit]]]


@dataclass
class Unit:
    """Events encoded together: one event as a slot permutation, or groups of events whose
    results only matter through their sums (per group), as one table of their distinct results."""

    events: list[int]  # indices into plan.events (table mode: in the order of ``layers``)
    final: Expr  # block mode: the damage dealt
    dealt: list[tuple[int, Expr]] = field(default_factory=list)  # table mode: (a group's first event, its damage)
    shares: dict[str, Expr] = field(default_factory=dict)  # shield key -> damage it prevented
    full: dict[str, Lit] = field(default_factory=dict)  # shield key -> took all it was offered
    prevented: dict[str, Expr] = field(default_factory=dict)  # prevention with a rider -> amount
    slots: list[list[Var]] | None = None  # block mode: x[b][q], slot b holds non-shield q
    plain: list[int] = field(default_factory=list)  # block mode: the non-shield effects' indices
    placed: list[tuple[int, list[Var], Var, Var]] = field(default_factory=list)  # (j, y[b], none, w)
    columns: list[Var | int] = field(default_factory=list)  # table mode: the table's variables
    layers: Layers = field(default_factory=list)  # table mode: the merge's back pointers
    top: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict)  # table row -> its row in layers[-1]
    rows: list[Rows] = field(default_factory=list)  # per member: its own results
    enter: Expr = 0  # block mode: the amount the event starts with (a variable for a division choice)
    # tree mode (a redirection applies, solver.cp.trees): (event, final recipient, damage dealt)
    hits: list[tuple[int, str, Expr]] | None = None
    uses: dict[str, Lit] = field(default_factory=dict)  # block mode: an optional effect's key -> applied


@dataclass
class BuiltModel:
    model: Model
    units: list[Unit]
    combat_to: dict[tuple[str, str], Expr]  # (source, player) -> combat damage dealt
    outputs: dict[str, Output]  # field -> ("int" | "opt" | "bool", expr or constant)
    bound: int  # every output lies in [-bound, bound]
    picks: list[list[Lit]] = field(default_factory=list)  # per plan.assigns: a literal per option
    over: Lit = False  # the game ended at the step's state-based actions (104.2a)
    # how many solutions the model has at most, when every choice is a table's row (None: unknown)
    solutions: int | None = None
    # lifelink's gain events with life-gain replacements (119.10), in the graph engine's order:
    # (gaining player, source, the gain before them, the replacements' keys, (order, literal) per order)
    gains: list[GainEvent] = field(default_factory=list)
    fired: list[Expr] = field(default_factory=list)  # per plan.triggers: the amount it reads (it triggers at 1 or more)
    # with the rules engine continuing after the step (solver.cp.suffix): the rest of the state
    # after it that solutions may differ by, beside the outputs (solver.cp.tally.state_after)
    hidden: dict[str, Output] = field(default_factory=dict)
    # a declaration of blockers in the model (solver.cp.blocks): each (blocker, attacker) pair's
    # literal, and each (creature, recipient) pair's assigned amount
    declared: dict[tuple[str, str], Lit] = field(default_factory=dict)
    divided: dict[tuple[str, str], Expr] = field(default_factory=dict)


def sequences(unit: Unit, values: tuple[int, ...]) -> dict[int, Seq]:
    """Each member event's sequence for the table row ``values`` (following back pointers)."""
    out: dict[int, Seq] = {}
    key = unit.top[values] if unit.columns else next(iter(unit.top.values()))
    for pos in range(len(unit.events) - 1, -1, -1):
        prev, own = unit.layers[pos][key]
        out[unit.events[pos]] = unchain(unit.rows[pos][own])
        key = prev
    return out

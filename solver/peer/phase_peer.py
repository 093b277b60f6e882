"""phase.rs (``pip install phase-python``, import ``phase``) as a peer engine."""

from __future__ import annotations

import json
from typing import Any

from mtg_outcomes.model.types import Case

from .phase_board import new_board
from .phase_cards import card_database, spell_damage, unparsed
from .phase_explore import baseline_of, explore, readable
from .phase_plan import plan_case
from .protocol import CannotSetUp, PeerOutcome, PeerRun, PeerUnavailable

__all__ = ["PhasePeer", "INSTALL", "load_phase"]

INSTALL = "phase.rs is not installed: pip install -e '.[peers]' (the phase-python package)"


def load_phase() -> Any:
    """The ``phase`` module, or :class:`PeerUnavailable` saying how to install it."""
    try:
        import phase
    except ImportError:
        raise PeerUnavailable(INSTALL) from None
    return phase


class PhasePeer:
    """Runs a case in phase.rs: card database, board, every branch, each end state read."""

    name = "phase"

    def run(self, case: Case, *, max_nodes: int = 5000, timeout: float | None = 60.0) -> PeerRun:
        phase = load_phase()
        plan = plan_case(case)
        db, missing = card_database(plan.cards(), phase.build_oracle_face)
        if plan.unsupported or missing:
            raise CannotSetUp(plan.unsupported + missing)
        amounts = [f"{c.src}: phase's {c.card} deals {dealt}, the case says {list(c.amounts)}"
                   for c in plan.spells if (dealt := spell_damage(db[c.card.lower()])) is None
                   or any(a != dealt for a in c.amounts)]
        if amounts:
            raise CannotSetUp(amounts)
        notes = [line for name in sorted(set(plan.cards())) for line in unparsed(db[name.lower()])]
        engine = phase.Engine.from_json(json.dumps(db))
        try:
            game, board = new_board(engine, plan)
            found = explore(game, board, baseline_of(game), max_nodes=max_nodes, timeout=timeout)
        except CannotSetUp:
            raise
        except Exception as exc:  # phase refused a set-up or scripted action: its words, one line
            raise CannotSetUp([f"phase refused a set-up step: {type(exc).__name__}: {exc}"]) from None
        outcomes: dict[tuple[tuple[str, Any], ...], PeerOutcome] = {}
        for values, steps in found.leaves:
            key = tuple(sorted(values.items()))
            outcomes.setdefault(key, PeerOutcome(key, steps))
        return PeerRun(peer=self.name, outcomes=tuple(outcomes[k] for k in sorted(outcomes, key=repr)),
                       fields=readable(board), prompts=found.prompts, unsupported=tuple(notes),
                       complete=not found.cut, nodes=found.nodes, cut=found.cut)

"""Mana: what a permanent could produce (CR 106.7, 605) — placeholder until the mana issue lands."""

from __future__ import annotations

from .state import GameState, Table

__all__ = ["could_produce_action"]


def could_produce_action(state: GameState, table: Table, pid: str) -> GameState:
    from model.errors import EngineError

    raise EngineError("could_produce is not supported yet (mana issue)")

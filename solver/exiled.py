"""What an instruction does outside the battlefield (model.vocab.exiled): mana added by a
loyalty ability (106.4, 605.1a: not a mana ability), and a deal done only if the card its ability
exiled from the library isn't cast (Chandra, Torch of Defiance's first [+1]), as the activation
says (``cast_exiled:``: the library isn't tracked, so the card and whether it is cast are the
case's)."""

from __future__ import annotations

from dataclasses import replace as dc_replace

from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.kinds import ActionKind
from mtg_outcomes.model.types import OneShot

from .decision import event, says
from .select import View
from .state import GameState, Table, replace

__all__ = ["CAST_EXILED", "exiled_or_mana"]

CAST_EXILED = "cast_exiled"  # the activation's value: 1 the exiled card is cast, 0 it isn't


def exiled_or_mana(state: GameState, table: Table, shot: OneShot, view: View, env: dict[str, int]) -> GameState:
    if shot.kind == ActionKind.ADD_MANA:
        from .mana import mana_sorted  # (mana reads the engine's one-shots)

        p = state.player(view.controller)
        state = state.set_player(replace(p, mana=mana_sorted(p.mana + shot.mana)))
        return event(state, f"{says(view.controller, 'adds')} {''.join('{' + s + '}' for s in shot.mana)}", "106.4")
    if CAST_EXILED not in env:
        raise EngineError("whether the exiled card is cast isn't said (activate: ... cast_exiled:, CR 608.2g)")
    if env[CAST_EXILED]:
        return event(state, f"{says(view.controller, 'casts')} the exiled card (the case's to write), so no damage", "608.2g")
    from .oneshot import run_one_shot  # (the deal itself)

    return run_one_shot(state, table, dc_replace(shot, if_not_cast=False), view, env)

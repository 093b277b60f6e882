"""What an instruction does outside the battlefield (model.vocab.exiled): mana added by a
loyalty ability (106.4, 605.1a: not a mana ability), and a deal done only if the card its ability
exiled from the library isn't cast (Chandra, Torch of Defiance's first [+1]), as the activation
says (``cast_exiled:``: the library isn't tracked, so the card and whether it is cast are the
case's)."""

from __future__ import annotations

from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.types import MANA_TYPES, OneShot

from .decision import event, says
from .state import GameState, replace

__all__ = ["CAST_EXILED", "add_mana", "exiled_card_cast"]

CAST_EXILED = "cast_exiled"  # the activation's value: 1 the exiled card is cast, 0 it isn't


def add_mana(state: GameState, shot: OneShot, who: str) -> GameState:
    """A loyalty ability's "Add {R}{R}" (106.4, 605.1a: not a mana ability, it resolves from the
    stack): ``who``'s pool gains the mana, kept in W U B R G C order (solver.mana.mana_sorted's)."""
    p = state.player(who)
    state = state.set_player(replace(p, mana=tuple(sorted(p.mana + shot.mana, key=MANA_TYPES.index))))
    return event(state, f"{says(who, 'adds')} {''.join('{' + s + '}' for s in shot.mana)}", "106.4")


def exiled_card_cast(state: GameState, who: str, env: dict[str, int]) -> GameState | None:
    """"If you don't cast it, ~ deals ..." (608.2g): the state where the exiled card is cast (the
    deal doesn't happen), or None where it isn't (the deal happens: solver.oneshot does it). The
    activation must say which (``cast_exiled:``): an error otherwise, never a guess."""
    if CAST_EXILED not in env:
        raise EngineError("whether the exiled card is cast isn't said (activate: ... cast_exiled:, CR 608.2g)")
    if env[CAST_EXILED]:
        return event(state, f"{says(who, 'casts')} the exiled card (the case's to write), so no damage", "608.2g")
    return None

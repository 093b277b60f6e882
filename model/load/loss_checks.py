"""The case's start against the rules of losing: a case starts after state-based actions
(704.3), so no player in it has already lost (704.5a, 704.5c) unless an effect spares them."""

from __future__ import annotations

from typing import Any

from ..effects import EffectKind
from ..kinds import AbilityKind
from ..selectors import Selector, SelectorKind
from .cast_checks import _CastChecks

# effects under which a player at 0 or less life hasn't lost (704.5a's exception; Platinum Angel)
_SPARED = (EffectKind.NO_LOSS_FOR_0_LIFE, EffectKind.CANT_LOSE_GAME)


class _LossChecks(_CastChecks):
    """The players' life and poison at the start (used by the cross-reference checks)."""

    def check_zero_life(self, players: Any, perms: Any, effects: Any) -> None:
        """A case starts after state-based actions (704.3): a player at 0 or less life has lost
        (704.5a) unless an effect on the battlefield (or created) says they don't lose the game
        for having 0 or less life (Phyrexian Unlife) or can't lose it (Platinum Angel), and one
        with lethal poison (704.5c, 704.6b) unless they can't lose it; in Two-Headed Giant, for
        the team (810.8a)."""
        team_of = {p.name: p.team for p in players}
        found: list[tuple[str, Selector, EffectKind]] = []
        for spec, _ in perms:
            for ab in spec.abilities:
                if ab.kind == AbilityKind.STATIC and ab.effect is not None and ab.effect.kind in _SPARED:
                    found.append((spec.controller, ab.effect.value, ab.effect.kind))
        for eff, _ in effects:
            if eff.spec.kind in _SPARED:
                found.append((eff.controller, eff.spec.value, eff.spec.kind))

        def covers(controller: str, sel: Selector, name: str) -> bool:
            if sel.kind == SelectorKind.ANY_OF:
                return any(covers(controller, part, name) for part in sel.parts)
            if sel.kind == SelectorKind.YOU:
                return name == controller
            if sel.kind == SelectorKind.REF:
                return name == sel.name
            if sel.kind in (SelectorKind.PLAYERS, SelectorKind.ANY):
                return True
            if sel.kind == SelectorKind.OPPONENTS:
                return name != controller and (team_of.get(name) is None or team_of.get(name) != team_of.get(controller))
            return False

        def spared(name: str, team: str | None, kinds: tuple[EffectKind, ...]) -> bool:
            members = [n for n, t in team_of.items() if team is not None and t == team] or [name]
            return any(kind in kinds and covers(ctrl, sel, member) for ctrl, sel, kind in found for member in members)

        for i, name, team, life in self.zero_life:
            if not spared(name, team, _SPARED):
                self.err(f"players[{i}].life", f"a player at {life} life would already have lost the game (CR 704.5a, "
                         "state-based actions are checked before anyone gets priority, 704.3)")
        for i, name, team, poison, limit in self.lethal_poison:
            if not spared(name, team, (EffectKind.CANT_LOSE_GAME,)):
                self.err(f"players[{i}].poison", f"a player with {poison} poison counters would already have lost the game "
                         f"(CR {'704.6b' if limit == 15 else '704.5c'}: {limit} or more)")

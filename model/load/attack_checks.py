"""Who attacks (CR 506.2, 508.1a): only the active player's creatures attack, so a case whose
attackers are two players' (in Two-Headed Giant, two teams'), or not the ``active:`` player's, is
an impossible state and an error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..blocks import same_side
from ..types import CombatAction, DeclareAttackersAction, PermanentSpec
from .loss_checks import _LossChecks


class _AttackChecks(_LossChecks):
    """The active player, and the check that only they attack."""

    def active_player(self) -> str:
        """``active:``, else the attackers' controller (only the active player attacks, CR 506.2,
        508.1a), else the first player."""
        attackers = [e["controller"] for e in self.m.battlefield if isinstance(e, Mapping)
                     and e.get("attacking") is not None and isinstance(e.get("controller"), str)]
        return str(self.m.active or (attackers or self.player_names or [""])[0])

    def _declared_attackers(self, perms: list[tuple[PermanentSpec, str]], actions: list[Any]) -> None:
        """``declare_attackers: {}`` declares the written attackers now (508.1): at most once, at the
        top level, before any ``combat:``, with attackers to declare; blocks are declared after its
        triggers resolve (509.1), so a block written as already declared is an error."""
        where = [i for i, a in enumerate(actions) if isinstance(a, DeclareAttackersAction)]
        nested = [i for i, a in enumerate(actions) if not isinstance(a, DeclareAttackersAction) and _declares_inside(a)]
        if nested:
            return self.err(f"actions[{nested[0]}]", "declare_attackers: {} is a step of the turn (508.1): at the top level of "
                            "actions:, not in responses: or may:")
        if not where:
            return None
        first = where[0]
        if len(where) > 1:
            return self.err(f"actions[{where[1]}]", "attackers are declared once in a combat (508.1): one declare_attackers: {}")
        if any(isinstance(a, CombatAction) for a in actions[:first]):
            return self.err(f"actions[{first}]", "declare_attackers: {} comes before combat: (the declare attackers step, 508.1)")
        if not any(p.attacking is not None for p, _ in perms):
            return self.err(f"actions[{first}]", "declare_attackers: {} declares the creatures written attacking:, and none is")
        for p, path in perms:
            if p.blocking:
                return self.err(f"{path}.blocking", "blocks are declared after the attack triggers of declare_attackers: {} "
                                "resolve (508.2, 509.1): write blocking: choose or combat: {blocks: choose}")
        return None

    def _one_attacking_side(self, perms: list[tuple[PermanentSpec, str]], teams: Mapping[str, Any]) -> None:
        """Impossible combats are errors: creatures of two players (in Two-Headed Giant, of two
        teams) attacking at once, or attackers of a player who isn't ``active:`` (506.2, 508.1a)."""
        active, first = self.active_player(), None
        for p, path in perms:
            if p.attacking is None:
                continue
            if self.m.active is not None and not same_side(p.controller, active, teams):
                return self.err(f"{path}.attacking", f"{p.controller} isn't the active player (active: {active}): "
                                "only the active player attacks (CR 506.2, 508.1a)")
            if first is not None and not same_side(p.controller, first.controller, teams):
                return self.err(f"{path}.attacking", f"{p.id!r} (controlled by {p.controller}) and {first.id!r} (controlled "
                                f"by {first.controller}) can't attack in one combat: only the active player attacks (CR 506.2, 508.1a)")
            first = first or p


def _declares_inside(action: Any) -> bool:
    """Whether a ``declare_attackers:`` hides in ``action``'s ``responses:`` or ``may:``."""
    inner = [getattr(action, "action", None), *getattr(action, "responses", ())]
    return any(isinstance(a, DeclareAttackersAction) or (a is not None and _declares_inside(a)) for a in inner)

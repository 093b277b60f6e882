"""Who attacks (CR 506.2, 508.1a): only the active player's creatures attack, so a case whose
attackers are two players' (in Two-Headed Giant, two teams'), or not the ``active:`` player's, is
an impossible state and an error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..blocks import same_side
from ..types import PermanentSpec
from .loss_checks import _LossChecks


class _AttackChecks(_LossChecks):
    """The active player, and the check that only they attack."""

    def active_player(self) -> str:
        """``active:``, else the attackers' controller (only the active player attacks, CR 506.2,
        508.1a), else the first player."""
        attackers = [e["controller"] for e in self.m.battlefield if isinstance(e, Mapping)
                     and e.get("attacking") is not None and isinstance(e.get("controller"), str)]
        return str(self.m.active or (attackers or self.player_names or [""])[0])

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

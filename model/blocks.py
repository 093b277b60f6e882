"""Which blocks are legal (CR 509.1): the concrete checks on keywords and sides, written once.

The case loader checks blocks written with ``blocking:``; the solver offers only legal block
declarations when they are chosen (``combat: {blocks: choose}``, ``blocking: choose``) through
solver.rules.blocks, the rule's module, which re-exports these beside the rule's constraint forms
(model/ never imports solver/).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

__all__ = ["evasion_problem", "menace_problem", "defending_player", "same_side"]


def evasion_problem(attacker: Collection[str], blocker: Collection[str]) -> str | None:
    """Why a creature with keywords ``blocker`` can't block one with keywords ``attacker``, or None.

    702.9b: a creature with flying can't be blocked except by creatures with flying and/or reach
    (702.17b)."""
    if "flying" in attacker and not {"flying", "reach"} & set(blocker):
        return "a creature with flying can be blocked only by creatures with flying or reach (CR 702.9b, 702.17b)"
    return None


def menace_problem(attacker: Collection[str], blockers: int) -> str | None:
    """Why ``blockers`` creatures blocking a creature with keywords ``attacker`` is illegal, or None.

    702.111b: a creature with menace can't be blocked except by two or more creatures."""
    if "menace" in attacker and blockers == 1:
        return "a creature with menace can't be blocked except by two or more creatures (CR 702.111b)"
    return None


def defending_player(attacked: str, defenders: Mapping[str, str]) -> str:
    """506.2: the player an attacker attacks, or who defends the planeswalker or battle it
    attacks (``defenders``: a planeswalker's controller, a battle's protector, 310.5)."""
    return defenders.get(attacked, attacked)


def same_side(blocker_controller: str, defending: str, teams: Mapping[str, str | None]) -> bool:
    """509.1a: a creature blocks only a creature attacking its controller (or their planeswalker or
    battle); in Two-Headed Giant, one attacking its controller's team (810.7, 805.10)."""
    if blocker_controller == defending:
        return True
    team = teams.get(blocker_controller)
    return team is not None and team == teams.get(defending)

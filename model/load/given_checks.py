"""Checks on what a case must say for the vocabulary of this module's neighbours to be honoured
(never a silent default): each player's ``starting_life:`` where an effect counts from the starting
life total (103.4, model.vocab.lifecond), ``hand:`` where an amount reads hand sizes (402.1,
model.load.hands), and ``cast_exiled:`` where an activation exiles a card to cast (608.2g,
model.vocab.exiled). The abilities are walked whole (every nested part: a trigger's actions, an
emblem's ability, an effect an action creates)."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..effects import EffectKind
from ..kinds import AbilityKind, TriggerEvent
from ..selectors import Selector, SelectorKind
from ..types import Ability, EffectSpec, OneShot
from ..vocab.exiled import cast_exiled_problem
from ..vocab.lifecond import needs_starting_life
from .attack_checks import _AttackChecks
from .hands import hand_problems, reads_hand

__all__ = ["_GivenChecks", "trigger_player_ok"]


def trigger_player_ok(ab: Ability) -> bool:
    """Whether a trigger's ``target:`` may name "that player" (Questing Beast's "target
    planeswalker that player controls": the player dealt the damage, 510.3a)."""
    return ab.kind == AbilityKind.TRIGGER and (ab.trigger == TriggerEvent.COMBAT_DAMAGE_TO_PLAYER or (
        ab.trigger == TriggerEvent.DEALS_DAMAGE and ab.trigger_to is not None))


def _walk(node: Any, seen: set[int] | None = None) -> Any:
    """Every dataclass inside ``node`` (tuples, lists and dataclass fields followed)."""
    if isinstance(node, tuple | list):
        for n in node:
            yield from _walk(n, seen)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        yield node
        for f in dataclasses.fields(node):
            yield from _walk(getattr(node, f.name), seen)


def _stray_source_selector(nodes: list[Any]) -> bool:
    """Whether a "that creature or the source's controller" (solver.persource) is anywhere but the
    ``then:`` of a prevention effect, the only place it names something."""
    def named(n: Any) -> bool:
        return isinstance(n, Selector) and n.kind == SelectorKind.PREVENTED_SOURCE

    placed = sum(1 for n in nodes if isinstance(n, EffectSpec) and n.kind in (EffectKind.PREVENT, EffectKind.SHIELD)
                 and n.then is not None and named(n.then.to))
    return sum(1 for n in nodes if named(n)) != placed


class _GivenChecks(_AttackChecks):
    def _given_case(self, players: Any, owners: list[tuple[Any, str]]) -> None:
        """``owners``: (a permanent, source, effect or action, its path) of the case."""
        readers: list[str] = []
        for owner, path in owners:
            nodes = list(_walk(owner))
            if _stray_source_selector(nodes):
                self.err(path, "'that creature or the source's controller' is a prevention's rider's recipient (then: of a "
                               "prevent: effect, CR 615.5)")
            for node in nodes:
                if isinstance(node, OneShot) and reads_hand(node.amount) and path not in readers:
                    readers.append(path)
                if isinstance(node, EffectSpec) and (err := needs_starting_life(node.life_from_start, players, path)):
                    self.err(err.path, f"{err.reason}")
        for where, reason in hand_problems(readers, players, self.hand_rules):
            self.err(where, reason)

    def _given_activation(self, ab: Ability, act: Any, name: str, path: str) -> None:
        if (why := cast_exiled_problem(ab, act.cast_exiled, name)) is not None:
            self.err(f"{path}.activate.cast_exiled", why)

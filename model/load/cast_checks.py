"""Checks of a ``cast:`` action against the spell it casts: modes (700.2), kicker (702.33),
targets and division (115.1, 601.2c-d), every problem with its path."""

from __future__ import annotations

from typing import Any

from ..kinds import AbilityKind
from ..types import CastAction
from .actions import _Actions


class _CastChecks(_Actions):
    """A cast's choices against its spell's parts (used by the cross-reference checks)."""

    def _modal_check(self, spec: Any, act: CastAction, p: str) -> list[Any] | None:
        """A modal spell (700.2): parts of modes 1..n, one ``modes:`` ability, at most one targeted
        part in each mode (a target per mode, 700.2a, 601.2c), and the cast's ``modes:`` a legal
        choice. The targeted parts of the modes cast (all of them when the caster chooses), or
        None for a spell without modes."""
        spells = [ab for ab in spec.abilities if ab.kind == AbilityKind.SPELL]
        counts = [ab for ab in spec.abilities if ab.kind == AbilityKind.MODES]
        if not counts and all(ab.mode == 0 for ab in spells):
            if act.modes is not None:
                self.err(f"{p}.modes", f"{spec.name} is not modal")
            return None
        n = max((ab.mode for ab in spells), default=0)
        if len(counts) != 1 or any(ab.mode == 0 for ab in spells) or {ab.mode for ab in spells} != set(range(1, n + 1)):
            self.err(p, f"{spec.name}: a modal spell has one modes: ability and every spell part in a mode, numbered 1 to N (700.2)")
            return []
        lo, hi = counts[0].modes or (1, 1)
        if act.modes is not None and len(set(act.modes)) != len(act.modes) and not counts[0].repeat:
            self.err(f"{p}.modes", f"{spec.name}'s modes are distinct: a mode is chosen at most once (700.2d)")
            return []
        if hi > n and not counts[0].repeat:
            self.err(p, f"{spec.name} chooses up to {hi} modes but has {n} (700.2d: a mode is chosen at most once)")
            return []
        if any(ab.targets is not None for ab in spells):
            self.err(p, f"{spec.name}: a modal spell with several targets (targets:) isn't modelled")
            return []
        if any(ab.second_target is not None for ab in spells) and (hi > 1 or counts[0].entwine or counts[0].repeat):
            # (a mode's second target is chosen only when that mode is the one chosen, solver.cast._cast_two)
            self.err(p, f"{spec.name}: a mode with two targets (second_target:) in a spell that chooses more than one "
                     "mode isn't modelled")
            return []
        if any(len([ab for ab in spells if ab.mode == k and ab.target is not None]) > 1 for k in range(1, n + 1)):
            self.err(p, f"{spec.name}: a mode with two targeted parts (two targets in one mode) isn't modelled")
            return []
        if act.modes is not None and any(act.modes.count(ab.mode) > 1 for ab in spells if ab.target is not None):
            self.err(f"{p}.modes", f"{spec.name}: a mode with a target chosen more than once (700.2d) isn't modelled")
            return []
        if act.modes is not None:
            entwined = counts[0].entwine and len(act.modes) == n  # 702.42a: all of them
            if not (lo <= len(act.modes) <= hi or entwined) or any(not 1 <= k <= n for k in act.modes):
                self.err(f"{p}.modes", f"{spec.name} has modes 1 to {n}, of which {lo if lo == hi else f'{lo} to {hi}'} are chosen "
                         f"(distinct, 700.2d){', or all of them with entwine (702.42a)' if counts[0].entwine else ''}")
                return []
            return [ab for ab in spells if ab.target is not None and ab.mode in act.modes]
        return [ab for ab in spells if ab.target is not None]

    def _mode_targets_check(self, name: str, targeted: list[Any], act: CastAction, p: str, most: int) -> None:
        """A modal spell's announced targets (700.2a, 601.2c): one per chosen mode with a target,
        in the order the modes are printed; the same object may be the target of two modes (each
        mode's "target" is another word, 115.3). Without ``modes:``, a count some set of modes
        can take (``most``: the most targets a legal set has). ``divide:`` isn't a modal spell's."""
        given = act.targets if act.targets is not None else (act.target,) if act.target is not None else None
        key = f"{p}.{'targets' if act.targets is not None else 'target'}"
        if act.divide is not None:
            self.err(f"{p}.divide", f"{name} doesn't divide its damage")
        elif given is None:
            return
        elif not targeted:
            self.err(key, f"{name} has no target in the modes chosen")
        elif act.modes is not None and len(given) != (count := sum(2 if ab.second_target is not None else 1 for ab in targeted)):
            # (a mode with a second target has both: targets: [first, second], 601.2c)
            self.err(key, f"{name}'s modes {', '.join(map(str, act.modes))} have {count} target"
                     f"{'s' if count > 1 else ''} (one per mode with a target, in the order printed), not {len(given)} (601.2c)")
        elif act.modes is None and len(given) > most:
            self.err(key, f"{name} has at most {most} target{'s' if most > 1 else ''} (one per chosen mode with a target), "
                     f"not {len(given)} (601.2c)")

    def _kicker_check(self, spec: Any, act: CastAction, p: str, modal: bool) -> list[Any] | None:
        """Kicker (702.33): parts ``if_kicked:`` only with a ``kicker`` ability, ``kicked:`` only on
        a spell with kicker, not with modes; at most one targeted part whether kicked or not. The
        targeted parts of the cast (the kicked ones when it may be kicked), or None without kicker."""
        spells = [ab for ab in spec.abilities if ab.kind == AbilityKind.SPELL]
        has = any(ab.kind == AbilityKind.KICKER for ab in spec.abilities)
        if not has:
            if act.kicked is not None:
                self.err(f"{p}.kicked", f"{spec.name} has no kicker")
            elif any(ab.kicked is not None for ab in spells):
                self.err(p, f"{spec.name}: a part with if_kicked: needs the spell's kicker: true ability (702.33)")
                return []
            return None
        if modal:
            self.err(p, f"{spec.name}: a modal spell with kicker isn't modelled")
            return []
        found: list[Any] = []
        for kicked in (False, True):
            targeted = [ab for ab in spells if ab.kicked in (None, kicked) and ab.target is not None]
            if len(targeted) > 1:
                self.err(p, f"{spec.name} has {len(targeted)} targeted parts {'if' if kicked else 'unless'} kicked: "
                         "a spell with several targets isn't modelled yet")
                return []
            if act.kicked in (None, kicked) and targeted and not found:
                found = targeted
        return found

    def _cast_choices_check(self, name: str, ab: Any, act: CastAction, p: str) -> None:
        """A cast's ``targets:`` and ``divide:`` against the spell: as many targets as it allows
        (115.1, 601.2c) and, for divided damage, a division of exactly its amount (601.2d)."""
        lo, hi = ab.targets if ab.targets is not None else (2, 2) if ab.second_target is not None else (1, 1)
        divided = ab.action is not None and ab.action.divided
        if ab.second_target is not None and act.target is not None:
            self.err(f"{p}.target", f"{name} has two targets: give targets: [first, second] (601.2c)")
            return
        if act.targets is not None and not lo <= len(act.targets) <= (hi if hi is not None else len(act.targets)):
            many = f"{lo} target" if lo == hi == 1 else "two targets (targets: [first, second])" if ab.second_target is not None \
                else f"{lo} to {hi} targets" if hi is not None else f"{lo} or more targets"
            self.err(f"{p}.targets", f"{name} has {many}, not {len(act.targets)} (115.1, 601.2c)")
            return
        if act.divide is not None and not divided:
            self.err(f"{p}.divide", f"{name} doesn't divide its damage")
            return
        if act.divide is not None and ab.action is not None and ab.action.evenly:
            self.err(f"{p}.divide", f"{name} divides its damage evenly: each target gets X divided by the number of targets, "
                     "rounded down; there is no division to announce")
            return
        if act.divide is not None and ab.action is not None:
            node = ab.action.amount  # a number or X (vocab: known as the spell is cast, 601.2d)
            total = int(node[1]) if node[0] == "int" else act.x
            given = sum(n for _, n in act.divide)
            if given != total:
                self.err(f"{p}.divide", f"the division gives {given} damage, but {name} deals {total} (601.2d: all of it is divided)")

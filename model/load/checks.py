"""Cross-reference checks (dangling ids, blockers that aren't creatures, 2HG teams) and
``expect:``, every problem with its path."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..blocks import defending_player, evasion_problem, menace_problem, same_side
from ..effects import EffectKind
from ..kinds import AbilityKind, AsEntersChoice
from ..selectors import Selector, SelectorKind
from ..types import (
    Ability,
    Action,
    CombatAction,
    Expect,
    MayAction,
    PermanentSpec,
)
from .fields import _field_problem, _value_problem
from .refs import _RefChecks
from .schema import _ID_RE, CHOOSE


@dataclass
class _Board:
    """What the permanents' checks read of the whole battlefield."""

    perm_by_id: dict[str, PermanentSpec]
    teams: dict[str, str | None]  # each player's team, in Two-Headed Giant (810); else empty
    active: str
    chosen_combat: str | None  # the path of a combat: {blocks: choose}, if any
    written_blockers: dict[str, list[str]] = field(default_factory=dict)  # attacker -> its legal written blocks' paths

    @property
    def defenders(self) -> dict[str, str]:
        """Who defends each permanent when attacked (506.2)."""
        return {pid: p.defender for pid, p in self.perm_by_id.items()}


class _Checks(_RefChecks):
    """Cross references between the parts, and the expectation."""

    def cross_check(self, players: Any, perms: Any, sources: Any, effects: Any, actions: Any) -> None:
        """Every cross reference of the case's parts, every problem with its path (in the file's
        order: the ids, the permanents, the block rules, the sources, the effects, the actions)."""
        self._collect_ids(perms, sources, effects)
        teams = {pl.name: pl.team for pl in players} if self.m.format == "two-headed-giant" else {}
        self._one_attacking_side(perms, teams)
        self._declared_attackers(perms, actions)
        board = _Board({p.id: p for p, _ in perms}, teams, self.active_player(), _choosing_combat(actions))
        for p, path in perms + self.entered:
            self._permanent_checks(p, path, board)
        self._block_rule_checks(board, any(p.choose_block for p, _ in perms + self.entered))
        # what the case must give for the named vocabulary (starting_life:, hand:, cast_exiled:)
        self._given_case(players, perms + sources + effects + self.entered + [(a, f"actions[{i}]") for i, a in enumerate(actions)])
        for s, path in sources:
            self._player_ref(s.controller, f"{path}.controller")
            self._ability_refs(s.abilities, path)
            for k, ab in enumerate(s.abilities):
                if ab.kind == AbilityKind.STATIC and not _own_damage_unpreventable(ab):
                    # read only from permanents: here it would do nothing, silently
                    self.err(f"{path}.abilities[{k}]", "a sources: entry is not on the battlefield, so its static "
                             "abilities don't apply (CR 113.6); put it in battlefield:, or the effect in effects:")
        for e, path in effects:
            self._player_ref(e.controller, f"{path}.controller")
            self._any_ref(e.source, f"{path}.source")
            self._any_ref(e.target, f"{path}.target", ("permanent",))
            self._effect_refs(e.spec, path)
            self._context(e, path)
        self._action_refs(actions, "actions")

    def _collect_ids(self, perms: Any, sources: Any, effects: Any) -> None:
        """Every object's id (valid, unique, not a player's name), and what each names."""
        names = self._names = set(self.player_names)
        ids: dict[str, str] = {}
        all_objects = [(p.id, path, "permanent") for p, path in perms] + [(s.id, path, "source") for s, path in sources] \
            + [(e.id, path, "effect") for e, path in effects] + [(p.id, path, "permanent") for p, path in self.entered]
        for oid, path, kind in all_objects:
            if not _ID_RE.match(oid):
                self.err(f"{path}.id", f"invalid id {oid!r} (letters, digits, - and _)")
            if oid in names:
                self.err(f"{path}.id", f"id {oid!r} is also a player's name")
            elif oid in ids and not (kind == "permanent" and ids[oid] == "permanent" and path.startswith("actions")):
                self.err(f"{path}.id", f"duplicate id {oid!r}")
            ids[oid] = kind
        for cid in self.created_ids:
            ids.setdefault(cid, "effect")
        for did, kind in self.declared.items():
            ids.setdefault(did, kind)
        self.object_ids = ids
        self.spec_by_id: dict[str, Any] = {p.id: p for p, _ in perms + self.entered}
        self.spec_by_id.update({s.id: s for s, _ in sources})
        self.effect_ids = {e.id for e, _ in effects}

    def _permanent_checks(self, p: PermanentSpec, path: str, board: _Board) -> None:
        """One permanent's references, attachment, attack and blocks."""
        self._player_ref(p.controller, f"{path}.controller")
        if p.owner != p.controller:
            self._player_ref(p.owner, f"{path}.owner")
        self._ability_refs(p.abilities, path)
        self._static_context(p, path)
        self._protector_checks(p, path, board)
        if p.chosen is not None:
            self._player_ref(p.chosen, f"{path}.chosen")
            anyone = any(ab.kind == AbilityKind.AS_ENTERS and ab.choice == AsEntersChoice.PLAYER for ab in p.abilities)
            if p.chosen == p.controller and not anyone:  # 614.12: "choose a player" may choose its controller
                self.err(f"{path}.chosen", "the chosen player must be an opponent")
        for k, by in enumerate(p.dealt_damage_by):
            if by not in board.perm_by_id and by not in self.object_ids:
                self.err(f"{path}.dealt_damage_by[{k}]", f"unknown id {by!r} (the objects that dealt it damage this turn)")
        self._attachment_checks(p, path, board)
        entering = path.startswith("actions")
        if p.attacking is not None and entering:
            self.err(f"{path}.attacking", "a permanent entering during the actions isn't attacking "
                     "(entering attacking isn't modelled; attackers are the battlefield's attacking: entries)")
        elif p.attacking is not None:
            self._attacking_checks(p, path, board)
        if p.choose_block:
            self._chosen_block_checks(p, path, board)
        if p.blocking and entering:
            self.err(f"{path}.blocking", "a creature entering during the actions blocks nothing as written (blockers "
                     "are declared at combat:); write blocking: choose to choose its block")
            return
        if p.blocking and board.chosen_combat is not None:
            self.err(f"{path}.blocking", f"{board.chosen_combat}: combat: {{blocks: choose}} chooses every block; leave "
                     "out blocking: here, or use combat: {} with blocking: choose on the creatures whose block is chosen")
        self._written_block_checks(p, path, board)
        if p.attacking is not None and (p.blocking or p.choose_block):
            self.err(f"{path}.blocking", "a creature can't both attack and block")

    def _protector_checks(self, p: PermanentSpec, path: str, board: _Board) -> None:
        if p.protector is not None and p.protector != p.controller:
            self._player_ref(p.protector, f"{path}.protector")
        if p.protector is not None and "siege" in {s.lower() for s in p.subtypes} \
                and p.protector in self._names and same_side(p.controller, p.protector, board.teams):
            self.err(f"{path}.protector", "a Siege's protector is an opponent its controller chose as it entered "
                     "(CR 310.8a): name it with protector:")

    def _attachment_checks(self, p: PermanentSpec, path: str, board: _Board) -> None:
        perm_by_id = board.perm_by_id
        if p.attached_to is not None and p.attached_to not in perm_by_id and p.attached_to not in self._names \
                and self.declared.get(p.attached_to) != "permanent":  # (a broken entry is reported where it is)
            self.err(f"{path}.attached_to", f"unknown id {p.attached_to!r}")
        elif p.attached_to is not None and (p.attached_to in perm_by_id or p.attached_to in self._names):
            problem = _attachment_problem(p, perm_by_id.get(p.attached_to))
            if problem:
                self.err(f"{path}.attached_to", problem)

    def _attacking_checks(self, p: PermanentSpec, path: str, board: _Board) -> None:
        """What a written attacker attacks (506.2, 508.1b) and whether it can (702.3b)."""
        assert p.attacking is not None
        if "creature" not in p.types:
            self.err(f"{path}.attacking", f"{p.id!r} is not a creature and can't attack")
        elif "defender" in p.keywords:
            self.err(f"{path}.attacking", f"{p.id!r} has defender and can't attack (CR 702.3b)")
        target = board.perm_by_id.get(p.attacking)
        if p.attacking in self._names:
            if p.attacking == p.controller:
                self.err(f"{path}.attacking", "a creature can't attack its own controller")
        elif target is None:
            if self.declared.get(p.attacking) != "permanent":  # (a broken entry is reported where it is)
                self.err(f"{path}.attacking", f"{p.attacking!r} is not a player, planeswalker or battle")
        elif "planeswalker" not in target.types and "battle" not in target.types:
            self.err(f"{path}.attacking", f"{p.attacking!r} is not a planeswalker or battle")
        elif same_side(p.controller, target.defender, board.teams):
            self.err(f"{path}.attacking", f"{p.attacking!r} is defended by {target.defender}: a creature attacks "
                     "only a planeswalker an opponent controls or a battle an opponent protects (CR 508.1b)")

    def _chosen_block_checks(self, p: PermanentSpec, path: str, board: _Board) -> None:
        """``blocking: choose``: a creature of the defending side (509.1)."""
        if "creature" not in p.types:
            self.err(f"{path}.blocking", f"{p.id!r} is not a creature and can't block")
        elif CHOOSE in self.object_ids:
            self.err(f"{path}.blocking", f"{CHOOSE!r} is also a permanent's id: blocking: choose would be ambiguous; "
                     "rename that permanent")
        elif same_side(p.controller, board.active, board.teams):
            self.err(f"{path}.blocking", f"{p.controller} is the active player{' (team)' if board.teams else ''}, who "
                     "attacks and declares no blockers (CR 509.1)")

    def _written_block_checks(self, p: PermanentSpec, path: str, board: _Board) -> None:
        """Each written block: a creature blocking an attacker its side defends against (509.1a)
        that its evasion lets it block (702.9b, 702.17b, ...); the legal ones are kept for menace."""
        for k, b in enumerate(p.blocking):
            q = f"{path}.blocking" + (f"[{k}]" if len(p.blocking) > 1 else "")
            if b in p.blocking[:k]:
                self.err(q, f"{b!r} is listed twice")
                continue
            if "creature" not in p.types:
                self.err(q, f"{p.id!r} is not a creature and can't block")
                break
            att = board.perm_by_id.get(b)
            if att is None and self.declared.get(b) == "permanent":
                continue  # a broken entry, reported where it is
            if att is None:
                self.err(q, f"unknown id {b!r}")
            elif att.attacking is None:
                self.err(q, f"{b!r} is not attacking")
            elif att.controller == p.controller:
                self.err(q, f"{p.id!r} can't block its own controller's creature")
            elif not same_side(p.controller, defending_player(att.attacking, board.defenders), board.teams):
                self.err(q, f"{p.id!r} can block only a creature attacking {p.controller}, a planeswalker "
                         f"{p.controller} controls or a battle {p.controller} protects (CR 509.1a); {b!r} is attacking {att.attacking}")
            elif (why := evasion_problem(att.keywords, p.keywords)) is not None:
                self.err(q, f"{p.id!r} can't block {b!r}: {why}")
            else:
                board.written_blockers.setdefault(b, []).append(q)

    def _block_rule_checks(self, board: _Board, choose_block: bool) -> None:
        """702.111b: one written blocker on a creature with menace, and no block left to choose;
        509.1: a chosen declaration must honour every restriction, which chosen blocks don't model."""
        choosing = choose_block or board.chosen_combat is not None
        if choosing:
            for where, card, line in self.block_rules:
                self.err(where, f"{card}: {line!r} restricts attacks or blocks, which chosen blocks don't model; "
                                "write its blocks, or give abilities: to override")
        for b, paths in board.written_blockers.items():
            why = menace_problem(board.perm_by_id[b].keywords, len(paths))
            if why is not None and not choosing:
                self.err(paths[0], f"{b!r} is blocked by one creature: {why}; add a blocker, or write blocking: choose "
                         "on the creatures whose block is chosen")

    def _context(self, e: Any, path: str) -> None:
        """A created effect's selectors that read what created it (its source, target, chosen
        permanent or source) need it given: without, they would name nothing, silently."""
        spec = e.spec
        missing = {SelectorKind.SELF: e.source is None, SelectorKind.EQUIPPED: e.source is None, SelectorKind.ENCHANTED: e.source is None,
                   SelectorKind.TARGET: e.target is None, SelectorKind.TARGET_CONTROLLER: e.target is None, SelectorKind.CHOSEN: True,
                   SelectorKind.CHOSEN_SOURCE: spec.source_choice is None, SelectorKind.CHOSEN_SOURCE_CONTROLLER: spec.source_choice is None,
                   SelectorKind.SECOND_TARGET: True}
        why = {SelectorKind.SELF: "source:", SelectorKind.EQUIPPED: "source:", SelectorKind.ENCHANTED: "source:", SelectorKind.TARGET: "target:",
               SelectorKind.TARGET_CONTROLLER: "target:", SelectorKind.CHOSEN: "chosen permanent (only an ability's choose: makes one)",
               SelectorKind.CHOSEN_SOURCE: "source_choice:", SelectorKind.CHOSEN_SOURCE_CONTROLLER: "source_choice:",
               SelectorKind.SECOND_TARGET: "second target (a spell's)"}
        self._names_nothing(spec, path, missing, why)

    def _static_context(self, p: Any, path: str) -> None:
        """A permanent's static abilities have no target and no chosen source (those are a
        resolving spell's or ability's, 115.1, 609.7a), and "the chosen player" needs one chosen
        as it entered (chosen:, or an as_enters choice): else they would name nothing, silently."""
        chooses = p.chosen is not None or any(ab.kind == AbilityKind.AS_ENTERS for ab in p.abilities)
        missing = {SelectorKind.TARGET: True, SelectorKind.TARGET_CONTROLLER: True, SelectorKind.SECOND_TARGET: True, SelectorKind.CHOSEN: not chooses,
                   SelectorKind.CHOSEN_SOURCE: True, SelectorKind.CHOSEN_SOURCE_CONTROLLER: True}
        why = {SelectorKind.TARGET: "target (a static ability has none, CR 115.1)", SelectorKind.TARGET_CONTROLLER: "target (a static ability has none)",
               SelectorKind.SECOND_TARGET: "target (a static ability has none)", SelectorKind.CHOSEN: "chosen player (give chosen:)",
               SelectorKind.CHOSEN_SOURCE: "chosen source (a resolving spell's or ability's, 609.7a)",
               SelectorKind.CHOSEN_SOURCE_CONTROLLER: "chosen source (a resolving spell's or ability's, 609.7a)"}
        for k, ab in enumerate(p.abilities):
            if ab.kind == AbilityKind.STATIC and ab.effect is not None:
                self._names_nothing(ab.effect, f"{path}.abilities[{k}]", missing, why)

    def _names_nothing(self, spec: Any, path: str, missing: dict[SelectorKind, bool], why: dict[SelectorKind, str]) -> None:
        selectors = [("to", spec.to), ("from", spec.from_), ("if_you_control", spec.if_you_control)]
        if spec.kind == EffectKind.REDIRECT:
            selectors.append(("redirect", spec.value))
        if spec.then is not None:
            selectors.append(("then.to", spec.then.to))
        for key, s in selectors:
            if not isinstance(s, Selector):
                continue
            for kind, absent in missing.items():
                if absent and s.mentions(kind):
                    self.err(f"{path}.{key}", f"{s} names nothing here: the effect has no {why[kind]}")
                    break

    def expectation(self, players: Any, perms: Any, sources: Any, effects: Any) -> Expect | None:
        e = self.expect_model
        if e is None:
            return None
        names = set(self.player_names)
        teams = {p.team for p in players if p.team is not None}
        kinds = self.object_ids
        outcomes = []
        for i, outcome in enumerate(e.outcomes):
            items = []
            if not outcome:
                self.err(f"expect.outcomes[{i}]", "an expected outcome needs at least one field")
            for key, value in outcome.items():
                path = f"expect.outcomes[{i}].{key}"
                reason = _field_problem(key, names, teams, kinds, self.spec_by_id)
                if reason:
                    self.err(path, reason)
                    continue
                if isinstance(value, dict):
                    self.err(path, "expected a number, true/false or a list")
                    continue
                problem = _value_problem(key.partition(".")[2], value)
                if problem:
                    self.err(path, problem)
                    continue
                if isinstance(value, list):
                    value = tuple(value)
                items.append((key, value))
            outcomes.append(tuple(sorted(items)))
        if e.complete and not outcomes:
            self.err("expect.outcomes", "complete: true needs at least one expected outcome")
        return Expect(e.complete, tuple(outcomes))


def _choosing_combat(actions: list[Action]) -> str | None:
    """The path of the first ``combat: {blocks: choose}`` action (at the top level or under ``may:``), if any."""
    for i, act in enumerate(actions):
        inner, where = act, f"actions[{i}]"
        while isinstance(inner, MayAction):
            inner, where = inner.action, f"{where}.may"
        if isinstance(inner, CombatAction) and inner.choose_blocks:
            return f"{where}.combat"
    return None


def _attachment_problem(p: PermanentSpec, host: PermanentSpec | None) -> str:
    """A written attachment the state-based actions would undo at once (704.5m-n): a case starts
    after them, so it is an error here, not a silent change (303.4d, 301.5c, 301.6)."""
    kinds = {s.lower() for s in p.subtypes} & {"aura", "equipment", "fortification"}
    if not kinds:
        return ""
    if host is None:  # a player
        return "" if "aura" in kinds else f"an {sorted(kinds)[0].title()} can't be attached to a player (301.5c, 704.5n)"
    if host.id == p.id:
        return "a permanent can't be attached to itself (303.4d, 301.5c)"
    if "equipment" in kinds and "creature" not in host.types:
        return f"an Equipment equips a creature; {host.id} is not one (301.5c, 704.5n)"
    if "fortification" in kinds and "land" not in host.types:
        return f"a Fortification fortifies a land; {host.id} is not one (301.6, 704.5n)"
    return ""


def _own_damage_unpreventable(ab: Ability) -> bool:
    """A spell's static ability "the damage can't be prevented" (``{cant_be_prevented: true, from:
    self}``, Banefire's with ``if_x_at_least``): it functions while the spell is on the stack (113.6,
    615.12), read as the spell deals damage (solver.oneshot.spell_unpreventable)."""
    e = ab.effect
    return e is not None and e.kind == EffectKind.CANT_BE_PREVENTED and e.from_ is not None and e.from_.kind == SelectorKind.SELF \
        and e.to is None

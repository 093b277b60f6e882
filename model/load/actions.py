"""The timeline's actions, each parsed into its tagged type with its path."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from ..kinds import AbilityKind
from ..types import (
    Action,
    ActivateAction,
    CastAction,
    CombatAction,
    CouldProduceAction,
    CreateAction,
    DamageAction,
    DamageSpec,
    DeclareAttackersAction,
    EndStepAction,
    EnterAction,
    LeaveAction,
    LeaveGameAction,
    LifeAction,
    MayAction,
    OneShotAction,
    PermanentSpec,
    TapForManaAction,
    UpkeepAction,
)
from ..vocab import amount, mana_type, parse_one_shot, sel
from .action_models import (
    ActivateModel,
    CastModel,
    CombatModel,
    DamageEventModel,
    EnterX,
    LifeModel,
    TapForManaModel,
)
from .entities import _Entities
from .schema import PermanentModel, SourceModel, _describe, _Strict


class _EnterXModel(_Strict):
    x: EnterX = 0


class _Actions(_Entities):
    """The timeline: every action kind, nested responses and ``may:`` included."""

    def action(self, raw: Any, path: str) -> Action | None:
        if not isinstance(raw, Mapping) or not raw:
            self.err(path, "expected a mapping with one action key (damage:, combat:, activate:, ...)")
            return None
        if "may" in raw:
            return self.may_action(raw, path)
        if "deal" in raw or "set_life" in raw or "put_counters" in raw or "remove_counters" in raw or "create_tokens" in raw or "get_energy" in raw or "become_monarch" in raw or "fight" in raw or (len(raw) > 1 and ("lose_life" in raw or "gain_life" in raw or "draw" in raw)):
            one = self.guard(parse_one_shot, dict(raw), path)
            if one is None:
                return None
            return OneShotAction(one, "")
        if len(raw) != 1:
            self.err(path, f"an action has one key, got {', '.join(map(str, raw))}")
            return None
        key, val = next(iter(raw.items()))
        p = f"{path}.{key}"
        if key == "damage":
            if not isinstance(val, list) or not val:
                self.err(p, "expected a non-empty list of {from, to, amount}")
                return None
            events = [self.damage_event(ev, f"{p}[{i}]") for i, ev in enumerate(val)]
            return DamageAction(tuple(e for e in events if e is not None)) if all(events) else None
        if key == "combat":
            return self.combat_action(val, p)
        if key == "activate":
            return self._activate_action(val, p)
        if key == "cast":
            return self.cast_action(val, p)
        if key == "create":
            eff = self.created_effect(val, p, f"created{len(self.created_ids)}")
            if eff is None:
                return None
            self.created_ids.append(eff.id)
            return CreateAction(eff)
        if key in ("lose_life", "gain_life"):
            return self._life_action(key, val, p)
        if key == "enter":
            return self._enter_action(val, p)
        if key == "tap_for_mana":
            return self.tap_for_mana(val, p)
        if key in ("leave", "leave_game", "could_produce"):
            if not isinstance(val, str):
                self.err(p, "expected an id" if key != "leave_game" else "expected a player name")
                return None
            return {"leave": LeaveAction, "leave_game": LeaveGameAction, "could_produce": CouldProduceAction}[key](val)
        if key in ("end_step", "upkeep", "declare_attackers"):
            if val not in ({}, None):
                self.err(p, f"{key} takes no options: {key}: {{}}")
                return None
            return {"end_step": EndStepAction, "upkeep": UpkeepAction, "declare_attackers": DeclareAttackersAction}[key]()
        self.err(p, f"unknown action {key!r}")
        return None

    def _activate_action(self, val: Any, p: str) -> Action | None:
        """``activate:`` (602.2; a mana ability's activation is its own, 605.3a)."""
        am: ActivateModel | None = self.entry(ActivateModel, val, p)
        if am is None:
            return None
        if self._mana_ability(am.id, am.ability):
            return self._activate_mana(am, val, p)
        responses = self._responses(val, p)
        if responses is None:
            return None
        x, x_range = _x_split(am.x)
        return ActivateAction(am.id, am.ability, x, am.target, am.source, responses, x_range, x_given=am.x is not None,
                              cast_exiled=am.cast_exiled)

    def _life_action(self, key: str, val: Any, p: str) -> LifeAction | None:
        """``lose_life:`` / ``gain_life:`` with ``who:`` and ``amount:`` (119.3)."""
        lm: LifeModel | None = self.entry(LifeModel, val, p)
        if lm is None:
            return None
        amt = self.guard(amount, lm.amount, f"{p}.amount")
        who = self.guard(sel, lm.who, f"{p}.who")
        if amt is None or who is None:
            return None
        return LifeAction(key == "gain_life", amt, who, lm.from_)

    def _enter_action(self, val: Any, p: str) -> EnterAction | None:
        """``enter:``: a permanent enters during the actions, with the X of the spell it was
        (107.3m)."""
        # x: the X chosen for the spell that became this permanent (CR 107.3m)
        x = val.get("x", 0) if isinstance(val, Mapping) else 0
        if self.entry(_EnterXModel, {"x": x}, p) is None:
            return None
        pm = self.entry(PermanentModel, {k: v for k, v in val.items() if k != "x"} if isinstance(val, Mapping) else val, p)
        if pm is None:
            return None
        before = len(self.errors)
        spec = self.permanent(pm, p)
        if spec is None:
            self.declared.setdefault(pm.id, "permanent")  # broken, reported here: not again where named
            return None
        self.entered.append((spec, p))
        self.known_perms.setdefault(spec.id, spec)
        if x and len(self.errors) == before and not _reads_x(spec.abilities):  # (a broken ability: said once)
            self.err(f"{p}.x", f"{spec.name} has no ability that reads X (107.3m): x: {x} would be ignored")
        return EnterAction(spec, x)

    def _mana_ability(self, pid: str, index: int | None) -> bool:
        """Whether ``activate:`` names a mana ability: the one numbered, or, unnumbered, the
        permanent's only kind of activated ability (a mana ability is one, CR 605.1a)."""
        spec = self.known_perms.get(pid)
        if spec is None:
            return False
        kinds = [ab.kind for ab in spec.abilities]
        if index is not None:
            return 0 <= index < len(kinds) and kinds[index] == AbilityKind.MANA
        return AbilityKind.MANA in kinds and AbilityKind.ACTIVATED not in kinds

    def _activate_mana(self, am: ActivateModel, val: Mapping[str, Any], p: str) -> TapForManaAction | None:
        """``activate:`` of a mana ability: activated as ``tap_for_mana:`` activates it (605.1a;
        it doesn't use the stack, 605.3b), so nothing of an ability on the stack goes with it."""
        extra = next((k for k in ("x", "target", "source", "responses") if k in val), None)
        if extra is not None:
            self.err(f"{p}.{extra}", f"a mana ability (605.1a) is activated without {extra}: "
                     "(tap_for_mana: takes its choose: and tap:)")
            return None
        return TapForManaAction(am.id, am.ability)

    def combat_action(self, val: Any, p: str) -> CombatAction | None:
        """``combat: {}`` (blocks as written with ``blocking:``) or ``combat: {blocks: choose}``:
        the defending players choose every block (CR 509.1)."""
        if val in ({}, None):
            return CombatAction()
        if not isinstance(val, Mapping):
            self.err(p, f"expected combat: {{}} or combat: {{blocks: choose}}, got {_describe(val)}")
            return None
        return None if self.entry(CombatModel, val, p) is None else CombatAction(choose_blocks=True)

    def damage_event(self, raw: Any, q: str) -> DamageSpec | None:
        """One ``damage:`` event: its shape by :class:`DamageEventModel`, its amount read (107.1)."""
        ev: DamageEventModel | None = self.entry(DamageEventModel, raw, q)
        if ev is None:
            return None
        amt = self.guard(amount, ev.amount, f"{q}.amount")
        return None if amt is None else DamageSpec(ev.from_, ev.to, amt, ev.combat, ev.excess_to)

    def cast_action(self, val: Any, p: str) -> CastAction | None:
        """``cast: <source id>`` or ``{id | card: <name>, controller:, target:, x:, responses:}``:
        a spell is cast and resolves (601, 608); ``card:`` makes the spell a source of its own."""
        if isinstance(val, str):
            return CastAction(val)
        cm: CastModel | None = self.entry(CastModel, val, p)
        if cm is None:
            return None
        target, (x, x_range) = cm.target, _x_split(cm.x)
        chosen = self._cast_targets(val, p)
        if chosen is None:
            return None
        targets, divide = chosen
        sid = cm.id
        if cm.card is not None:
            if cm.controller is None:
                self.err(f"{p}.controller", "required with card: the player casting the spell")
                return None
            sid = sid if sid is not None else re.sub(r"[^a-z0-9]+", "-", cm.card.lower()).strip("-") or "spell"
            sm = self.entry(SourceModel, {"id": sid, "card": cm.card, "controller": cm.controller}, p)
            if sm is None:
                return None
            spec = self.source(sm, p)
            if spec is None:
                return None
            self.cast_sources.append((spec, p))
        elif cm.controller is not None:
            self.err(f"{p}.controller", "controller: goes with card:; a sources: entry has its own controller")
            return None
        if sid is None:
            self.err(f"{p}.id", "required: the id of the sources: entry cast (or card: <name>)")
            return None
        responses = self._responses(val, p)
        if responses is None:
            return None
        if "card" not in val:
            self.mapping_actions.add(p)
        modes = None
        if cm.modes is not None:
            if not cm.modes:
                self.err(f"{p}.modes", "expected the modes chosen, numbered from 1 (700.2d)")
                return None
            modes = tuple(sorted(cm.modes))
        return CastAction(sid, target, x, responses, targets, divide, modes, cm.kicked, x_range, cm.source,
                          x_given=cm.x is not None)

    def _cast_targets(self, val: Mapping[str, Any], p: str) -> tuple[tuple[str, ...] | None, tuple[tuple[str, int], ...] | None] | None:
        """``targets: [a, b]`` (distinct, 601.2c; ``targets: [a]`` is ``target: a``) and ``divide:
        {a: 1, b: 1}`` (601.2d: each target at least 1), or None after reporting an error."""
        targets: tuple[str, ...] | None = None
        if "targets" in val:
            raw = val["targets"]
            if "target" in val:
                self.err(f"{p}.targets", "give target: or targets:, not both")
                return None
            if not isinstance(raw, list) or not raw or not all(isinstance(t, str) for t in raw):
                self.err(f"{p}.targets", f"expected a list of player names or permanent ids, got {_describe(raw)}")
                return None
            # a target named twice is refused where the spell is known (model.load.checks): a
            # modal spell's modes are different words "target" (115.3), another spell's aren't
            targets = tuple(raw)
        divide: tuple[tuple[str, int], ...] | None = None
        if "divide" in val:
            raw = val["divide"]
            if not isinstance(raw, Mapping) or not raw:
                self.err(f"{p}.divide", f"expected {{<target>: N, ...}}, got {_describe(raw)}")
                return None
            if targets is None:
                self.err(f"{p}.divide", "divide: needs targets: (the targets the damage is divided among)")
                return None
            if set(raw) != set(targets):
                self.err(f"{p}.divide", "divide: names exactly the targets of targets: (601.2d)")
                return None
            for t, n in raw.items():
                if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                    self.err(f"{p}.divide.{t}", "each target is dealt at least 1 of divided damage (601.2d): a whole number, 1 or more")
                    return None
            divide = tuple((t, raw[t]) for t in targets)
        return targets, divide

    def _responses(self, val: Mapping[str, Any], p: str) -> tuple[Action, ...] | None:
        """An activation's or a spell's ``responses:``: actions done before it resolves (608.2)."""
        raw = val.get("responses", [])
        if not isinstance(raw, list):
            self.err(f"{p}.responses", "expected a list of actions")
            return None
        responses = tuple(a for a in (self.action(r, f"{p}.responses[{i}]") for i, r in enumerate(raw)) if a is not None)
        return responses if len(responses) == len(raw) else None

    def may_action(self, raw: Mapping[str, Any], path: str) -> MayAction | None:
        """``{may: <action>, by: <player>}``: any action, made optional (docs/design.md, "Actions")."""
        bad = set(raw) - {"may", "by"}
        if bad:
            self.err(f"{path}.{sorted(map(str, bad))[0]}", "unknown key (a may: action takes may: and by:)")
            return None
        by = raw.get("by")
        if by is not None and not isinstance(by, str):
            self.err(f"{path}.by", "expected the name of the player who chooses")
            return None
        inner = self.action(raw["may"], f"{path}.may")
        return None if inner is None else MayAction(inner, by)

    def tap_for_mana(self, val: Any, p: str) -> TapForManaAction | None:
        """``tap_for_mana: <id>`` or ``{id, ability: N, choose: G}``: activate a mana ability (605)."""
        if isinstance(val, str):
            return TapForManaAction(val)
        if not isinstance(val, Mapping):
            self.err(p, "expected a permanent id or {id: <permanent>, ability: N, choose: <W U B R G C>}")
            return None
        self.mapping_actions.add(p)
        tm: TapForManaModel | None = self.entry(TapForManaModel, val, p)
        if tm is None:
            return None
        choose = self.guard(mana_type, tm.choose, f"{p}.choose") if tm.choose is not None else None
        if tm.choose is not None and choose is None:
            return None
        return TapForManaAction(tm.id, tm.ability, choose, tm.tap)

    def _tap_for_mana_refs(self, act: TapForManaAction, path: str, any_ref: Any) -> None:
        q = f"{path}.tap_for_mana" + (".id" if f"{path}.tap_for_mana" in self.mapping_actions else "")
        any_ref(act.id, q, ("permanent",))
        spec = self.spec_by_id.get(act.id)
        if not isinstance(spec, PermanentSpec):
            return
        mana = [j for j, ab in enumerate(spec.abilities) if ab.kind == AbilityKind.MANA]
        if act.ability is not None and act.ability not in mana:
            self.err(f"{path}.tap_for_mana.ability", f"{spec.name} has no mana ability number {act.ability} (its mana abilities: {mana or 'none'})")
        elif not mana:
            self.err(q, f"{spec.name} has no mana ability")
        if act.tap is not None:
            any_ref(act.tap, f"{path}.tap_for_mana.tap", ("permanent",))
            chosen = [j for j in mana if act.ability in (None, j)]
            if chosen and not any(isinstance(c, tuple) and c[0] == "tap" for j in chosen for c in spec.abilities[j].cost):
                self.err(f"{path}.tap_for_mana.tap", f"{spec.name}'s mana ability doesn't tap another permanent as its cost")

    # ---- the whole case -------------------------------------------------------------------

def _x_split(raw: Any) -> tuple[int, tuple[int, int] | None]:
    """``x: 3`` -> (3, None); ``x: {min: 0, max: 5}`` -> (0, (0, 5)): X its caster chooses (107.3a);
    none given -> (0, None), which model.load.checks refuses where X is read."""
    if isinstance(raw, dict):
        return int(raw["min"]), (int(raw["min"]), int(raw["max"]))
    return (0 if raw is None else int(raw)), None


# X is the choice of the player casting or activating (107.3a): never taken as 0 unsaid
_NO_X = ("{} reads X, which its controller chooses (CR 107.3a): give x: N, or x: {{min: N, max: M}} to have "
         "every value in that range enumerated")


def _reads_x(node: Any) -> bool:
    """Whether an ability (or any part of it) reads X (107.3): an amount ``("var", "X")`` or
    ``X`` as a shield's size, anywhere in its effect, actions or cost."""
    if node == ("var", "X") or node == "X":
        return True
    if isinstance(node, tuple | list | frozenset | set):
        return any(_reads_x(n) for n in node)
    if isinstance(node, dict):
        return any(_reads_x(n) for n in node.values())
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return any(_reads_x(getattr(node, f.name)) for f in dataclasses.fields(node))
    return False


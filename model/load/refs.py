"""The references a case's parts make (player names, object ids, selectors), checked where each
is written: every unknown name or id is an error with its path (model.load.checks reads them)."""

from __future__ import annotations

from typing import Any

from ..effects import EffectKind
from ..kinds import AbilityKind, ActionKind
from ..selectors import Selector, SelectorKind
from ..types import (
    PLAYER_KINDS,
    Ability,
    ActivateAction,
    CastAction,
    CouldProduceAction,
    CreateAction,
    DamageAction,
    LeaveAction,
    LeaveGameAction,
    LifeAction,
    MayAction,
    OneShotAction,
    PermanentSpec,
    SourceSpec,
    TapForManaAction,
)
from ..vocab import PERMANENT_SHOTS
from ..vocab.tokens import token_creator
from .actions import _NO_X, _reads_x
from .given_checks import _GivenChecks, trigger_player_ok

__all__ = ["_RefChecks"]


class _RefChecks(_GivenChecks):
    """The reference checks; ``_names`` (the players) and ``object_ids`` (id -> permanent,
    source or effect) are set by the cross check before any of these runs."""

    _names: set[str]
    object_ids: dict[str, str]
    spec_by_id: dict[str, Any]
    effect_ids: set[str]

    def _player_ref(self, value: str | None, path: str) -> None:
        if value is not None and value not in self._names:
            self.err(path, f"{value!r} is not a player")

    def _any_ref(self, value: str | None, path: str, kinds: tuple[str, ...] = ("permanent", "source")) -> None:
        if value is None:
            return
        names, ids = self._names, self.object_ids
        creator = token_creator(value)
        if "permanent" in kinds and value not in ids and creator is not None and (creator in names or creator in ids):
            return  # a token its creator may create during the actions (111.1; absent, nothing happens)
        if value not in names and ids.get(value) not in kinds:
            self.err(path, f"unknown id {value!r}")

    def _selector_refs(self, s: Selector | None, path: str, that_player_ok: bool = False) -> None:
        if s is None:
            return
        names, ids = self._names, self.object_ids
        if s.mentions(SelectorKind.THAT_PLAYER) and not that_player_ok:
            self.err(path, "'that player' is only for a tapped_for_mana or dealt_damage trigger's do: (the player who tapped the permanent, the player dealt damage)")
        for ref in s.refs():
            if ref not in names and ref not in ids and not ((c := token_creator(ref)) is not None and (c in names or c in ids)):
                self.err(path, f"unknown player or id {ref!r}")

    def _ability_refs(self, abilities: tuple[Ability, ...], path: str) -> None:
        # a spell's later untargeted part may name the second target its targeted part chose
        # ("Put a +1/+1 counter on target creature you control. Then that creature fights
        # target creature you don't control.": one spell, its targets on every part, 601.2c)
        second = any(ab.kind == AbilityKind.SPELL and ab.second_target is not None for ab in abilities)
        for j, ab in enumerate(abilities):
            self._one_ability_refs(ab, f"{path}.abilities[{j}]", second and ab.kind == AbilityKind.SPELL and ab.target is None)

    def _one_ability_refs(self, ab: Ability, q: str, spell_second: bool = False) -> None:
        for k, mode in enumerate(ab.choices):  # a modal trigger's modes (choose_one:)
            self._one_ability_refs(mode, f"{q}.choose_one[{k}]")
        self._selector_refs(ab.target, f"{q}.target", trigger_player_ok(ab))  # (that player: Questing Beast, 510.3a)
        self._selector_refs(ab.trigger_to, f"{q}.to")
        self._selector_refs(ab.trigger_from, f"{q}.from")
        # the path of the ability's body as the file writes it: a static ability's effect
        # is the ability itself; the others sit under their key (do:, activated:, spell:)
        body = {"trigger": f"{q}.do", "activated": f"{q}.activated", "spell": f"{q}.spell"}.get(ab.kind, q)
        if ab.effect is not None:
            self._effect_refs(ab.effect, body)
        second = ab.second_target is not None or spell_second
        if ab.action is not None:
            self._one_shot_refs(ab.action, f"{body}[0]" if ab.more else body, ab.kind == AbilityKind.TRIGGER, second)
        for k, shot in enumerate(ab.more, start=1):
            self._one_shot_refs(shot, f"{body}[{k}]", ab.kind == AbilityKind.TRIGGER, second)
        if ab.trigger_if is not None:
            self._selector_refs(ab.trigger_if.who, f"{q}.if.who")
        if ab.choose is not None:
            self._selector_refs(ab.choose, f"{q}.choose")
        if ab.kind == AbilityKind.MANA and len(ab.mana) == 2 and isinstance(ab.mana[1], Selector):
            self._selector_refs(ab.mana[1], f"{q}.mana.{ab.mana[0]}")  # {any_type_of: <selector>}

    def _one_shot_refs(self, shot: Any, path: str, that_player_ok: bool = False, second_ok: bool = False) -> None:
        """A one-shot action's references, at the file's paths (``may:`` wraps the action)."""
        where = f"{path}.may" if shot.may else path
        if not second_ok and any(s.mentions(SelectorKind.SECOND_TARGET) for s in (shot.to, *(to for _, to in shot.also))):
            self.err(where, "second target is a spell's second target: it goes with the spell's second_target:")
        key = shot.kind if shot.kind in PERMANENT_SHOTS or shot.kind == ActionKind.BECOME_MONARCH else "to" if shot.kind in (ActionKind.DEAL, ActionKind.PUT_COUNTERS, ActionKind.REMOVE_COUNTERS) else "who"
        self._selector_refs(shot.to, f"{where}.{key}", that_player_ok)
        self._any_ref(shot.source, f"{where}.from")
        if shot.token is not None:
            self._ability_refs(shot.token.abilities, f"{where}.token")
        if shot.then is not None:
            self._selector_refs(shot.then.to, f"{where}.then.who", that_player_ok)

    def _effect_refs(self, spec: Any, path: str) -> None:
        self._selector_refs(spec.to, f"{path}.to")
        self._selector_refs(spec.from_, f"{path}.from")
        if spec.kind in (EffectKind.REDIRECT, *PLAYER_KINDS):
            self._selector_refs(spec.value, f"{path}.{spec.kind}")
        if spec.kind == EffectKind.PROTECTION:
            self._selector_refs(spec.value.player, f"{path}.protection")
            self._selector_refs(spec.value.quality, f"{path}.protection.from")
        if spec.then is not None:
            self._selector_refs(spec.then.to, f"{path}.then.to")
        self._selector_refs(spec.if_you_control, f"{path}.if_you_control")
        if spec.source_choice is not None and spec.source_choice not in self.object_ids and spec.source_choice != "chosen_source":
            self.err(f"{path}.source_choice", f"unknown id {spec.source_choice!r}")

    def _action_refs(self, actions: Any, base: str, wrapped: bool = False) -> None:
        """Each action's references, in order (responses and ``may:`` inside their action)."""
        for i, act in enumerate(actions):
            path = base if wrapped else f"{base}[{i}]"
            if isinstance(act, DamageAction):
                self._damage_refs(act, path)
            elif isinstance(act, ActivateAction):
                self._activate_refs(act, path)
                self._action_refs(act.responses, f"{path}.activate.responses")
            elif isinstance(act, CreateAction):
                if act.effect.id in self.effect_ids:
                    self.err(f"{path}.create.id", f"duplicate id {act.effect.id!r}")
                self.effect_ids.add(act.effect.id)
                self._player_ref(act.effect.controller, f"{path}.create.controller")
                self._any_ref(act.effect.source, f"{path}.create.source")
                self._effect_refs(act.effect.spec, f"{path}.create")
            elif isinstance(act, LifeAction):
                self._selector_refs(act.who, f"{path}.{'gain_life' if act.gain else 'lose_life'}.who")
                self._any_ref(act.source, f"{path}.{'gain_life' if act.gain else 'lose_life'}.from")
            elif isinstance(act, LeaveAction | CouldProduceAction):
                if act.id != "all" or isinstance(act, LeaveAction):
                    self._any_ref(act.id, f"{path}.{act.kind}", ("permanent",))
            elif isinstance(act, TapForManaAction):
                self._tap_for_mana_refs(act, path, self._any_ref)
            elif isinstance(act, LeaveGameAction):
                self._player_ref(act.player, f"{path}.leave_game")
            elif isinstance(act, OneShotAction):
                self._one_shot_refs(act.action, path)
            elif isinstance(act, CastAction):
                self._cast_refs(act, path)
                self._action_refs(act.responses, f"{path}.cast.responses")
            elif isinstance(act, MayAction):
                self._player_ref(act.chooser, f"{path}.by")
                self._action_refs((act.action,), f"{path}.may", wrapped=True)

    def _damage_refs(self, act: DamageAction, path: str) -> None:
        """A damage action's sources and recipients (120.1a) and excess damage (120.4a)."""
        for j, ev in enumerate(act.events):
            if ev.source in self.player_names and ev.source not in self.spec_by_id:
                self.err(f"{path}.damage[{j}].from", f"{ev.source!r} is a player; the source of damage is an object (a permanent or a sources: entry)")
            else:
                self._any_ref(ev.source, f"{path}.damage[{j}].from")
            self._any_ref(ev.to, f"{path}.damage[{j}].to", ("permanent",))
            target = self.spec_by_id.get(ev.to)
            if isinstance(target, PermanentSpec) and not set(target.types) & {"creature", "planeswalker", "battle"}:
                self.err(f"{path}.damage[{j}].to", f"{ev.to!r} can't be dealt damage: only players, creatures, planeswalkers and battles can (CR 120.1a)")
            if ev.excess_to is not None:
                q = f"{path}.damage[{j}].excess_to"
                self._any_ref(ev.excess_to, q, ("permanent",))
                if ev.to in self.player_names:
                    self.err(q, "excess damage is damage beyond what is lethal for a permanent (CR 120.4a); "
                             f"{ev.to!r} is a player")
                elif ev.excess_to == ev.to:
                    self.err(q, "the excess damage goes to another permanent or player (CR 120.4a)")
                elif any(o.to == ev.to and o.excess_to is not None for o in act.events[:j]):
                    self.err(q, f"two excess-damage events to {ev.to!r} in one batch are not modelled")

    def _activate_refs(self, act: ActivateAction, path: str) -> None:
        """An activation's permanent, ability number, target, source and X (602.2b, 107.3a)."""
        self._any_ref(act.id, f"{path}.activate.id", ("permanent",))
        spec = self.spec_by_id.get(act.id)
        if spec is not None:
            activated = [j for j, ab in enumerate(spec.abilities) if ab.kind == AbilityKind.ACTIVATED]
            if act.ability is not None and act.ability not in activated:
                self.err(f"{path}.activate.ability", f"{spec.name} has no activated ability number {act.ability} (its activated abilities: {activated or 'none'})")
            elif not activated:
                self.err(f"{path}.activate.id", f"{spec.name} has no activated ability")
            else:
                ab = spec.abilities[act.ability if act.ability is not None else activated[0]]
                if act.target is not None and ab.target is None:
                    self.err(f"{path}.activate.target", f"{spec.name}'s ability has no target")
                if act.source_choice is not None and (ab.effect is None or ab.effect.source_choice != "chosen_source"):
                    self.err(f"{path}.activate.source", f"{spec.name}'s ability doesn't choose a source")
                if (act.x or act.x_range) and not _reads_x(ab):
                    self.err(f"{path}.activate.x", f"{spec.name}'s ability has no X (107.3): x: {act.x} would be ignored")
                elif not act.x_given and _reads_x(ab):
                    self.err(f"{path}.activate.x", _NO_X.format(f"{spec.name}'s ability"))
                self._given_activation(ab, act, spec.name, path)
        self._any_ref(act.target, f"{path}.activate.target", ("permanent",))
        self._any_ref(act.source_choice, f"{path}.activate.source")

    def _cast_refs(self, act: CastAction, path: str) -> None:
        """A cast's spell, targets (601.2c, 115.3), modes, kicker, X and source choice."""
        q = f"{path}.cast" + (".id" if f"{path}.cast" in self.mapping_actions else "")
        self._any_ref(act.id, q, ("source",))
        spec = self.spec_by_id.get(act.id)
        if isinstance(spec, SourceSpec):
            self._spell_checks(spec, act, path, q)
        self._any_ref(act.target, f"{path}.cast.target", ("permanent",))
        self._any_ref(act.source_choice, f"{path}.cast.source")
        for i, t in enumerate(act.targets or ()):
            self._any_ref(t, f"{path}.cast.targets[{i}]", ("permanent",))

    def _spell_checks(self, spec: SourceSpec, act: CastAction, path: str, q: str) -> None:
        spells = [ab for ab in spec.abilities if ab.kind == AbilityKind.SPELL]
        targeted = [ab for ab in spells if ab.target is not None]
        modal = self._modal_check(spec, act, f"{path}.cast")
        if modal is not None:
            targeted = modal
        kicked = self._kicker_check(spec, act, f"{path}.cast", modal is not None)
        if kicked is not None:
            targeted = kicked
        dup = next((t for t in act.targets or () if act.targets.count(t) > 1), None)  # type: ignore[union-attr]
        if not spells:
            self.err(q, f"{spec.name} has no spell ability to resolve (give it abilities: [{{spell: ...}}])")
        elif dup is not None and modal is None and not any(
                ab.second_target is not None and not ab.another for ab in targeted):
            # two instances of "target" may choose one object, unless "another" (115.3)
            self.err(f"{path}.cast.targets", f"{dup} is named twice: one object or player can't be chosen twice "
                     "for the same word \"target\" (115.3, 601.2c)")
        elif len(targeted) > 1 and modal is None:
            self.err(q, f"{spec.name} has {len(targeted)} targeted parts: a spell with several targets isn't modelled yet")
        elif len(targeted) > 1 or modal:
            counts = next(ab for ab in spec.abilities if ab.kind == AbilityKind.MODES)
            # (a mode with a second target has two, 601.2c)
            per = sorted((2 if ab.second_target is not None else 1 for ab in targeted), reverse=True)
            most = sum(per) if counts.entwine or act.modes is not None else sum(per[:(counts.modes or (1, 1))[1]])
            self._mode_targets_check(spec.name, targeted, act, f"{path}.cast", most)
        elif (act.target is not None or act.targets is not None) and not targeted:
            self.err(f"{path}.cast.{'target' if act.target is not None else 'targets'}", f"{spec.name} has no target")
        elif targeted:
            self._cast_choices_check(spec.name, targeted[0], act, f"{path}.cast")
        if (act.x or act.x_range) and spells and not any(_reads_x(ab) for ab in spec.abilities):
            self.err(f"{path}.cast.x", f"{spec.name} has no X (107.3): x: {act.x} would be ignored")
        elif not act.x_given and spells and any(_reads_x(ab) for ab in spells):
            self.err(f"{path}.cast.x", _NO_X.format(spec.name))
        if act.source_choice is not None and not any(
                ab.effect is not None and ab.effect.source_choice == "chosen_source" for ab in spells):
            self.err(f"{path}.cast.source", f"{spec.name} doesn't choose a source")

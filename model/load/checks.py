"""Cross-reference checks (dangling ids, blockers that aren't creatures, 2HG teams) and
``expect:``, every problem with its path."""

from __future__ import annotations

from typing import Any

from ..blocks import defending_player, evasion_problem, menace_problem, same_side
from ..effects import EffectKind
from ..kinds import AbilityKind, ActionKind, AsEntersChoice
from ..selectors import Selector
from ..types import (
    PLAYER_KINDS,
    Ability,
    Action,
    ActivateAction,
    CastAction,
    CombatAction,
    CouldProduceAction,
    CreateAction,
    DamageAction,
    Expect,
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
from .fields import _field_problem, _value_problem
from .given_checks import _GivenChecks, trigger_player_ok
from .schema import _ID_RE, CHOOSE


class _Checks(_GivenChecks):
    """Cross references between the parts, and the expectation."""

    def cross_check(self, players: Any, perms: Any, sources: Any, effects: Any, actions: Any) -> None:
        names = set(self.player_names)
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
        perm_by_id = {p.id: p for p, _ in perms}
        self.spec_by_id: dict[str, Any] = {p.id: p for p, _ in perms + self.entered}
        self.spec_by_id.update({s.id: s for s, _ in sources})
        self.effect_ids = {e.id for e, _ in effects}

        def player_ref(value: str | None, path: str) -> None:
            if value is not None and value not in names:
                self.err(path, f"{value!r} is not a player")

        def any_ref(value: str | None, path: str, kinds: tuple[str, ...] = ("permanent", "source")) -> None:
            if value is None:
                return
            creator = token_creator(value)
            if "permanent" in kinds and value not in ids and creator is not None and (creator in names or creator in ids):
                return  # a token its creator may create during the actions (111.1; absent, nothing happens)
            if value not in names and ids.get(value) not in kinds:
                self.err(path, f"unknown id {value!r}")

        def selector_refs(s: Selector | None, path: str, that_player_ok: bool = False) -> None:
            if s is None:
                return
            if s.mentions("that_player") and not that_player_ok:
                self.err(path, "'that player' is only for a tapped_for_mana or dealt_damage trigger's do: (the player who tapped the permanent, the player dealt damage)")
            for ref in s.refs():
                if ref not in names and ref not in ids and not ((c := token_creator(ref)) is not None and (c in names or c in ids)):
                    self.err(path, f"unknown player or id {ref!r}")

        def ability_refs(abilities: tuple[Ability, ...], path: str) -> None:
            # a spell's later untargeted part may name the second target its targeted part chose
            # ("Put a +1/+1 counter on target creature you control. Then that creature fights
            # target creature you don't control.": one spell, its targets on every part, 601.2c)
            second = any(ab.kind == AbilityKind.SPELL and ab.second_target is not None for ab in abilities)
            for j, ab in enumerate(abilities):
                one_ability_refs(ab, f"{path}.abilities[{j}]", second and ab.kind == AbilityKind.SPELL and ab.target is None)

        def one_ability_refs(ab: Ability, q: str, spell_second: bool = False) -> None:
            for k, mode in enumerate(ab.choices):  # a modal trigger's modes (choose_one:)
                one_ability_refs(mode, f"{q}.choose_one[{k}]")
            selector_refs(ab.target, f"{q}.target", trigger_player_ok(ab))  # (that player: Questing Beast, 510.3a)
            selector_refs(ab.trigger_to, f"{q}.to")
            selector_refs(ab.trigger_from, f"{q}.from")
            # the path of the ability's body as the file writes it: a static ability's effect
            # is the ability itself; the others sit under their key (do:, activated:, spell:)
            body = {"trigger": f"{q}.do", "activated": f"{q}.activated", "spell": f"{q}.spell"}.get(ab.kind, q)
            if ab.effect is not None:
                effect_refs(ab.effect, body)
            if ab.action is not None:
                one_shot_refs(ab.action, f"{body}[0]" if ab.more else body, ab.kind == AbilityKind.TRIGGER,
                              ab.second_target is not None or spell_second)
            for k, shot in enumerate(ab.more, start=1):
                one_shot_refs(shot, f"{body}[{k}]", ab.kind == AbilityKind.TRIGGER, ab.second_target is not None or spell_second)
            if ab.trigger_if is not None:
                selector_refs(ab.trigger_if.who, f"{q}.if.who")
            if ab.choose is not None:
                selector_refs(ab.choose, f"{q}.choose")
            if ab.kind == AbilityKind.MANA and len(ab.mana) == 2 and isinstance(ab.mana[1], Selector):
                selector_refs(ab.mana[1], f"{q}.mana.{ab.mana[0]}")  # {any_type_of: <selector>}

        def one_shot_refs(shot: Any, path: str, that_player_ok: bool = False, second_ok: bool = False) -> None:
            """A one-shot action's references, at the file's paths (``may:`` wraps the action)."""
            where = f"{path}.may" if shot.may else path
            if not second_ok and any(s.mentions("second_target") for s in (shot.to, *(to for _, to in shot.also))):
                self.err(where, "second target is a spell's second target: it goes with the spell's second_target:")
            key = shot.kind if shot.kind in PERMANENT_SHOTS or shot.kind == ActionKind.BECOME_MONARCH else "to" if shot.kind in (ActionKind.DEAL, ActionKind.PUT_COUNTERS, ActionKind.REMOVE_COUNTERS) else "who"
            selector_refs(shot.to, f"{where}.{key}", that_player_ok)
            any_ref(shot.source, f"{where}.from")
            if shot.token is not None:
                ability_refs(shot.token.abilities, f"{where}.token")
            if shot.then is not None:
                selector_refs(shot.then.to, f"{where}.then.who", that_player_ok)

        def effect_refs(spec: Any, path: str) -> None:
            selector_refs(spec.to, f"{path}.to")
            selector_refs(spec.from_, f"{path}.from")
            if spec.kind in (EffectKind.REDIRECT, *PLAYER_KINDS):
                selector_refs(spec.value, f"{path}.{spec.kind}")
            if spec.kind == EffectKind.PROTECTION:
                selector_refs(spec.value.player, f"{path}.protection")
                selector_refs(spec.value.quality, f"{path}.protection.from")
            if spec.then is not None:
                selector_refs(spec.then.to, f"{path}.then.to")
            selector_refs(spec.if_you_control, f"{path}.if_you_control")
            if spec.source_choice is not None and spec.source_choice not in ids and spec.source_choice != "chosen_source":
                self.err(f"{path}.source_choice", f"unknown id {spec.source_choice!r}")

        defenders = {p.id: p.defender for p, _ in perms}  # who defends each when attacked (506.2)
        active = self.active_player()
        teams = {pl.name: pl.team for pl in players} if self.m.format == "two-headed-giant" else {}
        self._one_attacking_side(perms, teams)
        chosen_combat = _choosing_combat(actions)
        written_blockers: dict[str, list[str]] = {}  # attacker -> the paths of its legal written blocks
        for p, path in perms + self.entered:
            player_ref(p.controller, f"{path}.controller")
            if p.owner != p.controller:
                player_ref(p.owner, f"{path}.owner")
            ability_refs(p.abilities, path)
            self._static_context(p, path)
            if p.protector is not None and p.protector != p.controller:
                player_ref(p.protector, f"{path}.protector")
            if p.protector is not None and "siege" in {s.lower() for s in p.subtypes} \
                    and p.protector in names and same_side(p.controller, p.protector, teams):
                self.err(f"{path}.protector", "a Siege's protector is an opponent its controller chose as it entered "
                         "(CR 310.8a): name it with protector:")
            if p.chosen is not None:
                player_ref(p.chosen, f"{path}.chosen")
                anyone = any(ab.kind == AbilityKind.AS_ENTERS and ab.choice == AsEntersChoice.PLAYER for ab in p.abilities)
                if p.chosen == p.controller and not anyone:  # 614.12: "choose a player" may choose its controller
                    self.err(f"{path}.chosen", "the chosen player must be an opponent")
            for k, by in enumerate(p.dealt_damage_by):
                if by not in perm_by_id and by not in ids:
                    self.err(f"{path}.dealt_damage_by[{k}]", f"unknown id {by!r} (the objects that dealt it damage this turn)")
            if p.attached_to is not None and p.attached_to not in perm_by_id and p.attached_to not in names \
                    and self.declared.get(p.attached_to) != "permanent":  # (a broken entry is reported where it is)
                self.err(f"{path}.attached_to", f"unknown id {p.attached_to!r}")
            elif p.attached_to is not None and (p.attached_to in perm_by_id or p.attached_to in names):
                problem = _attachment_problem(p, perm_by_id.get(p.attached_to))
                if problem:
                    self.err(f"{path}.attached_to", problem)
            entering = path.startswith("actions")
            if p.attacking is not None and entering:
                self.err(f"{path}.attacking", "a permanent entering during the actions isn't attacking "
                         "(entering attacking isn't modelled; attackers are the battlefield's attacking: entries)")
            elif p.attacking is not None:
                if "creature" not in p.types:
                    self.err(f"{path}.attacking", f"{p.id!r} is not a creature and can't attack")
                elif "defender" in p.keywords:
                    self.err(f"{path}.attacking", f"{p.id!r} has defender and can't attack (CR 702.3b)")
                target = perm_by_id.get(p.attacking)
                if p.attacking in names:
                    if p.attacking == p.controller:
                        self.err(f"{path}.attacking", "a creature can't attack its own controller")
                elif target is None:
                    if self.declared.get(p.attacking) != "permanent":  # (a broken entry is reported where it is)
                        self.err(f"{path}.attacking", f"{p.attacking!r} is not a player, planeswalker or battle")
                elif "planeswalker" not in target.types and "battle" not in target.types:
                    self.err(f"{path}.attacking", f"{p.attacking!r} is not a planeswalker or battle")
                elif same_side(p.controller, target.defender, teams):
                    self.err(f"{path}.attacking", f"{p.attacking!r} is defended by {target.defender}: a creature attacks "
                             "only a planeswalker an opponent controls or a battle an opponent protects (CR 508.1b)")
            if p.choose_block:
                if "creature" not in p.types:
                    self.err(f"{path}.blocking", f"{p.id!r} is not a creature and can't block")
                elif CHOOSE in ids:
                    self.err(f"{path}.blocking", f"{CHOOSE!r} is also a permanent's id: blocking: choose would be ambiguous; "
                             "rename that permanent")
                elif same_side(p.controller, active, teams):
                    self.err(f"{path}.blocking", f"{p.controller} is the active player{' (team)' if teams else ''}, who attacks "
                             "and declares no blockers (CR 509.1)")
            if p.blocking and entering:
                self.err(f"{path}.blocking", "a creature entering during the actions blocks nothing as written (blockers "
                         "are declared at combat:); write blocking: choose to choose its block")
                continue
            if p.blocking and chosen_combat is not None:
                self.err(f"{path}.blocking", f"{chosen_combat}: combat: {{blocks: choose}} chooses every block; leave out "
                         "blocking: here, or use combat: {} with blocking: choose on the creatures whose block is chosen")
            for k, b in enumerate(p.blocking):
                q = f"{path}.blocking" + (f"[{k}]" if len(p.blocking) > 1 else "")
                if b in p.blocking[:k]:
                    self.err(q, f"{b!r} is listed twice")
                    continue
                if "creature" not in p.types:
                    self.err(q, f"{p.id!r} is not a creature and can't block")
                    break
                att = perm_by_id.get(b)
                if att is None and self.declared.get(b) == "permanent":
                    continue  # a broken entry, reported where it is
                if att is None:
                    self.err(q, f"unknown id {b!r}")
                elif att.attacking is None:
                    self.err(q, f"{b!r} is not attacking")
                elif att.controller == p.controller:
                    self.err(q, f"{p.id!r} can't block its own controller's creature")
                elif not same_side(p.controller, defending_player(att.attacking, defenders), teams):
                    self.err(q, f"{p.id!r} can block only a creature attacking {p.controller}, a planeswalker "
                             f"{p.controller} controls or a battle {p.controller} protects (CR 509.1a); {b!r} is attacking {att.attacking}")
                elif (why := evasion_problem(att.keywords, p.keywords)) is not None:
                    self.err(q, f"{p.id!r} can't block {b!r}: {why}")
                else:
                    written_blockers.setdefault(b, []).append(q)
            if p.attacking is not None and (p.blocking or p.choose_block):
                self.err(f"{path}.blocking", "a creature can't both attack and block")
        # 702.111b: one written blocker on a creature with menace, and no block left to choose
        choosing = any(p.choose_block for p, _ in perms + self.entered) or chosen_combat is not None
        if choosing:
            for where, card, line in self.block_rules:  # 509.1: the declaration must honour it
                self.err(where, f"{card}: {line!r} restricts attacks or blocks, which chosen blocks don't model; "
                                "write its blocks, or give abilities: to override")
        self._given_case(players, perms + sources + effects + self.entered + [(a, f"actions[{i}]") for i, a in enumerate(actions)])
        for b, paths in written_blockers.items():
            why = menace_problem(perm_by_id[b].keywords, len(paths))
            if why is not None and not choosing:
                self.err(paths[0], f"{b!r} is blocked by one creature: {why}; add a blocker, or write blocking: choose "
                         "on the creatures whose block is chosen")
        for s, path in sources:
            player_ref(s.controller, f"{path}.controller")
            ability_refs(s.abilities, path)
            for k, ab in enumerate(s.abilities):
                if ab.kind == AbilityKind.STATIC and not _own_damage_unpreventable(ab):
                    # read only from permanents: here it would do nothing, silently
                    self.err(f"{path}.abilities[{k}]", "a sources: entry is not on the battlefield, so its static "
                             "abilities don't apply (CR 113.6); put it in battlefield:, or the effect in effects:")
        for e, path in effects:
            player_ref(e.controller, f"{path}.controller")
            any_ref(e.source, f"{path}.source")
            any_ref(e.target, f"{path}.target", ("permanent",))
            effect_refs(e.spec, path)
            self._context(e, path)
        self._action_refs(actions, "actions", player_ref, any_ref, selector_refs, effect_refs, one_shot_refs)

    def _context(self, e: Any, path: str) -> None:
        """A created effect's selectors that read what created it (its source, target, chosen
        permanent or source) need it given: without, they would name nothing, silently."""
        spec = e.spec
        missing = {"self": e.source is None, "equipped": e.source is None, "enchanted": e.source is None,
                   "target": e.target is None, "target_controller": e.target is None, "chosen": True,
                   "chosen_source": spec.source_choice is None, "chosen_source_controller": spec.source_choice is None,
                   "second_target": True}
        why = {"self": "source:", "equipped": "source:", "enchanted": "source:", "target": "target:",
               "target_controller": "target:", "chosen": "chosen permanent (only an ability's choose: makes one)",
               "chosen_source": "source_choice:", "chosen_source_controller": "source_choice:",
               "second_target": "second target (a spell's)"}
        self._names_nothing(spec, path, missing, why)

    def _static_context(self, p: Any, path: str) -> None:
        """A permanent's static abilities have no target and no chosen source (those are a
        resolving spell's or ability's, 115.1, 609.7a), and "the chosen player" needs one chosen
        as it entered (chosen:, or an as_enters choice): else they would name nothing, silently."""
        chooses = p.chosen is not None or any(ab.kind == AbilityKind.AS_ENTERS for ab in p.abilities)
        missing = {"target": True, "target_controller": True, "second_target": True, "chosen": not chooses,
                   "chosen_source": True, "chosen_source_controller": True}
        why = {"target": "target (a static ability has none, CR 115.1)", "target_controller": "target (a static ability has none)",
               "second_target": "target (a static ability has none)", "chosen": "chosen player (give chosen:)",
               "chosen_source": "chosen source (a resolving spell's or ability's, 609.7a)",
               "chosen_source_controller": "chosen source (a resolving spell's or ability's, 609.7a)"}
        for k, ab in enumerate(p.abilities):
            if ab.kind == AbilityKind.STATIC and ab.effect is not None:
                self._names_nothing(ab.effect, f"{path}.abilities[{k}]", missing, why)

    def _names_nothing(self, spec: Any, path: str, missing: dict[str, bool], why: dict[str, str]) -> None:
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

    def _action_refs(self, actions: Any, base: str, player_ref: Any, any_ref: Any, selector_refs: Any, effect_refs: Any,
                     one_shot_refs: Any, wrapped: bool = False) -> None:
        for i, act in enumerate(actions):
            path = base if wrapped else f"{base}[{i}]"
            if isinstance(act, DamageAction):
                for j, ev in enumerate(act.events):
                    if ev.source in self.player_names and ev.source not in self.spec_by_id:
                        self.err(f"{path}.damage[{j}].from", f"{ev.source!r} is a player; the source of damage is an object (a permanent or a sources: entry)")
                    else:
                        any_ref(ev.source, f"{path}.damage[{j}].from")
                    any_ref(ev.to, f"{path}.damage[{j}].to", ("permanent",))
                    target = self.spec_by_id.get(ev.to)
                    if isinstance(target, PermanentSpec) and not set(target.types) & {"creature", "planeswalker", "battle"}:
                        self.err(f"{path}.damage[{j}].to", f"{ev.to!r} can't be dealt damage: only players, creatures, planeswalkers and battles can (CR 120.1a)")
                    if ev.excess_to is not None:
                        q = f"{path}.damage[{j}].excess_to"
                        any_ref(ev.excess_to, q, ("permanent",))
                        if ev.to in self.player_names:
                            self.err(q, "excess damage is damage beyond what is lethal for a permanent (CR 120.4a); "
                                     f"{ev.to!r} is a player")
                        elif ev.excess_to == ev.to:
                            self.err(q, "the excess damage goes to another permanent or player (CR 120.4a)")
                        elif any(o.to == ev.to and o.excess_to is not None for o in act.events[:j]):
                            self.err(q, f"two excess-damage events to {ev.to!r} in one batch are not modelled")
            elif isinstance(act, ActivateAction):
                any_ref(act.id, f"{path}.activate.id", ("permanent",))
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
                any_ref(act.target, f"{path}.activate.target", ("permanent",))
                any_ref(act.source_choice, f"{path}.activate.source")
                self._action_refs(act.responses, f"{path}.activate.responses", player_ref, any_ref, selector_refs, effect_refs,
                                  one_shot_refs)
            elif isinstance(act, CreateAction):
                if act.effect.id in self.effect_ids:
                    self.err(f"{path}.create.id", f"duplicate id {act.effect.id!r}")
                self.effect_ids.add(act.effect.id)
                player_ref(act.effect.controller, f"{path}.create.controller")
                any_ref(act.effect.source, f"{path}.create.source")
                effect_refs(act.effect.spec, f"{path}.create")
            elif isinstance(act, LifeAction):
                selector_refs(act.who, f"{path}.{'gain_life' if act.gain else 'lose_life'}.who")
                any_ref(act.source, f"{path}.{'gain_life' if act.gain else 'lose_life'}.from")
            elif isinstance(act, LeaveAction | CouldProduceAction):
                if act.id != "all" or isinstance(act, LeaveAction):
                    any_ref(act.id, f"{path}.{act.kind}", ("permanent",))
            elif isinstance(act, TapForManaAction):
                self._tap_for_mana_refs(act, path, any_ref)
            elif isinstance(act, LeaveGameAction):
                player_ref(act.player, f"{path}.leave_game")
            elif isinstance(act, OneShotAction):
                one_shot_refs(act.action, path)
            elif isinstance(act, CastAction):
                q = f"{path}.cast" + (".id" if f"{path}.cast" in self.mapping_actions else "")
                any_ref(act.id, q, ("source",))
                spec = self.spec_by_id.get(act.id)
                if isinstance(spec, SourceSpec):
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
                any_ref(act.target, f"{path}.cast.target", ("permanent",))
                any_ref(act.source_choice, f"{path}.cast.source")
                for i, t in enumerate(act.targets or ()):
                    any_ref(t, f"{path}.cast.targets[{i}]", ("permanent",))
                self._action_refs(act.responses, f"{path}.cast.responses", player_ref, any_ref, selector_refs, effect_refs,
                                  one_shot_refs)
            elif isinstance(act, MayAction):
                player_ref(act.chooser, f"{path}.by")
                self._action_refs((act.action,), f"{path}.may", player_ref, any_ref, selector_refs, effect_refs,
                                  one_shot_refs, wrapped=True)

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
    return e is not None and e.kind == EffectKind.CANT_BE_PREVENTED and e.from_ is not None and e.from_.kind == "self" \
        and e.to is None

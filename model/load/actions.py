"""The timeline's actions, each parsed into its tagged type with its path."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from ..types import (
    Action,
    ActivateAction,
    CastAction,
    CombatAction,
    CouldProduceAction,
    CreateAction,
    DamageAction,
    DamageSpec,
    EndStepAction,
    EnterAction,
    LeaveAction,
    LeaveGameAction,
    LifeAction,
    MayAction,
    OneShotAction,
    PermanentSpec,
    TapForManaAction,
)
from ..vocab import amount, mana_type, parse_one_shot, sel
from .entities import _Entities
from .schema import BIG, CHOOSE, PermanentModel, SourceModel, _describe, _pydantic_errors


class _Actions(_Entities):
    """The timeline: every action kind, nested responses and ``may:`` included."""

    def action(self, raw: Any, path: str) -> Action | None:
        if not isinstance(raw, Mapping) or not raw:
            self.err(path, "expected a mapping with one action key (damage:, combat:, activate:, ...)")
            return None
        if "may" in raw:
            return self.may_action(raw, path)
        if "deal" in raw or "set_life" in raw or "put_counters" in raw or (len(raw) > 1 and ("lose_life" in raw or "gain_life" in raw or "draw" in raw)):
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
            events = []
            for i, ev in enumerate(val):
                q = f"{p}[{i}]"
                if not isinstance(ev, Mapping):
                    self.err(q, "expected a mapping {from, to, amount}")
                    continue
                bad = set(ev) - {"from", "to", "amount", "combat", "excess_to"}
                if bad:
                    self.err(f"{q}.{sorted(map(str, bad))[0]}", "unknown key")
                    continue
                missing = [k for k in ("from", "to", "amount") if k not in ev]
                if missing:
                    self.err(q, f"missing {missing[0]}:")
                    continue
                if not isinstance(ev["from"], str) or not isinstance(ev["to"], str):
                    self.err(q, "from: and to: name a source id and a player or permanent id")
                    continue
                amt = self.guard(amount, ev["amount"], f"{q}.amount")
                combat = ev.get("combat", False)
                if not isinstance(combat, bool):
                    self.err(f"{q}.combat", "expected true or false")
                    continue
                excess = ev.get("excess_to")
                if excess is not None and not isinstance(excess, str):
                    self.err(f"{q}.excess_to", f"expected the player or permanent the excess damage is dealt to, got {_describe(excess)}")
                    continue
                if amt is not None:
                    events.append(DamageSpec(ev["from"], ev["to"], amt, combat, excess))
            return DamageAction(tuple(events)) if len(events) == len(val) else None
        if key == "combat":
            return self.combat_action(val, p)
        if key == "activate":
            if not isinstance(val, Mapping):
                self.err(p, "expected {id: <permanent>, x: N, target: <player or id>}")
                return None
            bad = set(val) - {"id", "ability", "x", "target", "source", "responses"}
            if bad:
                self.err(f"{p}.{sorted(map(str, bad))[0]}", "unknown key")
                return None
            if not isinstance(val.get("id"), str):
                self.err(f"{p}.id", "required: the id of the permanent whose ability is activated")
                return None
            x = val.get("x", 0)
            if isinstance(x, bool) or not isinstance(x, int) or x < 0 or x > BIG:
                self.err(f"{p}.x", f"x must be a whole number from 0 to {BIG}")
                return None
            ability = val.get("ability")
            if ability is not None and (isinstance(ability, bool) or not isinstance(ability, int) or ability < 0):
                self.err(f"{p}.ability", "expected the ability's index (0 is the first)")
                return None
            target = val.get("target")
            if target is not None and not isinstance(target, str):
                self.err(f"{p}.target", "expected a player name or permanent id")
                return None
            if val.get("source") is not None and not isinstance(val["source"], str):
                self.err(f"{p}.source", f"expected the id of the chosen source, got {_describe(val['source'])}")
                return None
            responses = self._responses(val, p)
            if responses is None:
                return None
            return ActivateAction(val["id"], ability, x, target, val.get("source"), responses)
        if key == "cast":
            return self.cast_action(val, p)
        if key == "create":
            eff = self.created_effect(val, p, f"created{len(self.created_ids)}")
            if eff is None:
                return None
            self.created_ids.append(eff.id)
            return CreateAction(eff)
        if key in ("lose_life", "gain_life"):
            if isinstance(val, Mapping):
                bad = set(val) - {"amount", "who", "from"}
                if bad:
                    self.err(f"{p}.{sorted(map(str, bad))[0]}", "unknown key")
                    return None
                if "amount" not in val:
                    self.err(p, "missing amount:")
                    return None
                amt = self.guard(amount, val["amount"], f"{p}.amount")
                who = self.guard(sel, val.get("who", "you"), f"{p}.who")
                src = val.get("from")
                if src is not None and not isinstance(src, str):
                    self.err(f"{p}.from", f"expected the id of the source, got {_describe(src)}")
                    return None
            else:
                self.err(p, "expected {amount: N, who: <player>}")
                return None
            if amt is None or who is None:
                return None
            return LifeAction(key == "gain_life", amt, who, src)
        if key == "enter":
            # x: the X chosen for the spell that became this permanent (CR 107.3m)
            x = val.get("x", 0) if isinstance(val, Mapping) else 0
            if isinstance(x, bool) or not isinstance(x, int) or x < 0 or x > BIG:
                self.err(f"{p}.x", f"x must be a whole number from 0 to {BIG} (the X paid for the spell)")
                return None
            pm = self.entry(PermanentModel, {k: v for k, v in val.items() if k != "x"} if isinstance(val, Mapping) else val, p)
            if pm is None:
                return None
            spec = self.permanent(pm, p)
            if spec is None:
                self.declared.setdefault(pm.id, "permanent")  # broken, reported here: not again where named
                return None
            self.entered.append((spec, p))
            return EnterAction(spec, x)
        if key == "tap_for_mana":
            return self.tap_for_mana(val, p)
        if key in ("leave", "leave_game", "could_produce"):
            if not isinstance(val, str):
                self.err(p, "expected an id" if key != "leave_game" else "expected a player name")
                return None
            return {"leave": LeaveAction, "leave_game": LeaveGameAction, "could_produce": CouldProduceAction}[key](val)
        if key == "end_step":
            if val not in ({}, None):
                self.err(p, "end_step takes no options: end_step: {}")
                return None
            return EndStepAction()
        self.err(p, f"unknown action {key!r}")
        return None

    def combat_action(self, val: Any, p: str) -> CombatAction | None:
        """``combat: {}`` (blocks as written with ``blocking:``) or ``combat: {blocks: choose}``:
        the defending players choose every block (CR 509.1)."""
        if val in ({}, None):
            return CombatAction()
        if not isinstance(val, Mapping):
            self.err(p, f"expected combat: {{}} or combat: {{blocks: choose}}, got {_describe(val)}")
            return None
        bad = set(val) - {"blocks"}
        if bad:
            self.err(f"{p}.{sorted(map(str, bad))[0]}", "unknown key (combat: takes only blocks: choose)")
            return None
        if val["blocks"] != CHOOSE:
            self.err(f"{p}.blocks", f"blocks: takes only choose (the defending players choose every block, CR 509.1), "
                     f"got {_describe(val['blocks'])}; fixed blocks are written as blocking: on the blockers")
            return None
        return CombatAction(choose_blocks=True)

    def cast_action(self, val: Any, p: str) -> CastAction | None:
        """``cast: <source id>`` or ``{id | card: <name>, controller:, target:, x:, responses:}``:
        a spell is cast and resolves (601, 608); ``card:`` makes the spell a source of its own."""
        if isinstance(val, str):
            return CastAction(val)
        if not isinstance(val, Mapping):
            self.err(p, "expected a source id or {card: <name>, controller: <player>, target: <player or id>}")
            return None
        bad = set(val) - {"id", "card", "controller", "target", "targets", "divide", "x", "responses"}
        if bad:
            self.err(f"{p}.{sorted(map(str, bad))[0]}", "unknown key")
            return None
        chosen = self._cast_targets(val, p)
        if chosen is None:
            return None
        targets, divide = chosen
        x = val.get("x", 0)
        if isinstance(x, bool) or not isinstance(x, int) or x < 0 or x > BIG:
            self.err(f"{p}.x", f"x must be a whole number from 0 to {BIG}")
            return None
        target = val.get("target")
        if target is not None and not isinstance(target, str):
            self.err(f"{p}.target", f"expected a player name or permanent id, got {_describe(target)}")
            return None
        sid = val.get("id")
        if "card" in val:
            if not isinstance(val.get("controller"), str):
                self.err(f"{p}.controller", "required with card: the player casting the spell")
                return None
            sid = sid if isinstance(sid, str) else re.sub(r"[^a-z0-9]+", "-", str(val["card"]).lower()).strip("-") or "spell"
            try:
                sm = SourceModel.model_validate({"id": sid, "card": val["card"], "controller": val["controller"]})
            except ValidationError as exc:
                for e in _pydantic_errors(exc):
                    self.err(f"{p}.{e.path}" if e.path else p, e.reason)
                return None
            spec = self.source(sm, p)
            if spec is None:
                return None
            self.cast_sources.append((spec, p))
        elif "controller" in val:
            self.err(f"{p}.controller", "controller: goes with card:; a sources: entry has its own controller")
            return None
        if not isinstance(sid, str):
            self.err(f"{p}.id", "required: the id of the sources: entry cast (or card: <name>)")
            return None
        responses = self._responses(val, p)
        if responses is None:
            return None
        if "card" not in val:
            self.mapping_actions.add(p)
        return CastAction(sid, target, x, responses, targets, divide)

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
            if len(set(raw)) != len(raw):
                dup = next(t for t in raw if raw.count(t) > 1)
                self.err(f"{p}.targets", f"{dup} is named twice: one object or player can't be chosen twice "
                         "for the same word \"target\" (115.3, 601.2c)")
                return None
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
        """``{may: <action>, by: <player>}``: any action, made optional (design.md, "Actions")."""
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
        bad = set(val) - {"id", "ability", "choose"}
        if bad:
            self.err(f"{p}.{sorted(map(str, bad))[0]}", "unknown key")
            return None
        if not isinstance(val.get("id"), str):
            self.err(f"{p}.id", "required: the id of the permanent whose mana ability is activated")
            return None
        ability = val.get("ability")
        if ability is not None and (isinstance(ability, bool) or not isinstance(ability, int) or ability < 0):
            self.err(f"{p}.ability", "expected the ability's index (0 is the first)")
            return None
        choose = self.guard(mana_type, val["choose"], f"{p}.choose") if "choose" in val else None
        if "choose" in val and choose is None:
            return None
        return TapForManaAction(val["id"], ability, choose)

    def _tap_for_mana_refs(self, act: TapForManaAction, path: str, any_ref: Any) -> None:
        q = f"{path}.tap_for_mana" + (".id" if f"{path}.tap_for_mana" in self.mapping_actions else "")
        any_ref(act.id, q, ("permanent",))
        spec = self.spec_by_id.get(act.id)
        if not isinstance(spec, PermanentSpec):
            return
        mana = [j for j, ab in enumerate(spec.abilities) if ab.kind == "mana"]
        if act.ability is not None and act.ability not in mana:
            self.err(f"{path}.tap_for_mana.ability", f"{spec.name} has no mana ability number {act.ability} (its mana abilities: {mana or 'none'})")
        elif not mana:
            self.err(q, f"{spec.name} has no mana ability")

    # ---- the whole case -------------------------------------------------------------------

"""The templates: one entry per Oracle-text template, each citing the rule it relies on.

A template is a regular expression over a whole normalised line (reminder text removed, the card
naming itself written ``~``, see :func:`model.recognise.normalise`) and a builder that returns the
abilities in the case-file vocabulary. Phrases shared by many templates (who is dealt damage, what
an activation costs, a one-shot action) are small tables in :mod:`.base`; a phrase not in them
makes the template not match, so the line is "not understood" rather than read loosely.

The templates live in one module per family (:mod:`.mana`, :mod:`.damage`, :mod:`.prevention`,
:mod:`.replacement`, ...); the first template (in the order of ``FAMILY_MODULES``) that matches a
line and whose builder accepts it reads the line.
"""

from __future__ import annotations

import re
from typing import Any

from . import IGNORED, NOT_UNDERSTOOD, UNDERSTOOD, Reading
from . import attacking as _attacking  # noqa: F401
from . import attacks as _attacks  # noqa: F401
from . import casttriggers as _casttriggers  # noqa: F401
from . import combatgrants as _combatgrants  # noqa: F401
from . import combatopp as _combatopp  # noqa: F401
from . import damage as _damage  # noqa: F401  (registers its templates)
from . import dieswatch as _dieswatch  # noqa: F401
from . import drawtriggers as _drawtriggers  # noqa: F401
from . import excess as _excess  # noqa: F401
from . import exiled as _exiled  # noqa: F401
from . import fight as _fight  # noqa: F401
from . import hidden as _hidden  # noqa: F401  (adds to the ignore tables)
from . import kicker as _kicker
from . import lifept as _lifept  # noqa: F401
from . import lifetriggers as _lifetriggers  # noqa: F401
from . import losekw as _losekw  # noqa: F401
from . import loyalty as _loyalty  # noqa: F401  (adds to the target tables)
from . import monstrous as _monstrous  # noqa: F401
from . import otherzones as _otherzones  # noqa: F401  (adds to the ignore tables)
from . import persource as _persource  # noqa: F401
from . import poison as _poison  # noqa: F401
from . import prevention as _prevention  # noqa: F401
from . import protection as _protection  # noqa: F401
from . import pt as _pt  # noqa: F401
from . import regenerate as _regenerate  # noqa: F401
from . import replacement as _replacement  # noqa: F401
from . import restrictions as _restrictions  # noqa: F401  (adds to the ignore tables)
from . import targetdeals as _targetdeals  # noqa: F401
from . import thatplayer as _thatplayer  # noqa: F401
from . import tokens as _tokens  # noqa: F401
from . import triggers as _triggers  # noqa: F401
from . import twotargets as _twotargets  # noqa: F401
from . import unless as _unless  # noqa: F401
from . import unredirect as _unredirect
from . import walkers as _walkers  # noqa: F401
from . import xspells as _xspells
from .base import TEMPLATES, Ctx, Template
from .ignores import (
    _ONCE,
    BLOCKS_AS_WRITTEN,
    ENTERING,
    ENTERING_REASON,
    ENTERING_TRIGGER,
    ENTERING_TRIGGER_REASON,
    IGNORES,
    _drop_sentences,
)
from .keywordlines import read_keywords
from .mana import basic_land_mana
from .spellcosts import spell_cost as read_spell_cost

__all__ = ["TEMPLATES", "IGNORES", "BLOCKS_AS_WRITTEN", "read_line", "Template", "FAMILY_MODULES"]

# the order in which the families' templates are tried (within a module, the order they are written)
_SORCERY = " activate only as a sorcery."
# an instant's or sorcery's additional cost paid with permanents or life (601.2b, 601.2h): the spell is
# cast during the case, so the cost is paid then; a discard, a card revealed or exiled from a
# graveyard changes nothing computed here (hands and graveyards aren't tracked) and stays ignored
_SPELL_COST_PAID = re.compile(r"additional cost to cast (?:~|this spell), (?:you may )?(?:[^.]*\b(?:or|and) )?"
                              r"(?:sacrifice|pay|tap|return|remove|put)\b", re.IGNORECASE)
_SPELL_COST_REASON = ("an additional cost of the spell paid with a permanent or life as it is cast during the case "
                      "(CR 601.2b, 601.2h): only a sacrifice, life or a land returned to its owner's hand is modelled")
_CANT_BE_COUNTERED = re.compile(r"^~ can't be countered\.$", re.IGNORECASE)
FAMILY_MODULES = ("mana", "damage", "triggers", "twotargets", "excess", "fight", "walkers", "xspells", "monstrous", "prevention", "replacement", "pt", "kicker", "tokens", "regenerate", "attacking", "combatgrants", "lifetriggers", "casttriggers", "unless", "targetdeals", "poison", "dieswatch", "thatplayer", "protection", "attacks", "drawtriggers", "lifept", "combatopp", "exiled", "losekw", "persource")
TEMPLATES.sort(key=lambda t: FAMILY_MODULES.index(t.module))

# an instant's or sorcery's opening sentences that create an effect for the turn (611.2a), before
# what else it does: Skullcrack's "Players can't gain life this turn. Damage can't be prevented
# this turn. ~ deals 3 damage to ..." (119.7, 615.12)
_TURN_EFFECTS: dict[str, dict[str, object]] = {
    "damage can't be prevented this turn.": {"cant_be_prevented": True, "duration": "turn"},
    "players can't gain life this turn.": {"cant_gain_life": "each player", "duration": "turn"},
    "your opponents can't gain life this turn.": {"cant_gain_life": "opponents", "duration": "turn"},
}
_TURN_LEAD = re.compile("^(" + "|".join(re.escape(k) for k in _TURN_EFFECTS) + ")(?: |$)", re.IGNORECASE)
# an instant's or sorcery's closing sentence on the damage it deals (Combust, Unstable Footing's
# kicker aside): its damage can't be prevented (615.12), an effect of the spell created before
# the damage is dealt; the spell deals damage once, so "this turn" is the same damage
_UNPREVENTABLE_TAIL = re.compile(r" (?:the|this) damage can't be prevented\.$", re.IGNORECASE)


def read_line(raw: str, text: str, ctx: Ctx) -> Reading:
    """What one Oracle line (``raw``; ``text`` normalised) becomes: the first matching template,
    else an ignore rule, else not understood."""
    if not text:
        if raw.strip().startswith("(") and basic_land_mana(ctx) and re.search(r"add \{", raw, re.IGNORECASE):
            return Reading(raw, UNDERSTOOD, "basic_land_mana", "CR 305.6", tuple(basic_land_mana(ctx)))
        return Reading(raw, IGNORED, reason="reminder text only (CR 207.2)")
    if _kicker.KICKER_LINE.match(text) and {"instant", "sorcery"} & set(ctx["types"]):
        # 702.33a: the spell's optional additional cost, its caster's choice as it is cast
        return Reading(raw, UNDERSTOOD, _kicker.KICKER_SPELL, "CR 702.33a, 601.2b", ({"kicker": True},))
    if _kicker.KICKER_PERMANENT.match(text) and not {"instant", "sorcery"} & set(ctx["types"]):
        return Reading(raw, IGNORED, reason=_kicker.KICKER_REASON)
    if (xm := _xspells.X_AT_LEAST.match(text)) and {"instant", "sorcery"} & set(ctx["types"]):
        return Reading(raw, UNDERSTOOD, "if_x_at_least", _xspells.X_AT_LEAST_RULE, tuple(_xspells.x_at_least(xm)))
    if _CANT_BE_COUNTERED.match(text):
        # 101.2: a spell or ability that would counter it (a ward trigger, 702.21a) doesn't
        return Reading(raw, UNDERSTOOD, "cant_be_countered", "CR 101.2, 701.6a", ({"cant_be_countered": True},))
    if {"instant", "sorcery"} & set(ctx["types"]) and _SPELL_COST_PAID.search(text):
        # 601.2b, 601.2h: a spell the case casts pays it then: a sacrifice, life or a permanent returned
        # is its cast_cost:; any other such cost would change what is computed (never ignored)
        if (paid := read_spell_cost(text)) is not None:
            return Reading(raw, UNDERSTOOD, "spell_cast_cost", "CR 601.2b, 601.2h", tuple(paid))
        return Reading(raw, NOT_UNDERSTOOD, reason=_SPELL_COST_REASON)
    kw = read_keywords(text)
    if kw is not None:
        return Reading(raw, kw.status, kw.template, kw.rule, kw.abilities, kw.keywords, kw.reason, kw.on_entering)
    core, dropped = _drop_sentences(text)
    lead: list[dict[str, object]] = []
    if {"instant", "sorcery"} & set(ctx["types"]):
        while (lm := _TURN_LEAD.match(core)) is not None:
            lead.append({"spell": dict(_TURN_EFFECTS[lm.group(1).lower()])})
            core = core[lm.end():]
        if lead and not core:
            return Reading(raw, UNDERSTOOD, "this_turn_effects", "CR 611.2a, 615.12, 119.7", tuple(lead), (),
                           "; ".join(dropped))
    tail: list[dict[str, Any]] | None = None
    if {"instant", "sorcery"} & set(ctx["types"]) and (tm := _UNPREVENTABLE_TAIL.search(core)) is not None:
        core, tail = core[:tm.start()], [{"spell": {"cant_be_prevented": True, "from": "self", "duration": "turn"}}]
    elif {"instant", "sorcery"} & set(ctx["types"]) and (tm := _unredirect.TAIL.search(core)) is not None:
        core, tail = core[:tm.start()], _unredirect.tail_effects(tm)  # (Lava Burst, 614.9)
    once = core.lower().endswith(_ONCE)
    if once:
        core = core[: -len(_ONCE)].rstrip()
    sorcery = core.lower().endswith(_SORCERY)  # "Activate only as a sorcery." (602.5d)
    if sorcery:
        core = core[: -len(_SORCERY)].rstrip()
    for t in TEMPLATES:
        m = t.pattern.match(core) if core else None
        if m is None:
            continue
        built = t.build(m, ctx)
        if built is None:
            continue
        abilities, kws = built
        if {"instant", "sorcery"} & set(ctx["types"]) and not all("spell" in ab for ab in abilities):
            continue  # an instant's or sorcery's text is its spell ability (CR 113.3a, 608.2), never static
        if tail is not None:
            if not any("deal" in ab["spell"] for ab in abilities):
                continue  # (a spell whose words say it deals damage)
            abilities = [*tail, *abilities]
        if once:
            if len(abilities) != 1 or not ("activated" in abilities[0] or "mana" in abilities[0]):
                continue  # (602.5b: an activated ability, a mana ability among them, 605.1a)
            abilities = [{**abilities[0], "once": True}]
        if sorcery:
            if len(abilities) != 1 or "activated" not in abilities[0]:
                continue  # (602.5d: an activated ability's timing)
            abilities = [{**abilities[0], "timing": "sorcery"}]
        return Reading(raw, UNDERSTOOD, t.name, t.rule, (*lead, *abilities), tuple(kws), "; ".join(dropped))
    for pattern, reason in IGNORES:
        if pattern.match(text):
            return Reading(raw, IGNORED, reason=reason)
    if ENTERING.match(text):
        return Reading(raw, IGNORED, reason=ENTERING_REASON, on_entering=True)
    if _kicker.KICKED_ENTERING.match(text) and not {"instant", "sorcery"} & set(ctx["types"]):
        return Reading(raw, IGNORED, reason=_kicker.KICKED_ENTERING_REASON, on_entering=True)
    if ENTERING_TRIGGER.match(text):
        return Reading(raw, IGNORED, reason=ENTERING_TRIGGER_REASON, on_entering=True)
    return Reading(raw, NOT_UNDERSTOOD)


"""Modal spells: "Choose one —" and its bullet lines, read together (CR 700.2).

A modal spell's text is a line saying how many modes are chosen ("Choose one —", "Choose two —",
"Choose one or both —", "Choose one or more —") and one line per mode, each starting "•". The
header becomes the spell's ``{modes: N}`` (or ``{modes: {min: 1, max: 2}}``) ability; each bullet
is read as an instant's or sorcery's text (the same templates) and its ``spell:`` parts get
``mode: k`` (the k-th bullet). The caster chooses the modes as the spell is cast (700.2a, 601.2b),
each at most once (700.2d); the chosen modes' instructions are followed in the order printed (608.2c).

Every bullet must be understood, or none of the lines is: a mode left out would silently remove a
choice. Each mode may have a target of its own (a target per chosen mode, 601.2c); a mode with
several targets (``targets:``, or two targeted parts) isn't read.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from . import IGNORED, NOT_UNDERSTOOD, UNDERSTOOD, Reading
from .base import WORDS, Ctx

__all__ = ["MODAL_HEADER", "ENTWINE", "ESCALATE", "read_modal", "read_escalate", "read_modal_trigger"]

MODAL_HEADER = re.compile(r"^choose (?P<n>one|two|three) —$|^choose one or (?P<more>both|more) —$"
                          r"|^choose (?P<rep>two|three|four|five)\. you may choose the same mode more than once\.$", re.IGNORECASE)
BULLET = "•"
# a flavor word naming a mode ("• Cure Wounds — You gain 3 life."): no rules meaning (CR 207.2d)
_FLAVOR = re.compile(r"^[A-Z][A-Za-z' ,-]{0,40} — (?=\S)")
RULE = "CR 700.2a, 700.2d, 601.2b, 608.2c"


# "Entwine {2}" after the bullets (702.42a): all the modes may be chosen instead, paying the cost
ENTWINE = re.compile(r"^entwine (?:\{[^}]+\})+$", re.IGNORECASE)
ENTWINE_RULE = "CR 702.42a, 702.42b"
# "Escalate {1}" (702.120a): an additional mana cost per mode beyond the first; casting costs aren't
# tracked, so it changes nothing computed here (a cost that isn't mana, "Escalate—Discard a card",
# isn't read: whether it can be paid isn't known)
ESCALATE = re.compile(r"^escalate (?:\{[^}]+\})+$", re.IGNORECASE)
ESCALATE_REASON = ("an additional mana cost for each mode beyond the first: casting costs aren't modelled, "
                   "mana spent isn't tracked (CR 702.120a, 601.2f)")


def read_escalate(raw: str) -> Reading:
    """An "Escalate {N}" line of a modal spell: ignored, with the reason (its modes are read with
    the header)."""
    return Reading(raw, IGNORED, reason=ESCALATE_REASON)


def read_modal(header: str, bullets: list[tuple[str, str]], ctx: Ctx,
               read_line: Callable[[str, str, Ctx], Reading], entwine: str | None = None) -> list[Reading]:
    """The readings of a modal spell's header line and its bullets (``(raw, normalised)`` each),
    and of its "Entwine" line after them (``entwine``, raw): all understood, or all not understood."""
    m = MODAL_HEADER.match(header)
    assert m is not None
    n = len(bullets)
    repeat = m.group("rep") is not None  # 700.2d: a mode may be chosen more than once
    if m.group("n") or repeat:
        lo = hi = WORDS[(m.group("n") or m.group("rep")).lower()]
    else:
        lo, hi = 1, 2 if m.group("more").lower() == "both" else n
    failed = [Reading(header, NOT_UNDERSTOOD)] + [Reading(raw, NOT_UNDERSTOOD) for raw, _ in bullets] + \
        ([Reading(entwine, NOT_UNDERSTOOD)] if entwine is not None else [])
    if not {"instant", "sorcery"} & set(ctx["types"]) or n < 2 or (hi > n and not repeat) or (m.group("more") == "both" and n != 2):
        return failed
    out: list[Reading] = []
    for k, (raw, text) in enumerate(bullets, start=1):
        body = _FLAVOR.sub("", text[len(BULLET):].strip())
        r = read_line(raw, body, ctx)
        if r.status != UNDERSTOOD or not r.abilities or any("spell" not in ab or "targets" in ab for ab in r.abilities) \
                or sum("target" in ab for ab in r.abilities) > 1 \
                or (any("second_target" in ab for ab in r.abilities) and (hi > 1 or entwine is not None or repeat)):
            return failed  # (a mode with two targets: modelled when it is the one mode chosen)
        out.append(Reading(raw, UNDERSTOOD, f"modal_spell:{r.template}", f"{RULE}; {r.rule}",
                           tuple({**ab, "mode": k} for ab in r.abilities), r.keywords, r.reason))
    modes: object = lo if lo == hi else {"min": lo, "max": hi}
    if entwine is not None:
        if hi >= n:
            return failed  # (entwine on a spell that may already choose every mode: not a card's)
        return [Reading(header, UNDERSTOOD, "modal_spell", f"{RULE}, {ENTWINE_RULE}", ({"modes": modes, "entwine": True},))] + out + \
            [Reading(entwine, UNDERSTOOD, "entwine", ENTWINE_RULE)]  # (its meaning is the header's entwine: true)
    if repeat:
        return [Reading(header, UNDERSTOOD, "modal_spell", RULE, ({"modes": modes, "repeat": True},))] + out
    return [Reading(header, UNDERSTOOD, "modal_spell", RULE, ({"modes": modes},))] + out


# "When ~ enters, choose one —" and its bullets: a modal triggered ability (700.2b, 603.3c)
TRIGGER_HEADER = re.compile(r"^(?P<prefix>(?:when|whenever|at) [^—]+?), choose one —$", re.IGNORECASE)
TRIGGER_RULE = "CR 700.2b, 603.3c, 608.2c"


def read_modal_trigger(header: str, text: str, bullets: list[tuple[str, str]], ctx: Ctx,
                       read_line: Callable[[str, str, Ctx], Reading]) -> list[Reading]:
    """The readings of a modal trigger's header line (``text`` normalised) and its bullets: each
    bullet is read as the trigger with that instruction ("When ~ enters, you gain 2 life."), and
    must give one trigger of the same event; the header gets ``{trigger: ..., choose_one: [{do:
    ..., target: ...}, ...]}``. All understood, or all not understood."""
    m = TRIGGER_HEADER.match(text)
    assert m is not None
    failed = [Reading(header, NOT_UNDERSTOOD)] + [Reading(raw, NOT_UNDERSTOOD) for raw, _ in bullets]
    if len(bullets) < 2:
        return failed
    base: dict[str, object] | None = None
    modes: list[dict[str, object]] = []
    out: list[Reading] = []
    for raw, body_text in bullets:
        body = _FLAVOR.sub("", body_text[len(BULLET):].strip())
        r = read_line(raw, f"{m.group('prefix')}, {body}", ctx)
        if r.status != UNDERSTOOD or len(r.abilities) != 1 or r.keywords or "trigger" not in r.abilities[0]:
            return failed
        ab = dict(r.abilities[0])
        mode = {key: ab.pop(key) for key in ("do", "target") if key in ab}
        if base is None:
            base = ab
        elif ab != base:
            return failed  # (every mode is the same trigger)
        modes.append(mode)
        out.append(Reading(raw, UNDERSTOOD, f"modal_trigger_mode:{r.template}", f"{TRIGGER_RULE}; {r.rule}",
                           (), (), r.reason))
    assert base is not None
    return [Reading(header, UNDERSTOOD, "modal_trigger", TRIGGER_RULE, ({**base, "choose_one": modes},))] + out

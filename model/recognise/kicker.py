"""Kicker (CR 702.33): "Kicker {2}{R}" and the instructions that depend on it ("If this spell was
kicked, it deals 5 damage instead.").

Kicker is an optional additional cost its caster chooses to pay as the spell is cast (702.33a,
601.2b). On an instant or sorcery the keyword is the spell's ``{kicker: true}`` ability (the caster
chooses, :func:`solver.activation.cast`) and each ``spell:`` part may say ``if_kicked: true`` (done
only if kicked) or ``false`` (only if not: the part a kicked instruction replaces, "... instead").
On a permanent what kicking did, it did as the permanent entered (702.33d: "if it was kicked" on
an enters trigger or an "enters with" replacement): for one already on the battlefield that is
over (its counters are given), and for one entering during the case it isn't modelled.
"""

from __future__ import annotations

import re
from typing import Any

from .base import Built, Ctx, template
from .damage import action_parts
from .pt import pt_sentence

__all__ = ["KICKER_LINE", "KICKER_SPELL", "KICKER_REASON", "KICKED_ENTERING", "KICKED_ENTERING_REASON"]

RULE = "CR 702.33a, 702.33d, 601.2b"
# "Kicker {2}{R}" (one mana kicker; "Kicker—Sacrifice a land", two kickers and multikicker aren't read)
KICKER_LINE = re.compile(r"^kicker (?:\{[0-9WUBRGCX]\})+$", re.IGNORECASE)
# on a permanent, any kicker: a cost to cast it, paid before the case began
KICKER_PERMANENT = re.compile(r"^(?:multi)?kicker(?: |—)[^.]*\.?$", re.IGNORECASE)
KICKER_SPELL = "kicker"
KICKER_REASON = ("a cost to cast it, paid or not before the case began: what kicking it did, it did as it entered "
                 "(CR 702.33a, 702.33d)")
# what a kicked permanent does as it enters: over for one on the battlefield, not modelled as it enters
KICKED_ENTERING = re.compile(
    r"^(?:if ~ was kicked(?: with its (?:\{[^}]+\})+ kicker)?, it enters with (?:a|an|one|two|three|four|five|\d+) "
    r"[+-]1/[+-]1 counters? on it\.|~ enters with an? [+-]1/[+-]1 counter on it for each time (?:it|~) was kicked\.|"
    r"when ~ enters, if (?:it|~) was kicked(?: twice| with its (?:\{[^}]+\})+ kicker)?, [^:]+\.)$", re.IGNORECASE)
KICKED_ENTERING_REASON = ("it is already on the battlefield, so what it did as it entered kicked is over (its counters are "
                          "given); whether a permanent entering during the case was kicked isn't modelled (CR 702.33d, 603.6a, 614.1c)")

_SENTENCE = re.compile(r"(?<=\.) (?=[A-Z~])")


def _parts(text: str) -> list[tuple[dict[str, Any], Any]] | None:
    """The instructions of a spell's sentences (one action, several, or an effect for the turn)."""
    out: list[tuple[dict[str, Any], Any]] = []
    for sentence in _SENTENCE.split(text.strip()):
        got = pt_sentence(sentence)
        if got is not None and got[0].get("to") == "self":
            return None  # a spell's "it gets +2/+2" is about its target, not the spell itself (not read here)
        more = [got] if got is not None else action_parts(sentence)
        if more is None:
            return None
        out.extend(more)
    return out


def _spell(parts: list[tuple[dict[str, Any], Any]], kicked: bool | None) -> list[dict[str, Any]]:
    out = []
    for action, req in parts:
        ab: dict[str, Any] = {"spell": action}
        if req is not None:
            ab["target"] = req
        if kicked is not None:
            ab["if_kicked"] = kicked
        out.append(ab)
    return out


@template("spell_kicked", r"(?P<base>[^:]+?\.) if (?:~|it) was kicked, (?P<kicked>[^:]+)\.", RULE + ", 608.2c")
def _kicked(m: re.Match[str], ctx: Ctx) -> Built | None:
    """An instant's or sorcery's instructions and what kicking it changes (702.33d): "~ deals 2
    damage to any target. If this spell was kicked, it deals 5 damage instead." (the kicked
    amount replaces the other: ``if_kicked: false`` / ``true``), "... If it was kicked, it deals 5
    damage to each creature instead." (a whole instruction instead), "... If this spell was
    kicked, you gain 3 life." (done only if kicked). One target at most either way."""
    if not {"instant", "sorcery"} & set(ctx["types"]):
        return None
    base = _parts(m.group("base"))
    if base is None:
        return None
    kicked_text = m.group("kicked").strip()
    instead = kicked_text.lower().endswith(" instead") or kicked_text.lower().startswith("instead ")
    kicked_text = re.sub(r"^instead |,? instead$", "", kicked_text, flags=re.IGNORECASE)
    amount = re.fullmatch(r"(?:~|it) deals (\d+) damage", kicked_text, re.IGNORECASE)
    if amount is not None and instead:
        # "it deals 5 damage instead": the spell's one deal, with the kicked amount
        deals = [i for i, (a, _) in enumerate(base) if "deal" in a]
        if len(deals) != 1:
            return None
        i = deals[0]
        kicked_parts = list(base)
        kicked_parts[i] = ({**base[i][0], "deal": int(amount.group(1))}, base[i][1])
        out = _spell(base[:i], None) + _spell([base[i]], False) + _spell([kicked_parts[i]], True) + _spell(base[i + 1:], None)
    else:
        extra = _parts(kicked_text + ".")
        if extra is None:
            return None
        out = _spell(base, False) + _spell(extra, True) if instead else _spell(base, None) + _spell(extra, True)
    for kicked in (False, True):
        if sum("target" in ab for ab in out if ab.get("if_kicked", kicked) == kicked) > 1:
            return None  # several targets aren't modelled
    return out, []

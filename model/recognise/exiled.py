"""Loyalty abilities that act outside the battlefield (CR 606; model.vocab.exiled): "[+1]: Add
{R}{R}." (mana into its controller's pool, 106.4; a loyalty ability is never a mana ability,
605.1a) and "[+1]: Exile the top card of your library. You may cast that card. If you don't, ~
deals 2 damage to each opponent." (Chandra, Torch of Defiance; the library isn't tracked: whether
the card is cast is the case's to say, ``cast_exiled:``)."""

from __future__ import annotations

import re

from .base import Built, Ctx, recipient, spell_or_activated, template

_LOYALTY = r"(?P<cost>\[[+−-]?\d+\])"


@template("loyalty_add_mana", rf"{_LOYALTY}: add (?P<mana>(?:\{{[wubrgc]\}})+)\.", "CR 606.4, 605.1a, 106.4")
def _add_mana(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"[+1]: Add {R}{R}." (Chandra, Torch of Defiance)."""
    symbols = re.findall(r"\{([wubrgc])\}", m.group("mana").lower())
    return spell_or_activated(ctx, m.group("cost"), {"add_mana": [s.upper() for s in symbols]}, None, spell=False)


@template("exile_top_may_cast_or_deal", rf"{_LOYALTY}: exile the top card of your library\. you may cast that card\. "
          r"if you don't, ~ deals (?P<n>\d+) damage to (?P<to>each opponent|each player|target player|any target)\.",
          "CR 606.4, 608.2g, 601.2, 120.1")
def _exile_top(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"[+1]: Exile the top card of your library. You may cast that card. If you don't, ~ deals 2
    damage to each opponent." (Chandra, Torch of Defiance)."""
    rec = recipient(m.group("to").lower())
    if rec is None:
        return None
    to, req = rec
    return spell_or_activated(ctx, m.group("cost"), {"deal": int(m.group("n")), "to": to, "if_exiled_not_cast": True},
                              req, spell=False)


@template("emblem_trigger", r"(?P<cost>[^:]+): you get an emblem with \"(?P<inner>[^\"]+)\"", "CR 114.1, 114.4, 113.6p, 603.2")
def _emblem_trigger(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"[−7]: You get an emblem with "Whenever you cast a spell, this emblem deals 5 damage to any
    target."" (Chandra, Torch of Defiance): an emblem in the command zone (114.1) whose triggered
    ability works from there (114.4, 113.6p) for the rest of the game; the emblem is the source of
    its damage (it has no colour, 114.3)."""
    from . import UNDERSTOOD, read_text  # (the quoted text is a line of the emblem's own)

    text = re.sub(r"\bthis emblem\b", "~", m.group("inner"), flags=re.IGNORECASE)
    inner = read_text(text, "emblem", ["enchantment"])
    if len(inner.lines) != 1 or inner.lines[0].status != UNDERSTOOD or len(inner.lines[0].abilities) != 1:
        return None
    ab = inner.lines[0].abilities[0]
    if not isinstance(ab, dict) or "trigger" not in ab:
        return None
    return spell_or_activated(ctx, m.group("cost"), {"emblem": dict(ab)}, None, spell=False)

"""Keyword abilities (CR 702) a case file may name, and which of them this tool gives an effect.

A keyword is an ability (702.1): ``keywords: [lifelink]`` and ``abilities: [lifelink]`` say the same.
``EFFECTIVE`` are the keywords the solver reads (each with where); ``NO_EFFECT`` are accepted, since
cards have them, but nothing in this tool reads them: ``validate`` warns when a case file names one
(unless a selector's ``without:`` reads it, e.g. Earthquake's "each creature without flying").
Which blocks flying, reach and menace allow is decided in :mod:`model.blocks`.
"""

from __future__ import annotations

__all__ = ["EFFECTIVE", "NO_EFFECT", "KEYWORDS", "known_keywords_text"]

EFFECTIVE: dict[str, str] = {
    "changeling": "702.73a: every creature type (a selector's subtypes read it)",
    "deathtouch": "702.2: any damage is lethal",
    "defender": "702.3b: can't attack (an attacking: is an error)",
    "double strike": "702.4: two combat damage steps",
    "first strike": "702.7: the first combat damage step",
    "flying": "702.9b: blocked only by creatures with flying or reach",
    "haste": "702.10: {T}/{Q} abilities despite summoning sickness (302.6)",
    "hexproof": "702.11: can't be the target of opponents' abilities",
    "indestructible": "702.12: not destroyed by lethal damage",
    "lifelink": "702.15: its controller gains the damage dealt",
    "menace": "702.111b: blocked only by two or more creatures",
    "reach": "702.17b: can block creatures with flying",
    "shroud": "702.18: can't be targeted",
    "toxic": "702.164: poison counters with combat damage to a player (toxic N)",
    "trample": "702.19: excess combat damage to the player",
    "trample over planeswalkers": "702.19c: excess past a planeswalker's loyalty to its controller",
    "wither": "702.80: -1/-1 counters instead of damage to creatures",
    "infect": "702.90: poison counters and -1/-1 counters instead of damage",
}
NO_EFFECT: dict[str, str] = {
    "flash": "when spells are cast isn't modelled (CR 702.8)",
    "vigilance": "attacking doesn't tap creatures in this tool (CR 702.20)",
}
KEYWORDS: tuple[str, ...] = tuple(sorted(EFFECTIVE)) + tuple(sorted(NO_EFFECT))


def known_keywords_text() -> str:
    """The list an unknown-keyword error gives: what the tool uses, then what it accepts without effect."""
    used = ", ".join("toxic N" if k == "toxic" else k for k in sorted(EFFECTIVE))
    return f"known keywords: {used}; accepted without effect: {', '.join(sorted(NO_EFFECT))}"


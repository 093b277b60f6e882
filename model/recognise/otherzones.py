"""Abilities that work only from a hand or a graveyard (CR 113.6: an ability functions only on the
battlefield unless it says, or its cost shows, where else it works): a case's permanents are on the
battlefield, where these can't be activated, and a case's hands and graveyards aren't tracked.
Ignored with the reason (naming one in ``activate:`` is an error: the card has no such ability);
registered into :mod:`.keywordlines`' and :mod:`.ignores`' tables as this module is imported."""

from __future__ import annotations

import re

from .ignores import IGNORES
from .keywordlines import _COSTED_IGNORED

_GRAVEYARD = "graveyards aren't tracked, and a case's permanent can't activate it"
_COSTED_IGNORED.update({
    "embalm": f"keyword without effect here: an ability of a card in a graveyard (CR 702.128a); {_GRAVEYARD}",
    "eternalize": f"keyword without effect here: an ability of a card in a graveyard (CR 702.129a); {_GRAVEYARD}",
    "scavenge": f"keyword without effect here: an ability of a card in a graveyard (CR 702.97a); {_GRAVEYARD}",
    "disturb": "keyword without effect here: casting the card transformed from a graveyard (CR 702.146a); graveyards "
               "aren't tracked, and its back face is a card face of its own",
})

# "Channel — {1}{R}, Discard ~: ...", "Bloodrush — {R}{G}, Discard ~: ...", "Forecast — ..., Reveal ~
# from your hand: ...": the cost discards or reveals the card itself from a hand (ability words,
# 207.2c, name no rule of their own)
_FROM_HAND = re.compile(r"^(?:[a-z]+ — )?[^:\"]*\b(?:discard ~|reveal ~ from your hand)[^:\"]*: [^\"]+$", re.IGNORECASE)
IGNORES.append((_FROM_HAND, "an ability of a card in a hand: its cost discards or reveals the card itself (CR 113.6); hands "
                            "aren't tracked, and a case's permanent can't activate it"))

# "{1}{B}: Return ~ from your graveyard to your hand." / "Sacrifice a Food: Return ~ from your graveyard
# to the battlefield.": an activated ability of a card in a graveyard (113.6); the case's permanent
# can't activate it (naming it is an error), and graveyards aren't tracked
_FROM_GRAVEYARD = re.compile(r"^(?:[a-z]+ — )?[^:\"]+: return ~ from your graveyard to (?:your hand|the battlefield(?: tapped)?)\."
                             r"(?: activate only [^.\"]+\.)?$", re.IGNORECASE)
IGNORES.append((_FROM_GRAVEYARD, f"an activated ability of a card in a graveyard (CR 113.6); {_GRAVEYARD}"))
# a trigger of a card in a graveyard that only returns it to its owner's hand (113.6; 404, 402: neither
# zone is tracked); one that returns it to the battlefield is not ignored (a permanent entering)
_GRAVEYARD_TO_HAND = re.compile(r"^(?:[a-z]+ — )?(?:when|whenever|at) [^,\"]+, (?:you may pay (?:\{[^}]+\})+\. if you do, )?"
                                r"(?:you may )?return ~ from your graveyard to your hand\.$", re.IGNORECASE)
IGNORES.append((_GRAVEYARD_TO_HAND, "a trigger of a card in a graveyard that only returns it to its owner's hand (CR 113.6): "
                                    "hands and graveyards aren't tracked"))

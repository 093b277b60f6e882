"""Effects on hidden zones and on graveyards inside spells and triggers, and cost keywords of
casting, that can't change a damage answer (CR 400.2, 401, 402, 404; 118.9, 601.2b): the tool
tracks no library, hand or graveyard (cards drawn are counted), and a spell cast with an
alternative cost is the same spell. Registered into :mod:`.ignores`' tables as this module is
imported (model.recognise.templates imports it).

Only what provably changes nothing is here: a sentence with a target is dropped from a longer
line only where none of the line's other effects could go on without it (a spell whose other
targets all became illegal is countered on resolution, 608.2b, whether it had a graveyard target
or not, only when nothing else in it is untargeted); searches, discards and regrowths without a
target are dropped anywhere; a triggered ability whose only effect is on hidden zones is ignored
whole (nothing it does is computed). Never a counter, a life change or a permanent that leaves.
"""

from __future__ import annotations

import re

from .ignores import DROPPABLE, IGNORES

_NUM = r"(?:a|an|one|two|three|four|five|x|\d+|up to (?:one|two|three|x|\d+))"
_CARD = rf"{_NUM} (?:[a-z ,'-]+? )?cards?(?: with [^.]+?| named [^.]+?)?"
_IT = r"(?:it|them|that card|those cards|the card|the cards)"
# a search of a library whose cards go to a hand or the top of a library (701.23; 401.2, 402.3)
_SEARCH = (rf"search your library for {_CARD}, (?:reveal {_IT}, )?(?:put {_IT} into your hand|put {_IT} into your graveyard)"
           rf"(?:,)? (?:then|and) shuffle")
# a discard (701.9a) by players named without a target
_DISCARD = r"(?:each player|each opponent|you|that player) discards? (?:a card|two cards|three cards|a card at random|x cards|their hand|your hand)"
# a card returned from a graveyard to a hand, without a target (404, 402)
_REGROWTH = rf"(?:you may )?return {_CARD} from your graveyard to your hand"
# milling without a target (701.17a), and shuffling a graveyard away
_MILL = r"(?:each player|each opponent|you) mills? (?:a card|two cards|three cards|four cards|five cards|\d+ cards|x cards)"
_SHUFFLE = r"(?:each player shuffles their|shuffle your) (?:hand and )?graveyard into (?:their|your) library"
_UNTARGETED = rf"(?:{_SEARCH}|{_DISCARD}|{_REGROWTH}|{_MILL}|{_SHUFFLE})"

_REASON = ("libraries, hands and graveyards aren't tracked (cards drawn are counted): a search, discard, return to a hand "
           "or mill changes nothing computed here (CR 401, 402, 404, 701.9, 701.17, 701.23)")

# targeted versions, ignored only as a triggered ability's whole effect (nothing else it does)
_TARGETED = (rf"(?:return target {_CARD[len(_NUM) + 1:]} from your graveyard to your hand|"
             r"return up to (?:one|two|three) target [a-z ,'-]*?cards? from your graveyard to your hand|"
             r"target (?:player|opponent) (?:discards (?:a card|two cards|three cards)|mills (?:a card|two cards|three cards|\d+ cards))|"
             r"exile target card from a graveyard|exile (?:target player's|each opponent's) graveyard|"
             r"exile up to (?:one|two|three) target cards? from (?:a single graveyard|graveyards))")

_TRIGGER_ONLY = re.compile(rf"^(?:when|whenever|at) [^,.]+, (?:{_UNTARGETED}|{_TARGETED})\.$", re.IGNORECASE)

DROPPABLE.append((re.compile(rf"^{_UNTARGETED}\.$", re.IGNORECASE), _REASON))
IGNORES.append((_TRIGGER_ONLY, "a triggered ability whose only effect is on libraries, hands or graveyards: " + _REASON))

"""Text that can't matter here (ignored whole, or dropped from a longer line) and text about entering."""

from __future__ import annotations

import re

# --- what happens as a permanent enters ------------------------------------------------------------

# what happens as a permanent enters: nothing to a permanent already on the battlefield (its state
# is given: tapped:, counters:), not modelled for one entering during the actions (CR 614.1c, 614.12)
ENTERING = re.compile(r"^(?:~ enters (?:the battlefield )?tapped(?: unless [^.]+)?\.(?: as it enters, choose a colou?r(?: other than [a-z]+)?\.)?|as ~ enters(?: the battlefield)?, (?:you may )?(?:secretly )?(?:choose|reveal|pay|name) [^.]+\.(?: if you don't, (?:~|it) enters tapped\.)?"
                      r"|if you control (?:two|three) or more other lands, ~ enters tapped\.)$", re.IGNORECASE)
# triggers on its own entering that only move lands or sacrifice it (karoo lands, the Lairs, "sacrifice
# it unless you pay {1}"): done before the case for a permanent already on the battlefield
ENTERING_TRIGGER = re.compile(r"^when ~ enters, (?:return a land you control to its owner's hand|attach it to target creature you control|"
                              r"sacrifice it unless you (?:pay \{[^}]+\}|return an? (?:untapped )?(?:non-lair )?land you control to its owner's hand))\.$",
                              re.IGNORECASE)
ENTERING_REASON = "it is already on the battlefield (tapped: and counters: give its state); not modelled as it enters (CR 614.1c, 614.12)"
ENTERING_TRIGGER_REASON = ("it is already on the battlefield, so this trigger on its entering is over (the case's battlefield "
                           "is as written); not modelled as it enters (CR 603.6a)")


# --- text that can't matter -----------------------------------------------------------------------

# lines both ignored whole and dropped from a longer line (no effect on anything computed here)
_SCRY = (re.compile(r"^(?:when ~ enters, )?(?:you may )?(?:scry|surveil|mill) (?:\d+|x|a card|two cards|three cards|four cards)\.$",
                    re.IGNORECASE),
         "libraries and graveyards' contents aren't tracked (scry, surveil, mill: CR 701.22, 701.25, 701.17)")
# an activated ability whose only effect is to scry: nothing it does is computed (and a case can't
# activate an ignored ability: naming it is an error)
_SCRY_ABILITY = (re.compile(r"^[^:\"]+: (?:scry|surveil|mill) (?:\d+|x|a card|two cards|three cards)\.$", re.IGNORECASE),
                 "an ability that only looks at the library: library order isn't tracked (CR 701.22, 701.25)")
# an ability that searches the library for a land (a fetch): libraries aren't tracked, and a case
# can't activate an ignored ability (naming it is an error)
_SEARCH_ABILITY = (re.compile(r"^[^:\"]*sacrifice ~[^:\"]*: search your library for an? (?:basic land|land) card, (?:put it onto the "
                              r"battlefield tapped|reveal it, put it into your hand), then shuffle\.$", re.IGNORECASE),
                   "an ability that searches the library: libraries aren't tracked, and a case can't activate it (CR 701.23)")
# a tutor to the top of the library, dropped from a longer line: what the library holds isn't tracked
_TUTOR_TOP = (re.compile(r"^search your library for a card, then shuffle and put that card on top\.$", re.IGNORECASE),
              "libraries aren't tracked: which card is on top changes nothing computed here (CR 701.23, 701.24)")
# a delayed trigger of the next turn (603.7): the case is one turn and ends before it
_NEXT_TURN = (re.compile(r"^(?:draw a card at the beginning of the next turn's upkeep|(?:it|that creature|that permanent|that land) "
                         r"doesn't untap during its controller's next untap step|~ doesn't untap during your next untap step)\.$",
                         re.IGNORECASE),
              "it happens in the next turn (its untap step or upkeep), after the case (a case is one turn; CR 502.3, 603.7)")
# an alternative cost of mana or of cards from a hand (118.9): mana spent and hands aren't tracked,
# the spell cast either way is the same; one of life, a sacrifice or another player's gain is not
# ignored (it changes what is computed)
_ALT_COST = (re.compile(r"^(?:if [^,.]+, )?you may (?:pay (?:\{[^}]+\})+|exile (?:a|an|one|two|three) [a-z ]*?cards?"
                        r"(?: with mana value x)? from your hand|discard (?:a|an) [a-z]+ card) rather than pay ~'s mana cost\.$",
                        re.IGNORECASE),
            "an alternative cost of mana or of cards in hand: mana spent and hands aren't tracked, the spell is the same (CR 118.9)")
_CAST_COST = (re.compile(r"^as an additional cost to cast ~, (?:sacrifice|discard|pay|exile|tap|reveal|return) [^.]+\.$",
                         re.IGNORECASE),
              "a cost to cast it: a permanent's was paid before the case (its battlefield as written); a spell's discard "
              "or card from a graveyard changes nothing computed here (hands and graveyards aren't tracked) (CR 601.2b)")

# a restriction on attacks or blocks: nothing to compute while blocks are written as they were
# declared, but a case that lets blocks be chosen (509.1) must not drop it (model.load refuses it)
BLOCKS_AS_WRITTEN = "attacks and blocks are taken from attacking:/blocking: as written (CR 508, 509)"

# hands aren't tracked (cards drawn are counted, what is in a hand isn't): a discard changes nothing
# computed here, and nothing the tool reads depends on a hand's contents (CR 701.9)
_HAND = "hands aren't tracked: a discard changes nothing computed here (CR 701.9)"
_DISCARDS = r"discards? (?:a card|two cards|three cards|that many cards|a card at random)"
# a triggered ability whose only instruction is a discard
_DISCARD_TRIGGER = (re.compile(rf"^(?:when|whenever|at) [^,.]+, (?:target opponent|target player|each opponent|each player|"
                               rf"that player) {_DISCARDS}\.$", re.IGNORECASE), "a trigger that only makes a player discard: " + _HAND)

IGNORES: list[tuple[re.Pattern[str], str]] = [
    _DISCARD_TRIGGER,
    (re.compile(r"^~ can't block\.$|^~ can't be blocked\.$|^~ can block only creatures with flying\.$|"
                r"^~ can't be blocked except by [^.]+\.$|^~ attacks each (combat|turn) if able\.$|"
                r"^~ can block an additional creature each combat\.$", re.IGNORECASE),
     BLOCKS_AS_WRITTEN),
    (re.compile(r"^(?:~|this spell) costs \{\d+\} (less|more) to cast[^.]*\.$|"
                r"^each spell a player casts costs \{\d+\} more to cast for each other spell that player has cast this turn\.$", re.IGNORECASE),
     "casting costs aren't modelled: mana spent isn't tracked (CR 601.2f)"),
    _SCRY,
    _SCRY_ABILITY,
    _NEXT_TURN,
    _CAST_COST,
    _ALT_COST,
    _SEARCH_ABILITY,
    # no action of a case is an untap step: the case's turn is past it (502.3), the next is after the case
    (re.compile(r"^(?:~ doesn't untap during your untap step|you may choose not to untap ~ during your untap step)\.$", re.IGNORECASE),
     "a case has no untap step: its turn is past it and the next one is after the case (CR 502.3); tapped: gives the state"),
    (re.compile(r"^if ~ is in your opening hand, you may begin the game with it on the battlefield\.$", re.IGNORECASE),
     "the case starts with the battlefield as written (CR 103.6)"),
    (re.compile(r"^you have no maximum hand size\.$", re.IGNORECASE),
     "hands aren't tracked: the cleanup step's discard to hand size comes after the case's turn (CR 402.2, 514.1)"),
]


# "Activate only once each turn." (CR 602.5b): the vocabulary's once: true (a case is one turn)
_ONCE = " activate only once each turn."
# sentences that can't change anything this tool computes, dropped from a line before matching
DROPPABLE: list[tuple[re.Pattern[str], str]] = [
    _SCRY,
    _CAST_COST,
    _NEXT_TURN,
    _TUTOR_TOP,
    (re.compile(r"^if you do, discard (?:a card|two cards)\.$", re.IGNORECASE), _HAND),
    (re.compile(r"^spend this mana only (?:to cast|on) [^.]+\.$", re.IGNORECASE),
     "a restriction on spending the mana: spending isn't modelled, the mana is produced all the same (CR 106.6)"),
]


# "Draw a card, then discard a card." (a looter): the discard after the draw is dropped (_HAND)
_THEN_DISCARD = re.compile(r"\bdraw (?:a card|two cards|three cards)(?P<drop>, then discard (?:a card|two cards))(?=\.)", re.IGNORECASE)


# "Surveil 2, then draw two cards." (a scry or surveil before a draw): the look at the library is dropped
_LOOK_THEN_DRAW = re.compile(r"^(?P<drop>(?:scry|surveil) \d+, then )(?=draw )", re.IGNORECASE)


def _drop_sentences(text: str) -> tuple[str, list[str]]:
    """The line without droppable sentences (each with why it was dropped)."""
    kept, dropped = [], []
    if m := _LOOK_THEN_DRAW.search(text):
        dropped.append(f"{m.group('drop')[:-len(', then ')]} ({_SCRY[1]})")
        text = text[m.end("drop"):]
    if m := _THEN_DISCARD.search(text):
        dropped.append(f"{m.group('drop')[2:]} ({_HAND})")
        text = text[: m.start("drop")] + text[m.end("drop"):]
    parts = re.split(r"(?<=\.) (?=[A-Z~{])", text)
    for part in parts:
        why = next((r for p, r in DROPPABLE if p.match(part)), None)
        if why is None or len(parts) == 1:
            kept.append(part)
        else:
            dropped.append(f"{part} ({why})")
    return " ".join(kept), dropped

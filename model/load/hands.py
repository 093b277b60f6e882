"""The number of cards in a player's hand (CR 402.1), read by an amount ("equal to the number of
cards in that player's hand": Stormbreath Dragon). The tool tracks no hand, so a case reading it
says each player's ``hand:`` (the count as the case begins); the engine adds the cards drawn
(121.1) and a nontoken permanent returned to its owner's hand (400.7), and no longer knows the
hand of a player who casts a spell (where it was cast from isn't said, 601.2a): a read then is an
error. A card in the case whose text the recogniser ignored because it acts on hands (a discard,
a search to a hand, a regrowth: model.recognise.hidden) would make the count wrong, so such a
case is refused. Never a silent 0."""

from __future__ import annotations

from typing import Any

from ..expr import expr_vars

__all__ = ["HAND_VARIABLE", "reads_hand", "hand_lines", "hand_problems"]

HAND_VARIABLE = "cards_in_hand"
_HANDS = "402"  # the rule an ignore on hands cites (model.recognise.hidden's reason)


def reads_hand(amount: Any) -> bool:
    return isinstance(amount, tuple) and HAND_VARIABLE in expr_vars(amount)


def hand_lines(reading: Any) -> list[str]:
    """A card reading's lines ignored, whole or in part, because they act on hands."""
    return [r.text for r in reading.lines if r.reason and _HANDS in r.reason and "hand" in r.reason]


def hand_problems(readers: list[str], players: Any, lines: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """(path, reason) for each problem of a case whose amounts at ``readers`` read hand sizes."""
    if not readers:
        return []
    out = [(f"players[{i}].hand", f"{readers[0]} reads the number of cards in a player's hand (CR 402.1): say each "
                                  "player's hand: (cards in hand as the case begins)")
           for i, p in enumerate(players) if p.hand is None][:1]
    out += [(where, f"{card}: {line!r} acts on a hand, which isn't tracked, and {readers[0]} reads hand sizes (CR 402.1); "
                    "give abilities: to state the card yourself")
            for where, card, line in lines]
    return out

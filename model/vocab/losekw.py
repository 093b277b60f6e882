"""Two of Melira, Sylvok Outcast's lines: "Creatures your opponents control lose infect." (an
ability removed, 613.1f layer 6: ``{lose: [infect], to: creatures an opponent controls}``) and
"Creatures you control can't have -1/-1 counters put on them." (``{fewer_counters: {-1/-1: all},
to: creatures you control}``: none is put, by damage from a source with wither or infect, 120.3d-e,
by an instruction, or as the creature enters with one, 122.6: persist's return)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import CaseError
from ..types import GRANTABLE

__all__ = ["ALL_COUNTERS", "lose_keywords", "granted_trigger"]

ALL_COUNTERS = 10**6  # "can't have ... counters put on it": more than any event puts (MAX_AMOUNT)


def lose_keywords(m: Mapping[str, Any], path: str) -> tuple[int, int, tuple[str, ...]]:
    """``{lose: [infect], to: ...}``: the keywords removed, as a grant's value (no pt change)."""
    for key in m:
        if key not in ("lose", "to", "duration"):
            raise CaseError(f"{path}.{key}", f"lose takes to: (the permanents) and duration:, not {key}")
    if "to" not in m:
        raise CaseError(path, "lose needs to: (the permanents that lose the keywords)")
    raw = m["lose"]
    if not isinstance(raw, list) or not raw:
        raise CaseError(f"{path}.lose", "expected a list of keywords, e.g. [infect]")
    kws = []
    for i, k in enumerate(raw):
        word = " ".join(k.lower().split()) if isinstance(k, str) else None
        if word is None or word not in GRANTABLE:
            raise CaseError(f"{path}.lose[{i}]", f"a keyword lose: removes one of {', '.join(GRANTABLE)}")
        kws.append(word)
    return 0, 0, tuple(kws)


def granted_trigger(m: Mapping[str, Any], path: str) -> Any:
    """``{grant_trigger: {trigger: combat_damage_to_player, do: {get_poison: 1, who: that player}},
    to: sliver creatures}``: "All Sliver creatures have poisonous 1." (613.1f): each permanent
    ``to:`` names has the triggered ability, its ``self`` that permanent; each effect granting it
    is an instance of its own (702.70b: several instances trigger separately)."""
    from .abilities import parse_ability  # (abilities read effects)

    for key in m:
        if key not in ("grant_trigger", "to", "duration"):
            raise CaseError(f"{path}.{key}", f"grant_trigger takes to: (the permanents) and duration:, not {key}")
    if "to" not in m:
        raise CaseError(path, "grant_trigger needs to: (the permanents that have the ability)")
    ab = parse_ability(m["grant_trigger"], f"{path}.grant_trigger")
    if ab.trigger is None or ab.choices:
        raise CaseError(f"{path}.grant_trigger", "expected a triggered ability ({trigger: ..., do: ...})")
    return ab

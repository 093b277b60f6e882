"""Statics that remove a keyword or keep counters off (CR 613.1f, 122.6; model.vocab.losekw):
"Creatures your opponents control lose infect." and "Creatures you control can't have -1/-1
counters put on them." (Melira, Sylvok Outcast)."""

from __future__ import annotations

import re

from .base import Built, Ctx, template
from .pt import keyword_list

_GROUPS = {"creatures your opponents control": "creatures an opponent controls", "creatures you control": "creatures you control",
           "other creatures you control": "other creatures you control", "all creatures": "creatures", "creatures": "creatures"}
_WHO = r"(?P<who>creatures your opponents control|(?:other )?creatures you control|all creatures|creatures)"


def _permanent(ctx: Ctx) -> bool:
    return bool(ctx["types"]) and not {"instant", "sorcery"} & set(ctx["types"])


@template("lose_keyword_static", rf"{_WHO} lose (?P<kws>[a-z ,]+?)\.", "CR 613.1f, 611.3a")
def _lose(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Creatures your opponents control lose infect." (Melira, Sylvok Outcast)."""
    kws = keyword_list(m.group("kws"))
    if kws is None or not _permanent(ctx):
        return None
    return [{"lose": kws, "to": _GROUPS[m.group("who").lower()]}], []


@template("cant_have_counters", rf"{_WHO} can't have (?P<kind>-1/-1|\+1/\+1) counters put on them\.", "CR 122.6, 120.3d, 611.3a")
def _cant_have(m: re.Match[str], ctx: Ctx) -> Built | None:
    """"Creatures you control can't have -1/-1 counters put on them." (Melira, Sylvok Outcast):
    none is put, by wither or infect damage (120.3d-e), an instruction, or as one enters with
    them (122.6: persist's return)."""
    if not _permanent(ctx):
        return None
    return [{"fewer_counters": {m.group("kind"): "all"}, "to": _GROUPS[m.group("who").lower()]}], []

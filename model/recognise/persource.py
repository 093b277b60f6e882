"""A prevention for the turn with a rider for each source whose damage it prevents (CR 615.5,
615.1a; solver.persource): "Prevent all damage that would be dealt to you and planeswalkers you
control this turn by sources you don't control. If damage from a creature source is prevented this
way, ~ deals that much damage to that creature. If damage from a noncreature source is prevented
this way, ~ deals that much damage to the source's controller." (Comeuppance)."""

from __future__ import annotations

import re

from .base import Built, Ctx, template

_TO = {"you": "you", "you and planeswalkers you control": ["you", "planeswalkers you control"],
       "you and permanents you control": ["you", "permanents you control"]}
_FROM = {"sources you don't control": "sources you don't control", "sources your opponents control":
         {"controller": "opponents"}}


@template("prevent_turn_rider_per_source", r"prevent all damage that would be dealt to (?P<to>you|you and planeswalkers you "
          r"control|you and permanents you control) this turn by (?P<from>sources you don't control|sources your opponents "
          r"control)\. if damage from a creature source is prevented this way, ~ deals that much damage to that creature\. "
          r"if damage from a noncreature source is prevented this way, ~ deals that much damage to the source's controller\.",
          "CR 615.1a, 615.5, 608.2h")
def _comeuppance(m: re.Match[str], ctx: Ctx) -> Built | None:
    """Comeuppance: the spell's prevention for the turn, its rider done for each source it
    prevented damage from, that much to the creature or to the noncreature source's controller."""
    if not {"instant", "sorcery"} & set(ctx["types"]):
        return None
    effect = {"prevent": "all", "to": _TO[m.group("to").lower()], "from": _FROM[m.group("from").lower()],
              "duration": "turn", "then": {"deal": "prevented", "to": "that creature or the source's controller",
                                           "if_prevented": True}}
    return [{"spell": effect}], []

"""A ruling paragraph a judge can paste (``mtg-outcomes enumerate CASE --ruling``).

Deterministic plain English from the outcomes and their replayed witnesses (solver.explain): the
situation in one sentence (the case's title), who chooses what under which rule (each choice's
chooser and rule, as the decision carries it, solver.decision.KIND_RULES), then each distinct
outcome in words and the choices that lead to it. Only choices are listed: forced steps and
events are in ``--explain``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from mtg_outcomes.model.outcome import Outcome
from mtg_outcomes.model.types import Case

from .decision import CHOICE, NOT_DONE
from .explain import replay
from .words import value_text

__all__ = ["ruling_text", "outcome_words"]

# what each kind of choice is, for the "who chooses what" sentence
_WHAT = {
    "615.7": "how much of each damage event a prevention shield prevents",
    "616.1": "the order in which replacement and prevention effects apply to an event",
    "510.1c": "how a creature's combat damage is divided",
    "509.1a": "which creatures block",
    "601.2c": "targets",
    "603.3d": "a triggered ability's target",
    "603.3b": "the order in which their triggered abilities go on the stack",
    "609.7a": "a source of damage for an effect",
    "700.2a": "a mode",
    "702.33": "whether to pay a kicker cost",
    "608.2d": "a choice the resolving spell or ability offers",
    "614.12": "a player as a permanent enters",
    "702.21a": "whether to pay a ward cost",
}


def _field_words(key: str, value: Any, names: dict[str, str]) -> str | None:
    """One field of an outcome in words ("A draws 1 card"); None for a false "lost"."""
    oid, _, what = key.partition(".")
    who = names.get(oid, oid)
    if what == "life":
        return f"{who} at {value} life"
    if what == "cards_drawn":
        return f"{who} draws {value or 'no'} card{'' if value == 1 else 's'}"
    if what == "poison":
        return f"{who} with {value} poison counter{'' if value == 1 else 's'}"
    if what == "lost":
        return f"{who} loses the game" if value else None
    if what == "dies":
        return f"{who} dies" if value else f"{who} survives"
    if what == "damage":
        return f"{value} damage marked on {who}"
    if what == "damage_taken":
        return f"{who} took {value} damage"
    if what == "life_lost":
        return f"{who} lost {value} life this turn"
    return f"{key} {value_text(value)}"


def outcome_words(keys: Sequence[str], values: dict[str, Any], names: dict[str, str] | None = None) -> str:
    """An outcome's fields in words, objects by name ("Grizzly Bears dies, you at 17 life")."""
    said = [w for k in keys if (w := _field_words(k, values.get(k), names or {})) is not None]
    return ", ".join(said) if said else "nothing changes"


def ruling_text(case: Case, outcomes: Sequence[Outcome], complete: bool, keys: Sequence[str], width: int = 100) -> str:
    """The paragraph: situation, choosers and rules, each outcome and the choices leading to it."""
    replays = [replay(case, o) for o in outcomes]
    every = [r.steps for r in replays]
    per = [[s for s in steps if s.kind in (CHOICE, NOT_DONE)] for steps in every]
    applied = list(dict.fromkeys(s.rule for steps in every for s in steps if s.rule and s.kind != CHOICE))
    names = {k: v for r in replays for k, v in r.names.items()}
    choosers: dict[tuple[str, str], None] = {}
    for steps in per:
        for s in steps:
            if s.kind == CHOICE:
                choosers[(s.who, s.rule)] = None
    lines = [f"Situation: {case.title.rstrip('.') if case.title else case.id}."]
    if choosers:
        said = [f"{'you choose' if who == 'you' else who + ' chooses'} {_WHAT.get(rule, 'an option')} (CR {rule})"
                for who, rule in choosers]
        lines.append("Choices: " + "; ".join(said) + ".")
    else:
        lines.append("Choices: none; the rules leave no choice here.")
    if applied:
        lines.append("Rules applied on the way: " + ", ".join(f"CR {r}" for r in applied) + ".")
    n = len(outcomes)
    lines.append(f"There {'is' if n == 1 else 'are'} {n} distinct outcome{'' if n == 1 else 's'}"
                 f"{'' if complete else ' found before a limit cut the search (the list may be partial)'}:")
    for i, (o, steps) in enumerate(zip(outcomes, per, strict=True), 1):
        how = "; ".join(s.text() for s in steps) if steps else "no choice"
        lines.append(f"{i}. {outcome_words(keys, o.values, names)}: {how}.")
    return "\n".join(textwrap.fill(line, width, subsequent_indent="   " if line[:1].isdigit() else "")
                     for line in lines)

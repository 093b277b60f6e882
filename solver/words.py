"""Words for users: one spelling of values and one label per object, shared by every text output
(enumerate, explain, optimize, check, the report, the ruling paragraph).

Ids are the case file's handles, not what a judge calls a card: an object is named by its card's
name, with its id only where two objects share that name.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.selectors import Selector, SelectorKind

if TYPE_CHECKING:  # (the state and the selectors read these words: no import at run time)
    from .select import Instance
    from .state import GameState, Table

__all__ = ["value_text", "name", "possessive", "effect_label", "Namer"]


def value_text(v: Any) -> str:
    """A field value as every text output prints it (yes/no, [W B])."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, tuple | list):
        return "[" + " ".join(map(str, v)) + "]"
    return str(v)


# what each kind of effect is called in a sentence ("Dictate of the Twin Gods's doubling")
_KIND_WORDS = {
    "shield": "shield", "prevent": "prevention", "multiply": "damage multiplier", "add": "extra damage",
    "cap": "damage cap", "subtract": "damage reduction", "halve": "halving", "redirect": "redirection",
    "protection": "protection", "damage_to_counters": "damage-to-counters replacement",
    "gain_life_plus": "extra life gain", "gain_life_times": "life-gain multiplier",
}


def _counts(state: GameState, table: Table) -> dict[str, int]:
    """How many objects (permanents, sources) bear each name: a name two share gets its id."""
    key = ("names", len(state.perms), len(table.perm_specs), len(table.sources))
    hit = table.memo.get(key)
    if hit is None:
        hit = {}
        seen: set[str] = set()
        for p in state.perms:
            if p.id not in seen:
                seen.add(p.id)
                name = table.perm_specs[p.spec].name
                hit[name] = hit.get(name, 0) + 1
        for sid, spec in table.sources.items():
            if sid not in seen:
                hit[spec.name] = hit.get(spec.name, 0) + 1
        table.memo[key] = hit
    return hit


def name(state: GameState, table: Table, oid: str | None) -> str:
    """An object as a judge says it: its card's name, with its id only where another object in
    the game has that name ("Grizzly Bears (bear1)"); a player is their name."""
    if oid is None:
        return "nothing"
    if oid in table.order:
        return oid
    spec = table.spec_of(state, oid)
    if spec is None or not getattr(spec, "name", ""):
        return oid
    return spec.name if _counts(state, table).get(spec.name, 0) <= 1 else f"{spec.name} ({oid})"


def possessive(text: str) -> str:
    """"Grizzly Bears's", "you → your"."""
    return "your" if text == "you" else f"{text}'s"


def effect_label(inst: Instance, table: Table, state: GameState, short: bool = False) -> str:
    """An effect in words: its card and what it does ("Healing Salve's shield on you, 3 left");
    a static ability is its permanent's name; an effect the case creates without a source is
    called by its id, the only name it has."""
    kind = inst.spec.kind
    what = _KIND_WORDS.get(kind, str(kind).replace("_", " "))
    if inst.state_id is None:
        return inst.name or inst.key
    self_id = inst.view.self_id
    if self_id is None or table.spec_of(state, self_id) is None:
        head = f"the {what} {inst.key}"
    else:
        head = f"{possessive(name(state, table, self_id))} {what}"
    to = inst.spec.to
    on = ""
    if to is not None and kind in (EffectKind.SHIELD, EffectKind.PREVENT, EffectKind.REDIRECT, EffectKind.PROTECTION):
        on = f" on {_selector(state, table, inst, to)}"
    left = ""
    made = state.effect(inst.state_id)
    if kind in (EffectKind.SHIELD, EffectKind.REDIRECT) and made is not None and made.remaining is not None and not short:
        left = f" ({max(0, made.remaining)} left)"
    return f"{head}{on}{left}"


def _selector(state: GameState, table: Table, inst: Instance, sel: Selector) -> str:
    """Who an effect protects, in words: "you" is its controller, "target" its target."""
    kind = sel.kind
    if kind == SelectorKind.YOU:
        return str(inst.view.controller)
    if kind == SelectorKind.SELF and inst.view.self_id is not None:
        return name(state, table, inst.view.self_id)
    if kind == SelectorKind.TARGET and inst.view.target is not None:
        return name(state, table, inst.view.target)
    if kind == SelectorKind.REF:
        return name(state, table, sel.name)
    return str(sel)


# words of the witness texts that an id may also be: never read as an id
_NOT_IDS = frozenset("""a an the it to of on and or by in is as for with damage first none no yes mode modes target
targets trigger triggers shield ability life card cards source sources combat step counter counters each that this its
from up one all left before after instead you player players game spell effect effects stack order""".split())


class Namer:
    """Puts names for the ids left in a witness's words ("you choose ogre as the source" ->
    "you choose Big Ogre as the source"): the rules code's older texts name objects by id. An id
    is replaced only as a whole token, never a word of the text itself (_NOT_IDS) nor a player."""

    def __init__(self, state: GameState, table: Table) -> None:
        self.map: dict[str, str] = {}
        for p in state.perms:
            self.map.setdefault(p.id, name(state, table, p.id))
        for sid in table.sources:
            self.map.setdefault(sid, name(state, table, sid))
        for e in state.effects:
            spec = table.spec_of(state, e.source) if e.source else None
            if spec is not None:  # (an effect with no source keeps its id: its only name)
                self.map.setdefault(e.id, f"{possessive(spec.name)} {_KIND_WORDS.get(str(e.spec.kind), 'effect')}")
        self.map = {k: v for k, v in self.map.items() if k != v and k not in table.order and k.lower() not in _NOT_IDS}
        ids = sorted(self.map, key=len, reverse=True)
        alts = "|".join(map(re.escape, ids))
        self.pattern = re.compile(r"(?<![\w'./#@(-])(" + alts + r")(?![\w/#@-]|\.\w)") if ids else None
        self.alone = re.compile(r" \((" + alts + r")\)") if ids else None  # "Vengeful Archon's ability (archon)"

    def __call__(self, text: str) -> str:
        if self.pattern is None or self.alone is None:
            return text

        def alone(m: Any) -> str:  # an id in parentheses after its own name says nothing more
            oid, said = m.group(1), self.map[m.group(1)]
            base = said.removesuffix(f" ({oid})")
            if base != said and text[:m.start()].endswith(base):
                return m.group(0)  # already "Grizzly Bears (bear1)": a name two objects share
            return "" if said in text[:m.start()] else f" ({said})"

        out = self.pattern.sub(lambda m: self.map[m.group(1)], self.alone.sub(alone, text))
        return out.replace("you's ", "your ")


def short_label(words: str, chooser: str = "") -> str:
    """An option's words cut to what tells it from its siblings, for an edge of the drawn tree:
    "prevents 1", "2 to Grizzly Bears, 4 to you", "Craw Wurm with Hill Giant", "Dictate ... first"."""
    text = words.split(" (", 1)[0] if words.endswith(")") and ": " not in words else words
    if ": " in text:
        tail = text.rsplit(": ", 1)[1]
        return tail.removeprefix("it ")
    if " first to " in text:
        return text.split(" first to ", 1)[0].split(" ", 2)[-1] + " first"
    for verb in ("blocks ", "block "):
        if verb in text:
            return text.split(verb, 1)[1]
    for lead in (f"{chooser} ", "you "):
        if lead.strip() and text.startswith(lead):
            text = text[len(lead):]
    return text

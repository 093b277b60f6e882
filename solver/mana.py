"""Mana: what a permanent could produce (CR 106.7, 605, 616.1).

"The type of mana a permanent could produce at any time includes any type of mana that an
ability of that permanent would produce if the ability were to resolve at that time, taking into
account any applicable replacement effects in any possible order. Ignore whether any costs of the
ability could or could not be paid." (106.7 and the general mana rulings.)

Decisions, each with its rule:

* 106.7: the question is what a mana ability (605) *would produce if it resolved now*, so costs
  are ignored: a tapped land, and a summoning-sick creature whose {T}/{Q} ability could not be
  activated (302.6), still "could produce" its mana. 302.6 restricts *activation*; 106.7 asks about
  *resolution* and says to ignore whether costs could be paid, so a summoning-sick Llanowar Elves
  could produce {G}.
* 106.7 / 605: "a type that a land you control could produce" (Reflecting Pool) or "a color that a
  land an opponent controls could produce" (Exotic Orchard, Fellwar Stone) refers to the could-produce
  sets of other permanents, and those may refer back; the answer is the *least fixed point*: start
  from nothing and add types until nothing changes. Two Reflecting Pools alone produce nothing; with
  a Forest, both can produce {G}.
* 106.7 (and the ruling "If an ability would produce one or more mana of an undefined type, it
  produces no mana instead"): an ability whose type is undefined produces no mana, so there is no
  mana production event for a replacement effect to modify; it contributes no type.
* 616.1 / 614.5: the applicable mana replacement effects (``replace_mana``, e.g. Contamination,
  Pale Moon) are applied in every possible order, each at most once, re-checking applicability
  after each; with type replacements the last one applied decides the type. The answer is the
  union over all orders. These effects say "if a land is *tapped* for mana", so they apply only to
  mana abilities with {T} in the cost (the seeds' rule on "tap a permanent for mana", 605).
  ``multiply_mana`` (Mana Reflection) changes the amount only, never the type.
* "Whenever ... is tapped for mana" triggers are not modelled (they trigger on resolution only and
  don't change what could be produced).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations

from model.errors import EngineError
from model.types import Ability

from .rules import Instance, effects_in_force
from .select import View, matches
from .state import GameState, Table

__all__ = ["could_produce", "could_produce_action", "could_produce_all", "why", "mana_permanents",
           "MANA_ORDER"]

MANA_ORDER = ("W", "U", "B", "R", "G", "C")
COLORED = ("W", "U", "B", "R", "G")
_MAX_LISTED_ORDERS = 24

Produce = dict[str, frozenset[str]]


def _sorted(types: frozenset[str] | set[str]) -> tuple[str, ...]:
    return tuple(t for t in MANA_ORDER if t in types)


def _mana_abilities(state: GameState, table: Table, pid: str) -> list[tuple[int, Ability]]:
    return [(j, ab) for j, ab in enumerate(table.abilities_of(state, pid)) if ab.kind == "mana"]


def mana_permanents(state: GameState, table: Table) -> list[str]:
    """Ids of permanents on the battlefield with a mana ability, sorted."""
    out = {p.id for p in state.perms if p.present and _mana_abilities(state, table, p.id)}
    return sorted(out)


def _is_tap_ability(ab: Ability) -> bool:
    return "T" in ab.cost


def _base_types(state: GameState, table: Table, pid: str, ab: Ability, known: Produce) -> frozenset[str]:
    """What the ability's own text would produce now, before replacement effects (undefined: none)."""
    mana = ab.mana
    if not mana:
        return frozenset()
    head = mana[0]
    if head in ("any_type_of", "any_color_of"):
        perm = state.perm(pid)
        controller = perm.controller if perm is not None else ""
        view = View(controller, pid)
        found: set[str] = set()
        for other in state.perms:
            if other.present and other.id in known and matches(mana[1], other.id, state, table, view):
                found |= known[other.id]
        if head == "any_color_of":
            found &= set(COLORED)
        return frozenset(found)
    if head == "any_color":
        return frozenset(COLORED)
    if head == "any":
        return frozenset(MANA_ORDER)
    return frozenset(s for s in mana if s in MANA_ORDER)


def _applies(inst: Instance, state: GameState, table: Table, pid: str, ab: Ability) -> bool:
    if inst.spec.kind not in ("replace_mana", "multiply_mana"):
        return False
    if not _is_tap_ability(ab):
        return False  # "if a land is tapped for mana" / "if you tap a permanent for mana"
    return matches(inst.spec.to, pid, state, table, inst.view)


def _replacements(state: GameState, table: Table, pid: str, ab: Ability) -> list[Instance]:
    return [i for i in effects_in_force(state, table) if _applies(i, state, table, pid, ab)]


def _outcomes(base: frozenset[str], amount: int, insts: list[Instance]) -> set[tuple[frozenset[str], int]]:
    """Every (types, amount) reachable by applying the effects in some order (616.1, 614.5)."""
    memo: dict[tuple[frozenset[str], frozenset[str], int], set[tuple[frozenset[str], int]]] = {}

    def go(applied: frozenset[str], types: frozenset[str], amt: int) -> set[tuple[frozenset[str], int]]:
        key = (applied, types, amt)
        if key in memo:
            return memo[key]
        left = [i for i in insts if i.key not in applied]
        if not left:
            res = {(types, amt)}
        else:
            res = set()
            for inst in left:
                t2, a2 = _apply(inst, types, amt)
                res |= go(applied | {inst.key}, t2, a2)
        memo[key] = res
        return res

    if not base:
        return set()  # undefined type: no mana, no production event to replace
    return go(frozenset(), base, amount)


def _apply(inst: Instance, types: frozenset[str], amt: int) -> tuple[frozenset[str], int]:
    if inst.spec.kind == "replace_mana":
        return frozenset({inst.spec.value}), amt
    return types, amt * int(inst.spec.value)


def could_produce_all(state: GameState, table: Table) -> Produce:
    """Least fixed point of "could produce" over every permanent with a mana ability (106.7)."""
    pids = mana_permanents(state, table)
    known: Produce = {pid: frozenset() for pid in pids}
    reps = {(pid, j): _replacements(state, table, pid, ab)
            for pid in pids for j, ab in _mana_abilities(state, table, pid)}
    for _ in range(len(pids) * len(MANA_ORDER) + 2):  # each round adds a type or stops
        changed = False
        for pid in pids:
            types: set[str] = set(known[pid])
            for j, ab in _mana_abilities(state, table, pid):
                base = _base_types(state, table, pid, ab, known)
                for out, _amt in _outcomes(base, ab.amount, reps[(pid, j)]):
                    types |= out
            if frozenset(types) != known[pid]:
                known[pid] = frozenset(types)
                changed = True
        if not changed:
            break
    return known


def could_produce(state: GameState, table: Table, pid: str) -> tuple[str, ...]:
    """The types of mana ``pid`` could produce, in W U B R G C order (CR 106.7)."""
    return _sorted(could_produce_all(state, table).get(pid, frozenset()))


def could_produce_action(state: GameState, table: Table, id_or_all: str) -> GameState:
    """The ``could_produce: <id | all>`` action: record answers in ``state.mana``."""
    known = could_produce_all(state, table)
    if id_or_all == "all":
        ids = sorted(known)
    else:
        if table.spec_of(state, id_or_all) is None:
            raise EngineError(f"could_produce: no permanent {id_or_all!r}")
        ids = [id_or_all]
    answers = dict(state.mana)
    for pid in ids:
        answers[pid] = _sorted(known.get(pid, frozenset()))
    return replace(state, mana=tuple(sorted(answers.items())))


def _fmt(types: frozenset[str] | set[str] | tuple[str, ...]) -> str:
    return "[" + " ".join(_sorted(frozenset(types))) + "]"


def _ability_text(ab: Ability) -> str:
    if ab.text:
        return ab.text
    cost = "".join("{" + c + "}" if isinstance(c, str) else f"pay {c[1]} life" for c in ab.cost)
    mana = ab.mana
    if mana and mana[0] in ("any_type_of", "any_color_of"):
        what = f"one mana of any {'type' if mana[0] == 'any_type_of' else 'color'} that {mana[1]} could produce"
    elif mana and mana[0] in ("any_color", "any"):
        what = f"one mana of {'any color' if mana[0] == 'any_color' else 'any type'}"
    else:
        what = "".join("{" + s + "}" for s in (mana or ()))
        if ab.amount != 1:
            what = f"{ab.amount} x {what}"
    return f"{cost + ': ' if cost else ''}Add {what}."


def why(state: GameState, table: Table, pid: str) -> list[str]:
    """Human-readable reasons: each mana ability, its own types, and each replacement order."""
    known = could_produce_all(state, table)
    spec = table.spec_of(state, pid)
    name = spec.name if spec is not None else pid
    abilities = _mana_abilities(state, table, pid)
    lines = [f"{pid} ({name}) could produce {_fmt(known.get(pid, frozenset()))}  (CR 106.7)"]
    if not abilities:
        lines.append("  no mana ability")
        return lines
    perm = state.perm(pid)
    if perm is not None and spec is not None and getattr(spec, "summoning_sick", False) and \
            any(c in ("T", "Q") for _, ab in abilities for c in ab.cost):
        lines.append("  summoning sick: its {T}/{Q} abilities can't be activated (302.6), but could-produce "
                     "ignores whether costs could be paid (106.7)")
    for j, ab in abilities:
        base = _base_types(state, table, pid, ab, known)
        lines.append(f"  ability {j}: {_ability_text(ab)}")
        if ab.mana and ab.mana[0] in ("any_type_of", "any_color_of"):
            perm_ctrl = perm.controller if perm is not None else ""
            refs = [o.id for o in state.perms if o.present and o.id in known
                    and matches(ab.mana[1], o.id, state, table, View(perm_ctrl, pid))]
            seen = ", ".join(f"{r} {_fmt(known[r])}" for r in refs) or "none"
            lines.append(f"    refers to: {seen} (least fixed point)")
        if not base:
            lines.append("    its type is undefined: it would produce no mana (106.7)")
            continue
        lines.append(f"    by itself: {_fmt(base)} x{ab.amount}")
        reps = _replacements(state, table, pid, ab)
        if not reps:
            lines.append("    no applicable mana replacement effects")
            continue
        names = {i.key: i.name or i.key for i in reps}
        lines.append("    applicable replacement effects (616.1, each once 614.5): "
                     + ", ".join(f"{names[i.key]} ({i.spec.kind} {i.spec.value})" for i in reps))
        for n, order in enumerate(permutations(reps)):
            if n >= _MAX_LISTED_ORDERS:
                lines.append("    ... (more orders, same results)")
                break
            types, amt = base, ab.amount
            for inst in order:
                types, amt = _apply(inst, types, amt)
            seq = " then ".join(names[i.key] for i in order)
            lines.append(f"    order {seq}: {_fmt(types)} x{amt}")
    return lines

"""Mana: what a permanent could produce (CR 106.7) and tapping it for mana (605, 302.6, 616.1).

"The type of mana a permanent could produce at any time includes any type of mana that an
ability of that permanent would produce if the ability were to resolve at that time, taking into
account any applicable replacement effects in any possible order. Ignore whether any costs of the
ability could or could not be paid." (106.7 and the general mana rulings.)

Decisions, each with its rule:

* 106.7: the question is what a mana ability (605) *would produce if it resolved now*, so costs
  are ignored: a tapped land, and a summoning-sick creature whose {T}/{Q} ability could not be
  activated (302.6), still "could produce" its mana. 302.6 restricts *activation*; 106.7 asks about
  *resolution* and says to ignore whether costs could be paid, so a summoning-sick Llanowar Elves
  could produce {G} (but can't be tapped for it: ``tap_for_mana``).
* 106.7 / 605: "a type that a land you control could produce" (Reflecting Pool) or "a color that a
  land an opponent controls could produce" (Exotic Orchard, Fellwar Stone) refers to the could-produce
  sets of other permanents, and those may refer back; the answer is the *least fixed point*: start
  from nothing and add types until nothing changes. Two Reflecting Pools alone produce nothing; with
  a Forest, both can produce {G}.
* 106.7 (and the ruling "If an ability would produce one or more mana of an undefined type, it
  produces no mana instead"): an ability whose type is undefined produces no mana, so there is no
  mana production event for a replacement effect to modify and no "tapped for mana" trigger.
* 605 (the seeds' ruling): to *tap a permanent for mana* is to activate a mana ability with {T} in
  its cost. Only such activations are modified by "if ... is tapped for mana" replacement effects
  (``replace_mana``, ``multiply_mana``) and fire ``tapped_for_mana`` triggers; a mana ability
  without {T} (a {Q} or pay-life cost) is not "tapped for mana".
* 616.1 / 614.5 (and the seeds' ruling on replacement effects that apply "if a permanent is tapped
  for mana of a specific type and/or amount"): the applicable mana replacement effects are applied
  one at a time in an order the affected player (the permanent's controller) chooses, each at most
  once, and applicability is re-checked after each against the mana the event would now produce:
  a "tapped for {G}" effect no longer applies once Contamination has made it {B}; Damping Sphere
  ("two or more mana") starts to apply once Mana Reflection has doubled one {G}. ``replace_mana``
  changes the type and keeps the amount unless it gives ``amount:`` ("instead of any other type
  and amount", Contamination: one {B}); ``multiply_mana`` changes the amount only.
* 605.3a / 602.2 / 107.5 / 107.6 / 302.6 / 119.4: ``tap_for_mana`` activates the ability and pays
  its cost: {T} needs the permanent untapped and taps it; {Q} needs it tapped and untaps it; a
  creature's {T}/{Q} ability can't be activated while it is summoning sick (``summoning_sick:
  true``, or it entered during the case's actions) unless it has haste; life can be paid only up to
  the life total. An activation whose cost can't be paid doesn't happen (as with ``activate:``).
  Mana symbols in the cost are assumed paid (spending mana isn't modelled, as for ``activate:``).
  The ability then resolves at once, without the stack (605.3a): a choice of color or type ("one
  mana of any color", Reflecting Pool) is its controller's decision, the replacement effects apply,
  and the mana goes to its controller (``<player>.mana``).
* The seeds' rule on "is tapped for mana" triggers: a ``tapped_for_mana`` trigger fires when the
  ability resolves and produces mana (of its ``mana:`` type, if it has one), i.e. after the
  replacement effects; it is not a mana ability (it adds no mana), so it uses the stack (603.3) and
  its damage goes through the damage rules. ``that player`` in its ``do:`` is the player who tapped
  the permanent (Manabarbs).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.kinds import AbilityKind, DecisionKind, ManaKind, TriggerEvent
from mtg_outcomes.model.types import MANA_TYPES, Ability, TapForManaAction

from .costs import cost_problem, find_ability, pay_cost, tap_choices
from .decision import NOT_DONE, Decision, Option, decide, note, says
from .oneshot import run_one_shot
from .replacement import apply_one
from .rules.effects import Instance, effects_in_force
from .select import View, matches
from .state import GameState, PermState, Table, TaskKind
from .triggers import collect_triggers

__all__ = ["could_produce", "could_produce_action", "could_produce_all", "mana_permanents",
           "mana_activation_problem",
           "MANA_ORDER", "tap_for_mana", "produce_mana", "mana_sorted"]

MANA_ORDER = MANA_TYPES
COLORED = ("W", "U", "B", "R", "G")
_CHOICE_KINDS = tuple(ManaKind)  # (every kind of mana chosen as it resolves)
_COLOR_SYMBOL = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}

Produce = dict[str, frozenset[str]]
Mana = tuple[str, ...]  # the mana a production event would produce, e.g. ("G", "G")


def _sorted(types: frozenset[str] | set[str]) -> tuple[str, ...]:
    return tuple(t for t in MANA_ORDER if t in types)


def mana_sorted(symbols: tuple[str, ...] | list[str]) -> Mana:
    """Mana symbols in W U B R G C order (the order outputs list them)."""
    return tuple(sorted(symbols, key=MANA_ORDER.index))


def _mana_abilities(state: GameState, table: Table, pid: str) -> list[tuple[int, Ability]]:
    return [(j, ab) for j, ab in enumerate(table.abilities_of(state, pid)) if ab.kind == AbilityKind.MANA]


def mana_permanents(state: GameState, table: Table) -> list[str]:
    """Ids of permanents on the battlefield with a mana ability, sorted."""
    out = {p.id for p in state.perms if p.present and _mana_abilities(state, table, p.id)}
    return sorted(out)


def _is_tap_ability(ab: Ability) -> bool:
    """605 (the seeds' ruling): "tapped for mana" means a mana ability with {T} in its cost."""
    return "T" in ab.cost


def _base_types(state: GameState, table: Table, pid: str, ab: Ability, known: Produce) -> frozenset[str]:
    """What the ability's own text would produce now, before replacement effects (undefined: none)."""
    mana = ab.mana
    if not mana:
        return frozenset()
    match mana[0]:
        case ManaKind.ANY_TYPE_OF | ManaKind.ANY_COLOR_OF:
            perm = state.perm(pid)
            controller = perm.controller if perm is not None else ""
            view = View(controller, pid)
            found: set[str] = set()
            for other in state.perms:
                if other.present and other.id in known and matches(mana[1], other.id, state, table, view):
                    found |= known[other.id]
            if mana[0] == ManaKind.ANY_COLOR_OF:
                found &= set(COLORED)
            return frozenset(found)
        case ManaKind.ANY_COLOR:
            return frozenset(COLORED)
        case ManaKind.CHOSEN_COLOR:  # "one mana of the chosen color": the colour chosen as it entered (614.1c)
            spec = table.spec_of(state, pid)
            color = getattr(spec, "chosen_color", None)
            return frozenset({_COLOR_SYMBOL[color]}) if color else frozenset()
        case ManaKind.ONE_OF:  # "Add {R} or {G}": one of these types, its controller's choice
            return frozenset(mana[1])
        case ManaKind.ANY:
            return frozenset(MANA_ORDER)
    return frozenset(s for s in mana if s in MANA_ORDER)


def _productions(state: GameState, table: Table, pid: str, ab: Ability, known: Produce) -> list[Mana]:
    """Every mana production the ability's text allows now, one per choice of type (none when the
    type is undefined, 106.7). ``mana: [R, G]`` adds {R}{G}; ``amount`` repeats it."""
    if not ab.mana:
        return []
    if ab.mana[0] in _CHOICE_KINDS:
        return [(t,) * ab.amount for t in _sorted(_base_types(state, table, pid, ab, known))]
    return [mana_sorted([s for s in ab.mana for _ in range(ab.amount)])]


def _applies(inst: Instance, state: GameState, table: Table, pid: str, ab: Ability) -> bool:
    """The parts of applicability that don't depend on the mana: a mana replacement effect for
    this permanent, and the ability taps it for mana (605)."""
    if inst.spec.kind not in (EffectKind.REPLACE_MANA, EffectKind.MULTIPLY_MANA):
        return False
    if not _is_tap_ability(ab):
        return False  # "if a land is tapped for mana" / "if you tap a permanent for mana"
    return matches(inst.spec.to, pid, state, table, inst.view)


def _replacements(state: GameState, table: Table, pid: str, ab: Ability) -> list[Instance]:
    return [i for i in effects_in_force(state, table) if _applies(i, state, table, pid, ab)]


def _fits(inst: Instance, mana: Mana) -> bool:
    """The seeds' rule: an effect for a specific type and/or amount applies while the ability is
    producing that type / amount of mana; no mana, no production event to modify (106.7)."""
    if not mana:
        return False
    if inst.spec.mana is not None and inst.spec.mana not in mana:
        return False
    return inst.spec.min_amount is None or len(mana) >= inst.spec.min_amount


def _apply(inst: Instance, mana: Mana) -> Mana:
    """One mana replacement effect (614.1a): ``replace_mana`` (type, and amount if it says so),
    ``multiply_mana`` ("twice as much of that mana")."""
    if inst.spec.kind == EffectKind.REPLACE_MANA:
        n = inst.spec.mana_amount if inst.spec.mana_amount is not None else len(mana)
        return (str(inst.spec.value),) * n
    return mana_sorted([s for s in mana for _ in range(int(inst.spec.value))])


MAX_ORDERS = 10_000  # orders listed (or partial orders memoised) for one production: past it, an error


def _too_many(insts: list[Instance]) -> EngineError:
    """The limit on the orders of mana replacement effects (616.1: each order is followed)."""
    return EngineError(f"{len(insts)} mana replacement effects apply to one production: more than {MAX_ORDERS:,} "
                       "ways to order them (CR 616.1), past what the tool follows")


def _sequences(mana: Mana, insts: list[Instance]) -> list[tuple[tuple[Instance, ...], Mana]]:
    """Every way the affected player may apply the effects (616.1: one applicable effect at a time,
    re-checked after each; 614.5: each once), with the mana each way produces."""
    out: list[tuple[tuple[Instance, ...], Mana]] = []

    def go(done: tuple[Instance, ...], now: Mana) -> None:
        keys = {i.key for i in done}
        left = [i for i in insts if i.key not in keys and _fits(i, now)]
        if not left:
            out.append((done, now))
            if len(out) > MAX_ORDERS:
                raise _too_many(insts)
            return
        for inst in left:
            go(done + (inst,), _apply(inst, now))

    go((), mana)
    return out


def _outcomes(mana: Mana, insts: list[Instance]) -> set[Mana]:
    """Every mana reachable by applying the effects in some order (616.1, 614.5)."""
    memo: dict[tuple[frozenset[str], Mana], set[Mana]] = {}

    def go(applied: frozenset[str], now: Mana) -> set[Mana]:
        key = (applied, now)
        if key not in memo:
            if len(memo) > MAX_ORDERS:
                raise _too_many(insts)
            left = [i for i in insts if i.key not in applied and _fits(i, now)]
            res: set[Mana] = {now} if not left else set()
            for inst in left:
                res |= go(applied | {inst.key}, _apply(inst, now))
            memo[key] = res
        return memo[key]

    return go(frozenset(), mana) if mana else set()


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
                for mana in _productions(state, table, pid, ab, known):
                    for out in _outcomes(mana, reps[(pid, j)]):
                        types |= set(out)
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


# ---------------------------------------------------------------------------------------------
# tapping for mana: activation (602.2, 605.3a) and the mana production event (616.1)


def _event(state: GameState, pid: str, j: int, mana: Mana, applied: frozenset[str] = frozenset()) -> GameState:
    """The mana production event, next to happen (before anything else, 605.3a)."""
    return replace(state, queue=((TaskKind.MANA, pid, j, mana, applied),) + state.queue)


def mana_activation_problem(state: GameState, table: Table, action: TapForManaAction) -> str | None:
    """Why ``action``'s mana ability can't be activated now (605.3a, 602.2, 601.2h), or None.
    With no ``ability:`` and several mana abilities, the problem is that none can be activated."""
    perm = state.perm(action.id)
    if perm is None or not perm.present:
        return f"{action.id} can't be tapped for mana: it is not on the battlefield"
    several = [j for j, _ in _mana_abilities(state, table, action.id)] if action.ability is None else []
    if len(several) > 1:
        problems = [mana_activation_problem(state, table, replace(action, ability=j)) for j in several]
        return None if any(p is None for p in problems) else problems[0]
    found = find_ability(table, state, action.id, action.ability, "mana")
    if found is None:
        return f"{action.id} has no such mana ability"
    cant = f"{table.perm_specs[perm.spec].name}'s mana ability ({perm.id}) can't be activated"
    if found[1].once and found[0] in perm.activated_once:
        return f"{cant} again: it can be activated only once each turn (602.5b)"
    problem = cost_problem(state, table, perm, found[1].cost)
    if problem is not None:
        return f"{cant}: {problem}"
    return None


def tap_for_mana(state: GameState, table: Table, action: TapForManaAction) -> GameState | Decision:
    """Activate a mana ability: pay its cost, then it resolves at once (602.2, 605.3a)."""
    problem = mana_activation_problem(state, table, action)
    if problem is not None:
        return note(state, problem, NOT_DONE)  # an activation that can't be made doesn't happen
    several = [j for j, _ in _mana_abilities(state, table, action.id)] if action.ability is None else []
    if len(several) > 1:
        # which of its mana abilities is the controller's choice, not a default (602.2)
        who = state.perm(action.id).controller  # type: ignore[union-attr]
        name = table.spec_of(state, action.id).name  # type: ignore[union-attr]
        return decide(who, DecisionKind.CHOOSE, f"{action.id} mana ability", [
            Option(str(j), f"{says(who, 'activates')} {name}'s mana ability {j} ({action.id})",
                   replace(state, queue=((TaskKind.ACT, replace(action, ability=j)),) + state.queue))
            for j in several if mana_activation_problem(state, table, replace(action, ability=j)) is None])
    perm = state.perm(action.id)
    found = find_ability(table, state, action.id, action.ability, "mana")
    assert perm is not None and found is not None
    j, ab = found
    taps = tap_choices(state, table, perm, ab.cost)  # (before {T} taps the permanent itself)
    if taps != [None] and action.tap is None:
        # "Tap an untapped creature you control": which one is its controller's choice as the
        # cost is paid (601.2h); each choice activates it with that one (the action again)
        who, name = perm.controller, table.perm_specs[perm.spec].name
        return decide(who, DecisionKind.TAP, f"{perm.id} mana cost", [
            Option(str(t), f"{says(who, 'taps')} {t} to pay for {name}'s mana ability ({perm.id})",
                   replace(state, queue=((TaskKind.ACT, replace(action, ability=j, tap=t)),) + state.queue)) for t in taps])
    if action.tap is not None and action.tap not in taps:
        return note(state, f"{table.perm_specs[perm.spec].name}'s mana ability ({perm.id}) can't be activated tapping "
                           f"{action.tap}: it isn't an untapped permanent its cost can tap (601.2h)", NOT_DONE)
    paid = pay_cost(state, table, perm, ab.cost)
    assert paid is not None
    if action.tap is not None:
        other = paid.perm(action.tap)
        assert other is not None
        paid = paid.set_perm(replace(other, tapped=True))
    return _resolve_mana(paid, table, action, perm, j, ab)


def _resolve_mana(state: GameState, table: Table, action: TapForManaAction, perm: PermState, j: int,
                  ab: Ability) -> GameState | Decision:
    """The mana ability, its cost paid, resolves at once (605.3a): its once-each-turn record, the
    type chosen, the production event."""
    if ab.once:  # 602.5b: remembered for the rest of the turn
        now = state.perm(perm.id)
        assert now is not None
        state = state.set_perm(replace(now, activated_once=tuple(sorted(set(now.activated_once) | {j}))))
    refers = bool(ab.mana) and ab.mana[0] in (ManaKind.ANY_TYPE_OF, ManaKind.ANY_COLOR_OF)
    known = could_produce_all(state, table) if refers else {}
    options = _productions(state, table, perm.id, ab, known)
    if not options:
        return state  # undefined type: no mana, no production event (106.7)
    if action.choose is not None and ab.mana and ab.mana[0] in _CHOICE_KINDS:
        kept = [m for m in options if action.choose in m]
        if not kept:
            offered = " ".join("{" + m[0] + "}" for m in options)
            raise EngineError(f"tap_for_mana: {action.id} can't produce {{{action.choose}}} now; it could produce {offered}")
        options = kept
    if len(options) == 1:
        return _event(state, perm.id, j, options[0])
    name = table.perm_specs[perm.spec].name
    who = perm.controller
    return Decision(who, DecisionKind.CHOOSE, f"{perm.id} mana", tuple(
        Option(m[0], f"{says(who, 'chooses')} {{{m[0]}}} for {name}'s mana ({perm.id})", _event(state, perm.id, j, m))
        for m in options))


def _fmt_mana(mana: Mana) -> str:
    return "".join("{" + s + "}" for s in mana) or "no mana"


def produce_mana(state: GameState, table: Table, task: tuple[Any, ...]) -> GameState | Decision:
    """The mana production event: the permanent's controller applies the applicable replacement
    effects one at a time (616.1, 614.5), then the mana is added and triggers fire."""
    _, pid, j, mana, applied = task
    perm = state.perm(pid)
    assert perm is not None
    ab = table.abilities_of(state, pid)[j]
    left = [i for i in _replacements(state, table, pid, ab) if i.key not in applied and _fits(i, mana)]
    if not left:
        return _add_mana(state, table, perm, ab, mana)
    who = perm.controller  # 616.1: the affected object's controller
    return apply_one(state, table, who, f"{pid} tapped for mana", f"{pid}'s mana", mana, left, _apply, _fmt_mana,
                     lambda now, key: _event(state, pid, j, now, applied | {key}))


def _add_mana(state: GameState, table: Table, perm: PermState, ab: Ability, mana: Mana) -> GameState:
    """The mana goes to the ability's controller (106.4); "tapped for mana" triggers fire only if
    the ability tapped the permanent and produced mana (the seeds' rule; 603.2)."""
    state = _then(state, table, perm, ab)
    if not mana:
        return state
    p = state.player(perm.controller)
    state = state.set_player(replace(p, mana=mana_sorted(p.mana + mana)))
    if not _is_tap_ability(ab):
        return state
    return collect_triggers(state, table, TriggerEvent.TAPPED_FOR_MANA,
                    [(perm.id, {"_player": perm.controller, "_mana": "".join(mana)})])


def _then(state: GameState, table: Table, perm: PermState, ab: Ability) -> GameState:
    """The ability's other instructions ("This land deals 1 damage to you."), done as it
    resolves whatever mana it produced (605.3a, 608.2c): damage is its own event, processed next."""
    view = View(perm.controller, perm.id)
    for shot in ab.more:
        state = run_one_shot(state, table, shot, view, {})
    return state

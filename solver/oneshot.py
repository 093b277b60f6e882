"""One-shot actions (CR 608.2c, 610.1): what a resolving spell or ability, a rider or a case's
`one_shot:` does — deal damage, gain or lose or set life, draw, counters, create tokens, destroy,
exile, sacrifice — read from the game as it happens (608.2h)."""

from __future__ import annotations

from typing import Any

from mtg_outcomes.model.effects import EffectKind
from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.model.expr import GAME_READS, expr_vars
from mtg_outcomes.model.kinds import (
    ON_PERMANENTS,
    AbilityKind,
    ActionKind,
    DecisionKind,
    TriggerEvent,
)
from mtg_outcomes.model.load.hands import HAND_VARIABLE, reads_hand
from mtg_outcomes.model.selectors import Selector, SelectorKind
from mtg_outcomes.model.types import (
    OneShot,
)

from .characteristics import leave, power
from .decision import Decision, Option, decide, event, note, says
from .dies import put_into_graveyard
from .excess import excess_split
from .exiled import add_mana, exiled_card_cast
from .hands import returned_to_hands
from .persist import return_to_battlefield
from .regenerate import destroy_or_regenerate
from .results import (
    add_poison,
    become_monarch,
    change_life,
    gain_life,
    put_counters,
    remove_counters,
)
from .rules.effects import (
    start_batch,
)
from .rules.team import team_names
from .select import View, has_keyword, is_player, matches
from .state import (
    Event,
    GameState,
    Table,
    TaskKind,
    replace,
)
from .tokens import create_tokens
from .triggers import collect_triggers
from .values import evaluate, read_game

__all__ = ['read_now', 'shot_recipients', 'run_one_shot', 'set_life_event', 'spell_marks']


def read_now(amount: Any, state: GameState, table: Table, view: View, itself: str | None = None) -> Any:
    """An action's amount with what it reads from the game read now (608.2h): ``count`` the
    permanents on the battlefield its selector matches from the ability's controller's view,
    ``power`` the power of the object the ability is of (``self``), of its target (``target``) or
    of ``itself`` (the object dealing damage to itself), each as it last existed if it has left
    the battlefield (608.2h, 113.7a)."""
    def read(tag: str, arg: Any) -> int:
        if tag == "count":
            return sum(1 for p in state.perms if p.present and matches(arg, p.id, state, table, view))
        whose = {"self": view.self_id, "target": view.target, "itself": itself}[arg]
        perm = state.perm(whose) if whose is not None else None
        if perm is None:
            raise EngineError(f"{whose or 'the ability'}: power: {arg} needs a permanent (its power, 208.1)")
        return max(0, power(table, perm, state))

    return read_game(amount, read)


def shot_recipients(state: GameState, table: Table, shot: OneShot, view: View) -> list[str]:
    """Who a one-shot action does something to now (its ``to``; a target is the one chosen)."""
    return _recipients(state, table, shot, view)


def _recipients(state: GameState, table: Table, shot: OneShot, view: View) -> list[str]:
    sel = shot.to
    if sel.kind in (SelectorKind.TARGET, SelectorKind.ANY, SelectorKind.CHOICE):
        return [view.target] if view.target is not None else []
    if sel.kind == SelectorKind.SECOND_TARGET:
        return [view.second] if view.second is not None else []
    counters = shot.kind in (ActionKind.PUT_COUNTERS, ActionKind.REMOVE_COUNTERS)
    on_permanents = shot.kind in ON_PERMANENTS
    things = [] if counters or on_permanents else [p.name for p in state.players if not p.left]
    if shot.kind == ActionKind.DEAL or on_permanents or counters:
        things += [p.id for p in state.perms if p.present]
    return [t for t in things if matches(sel, t, state, table, view)]


def run_one_shot(state: GameState, table: Table, shot: OneShot, view: View, env: dict[str, int]) -> GameState:
    """Do one one-shot action now (608.2h: amounts are read as it resolves)."""
    if shot.by == "itself":
        return _deal_to_itself(state, table, shot, view, env)
    if shot.by == "target" and (view.target is None or is_player(table, view.target)):
        # an illegal (or no) target deals nothing: it performs no action (608.2b)
        return state
    if shot.kind == ActionKind.FIGHT:
        return _fight(state, table, shot, view)
    if shot.kind == ActionKind.MONSTROSITY:
        return _monstrosity(state, table, shot, view, env)
    if shot.kind == ActionKind.MILL:
        return state  # 701.17a: libraries and graveyards aren't tracked, so nothing computed changes
    if shot.kind == ActionKind.ADD_MANA:
        return add_mana(state, shot, view.controller)
    if shot.if_not_cast:  # "If you don't cast it, ~ deals ..." (608.2g: solver.exiled)
        cast = exiled_card_cast(state, view.controller, env)
        if cast is not None:
            return cast
        shot = replace(shot, if_not_cast=False)
    if expr_vars(shot.amount) & set(GAME_READS):
        shot = replace(shot, amount=read_now(shot.amount, state, table, view))
    # "target creature deals damage ... to each other creature" (Chandra's Ignition): "other" is
    # other than the creature dealing it, the target (608.2c)
    recipients = _recipients(state, table, shot, replace(view, self_id=view.target) if shot.by == "target" else view)
    in_game = [p for p in state.players if not p.left]
    base = dict(env)
    # "for each player": the players still in the game (800.4a; four in Two-Headed Giant)
    base["player_count"] = len(in_game)
    # read once, before any of the action happens: the players' life totals change at once
    base["lowest_life_total"] = min((p.life for p in in_game), default=0)
    if shot.kind == ActionKind.DEAL and shot.unless is not None:
        return _unless(state, table, shot, view, env)
    if shot.kind == ActionKind.DEAL:
        return _deal(state, table, shot, view, env, base, recipients)
    if shot.kind in _ON_PERMANENTS_OR_TOKENS:
        return _to_permanents(state, table, shot, view, base, recipients)
    return _to_players(state, table, shot, view, env, base, recipients)


def _deal(state: GameState, table: Table, shot: OneShot, view: View, env: dict[str, int], base: dict[str, int],
          recipients: list[str]) -> GameState:
    """A one-shot's damage, one batch of simultaneous events (120.2)."""
    source = shot.source or view.self_id or view.controller
    if shot.by == "target":
        # "target creature deals damage ...": the target is the source (as it last existed if
        # it has left, 113.7a; an illegal target deals none)
        assert view.target is not None
        source = view.target
    # "damage to each player equal to half that player's life total" (Heartless Hidetsugu):
    # each player's amount is read for that player, all before any is dealt (608.2h, 120.2)
    events = [Event(source, r, _amount_for(shot.amount, state, table, base, r), shot.combat) for r in recipients]
    if shot.excess and (shot.excess == "always" or has_keyword(state, table, source, "trample")):
        events = _excess_to_controller(state, table, events)
    for more, to in shot.also:  # the same source's other damage, at the same time (120.2)
        part = replace(shot, amount=read_now(more, state, table, view), to=to, also=())
        events += [Event(source, r, _amount_for(part.amount, state, table, base, r), shot.combat)
                   for r in _recipients(state, table, part, view)]
    events = spell_marks(table, state, source, int(env.get("X", 0)), events)
    return start_batch(state, table, events) if events else state


# the one-shots done to permanents (or creating them, or making a monarch), not to players' totals
_ON_PERMANENTS_OR_TOKENS = frozenset({
    ActionKind.RETURN_TO_BATTLEFIELD, ActionKind.DESTROY, ActionKind.EXILE, ActionKind.RETURN_TO_HAND, ActionKind.TAP,
    ActionKind.UNTAP, ActionKind.SACRIFICE, ActionKind.BECOME_MONARCH, ActionKind.CREATE_TOKENS,
    ActionKind.PUT_COUNTERS, ActionKind.REMOVE_COUNTERS})


def _to_permanents(state: GameState, table: Table, shot: OneShot, view: View, base: dict[str, int],
                   recipients: list[str]) -> GameState:
    """A one-shot done to permanents: destroy, exile, bounce, tap, sacrifice, counters, tokens."""
    present = [q for r in recipients if (q := state.perm(r)) is not None and q.present]
    match shot.kind:
        case ActionKind.RETURN_TO_BATTLEFIELD:
            return return_to_battlefield(state, table, view.self_id, shot.counter)
        case ActionKind.DESTROY:
            # 701.8: put into its owner's graveyard (it dies, 700.4); an indestructible one isn't (701.8b)
            doomed = [q for q in present if not has_keyword(state, table, q.id, "indestructible")]
            if not shot.no_regenerate:  # 701.19c: "it can't be regenerated": no shield replaces it
                state, doomed = destroy_or_regenerate(state, table, doomed)  # 701.19a
            return put_into_graveyard(state, table, doomed) if doomed else state
        case ActionKind.EXILE | ActionKind.RETURN_TO_HAND:
            # it leaves the battlefield without dying (400.7: the card in exile or in the hand is a
            # new object), so its dies triggers don't fire; a card returned is in its owner's hand
            # (402.1: counted where the case says the hand, solver.hands)
            if shot.kind == ActionKind.RETURN_TO_HAND:
                state = returned_to_hands(state, table, present)
            return leave(state, table, present)
        case ActionKind.TAP | ActionKind.UNTAP:
            # 701.26a-b: a permanent becomes tapped (its {T} abilities can't be activated) or untapped
            for q in present:
                if q.tapped != (shot.kind == ActionKind.TAP):
                    state = state.set_perm(replace(q, tapped=shot.kind == ActionKind.TAP))
            return state
        case ActionKind.SACRIFICE:
            # 701.21a: its controller puts it into its owner's graveyard (it dies, 700.4),
            # indestructible or not; a player sacrifices only permanents they control
            gone = [q for q in present if q.controller == view.controller]
            return put_into_graveyard(state, table, gone) if gone else state
        case ActionKind.BECOME_MONARCH:
            players = [r for r in recipients if is_player(table, r) and not state.player(r).left]
            if len(players) > 1:
                raise EngineError(f"{shot.to}: one player becomes the monarch (CR 724.3), not {len(players)}")
            return become_monarch(state, players[0]) if players else state
        case ActionKind.CREATE_TOKENS:
            # 111.2: the player who creates them (the ability's controller) owns and controls them
            return create_tokens(state, table, shot, view.controller, view.self_id or view.controller,
                                 max(0, evaluate(shot.amount, base)))
    n = max(0, evaluate(shot.amount, base))
    for r in recipients:
        if not is_player(table, r):
            state = put_counters(state, table, r, shot.counter, n) if shot.kind == ActionKind.PUT_COUNTERS else \
                remove_counters(state, r, shot.counter, n)
    return state


def _to_players(state: GameState, table: Table, shot: OneShot, view: View, env: dict[str, int],
                base: dict[str, int], recipients: list[str]) -> GameState:
    """A one-shot done to players: life (119), cards drawn (121.1), poison (122.1), energy."""
    amounts = [(r, _amount_for(shot.amount, state, table, base, r)) for r in recipients
               if is_player(table, r) and not state.player(r).left]
    # every player's amount is read before any of it happens (Dire Fleet Ravager in 2HG: each
    # member loses a third of the team's total as it was)
    if shot.kind == ActionKind.SET_LIFE:
        if amounts:
            task: tuple[Any, ...] = (TaskKind.SET_LIFE, _setting_groups(state, table, amounts), shot.source or view.self_id)
            state = replace(state, queue=(task,) + state.queue)
        return state
    lost = 0
    for r, n in amounts:
        n = max(0, n)  # no negative life loss or gain (107.1b): half of a negative life total is 0
        p = state.player(r)
        if shot.kind == ActionKind.LOSE_LIFE:
            before = p.life_lost
            state = change_life(state, table, r, -n)
            lost += state.player(r).life_lost - before  # what was actually lost (119.8: maybe none)
        elif shot.kind == ActionKind.GAIN_LIFE:
            state = gain_life(state, table, r, n, shot.source or view.self_id)
        elif shot.kind == ActionKind.DRAW:
            # 121.1: into the hand (402.1), counted where the case says the hand
            state = state.set_player(replace(p, cards_drawn=p.cards_drawn + n, hand=None if p.hand is None else p.hand + n))
            state = event(state, f"{says(r, 'draws')} {n} card{'' if n == 1 else 's'}", "121.1")
            # 121.2, 603.2: each card drawn is its own event ("whenever a player draws a card")
            state = collect_triggers(state, table, TriggerEvent.DRAWS, [(r, {"_player": r})] * n) if n > 0 else state
        elif shot.kind == ActionKind.GET_POISON:  # 122.1: poison counters (a team's shared, 810.10)
            state = add_poison(state, table, r, n)
        elif shot.kind == ActionKind.GET_ENERGY:  # 107.14: that many energy counters (122.1)
            state = state.set_player(replace(p, energy=p.energy + n))
    if shot.then is not None:
        # "you gain life equal to the life lost this way": the total every player actually lost
        rider = shot.then
        n = evaluate(rider.amount, {**env, "life_lost_this_way": lost})
        follow = OneShot(rider.kind, ("int", n), rider.to or Selector(SelectorKind.YOU), shot.source)
        state = run_one_shot(state, table, follow, view, env)
    return state


def _excess_to_controller(state: GameState, table: Table, events: list[Event]) -> list[Event]:
    """120.4a: damage beyond lethal for a permanent recipient is dealt to its controller instead
    ("Excess damage is dealt to that creature's controller instead.": Flame Spill; Ram Through's,
    if the creature has trample), split as the damage is processed (solver.damage.excess_split)."""
    return excess_split(state, table, events, [p.controller if (p := state.perm(ev.recipient)) is not None else None
                                               for ev in events])


def spell_marks(table: Table, state: GameState, source: str, x: int, events: list[Event]) -> list[Event]:
    """``events`` of a spell, marked as its own static abilities say (113.6, 615.12, 614.9): damage
    that can't be prevented (``{cant_be_prevented: true, from: self}``, with Banefire's
    ``if_x_at_least: 5`` read against the spell's X, 107.3) or can't be dealt instead to another
    permanent or player (``cant_be_redirected``), each for the recipients its ``to:`` names (Lava
    Burst's "If ~ would deal damage to a creature, ...")."""
    if source not in table.sources:
        return events
    out = []
    for ev in events:
        for ab in table.abilities_of(state, source):
            eff = ab.effect
            if ab.kind != AbilityKind.STATIC or eff is None or (ab.x_at_least is not None and x < ab.x_at_least) or \
                    (eff.to is not None and not matches(eff.to, ev.recipient, state, table, View(table.sources[source].controller, source))):
                continue
            if eff.kind == EffectKind.CANT_BE_PREVENTED:
                ev = replace(ev, unpreventable=True)
            elif eff.kind == EffectKind.CANT_BE_REDIRECTED:
                ev = replace(ev, unredirectable=True)
        out.append(ev)
    return out


def _monstrosity(state: GameState, table: Table, shot: OneShot, view: View, env: dict[str, int]) -> GameState:
    """701.37a: "Monstrosity N" means "If this permanent isn't monstrous, put N +1/+1 counters on it
    and it becomes monstrous"; then its "when ~ becomes monstrous" abilities trigger, their X the
    monstrosity's N (701.37b-c). One that left or is already monstrous does nothing."""

    me = state.perm(view.self_id) if view.self_id is not None else None
    if me is None or not me.present or me.monstrous:
        why = "it is already monstrous" if me is not None and me.present else "it has left the battlefield"
        return note(state, f"{view.self_id}'s monstrosity does nothing: {why} (701.37a)")
    n = max(0, evaluate(shot.amount, env))
    state = put_counters(state, table, me.id, "+1/+1", n)
    now = state.perm(me.id)
    assert now is not None
    state = state.set_perm(replace(now, monstrous=True))
    return collect_triggers(state, table, TriggerEvent.BECOMES_MONSTROUS, [(me.id, {"X": n})])


def _fight(state: GameState, table: Table, shot: OneShot, view: View) -> GameState:
    """701.14a: each of the two creatures deals damage equal to its power to the other, at once
    (one batch, 120.2), powers read as it happens (608.2h). 701.14b: if either is no longer on the
    battlefield or no longer a creature, or is an illegal target (608.2b: None here), no damage is
    dealt. 701.14c: a creature that fights itself deals itself twice its power."""

    first = {"target": view.target, "self": view.self_id}.get(shot.by, shot.source)
    other = {"target": view.target, "second_target": view.second, "self": view.self_id}.get(
        shot.to.kind, shot.to.name if shot.to.kind == SelectorKind.REF else None)
    pair = [state.perm(x) if x is not None and not is_player(table, x) else None for x in (first, other)]
    if any(p is None or not p.present or "creature" not in table.perm_specs[p.spec].types for p in pair):
        return note(state, f"no damage is dealt: {first or 'a creature'} and {other or 'a creature'} can't fight, "
                           "one of them isn't a creature on the battlefield or isn't a legal target (701.14b)")
    a, b = pair[0], pair[1]
    assert a is not None and b is not None
    if a.id == b.id:
        return start_batch(state, table, [Event(a.id, a.id, 2 * max(0, power(table, a, state)), False)])
    return start_batch(state, table, [Event(a.id, b.id, max(0, power(table, a, state)), False),
                                      Event(b.id, a.id, max(0, power(table, b, state)), False)])


def _amount_for(amount: Any, state: GameState, table: Table, base: dict[str, int], who: str) -> int:
    """``amount`` for the player or permanent ``who``: a player's own life total and the life it
    lost and gained this turn (in Two-Headed Giant the team's total, 810.9a) are read for that
    player; for a permanent they have no value, and reading them is an error (solver.values)."""
    if not is_player(table, who):
        try:
            return evaluate(amount, base)
        except EngineError as exc:
            raise EngineError(f"{who}: {exc} (a permanent has no life total: the amount is read for a player, 119.1)") from None
    p = state.player(who)
    if p.hand is None and reads_hand(amount):
        raise EngineError(f"{who}'s number of cards in hand isn't known here (not said with hand:, or a spell they cast "
                          "left a hand the case doesn't say, 601.2a; CR 402.1)")
    return evaluate(amount, {**base, "life_lost_this_turn": p.life_lost, "life_gained_this_turn": p.life_gained,
                             "life_total": p.life, **({HAND_VARIABLE: p.hand} if p.hand is not None else {})})


def _deal_to_itself(state: GameState, table: Table, shot: OneShot, view: View, env: dict[str, int]) -> GameState:
    """"Each creature deals damage to itself equal to its power" (Solar Blaze): each permanent the
    action names is the source of damage to itself, its amount read for it as the action resolves
    (608.2h); all of it at once, one batch (120.2)."""
    events = []
    for r in _recipients(state, table, shot, view):
        if is_player(table, r):
            continue  # a player deals no damage (only objects do, 120.1)
        n = evaluate(read_now(shot.amount, state, table, view, itself=r), dict(env))
        events.append(Event(r, r, n, shot.combat))
    return start_batch(state, table, events) if events else state


def _setting_groups(state: GameState, table: Table, settings: list[tuple[str, int]]) -> tuple[tuple[tuple[str, int], ...], ...]:
    """The players whose life total an action sets, one group per player, or per Two-Headed Giant
    team when it would set both members' (810.9d: the team chooses one of them), in APNAP order."""
    order = table.apnap(table.order)
    settings = sorted(settings, key=lambda s: order.index(s[0]))
    groups: list[tuple[tuple[str, int], ...]] = []
    done: set[str] = set()
    for name, n in settings:
        if name in done:
            continue
        mates = [s for s in settings if table.two_headed and s[0] in team_names(state, table, name)] or [(name, n)]
        done.update(m for m, _ in mates)
        groups.append(tuple(mates))
    return tuple(groups)


def set_life_event(state: GameState, table: Table, task: tuple[Any, ...]) -> GameState | Decision:
    """Life totals becoming a number (119.5): each player gains or loses the difference, so
    "can't gain / lose life" (119.7, 119.8) and life-gain replacements apply to it. In Two-Headed
    Giant a single player's setting is against the team's total (810.9c), and an effect setting
    both members' makes the team choose one of them: only that player is affected (810.9d)."""
    _, groups, source = task
    if not groups:
        return state
    first, rest = groups[0], groups[1:]
    if len(first) > 1:
        # the team chooses, named by its first player in turn order (as for blocks, 810.7)
        chooser = min((name for name, _ in first), key=table.order.index)
        options = [Option(name, f"{says(chooser, 'chooses')} {name} as the player whose life total becomes {n} (810.9d)",
                          replace(state, queue=((TaskKind.SET_LIFE, (((name, n),), *rest), source),) + state.queue))
                   for name, n in first]
        return decide(chooser, DecisionKind.CHOOSE, "life total setting", options)
    name, n = first[0]
    if rest:
        state = replace(state, queue=((TaskKind.SET_LIFE, rest, source),) + state.queue)
    delta = n - state.player(name).life
    if delta > 0:
        return gain_life(state, table, name, delta, source)
    return change_life(state, table, name, delta)


def _unless(state: GameState, table: Table, shot: OneShot, view: View, env: dict[str, int]) -> GameState:
    """"~ deals 3 damage to target creature unless that creature's controller has ~ deal 5 damage
    to them" (Blazing Salvo): the player the other deal names makes the choice as the spell
    resolves (608.2d; a choice of a player other than its controller, 101.4)."""
    alt = shot.unless
    assert alt is not None
    plain = replace(shot, unless=None)
    players = [p for p in _recipients(state, table, alt, view) if is_player(table, p) and not state.player(p).left]
    if len(players) != 1:
        return run_one_shot(state, table, plain, view, env)  # (no such player: nothing to choose)
    who = players[0]
    other = replace(alt, source=shot.source)
    name = shot.source or view.self_id or view.controller
    options = [Option("take", f"{says(who, 'has')} {name} deal its damage to them instead", run_one_shot(state, table, other, view, env)),
               Option("refuse", f"{says(who, 'lets')} {name} deal its damage as written", run_one_shot(state, table, plain, view, env))]
    return decide(who, DecisionKind.CHOOSE, f"{name}: unless", options)  # type: ignore[return-value]

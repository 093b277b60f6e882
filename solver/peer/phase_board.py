"""Setting a phase.rs game up as a case's board, and doing the case's scripted steps in it.

phase's debug actions (off by default; a state with ``debug_mode`` set unlocks them, then
``Engine.load_game``) move each card from its owner's library onto the battlefield, set
summoning sickness and the phase; life totals, life lost and gained this turn and poison are
written into the state itself (a ``SetLife`` would count as life lost). The rest is done the ordinary way, through phase's own prompts:
activating, casting, declaring attackers and blockers. A prompt the script can't answer as the
case says is a set-up failure (:class:`CannotSetUp`), never a silent substitute.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .phase_cards import FILLER
from .phase_plan import Activate, Cast, EndStep, Plan
from .protocol import CannotSetUp

__all__ = ["Board", "new_board", "start_step", "state_of", "battlefield", "DECK"]

DECK = 20  # cards per library: the case's own, the rest filler


def state_of(game: Any) -> dict[str, Any]:
    return dict(game.state()["state"])


def battlefield(st: Mapping[str, Any]) -> dict[int, Mapping[str, Any]]:
    return {int(k): o for k, o in st["objects"].items() if o.get("zone") == "Battlefield"}


def _debug(game: Any, action: dict[str, Any]) -> None:
    game.apply(0, {"type": "Debug", "data": action})


class Board:
    """Phase object ids of the case's permanents and spells, and the engine, for the steps."""

    def __init__(self, engine: Any, plan: Plan) -> None:
        self.engine, self.plan = engine, plan
        self.ids: dict[str, int] = {}


def _place(game: Any, board: Board, used: set[int]) -> None:
    for p in board.plan.perms:
        before = set(battlefield(state_of(game)))
        if p.token is not None:
            chars = {**p.token, "display_name": p.token["name"], "supertypes": []}
            _debug(game, {"type": "CreateToken", "data": {"request": {"type": "Custom", "data": {
                "owner": p.seat, "characteristics": chars}}}})
        else:
            obj = _object(state_of(game), str(p.card), p.seat, ("Library", "Hand"), used)
            _debug(game, {"type": "MoveToZone", "data": {"object_id": obj, "to_zone": "Battlefield", "simulate": False}})
        new = sorted(set(battlefield(state_of(game))) - before)
        if len(new) != 1:
            raise CannotSetUp([f"battlefield {p.id}: phase put {len(new)} objects onto the battlefield"])
        board.ids[p.id] = new[0]
        used.add(new[0])
        _debug(game, {"type": "SetSummoningSickness", "data": {"object_id": new[0], "sick": p.sick}})
        if p.tapped:
            _debug(game, {"type": "SetTapped", "data": {"object_id": new[0], "tapped": True}})
    for p in board.plan.perms:
        if p.attached_to is not None:
            _debug(game, {"type": "Attach", "data": {"object_id": board.ids[p.id], "target": {"type": "Object", "data": board.ids[p.attached_to]}}})
            host = state_of(game)["objects"][str(board.ids[p.id])].get("attached_to")
            if host is None:
                raise CannotSetUp([f"battlefield {p.id}: phase did not attach it to {p.attached_to}"])


def _object(st: Mapping[str, Any], name: str, seat: int, zones: tuple[str, ...], used: set[int]) -> int:
    for k, o in sorted(st["objects"].items(), key=lambda kv: int(kv[0])):
        if o["name"] == name and o["owner"] == seat and o["zone"] in zones and int(k) not in used:
            return int(k)
    raise CannotSetUp([f"card {name!r}: phase's game has no copy of it for seat {seat}"])


def new_board(engine: Any, plan: Plan, seed: int = 1) -> tuple[Any, Board]:
    """A game in the active player's precombat main phase with the case's board and its
    already-created effects (each by its activation), and the case's spells in their casters' hands."""
    decks: list[list[str]] = []
    for s in range(len(plan.players)):
        own = [p.card for p in plan.perms if p.seat == s and p.card] + [c.card for c in plan.spells if c.seat == s]
        decks.append([str(c) for c in own] + [FILLER] * max(DECK - len(own), 7))
    fmt = plan.format or ("Standard" if len(decks) == 2 else "FreeForAll")
    game = engine.new_game(decks[0], decks[1], extra_players=decks[2:] or None, seed=seed, format=fmt)
    while game.waiting_for().get("type") == "MulliganDecision":
        seat = game.waiting_for()["data"]["pending"][0]["player"]
        game.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
    full = game.state()
    full["state"]["debug_mode"] = True
    for seat, fields in enumerate(plan.player_state):
        # written into the state, not with SetLife: phase counts a SetLife drop as life lost this turn
        full["state"]["players"][seat].update(fields, life=_seat_life(plan, seat))
    game = engine.load_game(full)
    board = Board(engine, plan)
    used: set[int] = set()
    _place(game, board, used)
    for c in plan.spells:
        obj = _object(state_of(game), c.card, c.seat, ("Library", "Hand"), used)
        _debug(game, {"type": "MoveToZone", "data": {"object_id": obj, "to_zone": "Hand", "simulate": False}})
        board.ids[c.src] = _object(state_of(game), c.card, c.seat, ("Hand",), used)
        used.add(board.ids[c.src])
    for act in plan.setup:
        _debug(game, {"type": "SetPhase", "data": {"phase": "PreCombatMain", "active_player": act.seat}})
        start_step(game, board, act)
        _resolve_quietly(game, f"the activation of {act.perm}")
    _debug(game, {"type": "SetPhase", "data": {"phase": "PreCombatMain", "active_player": plan.active}})
    return game, board


def _seat_life(plan: Plan, seat: int) -> int:
    """A seat's life in phase. phase's Two-Headed Giant keeps a life total per player, half the
    team's each (15 + 15 for 30), where CR 810.9 has one shared total: the team's is split so."""
    for seats in plan.teams.values():
        if seat in seats:
            half = plan.life[seat] // 2
            return plan.life[seat] - half if seat == seats[0] else half
    return plan.life[seat]


def _resolve_quietly(game: Any, what: str) -> None:
    """Pass priority until the stack is empty; a prompt on the way is a set-up failure."""
    for _ in range(50):
        wf = game.waiting_for()
        if wf.get("type") != "Priority":
            raise CannotSetUp([f"{what}: phase asked {wf.get('type')} while setting up"])
        if not state_of(game)["stack"]:
            return
        game.apply(wf["data"]["player"], {"type": "PassPriority"})
    raise CannotSetUp([f"{what}: did not resolve"])


def _priority_to(game: Any, seat: int, what: str) -> None:
    wf = game.waiting_for()
    for _ in range(8):  # the players before ``seat`` pass, in turn order (CR 117.3d)
        if wf.get("type") != "Priority" or wf["data"]["player"] == seat:
            break
        game.apply(wf["data"]["player"], {"type": "PassPriority"})
        wf = game.waiting_for()
    if wf.get("type") != "Priority" or wf["data"]["player"] != seat:
        raise CannotSetUp([f"{what}: seat {seat} could not get priority (phase is at {wf.get('type')})"])


_MANA = {"White": "White", "Blue": "Blue", "Black": "Black", "Red": "Red", "Green": "Green"}


def _pay(game: Any, seat: int, cost: Mapping[str, Any] | None, x: int | None) -> None:
    """Put exactly the mana the cost needs into the payer's pool (a debug ``AddMana``)."""
    mana: list[str] = []
    if cost:
        mana += ["Colorless"] * int(cost.get("generic") or 0)
        for shard in cost.get("shards") or ():
            if shard == "X":
                mana += ["Colorless"] * int(x or 0)
            elif shard in _MANA:
                mana.append(_MANA[shard])
            else:
                raise CannotSetUp([f"mana symbol {shard!r}: not paid by the set-up"])
    if mana:
        _debug(game, {"type": "AddMana", "data": {"player_id": seat, "mana": mana}})


def _target(board: Board, target: int | str | None) -> Any:
    if isinstance(target, int):
        return {"Player": target}
    if target is None:
        return None
    return {"Object": board.ids[target]}


def start_step(game: Any, board: Board, step: Any) -> None:
    """Do a scripted step up to the point where it is on the stack (an activation or a spell,
    its X, target and mana as the case says) or the attackers are declared (a combat)."""
    if isinstance(step, Activate):
        obj = board.ids[step.perm]
        what = f"activate {step.perm}"
        _priority_to(game, step.seat, what)
        found = [a for a in game.actions() if a.kind == "ActivateAbility" and a.data["source_id"] == obj]
        if len(found) != 1:
            raise CannotSetUp([f"{what}: phase offers {len(found)} activated abilities of it (one is mapped)"])
        ability = state_of(game)["objects"][str(obj)]["abilities"][found[0].data["ability_index"]]
        cost = (ability.get("cost") or {}).get("cost") if (ability.get("cost") or {}).get("type") == "Mana" else None
        _pay(game, step.seat, cost, step.x)
        game.apply(step.seat, found[0])
        _answer(game, board, step.seat, step.x, step.target, what)
    elif isinstance(step, Cast):
        obj = board.ids[step.src]
        what = f"cast {step.card}"
        _priority_to(game, step.seat, what)
        _pay(game, step.seat, state_of(game)["objects"][str(obj)].get("mana_cost"), None)
        found = [a for a in game.actions() if a.kind == "CastSpell" and (a.data or {}).get("object_id") == obj]
        if len(found) != 1:
            raise CannotSetUp([f"{what}: phase offers {len(found)} ways to cast it"])
        game.apply(step.seat, found[0])
        _answer(game, board, step.seat, None, step.target, what)
    elif isinstance(step, EndStep):
        # from the second main phase, every player passing moves the game to the end step (CR 500.2)
        _debug(game, {"type": "SetPhase", "data": {"phase": "PostCombatMain", "active_player": board.plan.active}})
        for _ in range(2 * len(board.plan.players)):
            wf = game.waiting_for()
            if game.phase != "PostCombatMain" or wf.get("type") != "Priority":
                break
            game.apply(wf["data"]["player"], {"type": "PassPriority"})
        if game.phase != "End":
            raise CannotSetUp([f"end_step: phase did not reach the end step (it is at {game.phase})"])
    else:
        _combat(game, board)


def _answer(game: Any, board: Board, seat: int, x: int | None, target: int | str | None, what: str) -> None:
    """The activation's or spell's own prompts, answered as the case says (CR 601.2b-h)."""
    want = _target(board, target)
    for _ in range(10):
        wf = game.waiting_for()
        kind = wf.get("type")
        if kind == "Priority":
            return
        acts = game.actions()
        if kind == "ChooseXValue":
            pick = [a for a in acts if a.kind == "ChooseX" and a.data["value"] == x]
        elif kind == "TargetSelection":
            pick = [a for a in acts if a.kind == "ChooseTarget" and a.data["target"] == want]
        else:
            pick = []
        if len(pick) != 1:
            raise CannotSetUp([f"{what}: phase asked {kind} and offers no option for the case's "
                               f"{'X' if kind == 'ChooseXValue' else 'target'} ({x if kind == 'ChooseXValue' else target})"])
        game.apply(seat, pick[0])
    raise CannotSetUp([f"{what}: too many prompts"])


def _combat(game: Any, board: Board) -> None:
    """Go to the active player's combat and declare the case's attackers (CR 508.1)."""
    plan = board.plan
    _debug(game, {"type": "SetPhase", "data": {"phase": "BeginCombat", "active_player": plan.active}})
    for _ in range(10):
        wf = game.waiting_for()
        if wf.get("type") != "Priority":
            break
        game.apply(wf["data"]["player"], {"type": "PassPriority"})
    wf = game.waiting_for()
    attacks = [[board.ids[p.id], {"type": "Player", "data": p.attacking}] for p in plan.perms if p.attacking is not None]
    if wf.get("type") != "DeclareAttackers":
        if attacks:
            raise CannotSetUp([f"combat: phase did not ask for attackers (it is at {wf.get('type')})"])
        return
    team = next((seats for seats in plan.teams.values() if plan.active in seats), [plan.active])
    if any(p.seat not in team for p in plan.perms if p.attacking is not None):
        raise CannotSetUp(["combat: an attacker is not the active player's (or their team's, CR 810.7)"])
    try:
        game.apply(plan.active, {"type": "DeclareAttackers", "data": {"attacks": attacks, "bands": []}})
    except Exception as exc:  # phase's own refusal, in its words
        raise CannotSetUp([f"combat: phase refused the attack: {exc}"]) from None


def declare_blockers(game: Any, board: Board, seat: int) -> None:
    """Seat ``seat``'s blocks as the case declares them (CR 509.1)."""
    blocks = [[board.ids[p.id], board.ids[a]] for p in board.plan.perms if p.seat == seat for a in p.blocking]
    try:
        game.apply(seat, {"type": "DeclareBlockers", "data": {"assignments": blocks}})
    except Exception as exc:
        raise CannotSetUp([f"combat: phase refused the blocks: {exc}"]) from None

"""A prevention shield prevents as much as it can (CR 615.7): one definition, two forms.

615.7: "prevent the next N damage" (a shield) applied to simultaneous events prevents, at each
event it is applied to, a share the affected player chooses (616.1), N in all at most; it
prevents as much as it can, so a legal result has each shield either used up (its whole N taken)
or having taken all it was offered at every event it was applied to. A partial redirection
("the next N damage ... is dealt to A instead", 614.9) depletes the same way.

The pieces, each written once and read by both engines:

- :func:`room`: the most a shield can take from one event, min(remaining, offered);
- :func:`shares`: the shares the affected player may choose from there, the most first;
- :func:`took_all` and :func:`used_up`: the two ways a shield meets 615.7 (:func:`used_up` is plain
  arithmetic, so it holds on numbers and, elementwise, on the CP tables' numpy arrays);
- :func:`falls_short`: the concrete check of a result (the graph engine marks the branch dead,
  solver.damage, solver.next_time), and :func:`still_owed`, what a shield that took less than
  it was offered must still prevent elsewhere (the CP tables drop a state that can't);
- :func:`share_constraint` and :func:`used_up_constraint`: the constraint forms on a CP-SAT model
  passed in (solver.cp.literals, solver.cp.encodings, solver.cp.encode).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["room", "shares", "took_all", "used_up", "falls_short", "still_owed", "share_constraint",
           "used_up_constraint"]


def room(remaining: int, offered: int) -> int:
    """The most a shield with ``remaining`` left can take from an event of ``offered`` (615.7)."""
    return min(remaining, offered)


def shares(most: int) -> range:
    """The shares a shield with :func:`room` ``most`` may take from an event, the most first
    (615.7: the affected player chooses; less than the most is legal only if the shield is used
    up elsewhere, which :func:`falls_short` checks once the batch is done)."""
    return range(most, -1, -1)


def took_all(share: int, offered: int) -> int:
    """1 when the shield took all the event offered it (615.7's second way to be legal), else 0."""
    return int(share == offered)


def used_up(taken: Any, remaining: Any) -> Any:
    """Whether a shield that had ``remaining`` has taken it all (``taken``: its shares so far;
    elementwise on arrays): nothing can make it fall short any more (615.7)."""
    return taken == remaining


def falls_short(took_all_offered: bool, left: int) -> bool:
    """615.7's concrete check of a result: a shield that took less than it was offered somewhere
    and still has ``left`` to prevent prevented less than it could: an illegal result."""
    return not took_all_offered and left > 0


def still_owed(remaining: Any, taken: Any, took_all_offered: Any) -> Any:
    """What a shield that has taken ``taken`` of ``remaining`` must still prevent at later events
    for the result to be legal (615.7): the rest when it took less than it was offered somewhere
    (``took_all_offered`` 0), else nothing. Plain arithmetic: elementwise on 0/1 arrays."""
    return (remaining - taken) * (1 - took_all_offered)


def share_constraint(m: Any, share: Any, offered: Any, full: Any, after: Any) -> None:
    """The constraint form of one application (615.7) on a CP-SAT model ``m``: the shield takes
    ``share`` of ``offered`` (at most all of it), ``full`` exactly when it took all of it, and
    ``after`` is what is left of the event."""
    m.add(share <= offered)
    m.add(share == offered).only_enforce_if(full)
    m.add(share <= offered - 1).only_enforce_if(~full)
    m.add(after == offered - share)


def used_up_constraint(m: Any, total: Any, remaining: int, fulls: Iterable[Any],
                       at_least: Callable[[Any, Any, int], Any]) -> None:
    """The constraint form of :func:`falls_short` (615.7) over a whole step on a CP-SAT model
    ``m``: a shield with ``remaining`` takes ``total`` across its events, and either it is used up
    or it took all it was offered at each event (``fulls``: a literal or bool per event, true
    when it did). ``at_least(m, expr, k)``: a literal for ``expr >= k`` (a bool when constant)."""
    fulls = list(fulls)
    used = at_least(m, total, remaining) if fulls else True
    for full in fulls:
        lits = [lit for lit in (full, used) if lit is not False]
        if not any(lit is True for lit in lits):
            m.add_bool_or(lits)

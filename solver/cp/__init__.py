"""The CP-SAT engine: one damage batch's choices as a constraint model (docs/design.md, "Choice graph
and CP model"): the timeline's last batch, whatever opened it, or its last combat damage step.
The only package that imports ortools (solver.cp.answer, when a model is built), so
:func:`cp_supported` stays cheap. Modules: ``prefix`` (the graph engine's rules expand every
choice before the step: earlier actions, targets and divisions, trigger order, declared blocks,
the first-strike damage step, CR 510.4), ``plan`` (what the model of the step needs from one
state at its start, or why it can't, a ``refusal`` with its rule: ``planner`` plans one state's step,
``step`` holds what a plan is made of, ``declines`` what is declined and why; :func:`plan_step`
plans it for a caller), ``costs`` (the engines'
estimated costs, for ``auto``; ``auto`` builds the answer from the plans the estimate made), ``tables``
(per-event and group result tables; ``sums``: one step of a group table's merge), ``trees`` (an event a redirection applies to, CR 614.9:
its choices walked by the graph engine's rules into a table of its results), ``encode`` (the
model: ``units`` it is made of, ``encodings`` of an event's choices, ``tally`` of the damage's
results and ``checks`` of the state-based check, ``literals``, ``hints``; ``cptypes`` names
OR-Tools' types for the type checker), ``answer`` (each state's model built and searched),
``witness`` (reading a solution; with redirected events, by driving the graph engine's
decisions), ``search`` (enumeration; the union over the states at the step's
start, each witness the prefix's choices then the step's), ``choosers`` (who chooses in the
step; whether CP can optimise it), ``suffix`` (the mirror of the prefix:
when more of the timeline follows the step, the rules engine continues from each of the step's
distinct results, replayed from its witness, to the end: later actions, the triggers the step
fires, the end of the combat damage step), ``optimum`` (optimisation; with a suffix, the choice graph's
backward induction values each of the step's distinct states after it).

Each damage event's choices (the affected player's order of the applicable effects, CR 616.1,
and each shield's share of the event, CR 615.7) are encoded one of two ways:

* a **table**: every distinct result of the event (damage dealt, each shield's share and
  whether it took all it was offered, damage prevented by effects with riders) is enumerated
  over all orders and shares (120.8: nothing applies once the amount is 0), and events whose
  results only matter through their sums (same recipient, same lifelink controller, infect,
  wither, deathtouch, no draw trigger watching them) form a group; all the groups share one
  table (a DP over their events, with back pointers for the witness) of their distinct results:
  a column of damage per group, each shield's share and each rider's prevention summed. A
  shield applied to these events alone is settled in the DP (615.7: used up, or it took all it
  was offered; a state the later events can't complete is dropped when formed), so the table
  holds only legal results and its rows are nearly the outcomes (too big: a table per group,
  then per event);
* **blocks** (events with too many orders): the non-shield effects' order as slot booleans
  (a permutation matrix), the amount as linear integer stages (x2, +N, min, halving through
  division constraints, "+N only on a positive amount"), and each shield placed in one of the
  blocks between them or after the amount reached 0.

Combat damage division (510.1c-d) is one literal per option of each creature's assignment (the
options the graph engine offers); a (creature, recipient) pair's amount is then a linear sum of
them and its event takes the block encoding with that variable amount (0: no event, 120.8).
Trample's condition is checked on the whole assignment (702.19b, 510.1e): a trampler's literal
"assigns to the player" forces each of its blockers to be assigned lethal damage in total.

A shield prevents min(remaining, damage offered where it was applied) (615.7): either it is
used up, or at every event it was applied to it took all it was offered. Results (life,
poison, marked damage, -1/-1 counters, lifelink per source, riders, draw triggers, state-based
actions) are linear expressions and reified comparisons. Distinct outcomes on a projection are
enumerated in runs: a run enumerates solutions (enumerate_all_solutions) and keeps up to
``PER_RUN`` new projections, each is then forbidden by a clause that some projected field must
differ (a no-good over shared "field == value" literals), and the next run starts, until a run
finds nothing or sees every solution left. When every choice is a table's row and there are few
enough of them, one run enumerates them all. After a run stopped by repeats (a big model whose
solutions differ where no projected field looks), ``sweep`` aims at each found outcome's
neighbours directly (a field one step up or down: a short hinted solve under assumptions); the
next run is the proof, or, when it takes too long, ``ranges`` (each value of one field between
its proved ends, for each value of the others), which aims from the neighbours first.

``Outcome.paths`` is 0 for this engine: raw choice paths are not counted (the point of the engine
is not to walk them). Each outcome's witness is a legal choice sequence in the graph engine's
labels (``at`` = ``source->recipient``, ``picked`` = ``key`` or ``key:amount``); the tests replay
it through the graph engine.
"""

from __future__ import annotations

from .answer import AUTO_BUILD_SHARE, cp_outcomes
from .choosers import cp_optimizable
from .costs import (
    CP_EVENT_COST,
    CP_START_COST,
    GRAPH_STATE_COST,
    GRAPH_STATE_EVENT_COST,
    estimate_paths,
    prefer_cp,
)
from .optimum import cp_optimize
from .plan import StepPlans, cp_supported, plan_step

__all__ = ["cp_supported", "plan_step", "StepPlans", "cp_outcomes", "cp_optimizable", "cp_optimize", "estimate_paths", "prefer_cp",
           "GRAPH_STATE_COST", "GRAPH_STATE_EVENT_COST", "CP_START_COST", "CP_EVENT_COST", "AUTO_BUILD_SHARE"]

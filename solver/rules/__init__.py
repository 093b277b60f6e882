"""The rules core: one module per rule (or tight family of rules), each the one definition both
engines use.

A rule with two forms exports its concrete form (numbers in, numbers out: the choice-graph engine
and validation read it) beside its constraint form (the same rule stated on a CP-SAT model passed
in, duck-typed or typed with OR-Tools' own types: this package never imports OR-Tools itself):

- :mod:`.amounts`: what an effect does to a damage event's amount (614.1a, 615, 702.16e);
- :mod:`.shields`: a prevention shield prevents as much as it can (615.7, 615.8);
- :mod:`.lethal`: lethal damage and the whole-assignment check of combat damage (120.6, 702.19b);
- :mod:`.loss`: a player loses for 0 life or 10 poison counters (704.5a, 704.5c, 704.6b);
- :mod:`.team`: Two-Headed Giant's shared life total and poison (810.9, 810.10);
- :mod:`.stack_order`: the order a player's waiting triggers are offered in (603.3b);
- :mod:`.blocks`: which block declarations are legal (509.1);
- :mod:`.effects`: which replacement and prevention effects apply to an event and applying one
  (614, 615, 616), the concrete machinery the rules above plug into.

The package's own ``__init__`` imports nothing, so a module here may import the solver's state
modules without a cycle.
"""

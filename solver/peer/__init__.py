"""Peer engines: run a case through another rules engine and compare outcome sets (issue 18).

:mod:`.protocol` is what a peer is; :mod:`.compare` the comparison; :mod:`.report` its words;
the phase.rs adapter is :mod:`.phase_plan` (case -> what phase can be told), :mod:`.phase_cards`
(its card database), :mod:`.phase_board` (the board set-up and scripted steps) and
:mod:`.phase_explore` (every branch of its prompts), put together in :mod:`.phase_peer`.
"""

from .compare import Comparison, compare
from .protocol import CannotSetUp, Peer, PeerOutcome, PeerRun, PeerUnavailable

__all__ = ["Comparison", "compare", "CannotSetUp", "Peer", "PeerOutcome", "PeerRun", "PeerUnavailable"]

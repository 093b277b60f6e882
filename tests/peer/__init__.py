"""Tests of the peer engine comparison (solver/peer)."""

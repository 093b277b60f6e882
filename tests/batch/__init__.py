"""Tests of batch runs (solver/batch)."""

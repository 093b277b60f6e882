"""Tests of the CP engine (solver/cp)."""

"""Tests of the command line (solver/cli)."""

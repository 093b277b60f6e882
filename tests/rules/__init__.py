"""Tests of the rules, one file per rule or card behaviour (solver/'s rules modules)."""

"""Tests of the HTML report (solver/report)."""

"""Tests of the documentation's examples (docs/, README.md)."""

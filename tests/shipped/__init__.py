"""Tests of every shipped case in cases/: its expect: and both engines."""

"""Tests of the graph engine and the API above the engines: graph, limits, explain, check (solver/)."""

"""Agents and solvers (random, heuristic, ISMCTS, PIMC, double-dummy) over the GameSpec
protocol. Empty in this milestone: the engines come first (DESIGN.md §3)."""

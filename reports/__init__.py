"""Reports built from an experiment's store alone. Empty in this milestone (DESIGN.md §5)."""

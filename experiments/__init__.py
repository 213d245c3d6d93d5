"""Seeded batch experiments with a resumable Parquet store. Empty in this milestone
(DESIGN.md §4)."""

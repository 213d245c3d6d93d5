"""Seeded batch experiments with a resumable Parquet store (DESIGN.md §4): :mod:`.spec` (the
TOML experiment spec), :mod:`.runner` (batches on local processes or Dask), :mod:`.store`
(the results folder), :mod:`.rows` (the store's rows as games), :mod:`.tables` (the summary
tables) and :mod:`.sprt` (sequential tests)."""

"""The application: the top layer (DESIGN.md §6), the only code that imports from every layer.

:mod:`.cli` (the ``cardsim`` command line: its parser and ``main``), whose subcommands live
with their workflow in :mod:`.engine` (games, simulate, compile, bench), :mod:`.studies` (run,
equity, train, demo, report, verify, compare) and :mod:`.positions` (analyze, review, solve,
play), sharing the argument types of :mod:`.arguments`; :mod:`.bench` (``cardsim bench``'s
measurements, with :mod:`.openspiel_baseline`, the Python game its OpenSpiel figures are
set against) and :mod:`.interactive` (a person playing at the terminal). Below it, in one
direction: the engines (the rest of :mod:`cardsim`), :mod:`cardsim.solvers`,
:mod:`cardsim.experiments`, :mod:`cardsim.reports` (``tests/test_layers.py`` checks it).
Nothing here defines compiled code (compiled code lives in the folders of
:mod:`cardsim.compiled.cache`'s groups only).
"""

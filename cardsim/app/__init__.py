"""The application: the top layer (DESIGN.md §6), the only code that imports from every layer.

:mod:`.cli` (the ``cardsim`` command line), :mod:`.bench` (``cardsim bench``'s measurements)
and :mod:`.interactive` (a person playing at the terminal). Below it, in one direction: the
engines (the rest of :mod:`cardsim`), :mod:`solvers`, :mod:`experiments`, :mod:`reports`
(``tests/test_layers.py`` checks it). Nothing here defines compiled code (``cardsim/_cache.py``
hashes ``cardsim/*.py`` only).
"""

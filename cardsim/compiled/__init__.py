"""The compiled toolkit: how cardsim compiles (:mod:`.jit`), where the compiled code is kept
(:mod:`.cache`) and reported (:mod:`.compiling`), and the compiled helpers every game's kernels
share — card-set bits, the random stream, the deal order, action ids, turns, the clock, the
OpenSpiel step. This folder is the ``core`` compile group: every compiled function of a game
or a solver may hold code of these modules, so their sources are part of every group's hash,
and nothing outside this folder, ``games/<game>/`` and ``solvers/`` is."""

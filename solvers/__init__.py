"""Agents and solvers over the GameSpec protocol (DESIGN.md §3), one implementation each for
every game: :mod:`.agents` (spec strings, the compiled game loop), :mod:`.ismcts`
(Information-Set MCTS), :mod:`.duplicate` (duplicate deals), :mod:`.analyze` (the value of
each legal action of a position), :mod:`.interactive` (a person at the terminal). PIMC and the
double-dummy solvers come with issue 7."""

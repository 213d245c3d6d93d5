"""Agents and solvers over the GameSpec protocol (DESIGN.md §3), one implementation each for
every game, compiled per game (:mod:`cardsim.compiled.jit`): :mod:`.agent_spec` (agent spec strings,
plain Python), :mod:`.agents` (the compiled game loop), :mod:`.ismcts` (Information-Set MCTS),
:mod:`.pimc` (perfect-information Monte Carlo and the oracle), :mod:`.lookahead` (PIMC's
shallow search of a world over the learned evaluation), :mod:`.evaluation` and
:mod:`.training` (the learned evaluation and its self-play training), :mod:`.exact` (the exact
double-dummy solver), :mod:`.duplicate` (duplicate deals), :mod:`.analyze` (the value of each
legal action of a position), :mod:`.warmup` (compiling a game's entry points ahead of time)
and :mod:`.strength` (strength figures on duplicate deals). The terminal UI is part of the
application, :mod:`cardsim.app.interactive`."""

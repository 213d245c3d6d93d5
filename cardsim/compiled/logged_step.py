"""One move of a deal for OpenSpiel's states, with what each seat saw of it
(:mod:`cardsim.interop.openspiel`)."""
from __future__ import annotations

from .jit import G, generic


@generic(nrt=False)
def logged_step(state, params, action, n_players, log, k, out):
    """Play ``action``; ``log[k]``: the seat that moved, then the move as each seat saw it.
    Returns ``65536 * (seat to move + 1) + n`` with the ``n`` legal actions of the new
    position in ``out`` (0 when the deal is over: no seat, no action)."""
    actor = G.current_player(state, params)
    log[k, 0] = actor
    for seat in range(n_players):
        log[k, 1 + seat] = action if seat == actor else G.observed_action(state, params, action,
                                                                          seat)
    G.apply_action(state, params, action)
    if G.is_terminal(state, params):
        return 0
    return 65536 * (G.current_player(state, params) + 1) + G.legal_actions(state, params, out)

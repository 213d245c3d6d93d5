"""Minchiate's match of ``deals`` deals as states and deal outcomes, for match-equity tables
(:mod:`cardsim.protocol.match`).

A state is ``(net, deals_left, dealer)``: team A's net resti so far (team A is side ``a``,
seats 0 and 2 in the first deal's seating), the deals still to play, and the team that deals
the next one (the deal passes counter-clockwise, so the dealing team alternates). A deal's
outcome is its net resti for side a; after the last deal a positive net wins, a negative one
loses and 0 is a draw (MI-RESTO-4).

The table's rows are the nets a match can reach: none before its first deal, and at most 8
resti a deal after it (a heuristic deal reaches 8 about once in 300; capped at 60), for every
number of deals to go and either dealing team.

A search that values a deal's end by the table (``ismcts:value=match``) reads the state's
table *cell* in compiled code: :func:`match_cell` from the state vector, :func:`cell` from a
state tuple, the same index; a net beyond the table's rows counts as the nearest row's.

A position holds its match state (``deal_number`` and ``net_total``, the nets of the deals
before it), so ``analyze --match`` reads it there (:func:`position`).
"""
from __future__ import annotations

import numpy as np

from ...compiled.jit import kernel
from ...protocol.match import (
    A_WINS,
    B_WINS,
    DRAW,
    SIDES,
    MatchModel,
    dealer_side,
    first_seat,
    other_side,
    seat_values,
)
from . import layout as L
from .rules import P_DEALS, MinchiateRules

REACH = 8
"""Resti a deal the table's rows reach (module docstring)."""
CAP = 60
"""The most net resti the table's rows reach (module docstring)."""


def reach(deals: int, left: int) -> int:
    """The largest net resti of the table's rows with ``left`` of ``deals`` deals to go."""
    return min(REACH * (deals - left), CAP)


def cell(state: tuple, deals: int) -> int:
    """The table cell of the state ``(net, deals_left, dealer)`` (module docstring)."""
    net, left, dealer = state
    net = max(-reach(deals, left), min(net, reach(deals, left)))
    return (((left - 1) * (2 * CAP + 1)) + net + CAP) * 2 + SIDES.index(dealer)


@kernel(inline=True)
def match_cell(state, params, side):
    """MI-RESTO-4: the cell (:func:`cell`) of the match state that ``state``'s deal was dealt
    from, seen by ``side`` (side a; team A is side 0): the net resti of the deals before it,
    the deals to go counting this one, and whether ``side`` deals."""
    deals = params[P_DEALS]
    left = deals - np.int64(state[L.DEAL_NUMBER]) + 1
    net = np.int64(state[L.NET_TOTAL]) - np.int64(L.D_BIAS)
    if side == 1:
        net = -net
    far = min(REACH * (deals - left), CAP)
    net = max(-far, min(net, far))
    dealer = 0 if np.int64(state[L.DEALER]) % 2 == side else 1
    return (((left - 1) * (2 * CAP + 1)) + net + CAP) * 2 + dealer


def position(d: dict, player: int) -> tuple:
    """The match state of a position dict before its deal ends, seen by ``player``: his team
    is side a (MI-RESTO-4: the net of the deals before this one, the deals to go)."""
    mine = player % 2
    net = d["net_total"] if mine == 0 else -d["net_total"]
    left = d["rules"]["deals"] - d["deal_number"] + 1
    return (net, left, SIDES[0] if d["dealer"] % 2 == mine else SIDES[1])


def model(rules: MinchiateRules) -> MatchModel:
    """Minchiate's match of ``rules.deals`` deals (module docstring)."""
    deals = rules.deals

    def step(state, outcome):
        net, left, dealer = state
        net, left = net + int(outcome[0]), left - 1
        if left == 0:
            return A_WINS if net > 0 else B_WINS if net < 0 else DRAW
        return (net, left, other_side(dealer))

    def outcomes(rows, side):
        net = seat_values(rows, "cat_net", first_seat(side, 0))   # the deal's own net
        return dealer_side(rows, side), net.astype("int64")[:, None]

    states = tuple((net, left, d) for left in range(deals, 0, -1)
                   for far in [reach(deals, left)]
                   for net in range(-far, far + 1) for d in SIDES)
    return MatchModel(
        columns=("net", "deals_left", "dealer"), states=states, configs=SIDES,
        config=lambda state: SIDES.index(state[2]), step=step, outcomes=outcomes,
        mirror=lambda state: (-state[0], state[1], other_side(state[2])),
        better=lambda state: [(state[0] + 1, state[1], state[2])],
        outcome_columns=("net_a",), rules="MI-RESTO-4", draws=True, position=position,
        alone=lambda d: {**d, "mode": "deal", "deal_number": 1, "start_dealer": d["dealer"],
                         "net_total": 0},
        cells=deals * (2 * CAP + 1) * 2, cell=lambda state: cell(state, deals),
        description=f"a match of {deals} deal(s): team A's net resti, the deals to go and "
                    "the dealing team")


def standing(vec: np.ndarray, rules: MinchiateRules, n: int) -> list[float]:
    """MI-RESTO-4: each seat's standing in the match, higher is better: its team's net resti
    so far (team A is seats 0 and 2)."""
    net = float(np.int64(vec[L.NET_TOTAL]) - np.int64(L.D_BIAS))
    return [net if s % 2 == 0 else -net for s in range(n)]

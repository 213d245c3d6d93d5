"""Minchiate's match of ``deals`` deals as states and deal outcomes, for match-equity tables
(:mod:`cardsim.match`).

A state is ``(net, deals_left, dealer)``: team A's net resti so far (team A is side ``a``,
seats 0 and 2 in the first deal's seating), the deals still to play, and the team that deals
the next one (the deal passes counter-clockwise, so the dealing team alternates). A deal's
outcome is its net resti for side a; after the last deal a positive net wins, a negative one
loses and 0 is a draw (MI-RESTO-4).

The table's rows are the nets a match can reach: none before its first deal, and at most 8
resti a deal after it (a heuristic deal reaches 8 about once in 300; capped at 60), for every
number of deals to go and either dealing team.
"""
from __future__ import annotations

from ...match import A_WINS, B_WINS, DRAW, SIDES, MatchModel, dealer_side, first_seat, other_side, seat_values
from .rules import MinchiateRules

REACH = 8
"""Resti a deal the table's rows reach (module docstring)."""


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
        net = seat_values(rows, "return", first_seat(side, 0))
        return dealer_side(rows, side), net.astype("int64")[:, None]

    states = tuple((net, left, d) for left in range(deals, 0, -1)
                   for reach in [min(REACH * (deals - left), 60)]
                   for net in range(-reach, reach + 1) for d in SIDES)
    return MatchModel(
        columns=("net", "deals_left", "dealer"), states=states, configs=SIDES,
        config=lambda state: SIDES.index(state[2]), step=step, outcomes=outcomes,
        mirror=lambda state: (-state[0], state[1], other_side(state[2])),
        better=lambda state: [(state[0] + 1, state[1], state[2])],
        outcome_columns=("net_a",), rules="MI-RESTO-4", draws=True,
        description=f"a match of {deals} deal(s): team A's net resti, the deals to go and "
                    "the dealing team")

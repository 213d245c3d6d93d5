"""Scopa's match as states and deal outcomes, for match-equity tables (:mod:`cardsim.protocol.match`).

A state is ``(score_a, score_b, dealer)``: the sides' match scores before a deal and the side
that deals it (``a`` or ``b``; it alternates, SC-DEAL-6 — in 2x2 the deal passes round the
table, so the dealing *team* alternates too). A deal's outcome is each side's deal points
(SC-SCORE-1..6); SC-MATCH-2/3 decide the match after a deal: one side alone at or over the
target wins, both there the higher score wins, and equal scores there play another deal. That
tie is one state whatever the equal score (another deal from equal scores at or over the
target is decided the same way), written ``(target, target, dealer)``: the table's rows are
every score below the target and those two tie states.

The configuration of a deal is the dealing side: the dealer's opponent moves first (SC-DEAL-4),
and in 2x2 the first move is the player's after the dealer (SC-TEAM-2).

A search that values a deal's end by the table (``ismcts:value=match``) reads the state's
table *cell* in compiled code: :func:`match_cell` from the state vector, :func:`cell` from a
state tuple, the same index.
"""
from __future__ import annotations

import numpy as np

from ...compiled.jit import kernel
from ...protocol.match import (
    A_WINS,
    B_WINS,
    SIDES,
    MatchModel,
    dealer_side,
    first_seat,
    other_side,
    seat_values,
)
from . import layout as L
from .rules import P_TARGET_SCORE, ScopaRules


def decide(score_a: int, score_b: int, target: int):
    """SC-MATCH-3 after a deal: the result, or None when another deal is played (both below
    the target, or both at or over it with equal scores)."""
    a_done, b_done = score_a >= target, score_b >= target
    if a_done and not b_done:
        return A_WINS
    if b_done and not a_done:
        return B_WINS
    if a_done and b_done and score_a != score_b:
        return A_WINS if score_a > score_b else B_WINS
    return None


def cell(state: tuple, target: int) -> int:
    """The table cell of the state ``(score_a, score_b, dealer)`` (module docstring)."""
    a, b, dealer = state
    return (a * (target + 1) + b) * 2 + SIDES.index(dealer)


@kernel(inline=True)
def match_cell(state, params, side):
    """SC-MATCH-3, SC-DEAL-6: the cell (:func:`cell`) of the match state that ``state``'s deal
    was dealt from, seen by ``side`` (side a): the sides' scores before the deal (equal scores
    at or over the target are the tie state) and whether ``side`` deals."""
    target = params[P_TARGET_SCORE]
    mine = np.int64(state[L.SCORE + side])
    other = np.int64(state[L.SCORE + 1 - side])
    if mine >= target:
        mine = other = target
    dealer = 0 if np.int64(state[L.DEALER]) % 2 == side else 1
    return (mine * (target + 1) + other) * 2 + dealer


def model(rules: ScopaRules) -> MatchModel:
    """Scopa's match to ``rules.target_score`` (module docstring)."""
    target = rules.target_score

    def step(state, outcome):
        score_a, score_b, dealer = state
        score_a, score_b = score_a + int(outcome[0]), score_b + int(outcome[1])
        result = decide(score_a, score_b, target)
        if result is not None:
            return result
        if score_a >= target:                       # the tie at the target: one state
            score_a = score_b = target
        return (score_a, score_b, other_side(dealer))

    def outcomes(rows, side):
        points = [seat_values(rows, "cat_total", first_seat(side, s)) for s in (0, 1)]
        return dealer_side(rows, side), np.stack(points, axis=1).astype(np.int64)

    def position(d, player):
        mine = player % 2                      # the scores are per side (team in 2x2)
        return (d["scores"][mine], d["scores"][1 - mine],
                SIDES[0] if d["dealer"] % 2 == mine else SIDES[1])

    states = tuple((a, b, d) for a in range(target) for b in range(target) for d in SIDES)
    return MatchModel(
        columns=("score_a", "score_b", "dealer"),
        states=states + tuple((target, target, d) for d in SIDES),
        configs=SIDES, config=lambda state: SIDES.index(state[2]), step=step,
        outcomes=outcomes, outcome_columns=("points_a", "points_b"),
        mirror=lambda state: (state[1], state[0], other_side(state[2])),
        position=position, cells=(target + 1) ** 2 * 2,
        cell=lambda state: cell(state, target),
        better=lambda state: [(a, b, state[2]) for a, b in
                              ((state[0] + 1, state[1]), (state[0], state[1] - 1))
                              if a < target and b >= 0 and state[0] < target],
        rules="SC-DEAL-4, SC-DEAL-6, SC-MATCH-2, SC-MATCH-3, SC-TEAM-2",
        description=f"a match to {target}: the scores before a deal and its dealing side; "
                    f"{target}-{target} is the tie at the target (another deal)")


def standing(vec: np.ndarray, rules: ScopaRules, n: int) -> list[float]:
    """SC-MATCH-2: each seat's standing in the match, higher is better: its side's match score
    (seat ``s`` plays for side ``s % 2``), the deals so far added."""
    return [float(vec[L.SCORE + s % 2]) for s in range(n)]

"""How a game's match is made of deals: the protocol of match-equity tables.

A match (or a game of several deals) between two sides, ``a`` and ``b``, is a walk through
*match states*: a state holds what decides the rest of the match (the scores, who deals next,
the deals to go), a deal played from it ends in an *outcome* (each side's points, the net
resti), and the game's rules turn the state and the outcome into the next state or the match's
result. Each game package's ``match`` module says so in a :class:`MatchModel` (per rules); the
equity tables of :mod:`cardsim.experiments.equity` are computed from it by dynamic programming over the
states, with the outcomes' distribution measured by simulating single deals.

A deal's outcome depends on the state only through its *configuration* (which side deals:
the dealer's side has the last card of each round in Scopa and leads second); a model says how
many configurations there are and which one a state deals in, and how to read each simulated
deal's configuration and outcome from the rows of an experiment store.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

A_WINS, B_WINS, DRAW = "a", "b", "draw"
"""The results of a match (what :attr:`MatchModel.step` returns when the match is decided)."""

SIDES = ("a", "b")
"""The two sides, as a state's ``dealer`` column writes them."""


@dataclass(frozen=True)
class MatchModel:
    """A game's match as states, deal outcomes and rules (module docstring).

    ``columns`` are the names of a state's parts, in order (the equity table's first columns);
    ``states`` the table's rows (every state a user may ask about); ``configs`` the names of
    the deal configurations and ``config(state)`` the index of the one a deal from ``state``
    is played in; ``step(state, outcome)`` the state after a deal of that outcome, or the match
    result (:data:`A_WINS`, :data:`B_WINS`, :data:`DRAW`); ``outcomes(rows, side)`` reads a
    store's rows (``side[i, s]`` is 0 when row ``i``'s seat ``s`` plays for side a, else 1) and
    returns each row's configuration (int array) and outcome (int array, one row per deal row,
    ``outcome_columns`` wide); ``rules`` names the rule IDs the model follows; ``draws``
    whether a match can be drawn. Two maps serve the checks every table must pass:
    ``mirror(state)`` is the same state seen from the other side (side b's scores as side
    a's, the other dealer), so that in a symmetric matchup p(state) + p(mirror) + p(draw) = 1;
    ``better(state)`` lists the states of the table one step better for side a (one point
    more for a, one less for b), where a's chance cannot be lower. ``position(d, player)``
    is the match state of a position dict (``State.to_dict``) before its deal ends, seen by
    ``player``: his side is side a (None when the game's positions do not hold it).
    ``cell(state)`` is the state's index in a dense array of ``cells`` values
    (:func:`dense_equity`), the index the game's compiled ``match_cell(vec, params, side)``
    gives a state vector whose deal was dealt from that state (``side`` is side a): what a
    search that values a deal's end by the table reads (``ismcts:value=match``).
    ``alone(d)`` is the position dict of a match position's deal as a lone deal (its
    play-outs end with the deal)."""

    columns: tuple[str, ...]
    states: tuple[tuple, ...]
    configs: tuple[str, ...]
    config: Callable[[tuple], int]
    step: Callable[[tuple, tuple], Any]
    outcomes: Callable[[Any, np.ndarray], tuple[np.ndarray, np.ndarray]]
    outcome_columns: tuple[str, ...]
    rules: str
    mirror: Callable[[tuple], tuple]
    better: Callable[[tuple], list]
    position: Callable[[dict, int], tuple] | None = None
    draws: bool = False
    description: str = ""
    cells: int = 0
    cell: Callable[[tuple], int] | None = None
    alone: Callable[[dict], dict] = lambda d: {**d, "mode": "deal"}


@dataclass(frozen=True)
class RecordsModel:
    """A game decided by each seat's own record, with no small table of match states to solve
    (Mushka: a count-down per seat of 3 to 7): its chances are counted over whole simulated
    games (:mod:`cardsim.experiments.records_equity`). The game package's ``match`` module says how to
    read a state vector: ``start_points`` (every record at the game's start), ``over(vec)``
    (the game has ended), ``deal_start(vec, n) -> (deal, dealer, records)`` (the deal's
    number, its dealer and each seat's record at its start: kept all through the deal),
    ``result(vec, n) -> (final, share, deals, cut)`` (each seat's final record and share of
    the game's win, a tie sharing it; the deals played; whether ``max_deals`` ended it) and
    ``moves_left(vec, params)``: a lower bound, at least 1, on the moves left in the current
    deal, so that the game loop may run that many moves plus ``n - 1`` without stepping over
    a whole deal (every deal lasts at least ``n`` moves). ``cut`` names what ends a game short
    (``max_deals (50)``); ``rules`` names the rule IDs."""

    start_points: int
    over: Callable[[np.ndarray], bool]
    deal_start: Callable[[np.ndarray, int], tuple[int, int, list]]
    result: Callable[[np.ndarray, int], tuple[list, list, int, bool]]
    moves_left: Callable[[np.ndarray, np.ndarray], int]
    cut: str = ""
    rules: str = ""


def dense_equity(model: MatchModel, table) -> np.ndarray:
    """An equity table (``p_win`` per state, and ``p_draw`` where a match can be drawn) as a
    dense float64 array over the model's cells (:attr:`MatchModel.cell`): each cell holds the
    *match value* of its state for side a, its chance to win less its chance to lose
    (``2 p_win + p_draw - 1``, from -1 to 1), the scale of a match's returns; a cell no state
    of the table fills (an impossible state) holds 0."""
    values = np.zeros(model.cells, dtype=np.float64)
    win = table["p_win"].to_numpy()
    draw = table["p_draw"].to_numpy() if "p_draw" in table else np.zeros(len(table))
    for state, p, d in zip(table[list(model.columns)].itertuples(index=False, name=None),
                           win, draw):
        values[model.cell(tuple(state))] = 2.0 * p + d - 1.0
    return values


def other_side(side: str) -> str:
    """The other side's name."""
    return SIDES[1 - SIDES.index(side)]


def dealer_side(rows, side: np.ndarray) -> np.ndarray:
    """Each row's dealing side (0 for a, 1 for b), from its ``dealer`` seat."""
    dealer = rows["dealer"].to_numpy().astype(np.int64)
    return side[np.arange(len(dealer)), dealer]


def first_seat(side: np.ndarray, which: int) -> np.ndarray:
    """Each row's first seat that plays for side ``which`` (0 for a, 1 for b)."""
    return np.argmax(side == which, axis=1)


def seat_values(rows, column: str, seats: np.ndarray) -> np.ndarray:
    """Each row's value of ``<column>_<seat>`` at its own seat ``seats[i]``."""
    n = 0
    while f"{column}_{n}" in rows:
        n += 1
    table = np.stack([rows[f"{column}_{s}"].to_numpy() for s in range(n)], axis=1)
    return table[np.arange(len(seats)), seats]


"""Bura's match as states and deal outcomes, for match-equity tables (:mod:`cardsim.protocol.match`).

Two players only (side a and side b are one player each; with 3 or 4 players every player is
for himself, which a table of two sides cannot hold). ``match_format=single_deal`` needs no
table: a single deal is the match (BU-MATCH-1).

A state is ``(wins_a, wins_b, dealer, leader)`` (``wins_to_n``) or ``(penalty_a, penalty_b,
dealer, leader)`` (``penalty_points``): the players' match scores before a deal, the side that
deals it and the side that leads it first. Both matter to a deal: the dealer's left receives
the first card (BU-DEAL-2) and the first leader has the first check point (claim, lead). The
winner deals the next deal and a void deal keeps the dealer (BU-END-6); the next deal's first
leader is the last trick's taker, or the dealer's left when the deal had no trick (BU-LEAD-2),
or always the dealer's left with ``next_deal_first_leader=left_of_dealer``. So there are four
deal configurations (a or b deals, a or b leads), two with ``left_of_dealer`` (the other side
leads). A single deal starts from the dealer's left; the configurations where the dealer
leads are measured on the same cards by the deal setup ``first_leader="dealer"``
(:attr:`BuraMatchModel.setups`).

A deal's outcome is ``(winner, multiplier, last_trick)``: the winning side (0 for a, 1 for b,
-1 for a void deal), its multiplier (2 for a false claim with ``false_claim_penalty=double``,
BU-CLAIM-2, BU-END-3; 0 for a void deal) and the side that took the last trick (-1 when the
deal had no trick, and always with ``left_of_dealer``, where it does not matter). They come
from a store's rows: ``return_<s>`` (a deal's return is +multiplier for the winner and
-multiplier for the loser), ``first_leader`` and ``last_trick`` (seats;
:func:`.notation.deal_columns`).

``wins_to_n`` (BU-MATCH-2): the winner gets ``multiplier`` wins; the first to ``wins_target``
with a lead of at least 2 wins. Past the target the match goes on while the scores are tied
or 1 apart, so the states beyond it never end; but there only the difference decides what
follows (one more win for the side 1 ahead ends the match; equal scores need two), so every
such state is one of three, written ``(T, T - 1)``, ``(T, T)`` and ``(T - 1, T)`` for the
target ``T``: the table's rows are every score below the target and these three, as Scopa's
tie at the target. ``penalty_points`` (BU-MATCH-3): the loser gets 2 x multiplier penalty
points; reaching ``penalty_limit`` loses. Penalties are even, so the rows are the even scores
below the limit.

A search that values a deal's end by the table (``ismcts:value=match``) reads the state's
table *cell* in compiled code: :func:`match_cell` from the state vector, :func:`cell` from a
state tuple, the same index. A position holds its match state (``scores``, ``dealer``,
``first_leader``), so ``analyze --match`` reads it there (the model's ``position``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...compiled.jit import kernel
from ...errors import CardsimError
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
from .rules import MATCH_WINS_TO_N, P_MATCH_FORMAT, P_PENALTY_LIMIT, P_WINS_TARGET, BuraRules

DEALER_LEADS = {"first_leader": "dealer"}
"""The deal setup of the configurations where the dealer leads first."""


@dataclass(frozen=True)
class BuraMatchModel(MatchModel):
    """A :class:`MatchModel` whose configurations need single deals of more than one setup:
    ``setups`` are ``(name, setup)`` pairs, each a set of duplicate deals played from the same
    seeds with ``Game.new_deal(seed, **setup)`` (name ``""`` for the plain deals)."""

    setups: tuple = (("", {}),)


def decide_wins(wins_a: int, wins_b: int, target: int):
    """BU-MATCH-2: the result once a side has ``target`` wins with a lead of at least 2, else
    None (another deal)."""
    if wins_a >= target and wins_a - wins_b >= 2:
        return A_WINS
    if wins_b >= target and wins_b - wins_a >= 2:
        return B_WINS
    return None


def decide_penalty(penalty_a: int, penalty_b: int, limit: int):
    """BU-MATCH-3: the side that reaches the limit loses, else None (another deal)."""
    if penalty_a >= limit:
        return B_WINS
    if penalty_b >= limit:
        return A_WINS
    return None


def next_leader(dealer: str, last_trick: int, by_taker: bool) -> str:
    """BU-LEAD-2: the next deal's first leader, the last trick's taker (``last_trick`` -1: the
    deal had no trick), else (or with ``left_of_dealer``) the new dealer's left."""
    if by_taker and last_trick >= 0:
        return SIDES[last_trick]
    return other_side(dealer)


def cell(state: tuple, end: int) -> int:
    """The table cell of the state ``(score_a, score_b, dealer, leader)`` with ``end`` the
    target or the limit (module docstring)."""
    a, b, dealer, leader = state
    return ((a * (end + 1) + b) * 2 + SIDES.index(dealer)) * 2 + SIDES.index(leader)


@kernel(inline=True)
def match_cell(state, params, side):
    """BU-MATCH-2/3, BU-END-6, BU-LEAD-2: the cell (:func:`cell`) of the match state that
    ``state``'s deal was dealt from, seen by ``side`` (side a; two players, seat = side): the
    scores before the deal (scores past the target 1 or 0 apart as their difference), whether
    ``side`` deals and whether he leads first."""
    mine = np.int64(state[L.SCORE + side])
    other = np.int64(state[L.SCORE + 1 - side])
    end = params[P_PENALTY_LIMIT]
    if params[P_MATCH_FORMAT] == MATCH_WINS_TO_N:
        end = params[P_WINS_TARGET]
        if max(mine, other) >= end:
            if mine > other:
                mine, other = end, end - 1
            elif mine < other:
                mine, other = end - 1, end
            else:
                mine, other = end, end
    dealer = 0 if np.int64(state[L.DEALER]) == side else 1
    leader = 0 if np.int64(state[L.FIRST_LEADER]) == side else 1
    return ((mine * (end + 1) + other) * 2 + dealer) * 2 + leader


def model(rules: BuraRules) -> BuraMatchModel:
    """Bura's match under ``rules`` (module docstring); :class:`CardsimError` for a single deal
    or more than two players."""
    if rules.num_players != 2:
        raise CardsimError(f"bura with {rules.num_players} players: a match-equity table is "
                           "for two sides, and every Bura player is for himself (2 players)")
    if rules.match_format == "single_deal":
        raise CardsimError("bura with match_format=single_deal: a single deal is the match, "
                           "no table needed (choose wins_to_n or penalty_points)")
    by_taker = rules.next_deal_first_leader == "last_trick_taker"
    wins = rules.match_format == "wins_to_n"
    if wins:
        end, names = rules.wins_target, ("wins_a", "wins_b")
        scores = [(a, b) for a in range(end) for b in range(end)]
        scores += [(end, end - 1), (end, end), (end - 1, end)]
    else:
        end, names = rules.penalty_limit, ("penalty_a", "penalty_b")
        scores = [(a, b) for a in range(0, end, 2) for b in range(0, end, 2)]
    pairs = [(d, lead) for d in SIDES for lead in SIDES if by_taker or lead != d]

    def decide(a: int, b: int):
        return decide_wins(a, b, end) if wins else decide_penalty(a, b, end)

    def canonical(a: int, b: int) -> tuple[int, int]:
        """Undecided scores past the target are only their difference (module docstring)."""
        if wins and max(a, b) >= end:
            return {1: (end, end - 1), 0: (end, end), -1: (end - 1, end)}[a - b]
        return a, b

    def position(d: dict, player: int) -> tuple:
        """The match state of a position dict before its deal ends, seen by ``player`` (side
        a): the scores before the deal, the dealing and the first leading side."""
        mine, other = canonical(d["scores"][player], d["scores"][1 - player])
        return (mine, other, SIDES[0] if d["dealer"] == player else SIDES[1],
                SIDES[0] if d["first_leader"] == player else SIDES[1])

    def step(state, outcome):
        """BU-MATCH-2/3, BU-END-6, BU-LEAD-2: the next state or the match's result."""
        a, b, dealer, _ = state
        winner, mult, last = (int(v) for v in outcome)
        if winner >= 0:                                   # a void deal keeps the dealer
            dealer = SIDES[winner]
            if wins:
                a, b = (a + mult, b) if winner == 0 else (a, b + mult)
            else:
                a, b = (a, b + 2 * mult) if winner == 0 else (a + 2 * mult, b)
            result = decide(a, b)
            if result is not None:
                return result
        return (*canonical(a, b), dealer, next_leader(dealer, last, by_taker))

    def outcomes(rows, side):
        at = np.arange(len(rows))

        def side_of(column: str) -> np.ndarray:
            seats = rows[column].to_numpy().astype(np.int64)
            return np.where(seats >= 0, side[at, np.maximum(seats, 0)], -1)

        ret = seat_values(rows, "return", first_seat(side, 0))
        winner = np.where(ret > 0, 0, np.where(ret < 0, 1, -1))
        last = side_of("last_trick") if by_taker else np.full(len(rows), -1)
        lookup = np.full((2, 2), -1, dtype=np.int64)
        for i, (d, lead) in enumerate(pairs):
            lookup[SIDES.index(d), SIDES.index(lead)] = i
        configs = lookup[dealer_side(rows, side), side_of("first_leader")]
        if (configs < 0).any():
            raise CardsimError("a deal whose dealer led first: no configuration under "
                               "next_deal_first_leader=left_of_dealer")
        outcome = np.stack([winner, np.rint(np.abs(ret)), last], axis=1).astype(np.int64)
        return configs, outcome

    def better(state):
        """One win more for a or one less for b (wins_to_n); one lost deal's penalty less
        for a or more for b (penalty_points): the states of the table that are not decided."""
        a, b, dealer, lead = state
        moves = ((a + 1, b), (a, b - 1)) if wins else ((a - 2, b), (a, b + 2))
        out = []
        for x, y in moves:
            if min(x, y) >= 0 and decide(x, y) is None:
                t = (*canonical(x, y), dealer, lead)
                if t != state:
                    out.append(t)
        return out

    if wins:
        rule_ids = "BU-MATCH-2, BU-END-3, BU-END-6, BU-LEAD-2"
        description = (f"a match to {end} wins with a lead of 2: the wins before a deal, its "
                       f"dealing and its first leading side; {end}-{end - 1}, {end}-{end} and "
                       f"{end - 1}-{end} stand for every score past the target 1 or 0 apart")
    else:
        rule_ids = "BU-MATCH-3, BU-END-3, BU-END-6, BU-LEAD-2"
        description = (f"penalty points to {end}: the penalties before a deal (2 a lost deal, "
                       "4 a false claim's double loss), its dealing and its first leading side")
    return BuraMatchModel(
        columns=(*names, "dealer", "leader"),
        states=tuple((a, b, d, lead) for a, b in scores for d, lead in pairs),
        configs=tuple(f"{d} deals and {lead} leads" for d, lead in pairs),
        config=lambda state: pairs.index((state[2], state[3])), step=step,
        outcomes=outcomes, outcome_columns=("winner", "multiplier", "last_trick"),
        mirror=lambda state: (state[1], state[0], other_side(state[2]), other_side(state[3])),
        better=better, rules=rule_ids, description=description, position=position,
        cells=(end + 1) ** 2 * 4, cell=lambda state: cell(state, end),
        setups=(("", {}), ("dealer_leads", DEALER_LEADS)) if by_taker else (("", {}),))


def standing(vec: np.ndarray, rules: BuraRules, n: int) -> list[float]:
    """BU-MATCH-2/3: each seat's standing in the match, higher is better: its deals won in a
    match to a number of wins, its penalty points negated in a match of penalty points."""
    sign = 1.0 if rules.match_format == "wins_to_n" else -1.0
    return [sign * float(vec[L.SCORE + s]) for s in range(n)]

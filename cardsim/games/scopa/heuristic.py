"""A Scopa player that follows the traditional wisdom of good players (rules/scopa.md).

:func:`choose` scores every legal action in points of the deal (a scopa or a category point
is worth 1) and plays the best, ties broken at random. It reads only what the player to move
sees (rules §5): his own hand, the table, both captured piles (public by the history), the
scopa counts, and the sizes of the other hands and of the stock. The *unseen* cards are the
rest of the deck (the other hands and the stock); a card the next player may hold is counted
by the chance that a hand of his size drawn from the unseen cards holds it.

The rules, rule by rule:

- **H1 Take a scopa.** A capture that clears the table is worth a whole point (SC-SCOPA-1),
  unless it is the last move of the deal and ``last_move_scopa_counts`` is off (SC-SCOPA-3).
- **H2 Take the settebello.** Capturing the 7 of coins (or capturing with it) secures a
  point (SC-SCORE-3). It is counted two points above its worth as a coin and a seven, so it
  comes before any other capture (a scopa made with another card may still come first), even
  when taking it leaves the opponent a sweep.
- **H3 Weigh the captured cards.** Each card taken (the played card included) counts for the
  categories it feeds: every card for *cards* (SC-SCORE-1), coins more (SC-SCORE-2), and by
  primiera weight sevens most, then sixes, aces and fives (SC-PRIM-1); so a capture that takes
  sevens beats one that takes coins, which beats one that merely takes many cards. The first
  card of a suit the side's pile lacks earns a bonus, three times larger under
  ``primiera_missing_suit=forfeit`` (SC-PRIM-2).
- **H4 Leave no sweep.** If the table left after the move sums to 10 or less, one card of that
  value takes it all (SC-CAPT-2/4): the move is charged the chance that the next player (always
  an opponent, SC-TEAM-2) holds such a card, times the scopa he would make (none on the last
  move, SC-SCOPA-3) plus the worth of the cards.
- **H5 Expose nothing valuable.** Otherwise the next player takes at best one table card by an
  equal card: the move is charged the largest worth of a table card times the chance that he
  holds a card of its value. So a discard is a card whose rank is already mostly out, and
  never a seven, the settebello or a coin when another card will do.

The score of an action is (H1 + H2 + H3) − max(H4, H5).
"""
import numpy as np

from ...compiled.actions import next_seat
from ...compiled.bits import ONE, ZERO, bit, lowest_index, popcount
from ...compiled.jit import helper, kernel
from ...compiled.rng import rng_below
from . import layout as L
from .rules import P_HAND_SIZE, P_LAST_MOVE_SCOPA, P_NUM_PLAYERS, P_PRIMIERA_FORFEIT

__all__ = ["choose", "SCOPA_WORTH", "SETTEBELLO_WORTH", "CARD_WORTH", "COIN_WORTH",
           "PRIMIERA_WORTH", "SUIT_WORTH"]

# Worths in points of the deal.
SCOPA_WORTH = 1.0        # H1: a scopa is one point
SETTEBELLO_WORTH = 2.0   # H2: on top of its worth as a coin and a seven (more than a sweep)
CARD_WORTH = 0.05        # H3: one card of the 21 that win the cards point
COIN_WORTH = 0.1         # H3: one coin of the 6 that win the coins point
PRIMIERA_WORTH = (0.07, 0.0, 0.0, 0.0, 0.03, 0.12, 0.25, 0.0, 0.0, 0.0)  # H3: by rank, A..K
SUIT_WORTH = 0.03        # H3: first card of a suit the pile lacks (x3 under forfeit)

# H2, H3: what one card brings to the side that takes it, by card index.
_WORTH = np.array([CARD_WORTH + (COIN_WORTH if c < 10 else 0.0) + PRIMIERA_WORTH[c % 10]
                   + (SETTEBELLO_WORTH if c == L.SETTEBELLO else 0.0) for c in range(L.N_CARDS)])

_CAPTURE_MASK = np.uint64(L.CAPTURE_MASK)
_SHIFT = np.uint64(L.ACTION_CARD_SHIFT)
_TIE = 1e-9


@helper
def _chance_holds(n_unseen, n_wanted, hand_size):
    """H4, H5: the chance that ``hand_size`` cards drawn from ``n_unseen`` hold at least one of
    ``n_wanted`` given cards."""
    if n_wanted <= 0 or hand_size <= 0:
        return 0.0
    p_none = 1.0
    for i in range(hand_size):
        if n_unseen - n_wanted - i <= 0:
            return 1.0
        p_none *= (n_unseen - n_wanted - i) / (n_unseen - i)
    return 1.0 - p_none


# The sum-over-a-mask loop of bura.scoring.points too (floats here): a shared bits helper would
# serve both, kept here until it exists.
@helper
def _worth(cards):
    """H2, H3: the summed worth of a set of cards."""
    total = 0.0
    while cards:
        total += _WORTH[lowest_index(cards)]
        cards &= cards - ONE
    return total


@helper
def _capture_gain(taken, pile, forfeit):
    """H2, H3: the worth of the cards ``taken`` (the played card included) to a side whose pile
    is ``pile``, with the bonus for each suit the pile lacks."""
    gain = _worth(taken)
    suit_bonus = SUIT_WORTH * (3.0 if forfeit else 1.0)
    for s in range(4):
        if taken & L.SUIT_MASK[s] != ZERO and pile & L.SUIT_MASK[s] == ZERO:
            gain += suit_bonus
    return gain


@helper
def _exposure(table, unseen, hand_size, scopa_worth):
    """H4, H5: what the next player can be expected to take from ``table``: a sweep when the
    table sums to 10 or less (charged a scopa plus the cards), or else his best single card
    by an equal card, each by the chance he holds the card that does it."""
    if table == ZERO or hand_size == 0:
        return 0.0
    n_unseen = popcount(unseen)
    total = 0
    single = 0.0
    rest = table
    while rest:                 # the mask walk of every kernel (no allocation-free bit iterator)
        c = lowest_index(rest)
        rest &= rest - ONE
        v = L.VALUE[c]
        total += v
        p = _chance_holds(n_unseen, popcount(unseen & L.VALUE_MASK[v]), hand_size)
        single = max(single, _WORTH[c] * p)
    sweep = 0.0
    if total <= 10:
        p = _chance_holds(n_unseen, popcount(unseen & L.VALUE_MASK[total]), hand_size)
        sweep = p * (scopa_worth + _worth(table))
    return max(sweep, single)


@helper
def _cards_in_hands(state, params):
    """Rules §5: the number of cards in all hands (public)."""
    n = 0
    for seat in range(params[P_NUM_PLAYERS]):
        n += popcount(state[L.HAND + seat])
    return n


@helper
def _action_score(state, params, a, unseen, next_hand, last_move, next_last):
    """H1-H5: the score of the action ``a`` of the player to move."""
    me = np.int64(state[L.TO_MOVE])
    side = me & 1
    ua = np.uint64(a)
    card = np.int64(ua >> _SHIFT)
    taken = ua & _CAPTURE_MASK
    table = state[L.TABLE]
    score = 0.0
    if taken:
        score += _capture_gain(taken | bit(card), state[L.PILE + side],
                               params[P_PRIMIERA_FORFEIT] == 1)
        left = table & ~taken
        if left == ZERO and (params[P_LAST_MOVE_SCOPA] == 1 or not last_move):
            score += SCOPA_WORTH
    else:
        left = table | bit(card)
    scopa_next = SCOPA_WORTH if params[P_LAST_MOVE_SCOPA] == 1 or not next_last else 0.0
    return score - _exposure(left, unseen, next_hand, scopa_next)


@kernel
def choose(state, params, actions, n_actions, rng):
    """H1-H5: the index into ``actions[:n_actions]`` (the legal actions of the player to move)
    of the best-scoring action; equal scores are broken uniformly with ``rng``."""
    me = np.int64(state[L.TO_MOVE])
    nxt = next_seat(me, params[P_NUM_PLAYERS])
    in_hands = _cards_in_hands(state, params)
    stock_size = popcount(state[L.STOCK])
    next_hand = popcount(state[L.HAND + nxt])
    if next_hand == 0 and in_hands == 1 and stock_size > 0:
        next_hand = params[P_HAND_SIZE]          # SC-DEAL-5: a new hand comes after my card
    last_move = stock_size == 0 and in_hands == 1
    next_last = stock_size == 0 and in_hands == 2
    unseen = L.FULL_DECK & ~(state[L.HAND + me] | state[L.TABLE] | state[L.PILE] | state[L.PILE + 1])
    best = 0
    best_score = -1e300
    ties = 0
    for i in range(n_actions):
        s = _action_score(state, params, actions[i], unseen, next_hand, last_move, next_last)
        if s > best_score + _TIE:
            best, best_score, ties = i, s, 1
        elif s > best_score - _TIE:
            ties += 1
            if rng_below(rng, ties) == 0:
                best = i
    return best

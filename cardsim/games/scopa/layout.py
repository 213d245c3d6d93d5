"""Scopa's deck (``DECK``, its card names) and flat state vector: named offsets, card
tables and the action encoding.

A state is a ``numpy.uint64`` vector of length :data:`STATE_LEN`. Card sets are one word each
(40 cards, :data:`N_WORDS` = 1). Seats are numbered in playing order; the side of seat ``p`` is
``p & 1`` in both modes (2 players: the seat itself; 2x2: teams {0, 2} and {1, 3}).

The deal order ``ORDER`` packs the shuffled deck eight cards a word (8 bits per card). A deal
takes ``ORDER[0:4]`` to the table, then ``hand_size`` cards to each player starting with the
first player of the deal (the player after the dealer); every refill (SC-DEAL-5) deals the next
``hand_size`` cards to each player in the same order. ``NEXT`` is the position of the next card
to deal, so the stock is ``ORDER[NEXT:40]`` in order, and ``STOCK`` is the same set as a mask.

An action is an int64 ``card << 40 | capture_mask``: the card played and the set of table cards
it captures (0 when the card stays on the table). Sorting the ids sorts by card, then by mask.
"""
import numpy as np

from ...cards import Deck, suited

N_CARDS = 40
N_WORDS = 1
N_SIDES = 2

# The deck (rules/scopa.md §1.3): index = suit * 10 + (capture value - 1).
RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "C", "K"]
SUITS = ["co", "cu", "sw", "ba"]
DECK = Deck("scopa", suited(RANKS, SUITS),
            "a rank (A 2 3 4 5 6 7 J C K) followed by a suit (co cu sw ba), e.g. '7co'")

# State vector offsets.
HAND = 0            # HAND + seat, 4 words (unused seats stay 0 with 2 players)
TABLE = 4
PILE = 5            # PILE + side, 2 words: captured cards
STOCK = 7           # cards not dealt yet, as a mask
ORDER = 8           # 5 words: the deal order, 8 bits per card
ORDER_WORDS = 5
NEXT = 13           # position in ORDER of the next card to deal; 40 = stock empty
TO_MOVE = 14
DEALER = 15
LAST_CAPTURER = 16  # side + 1 of the last capture of the deal; 0 = nobody yet
SCOPE = 17          # SCOPE + side, 2 words: scopas of the current deal
SCORE = 19          # SCORE + side, 2 words: match score (deal points added when a deal ends)
DEAL_NUMBER = 21    # 1 for the first deal of a match
REDEALS = 22        # deals cancelled by SC-DEAL-3 before the current one
PHASE = 23
MODE = 24
RNG = 25            # 4 words: the chance stream for redeals and later deals of a match
STATE_LEN = 29

PHASE_PLAY = 0
PHASE_DEAL_OVER = 1
PHASE_MATCH_OVER = 2
MODE_DEAL = 0
MODE_MATCH = 1


# Action encoding.
ACTION_CARD_SHIFT = 40
CAPTURE_MASK = (1 << 40) - 1

# Card tables (rules/scopa.md §1.2-1.3).
FULL_DECK = np.uint64((1 << N_CARDS) - 1)
VALUE = np.array([c % 10 + 1 for c in range(N_CARDS)], dtype=np.int64)
PRIMIERA = np.array([[16, 12, 13, 14, 15, 18, 21, 10, 10, 10][c % 10] for c in range(N_CARDS)],
                    dtype=np.int64)
VALUE_MASK = np.array([0] + [sum(1 << (s * 10 + v - 1) for s in range(4)) for v in range(1, 11)],
                      dtype=np.uint64)   # VALUE_MASK[v]: the four cards of capture value v
LOWER_VALUES = np.array([sum(int(VALUE_MASK[w]) for w in range(1, v)) for v in range(11)],
                        dtype=np.uint64)  # LOWER_VALUES[v]: every card of value below v
# Value-major order (bit 4 * (value - 1) + suit), where the bits of a set meet its cards in
# increasing capture value: SPREAD_BY_VALUE[m] moves the 10 bits of one suit (bit r = value
# r + 1) to bits 4r; CARD_OF_VALUE_MAJOR maps a value-major bit back to the card index.
SPREAD_BY_VALUE = np.array([sum(1 << (4 * r) for r in range(10) if m >> r & 1)
                            for m in range(1 << 10)], dtype=np.uint64)
CARD_OF_VALUE_MAJOR = np.array([(i % 4) * 10 + i // 4 for i in range(N_CARDS)], dtype=np.int64)
SUIT_MASK = np.array([((1 << 10) - 1) << (10 * s) for s in range(4)], dtype=np.uint64)
COINS = SUIT_MASK[0]
SETTEBELLO = 6
KINGS = VALUE_MASK[10]

# Score categories (rules/scopa.md §2.5), columns of score_deal's output.
CATEGORIES = ("cards", "coins", "settebello", "primiera", "scopas")
N_CATEGORIES = 5

# Upper bound of legal actions: for each card in hand, every subset of the other 39 cards with
# its value (at most 1702 for a king); 3 cards a hand, or 9 in the 2x2 nine-at-once deal.
# tests/games/scopa/test_layout.py recomputes both figures.
MAX_ACTIONS_3 = 3 * 1702
MAX_ACTIONS_9 = 4 * 1702 + 4 * 1024 + 601
MAX_DEAL_MOVES = 36   # every card but the first four table cards is played once


def deal_slots(rules, dealer: int) -> tuple[int, dict[int, tuple[int, ...]], frozenset[int]]:
    """Where the positions of the deal order go (``kernels.deal_cards``): ``(positions,
    {place: positions}, loose)``, a place a seat or -1 (the opening table); no place is loose
    (each is exactly its positions' cards). :mod:`cardsim.deals` draws rare conditions from
    it."""
    n, h = rules.num_players, rules.hand_size
    places: dict[int, tuple[int, ...]] = {-1: tuple(range(4))}
    for j in range(n):
        places[(dealer + 1 + j) % n] = tuple(range(4 + h * j, 4 + h * (j + 1)))
    return N_CARDS, places, frozenset()


# The words each offset of the state vector spans, in the offsets' order (every offset once;
# tests/conformance/test_layout.py checks that they tile the vector without overlap or gap).
SLOT_WORDS = {
    "HAND": 4, "TABLE": 1, "PILE": N_SIDES, "STOCK": 1, "ORDER": ORDER_WORDS, "NEXT": 1,
    "TO_MOVE": 1, "DEALER": 1, "LAST_CAPTURER": 1, "SCOPE": N_SIDES, "SCORE": N_SIDES,
    "DEAL_NUMBER": 1, "REDEALS": 1, "PHASE": 1, "MODE": 1, "RNG": 4}

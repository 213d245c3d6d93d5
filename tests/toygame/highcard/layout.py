"""High card's deck (``DECK``, its card names) and flat state vector: named offsets, card
tables and the action encoding.

A state is a ``numpy.uint64`` vector of length :data:`STATE_LEN`; card sets are one word each
(12 cards). The deal order ``ORDER`` packs the shuffled deck eight cards a word: positions 0..2
go to the dealer's opponent, 3..5 to the dealer, 6..11 are the stock in drawing order; ``NEXT``
is the position of the next card to draw. An action is the index of the card played.
"""
import numpy as np

from cardsim.cards import Deck, suited

N_CARDS = 12
N_WORDS = 1
N_PLAYERS = 2
HAND_SIZE = 3

# The deck: index = suit * 6 + rank, rank 0..5 in strength order (2 lowest, 7 highest).
RANKS = ["2", "3", "4", "5", "6", "7"]
SUITS = ["r", "b"]
DECK = Deck("highcard", suited(RANKS, SUITS),
            "a rank (2 3 4 5 6 7) followed by a suit (r b), e.g. '7r'")

# State vector offsets.
HAND = 0            # HAND + seat, 2 words
PILE = 2            # PILE + seat, 2 words: the cards of the tricks the seat won
STOCK = 4           # cards not dealt yet, as a mask
ORDER = 5           # 2 words: the deal order, 8 bits per card
ORDER_WORDS = 2
NEXT = 7            # position in ORDER of the next card to draw; 12 = stock empty
TRICK_CARD = 8      # 1 + the card led to the current trick, 0 before the lead
LEADER = 9          # the seat leading the current trick (after the deal: the last trick's winner)
TO_MOVE = 10
DEALER = 11
SCORE = 12          # SCORE + seat, 2 words: deals won in the match
DEAL_NUMBER = 14    # 1 for the first deal of a match
PHASE = 15
MODE = 16
RNG = 17            # 4 words: the chance stream of later deals
STATE_LEN = 21

PHASE_PLAY = 0
PHASE_DEAL_OVER = 1
PHASE_MATCH_OVER = 2
MODE_DEAL = 0
MODE_MATCH = 1

FULL_DECK = np.uint64((1 << N_CARDS) - 1)
MAX_ACTIONS = HAND_SIZE
MAX_DEAL_MOVES = N_CARDS

# The words each offset of the state vector spans, in the offsets' order (every offset once;
# tests/conformance/test_layout.py checks that they tile the vector without overlap or gap).
SLOT_WORDS = {
    "HAND": N_PLAYERS, "PILE": N_PLAYERS, "STOCK": 1, "ORDER": ORDER_WORDS, "NEXT": 1,
    "TRICK_CARD": 1, "LEADER": 1, "TO_MOVE": 1, "DEALER": 1, "SCORE": N_PLAYERS,
    "DEAL_NUMBER": 1, "PHASE": 1, "MODE": 1, "RNG": 4}

"""Bura's deck (``DECK``, its card names) and flat state vector: named offsets, card
tables and the action encoding.

A state is a ``numpy.uint64`` vector of length :data:`STATE_LEN`; card sets are one word each
(36 cards). Seats are numbered in playing (clockwise) order.

The deal order ``ORDER`` packs the shuffled deck eight cards a word: positions 0..3n-1 are
dealt to the hands in rounds from the dealer's left, positions 3n..35 are the stock in drawing
order, and position 35 — the last card of the stock — is the turned trump card (BU-DEAL-3).
``NEXT`` is the position of the next card to draw.

The deal's log (rules §5: the hands at past check points) keeps a byte per card, read and
written with the deal-order helpers of :mod:`cardsim.compiled.order`: ``GOT`` is ``1 + seat + 4 * c``
when the card reached that seat's hand at check point ``c`` (0 = dealt, ``j + 1`` = drawn after
trick ``j``), 0 when no seat has received it (or the position was given without its history);
``LEFT`` is ``1 + j`` when it was played in trick ``j`` (tricks count from 0), 0 while unplayed;
``SHOWN`` is ``1 + c`` when the card was shown at a refused Stop at check point ``c``, else 0.
A card is in its seat's hand at check point ``c`` when it was received at or before ``c`` and
played in trick ``c`` or later (or not yet).

An action is an int64 ``kind << 40 | card_mask``; sorting the ids sorts by kind, then by mask.
"""
import numpy as np

from ...cards import Deck, suited

N_CARDS = 36
N_WORDS = 1
HAND_SIZE = 3

# The deck (rules/bura.md §1): index = suit * 9 + r, r in strength order.
RANKS = ["6", "7", "8", "9", "J", "Q", "K", "T", "A"]
SUITS = ["s", "c", "d", "h"]
DECK = Deck("bura", suited(RANKS, SUITS),
            "a rank (6 7 8 9 J Q K T A) followed by a suit (s c d h), e.g. 'Td'")

# State vector offsets (each game's layout is its own table of slots, alike in form only).
HAND = 0              # HAND + seat
PILE_UP = 4           # PILE_UP + seat: face-up cards won
PILE_DOWN = 8         # PILE_DOWN + seat: face-down cards won (their owner has not seen them)
THROWN = 12           # THROWN + seat: cards this seat threw face down this deal
TRICK_PLAYED = 16     # TRICK_PLAYED + seat: that seat's cards in the current trick
STOCK = 20
ORDER = 21            # 5 words: the deal order, 8 bits per card
ORDER_WORDS = 5
NEXT = 26
TRUMP_CARD = 27
DEALER = 28
LEADER = 29           # the scheduled leader at a check point, else the trick's leader
TO_MOVE = 30
PHASE = 31
TRICK_K = 32          # cards per player in the current trick; 0 = no trick
TRICK_TOP = 33        # the current top (BU-RESP-4)
TRICK_HOLDER = 34
RESULT = 35           # RESULT_* kind of the deal's result
WINNERS = 36          # mask of winning seats
MULTIPLIER = 37
CLAIM_POINTS = 38     # pile points of a claim (for statistics)
SCORE = 39            # SCORE + seat: match wins or penalty points
DEAL_NUMBER = 43
REDEALS = 44
LAST_TRICK_TAKER = 45  # seat + 1; 0 = no trick yet this deal
TRICKS = 46           # tricks played this deal
FIRST_LEADER = 47     # the first scheduled leader of this deal
MODE = 48
RNG = 49              # 4 words: the chance stream of redeals and later deals
STOP_ROUND = 53       # STOP_SMALL_MOSCOW or STOP_MOLODKA while Stop calls are asked
REVEALED = 54         # REVEALED + seat: cards shown at a refused Stop (public from then on)
GOT = 58              # 5 words, a byte per card: who received it this deal and when (below)
LEFT = 63             # 5 words, a byte per card: in which trick it was played (below)
SHOWN = 68            # 5 words, a byte per card: at which check point it was revealed (below)
LOG_WORDS = 5
STATE_LEN = 73

STOP_SMALL_MOSCOW = 0  # BU-COMBO-6: small-Moscow calls are asked first
STOP_MOLODKA = 1       # BU-COMBO-5

# Phases: who decides what.
PHASE_CHECK = 0       # scheduled leader: claim, or lead (no Stop options in play)
PHASE_CLAIM = 1       # scheduled leader: claim or not (Stop options on, or the final check point)
PHASE_STOP = 2        # a non-leader: call Stop or pass
PHASE_LEAD = 3        # the leader leads (after declining to claim, nobody stopped)
PHASE_ANSWER = 4
PHASE_DEAL_OVER = 5
PHASE_MATCH_OVER = 6
PHASE_NEXT_DEAL = 7   # internal: a match deals again before the kernel returns
PHASE_NAMES = ("check", "claim", "stop", "lead", "answer", "deal_over", "match_over")

MODE_DEAL = 0
MODE_MATCH = 1

RESULT_NONE = 0
RESULT_CLAIM_WON = 1
RESULT_CLAIM_LOST = 2
RESULT_BURA = 3
RESULT_MOSCOW = 4
RESULT_MOST_POINTS = 5
RESULT_VOID = 6
RESULT_NAMES = ("none", "claim_won", "claim_lost", "bura", "moscow", "most_points", "void")

# Action kinds.
KIND_SHIFT = 40
CARDS_MASK = (1 << 40) - 1
LEAD, BEAT, THROW_DOWN, THROW_UP, CLAIM, NO_CLAIM, STOP, PASS = range(8)
KIND_NAMES = ("lead", "beat", "throw_down", "throw_up", "claim", "no_claim", "stop", "pass")
MAX_ACTIONS = 16      # leads: 3 + 3 + 1 and a claim; answers: 3 subsets x 3 modes
MAX_DEAL_MOVES = 128  # a deal's moves, bounded: at most 36 / n tricks, each a check point, a
                      # lead, n - 1 answers and two Stop rounds of n - 1 calls (99 for 4
                      # players, 90 for 2), and a last claim decision

# Card tables (rules/bura.md §1): index = suit * 9 + r, r in strength order 6..A.
FULL_DECK = np.uint64((1 << N_CARDS) - 1)
POINTS = np.array([(0, 0, 0, 0, 2, 3, 4, 10, 11)[c % 9] for c in range(N_CARDS)],
                  dtype=np.int64)
SUIT_MASK = np.array([((1 << 9) - 1) << (9 * s) for s in range(4)], dtype=np.uint64)
ACES = np.uint64(sum(1 << (9 * s + 8) for s in range(4)))
TENS = np.uint64(sum(1 << (9 * s + 7) for s in range(4)))
SIXES = np.uint64(sum(1 << (9 * s) for s in range(4)))
CLAIM_TARGET = 31


def deal_slots(rules, dealer: int) -> tuple[int, dict[int, tuple[int, ...]], frozenset[int]]:
    """Where the positions of the deal order go (``kernels.deal_cards``): ``(positions,
    {place: positions}, loose)``, a place a seat or -2 (the turned card, the last position);
    no place is loose. :mod:`cardsim.deals` draws rare conditions from it."""
    n = rules.num_players
    places = {seat: tuple(i for i in range(HAND_SIZE * n) if (dealer + 1 + i) % n == seat)
              for seat in range(n)}
    places[-2] = (N_CARDS - 1,)
    return N_CARDS, places, frozenset()


# The words each offset of the state vector spans, in the offsets' order (every offset once;
# tests/conformance/test_layout.py checks that they tile the vector without overlap or gap).
SLOT_WORDS = {
    "HAND": 4, "PILE_UP": 4, "PILE_DOWN": 4, "THROWN": 4, "TRICK_PLAYED": 4, "STOCK": 1,
    "ORDER": ORDER_WORDS, "NEXT": 1, "TRUMP_CARD": 1, "DEALER": 1, "LEADER": 1, "TO_MOVE": 1,
    "PHASE": 1, "TRICK_K": 1, "TRICK_TOP": 1, "TRICK_HOLDER": 1, "RESULT": 1, "WINNERS": 1,
    "MULTIPLIER": 1, "CLAIM_POINTS": 1, "SCORE": 4, "DEAL_NUMBER": 1, "REDEALS": 1,
    "LAST_TRICK_TAKER": 1, "TRICKS": 1, "FIRST_LEADER": 1, "MODE": 1, "RNG": 4,
    "STOP_ROUND": 1, "REVEALED": 4, "GOT": LOG_WORDS, "LEFT": LOG_WORDS, "SHOWN": LOG_WORDS}

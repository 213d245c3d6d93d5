"""Mushka's deck (``DECK``, its card names) and flat state vector: named offsets, card
tables and the action encoding.

A state is a ``numpy.uint64`` vector of length :data:`STATE_LEN`; card sets are one word each,
in the universal 52-card index of rules §1 (``suit * 13 + r``, spades 0, clubs 1, diamonds 2,
hearts 3; ``r`` 0..12 for 2..A, so ``As`` = 12). Seats are numbered in playing (clockwise)
order; up to 7 seats, so every per-seat block has 7 words.

The deal order ``ORDER`` packs the shuffled deck eight cards a word: before the shuffle it
holds the deck's cards in ascending index order (a 32-card deck: its 32 indices), then a
Fisher-Yates shuffle (:func:`cardsim.compiled.order.shuffle_order`) of the deck's size. Positions
0..5n-1 are dealt one at a time from the dealer's left (MU-DEAL-2), position 5n is the turned
trump card (MU-DEAL-3) and positions 5n+1.. are the stock, top first; ``NEXT`` is the stock's
next position.

``EXCLUDED + seat`` holds the cards that seat is publicly known not to hold (rules §5): a pass
(no ace of spades), a trick won without the ace bonus under ``ace_bonus_timing=first_trick``
(no ace of spades), not following suit (none of the led suit), not trumping (no trumps), and
under ``must_head_trick`` / ``must_overtrump`` a card under the trick's best (none above it).

An action is an int64 ``kind << 52 | card_mask``; sorting the ids sorts by kind, then mask.
"""
import numpy as np

from ...cards import Deck, suited
from ...errors import CardError

N_CARDS = 52
N_WORDS = 1
MAX_PLAYERS = 7
HAND_SIZE = 5          # MU-DEAL-2
TRICKS_PER_DEAL = 5    # MU-PLAY-1
ACE_OF_SPADES = 12     # rules §1
ACE_MASK = np.uint64(1) << np.uint64(ACE_OF_SPADES)
SPADES = 0

# The deck (rules/mushka.md §1): one universal 52-card index = suit * 13 + r (2..A); the 32-
# and 36-card decks are sub-masks (:func:`deck_mask`).
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
SUITS = ["s", "c", "d", "h"]
DECK = Deck("mushka", suited(RANKS, SUITS),
            "a rank (2 3 4 5 6 7 8 9 T J Q K A) followed by a suit (s c d h), e.g. 'As'")


def deck_mask(size: int) -> int:
    """Mask of the 32-card (7–A), 36-card (6–A) or 52-card (2–A) deck."""
    lowest = {32: 5, 36: 4, 52: 0}
    if size not in lowest:
        raise CardError(f"unknown Mushka deck size {size!r}: expected 32, 36 or 52")
    return sum(1 << (s * 13 + r) for s in range(4) for r in range(lowest[size], 13))


# State vector offsets (per-seat blocks are MAX_PLAYERS words).
HAND = 0               # HAND + seat
DISCARDS = 7           # DISCARDS + seat: cards discarded (MU-EXCH-6), dead and unseen
TRICK_CARD = 14        # TRICK_CARD + seat: 1 + the card played to the current trick, 0 none
TRICKS_WON = 21        # TRICKS_WON + seat: tricks won (or credited) this deal
RECORD = 28            # RECORD + seat: the count-down record
START_RECORD = 35      # START_RECORD + seat: the record when this deal began
EXCLUDED = 42          # EXCLUDED + seat: cards publicly known not to be in that hand
PLAYED = 49            # PLAYED + seat: cards played this deal (public)
DECISION = 56          # DECISION + seat: DECIDED_* below, or DECIDED_STAND + k (exchanged k)
STOCK = 63
ORDER = 64             # 7 words: the deal order, 8 bits per card
ORDER_WORDS = 7
NEXT = 71
TRUMP_CARD = 72
DEALER = 73
LEADER = 74            # the leader of the current trick
TO_MOVE = 75
PHASE = 76
ACTIVE = 77            # mask of the seats in the play (MU-PASS-1)
ACE_HOLDER = 78        # 1 + the seat holding the ace of spades after the exchange, 0 nobody
BONUS_TAKEN = 79       # 1 once the ace bonus was written off this deal
TRICK_NUMBER = 80      # tricks completed (or credited) this deal
LONE_LEFT = 81         # tricks still to credit to a lone player (MU-PASS-3)
STOP_SEAT = 82         # the seat offered the stop (stop_mode=declared)
STOP_AT = 83           # where a declined stop resumes: AT_* below
WINNERS = 84           # mask of the game's winners (a stop, or max_deals)
STOPPER = 85           # 1 + the seat that stopped at 0, 0 nobody
MODE = 86
DEAL_NUMBER = 87
RNG = 88               # 4 words: the chance stream of this and later deals
VOID_DEAL = 92         # 1 when the deal was void (everyone passed, or lone_player=redeal)
TRUMP_TAKEN = 93       # 1 when the dealer took the turned card (dealer_takes_trump_card)
STATE_LEN = 94

# Phases: who decides what.
PHASE_DISCARD = 0      # the dealer discards one card for the turned card he took
PHASE_EXCHANGE = 1     # MU-EXCH-1: exchange, stand or pass, in turn
PHASE_PLAY = 2
PHASE_STOP = 3         # MU-STOP-4: a player at 0 stops or plays on
PHASE_DEAL_OVER = 4
PHASE_MATCH_OVER = 5
PHASE_NEXT_DEAL = 6    # internal: a match deals again before the kernel returns
PHASE_NAMES = ("discard", "exchange", "play", "stop", "deal_over", "match_over")

AT_PLAY = 0            # a declined stop after a trick: play (or lone crediting) goes on
AT_BONUS = 1           # after the ace bonus at the end of the deal: remises, then offers
AT_END = 2             # after an offer at the end of the deal: the next offer, then the end

DECIDED_NONE = 0
DECIDED_PASS = 1
DECIDED_STAND = 2      # DECIDED_STAND + k: exchanged k cards

MODE_DEAL = 0
MODE_MATCH = 1

# Action kinds.
KIND_SHIFT = 52
CARDS_MASK = (1 << 52) - 1
PLAY, EXCHANGE, STAND, PASS, DISCARD, STOP, PLAY_ON, EXCHANGE_SEEN = range(8)
KIND_NAMES = ("play", "exchange", "stand", "pass", "discard", "stop", "play_on",
              "exchange_seen")
MAX_ACTIONS = 40       # the exchange: 31 discard sets of 5 cards, stand and pass
MAX_DEAL_MOVES = 64    # 7 exchange decisions, a discard, 35 cards played, stop offers

# Card tables.
SUIT_MASK = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)], dtype=np.uint64)
ACES = np.array([13 * s + 12 for s in range(4)], dtype=np.int64)


def deal_slots(rules, dealer: int) -> tuple[int, dict[int, tuple[int, ...]], frozenset[int]]:
    """Where the positions of the deal order go (``kernels.deal_cards``): ``(positions,
    {place: positions}, loose)``, a place a seat or -2 (the turned card); with
    ``dealer_takes_trump_card`` the dealer's first hand holds the turned card's position too.
    No place is loose. :mod:`cardsim.deals` draws rare conditions from it."""
    n = rules.num_players
    places = {seat: tuple(i for i in range(HAND_SIZE * n) if (dealer + 1 + i) % n == seat)
              for seat in range(n)}
    places[-2] = (HAND_SIZE * n,)
    if rules.dealer_takes_trump_card:
        places[dealer] += places[-2]
    return rules.deck_size, places, frozenset()


# The words each offset of the state vector spans, in the offsets' order (every offset once;
# tests/conformance/test_layout.py checks that they tile the vector without overlap or gap).
SLOT_WORDS = {
    "HAND": MAX_PLAYERS, "DISCARDS": MAX_PLAYERS, "TRICK_CARD": MAX_PLAYERS,
    "TRICKS_WON": MAX_PLAYERS, "RECORD": MAX_PLAYERS, "START_RECORD": MAX_PLAYERS,
    "EXCLUDED": MAX_PLAYERS, "PLAYED": MAX_PLAYERS, "DECISION": MAX_PLAYERS, "STOCK": 1,
    "ORDER": ORDER_WORDS, "NEXT": 1, "TRUMP_CARD": 1, "DEALER": 1, "LEADER": 1, "TO_MOVE": 1,
    "PHASE": 1, "ACTIVE": 1, "ACE_HOLDER": 1, "BONUS_TAKEN": 1, "TRICK_NUMBER": 1,
    "LONE_LEFT": 1, "STOP_SEAT": 1, "STOP_AT": 1, "WINNERS": 1, "STOPPER": 1, "MODE": 1,
    "DEAL_NUMBER": 1, "RNG": 4, "VOID_DEAL": 1, "TRUMP_TAKEN": 1}

"""Minchiate's deck (``DECK``, its card names) and flat state vector: named offsets, card
tables, the combination catalogue and the action encoding.

A state is a ``numpy.uint64`` vector of length :data:`STATE_LEN`. A card set is **two words**
(rules §1.4): word 0 holds the trumps T1..T40 (bits 0..39) and the Matto (bit 40), word 1 the
56 suit cards (bit = index − 41, ``index = 41 + suit * 14 + f``). A per-seat set ``X`` of seat
``s`` is the words ``X + 2 * s`` and ``X + 2 * s + 1``; a team set ``X`` of team ``t`` is
``X + 2 * t``, ``X + 2 * t + 1``. Seats 0..3 are numbered in playing (counter-clockwise) order;
team A = seats {0, 2} (team 0), team B = seats {1, 3} (team 1): the team of seat ``s`` is
``s & 1``.

The deal order ``ORDER`` packs the shuffled pack one card a byte: position 0 is the top of the
pack, position 96 its bottom (MI-DEAL-1). The difference of the teams' points ``D``
(MI-RESTO-1) is stored plus :data:`D_BIAS`.

An action is an int64 ``kind << KIND_SHIFT | value``: the value is a card index (play,
discard), a combination id (declare) or 0/1 (done: 1 claims the Matto bonus).
"""
import numpy as np

from ...cards import Deck, suited

N_CARDS = 97
N_WORDS = 2
N_PLAYERS = 4
HAND_SIZE = 21                 # MI-DEAL-2
TRICKS_PER_DEAL = 21           # MI-PLAY-1
FOLA_SIZE = 13                 # MI-DEAL-4, MI-FOLA-1
WORD1_START = 41               # the first suit card
MATTO = 40
T29 = 28                       # index of trump 29
LAST_TRICK_POINTS = 10         # MI-END-4
HALF_PACK = 42                 # MI-END-2

# The deck (rules/minchiate.md §1.4): trumps T1..T40 -> 0..39, Matto -> 40 (word 0); suit
# cards -> 41 + suit * 14 + f (word 1).
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "F", "C", "Q", "K"]
SUITS = ["co", "cu", "sw", "ba"]
DECK = Deck("minchiate", tuple(f"T{n}" for n in range(1, 41)) + ("M",) + suited(RANKS, SUITS),
            "a trump T1..T40, the Matto M, or a rank (A 2 .. 10 F C Q K) followed by a suit "
            "(co cu sw ba), e.g. 'T29', 'Kcu'",
            word_starts=(0, WORD1_START))

# --- state vector offsets ------------------------------------------------------------------
HAND = 0              # 8 words: HAND + 2*seat + w, the seat's hand now
PLAYED = 8            # 8 words: cards the seat played to tricks this deal (public)
SHOWN = 16            # 8 words: cards publicly shown in the seat's hand this deal (robbed,
                      #          exposed, declared, the Matto shown for its bonus)
EXCLUDED = 24         # 8 words: cards publicly known not to be in the seat's hand (§6)
DISCARDS = 32         # 8 words: cards the seat discarded (MI-DISC-1; the cutter and dealer)
PILE = 40             # 4 words: PILE + 2*team, the team's trick pile
FOLA = 44             # 2 words: the Fola now (undealt cards left after robbing + discards)
CUTTER_ROBBED = 46    # 2 words: the cutter's robbed cards (MI-CUT-1, public)
DEALER_ROBBED = 48    # 2 words: the dealer's robbed cards (MI-ROB-1, public)
EXPOSED = 50          # 2 words: the four exposed 21st cards (MI-DEAL-3, public)
DECLARED = 52         # 8 words: DECLARED + 2*seat + w, a bit per combination id this seat
                      #          declared (ids < 128; MI-DECL-2)
TRICK_CARD = 60       # 4 words: 1 + the card the seat played to the current trick, 0 none
ORDER = 64            # 13 words: the deal order, a card a byte, position 0 = top
ORDER_WORDS = 13
POINTS = 77           # 18 words: POINTS + 2*source + team, the points each team scored from
                      #           each source this deal (SOURCES below)
RNG = 95              # 4 words: the chance stream of this and later deals
DEALER = 99
LEADER = 100          # the leader of the current trick
TO_MOVE = 101
PHASE = 102
TRICK_NUMBER = 103    # tricks completed this deal
LED_SUIT = 104        # the current trick's suit: 0..3 a suit, 4 trumps, NO_SUIT none yet
SUITS_LED = 105       # bit s: suit s was led in an earlier (completed) trick (MI-KING-1)
TRICKS_WON = 106      # 2 words: TRICKS_WON + team
MATTO_TEAM = 108      # 1 + the team whose player played the Matto this deal, 0 not played
MATTO_DEBT = 109      # 1 when the Matto's team owes the other team a card (MI-MATTO-2)
LAST_WINNER = 110     # 1 + the seat that won the last completed trick, 0 none
D_WORD = 111          # D + D_BIAS (MI-RESTO-1)
RESTI = 112           # 2 words: RESTI + team, resti made this deal (MI-RESTO-2, -3)
TO_DISCARD = 114      # cards the player to move must still discard (phase discard)
DECL_LAST = 115       # 1 + the highest combination id the declarer has declared so far, 0 none
DECLARED_DONE = 116   # bit s: seat s has made its declaration (or has none to make)
BONUS_CLAIMED = 117   # bit s: seat s claimed the Matto bonus with its declaration
FOLA_OPEN = 118       # 1 once the Fola is turned face up (MI-FOLA-1)
SEEN_BOTTOM = 119     # 1 + the card that stopped the cutter's robbing (public), 0 none
PAID_CARD = 120       # 1 + the card paid for the Matto at the end (MI-MATTO-2), 0 none
MATTO_GIVEN = 121     # 1 when the Matto itself was given away (MI-MATTO-3)
NET = 122             # this deal's net resti for team A + D_BIAS (set at the deal's end)
NET_TOTAL = 123       # the match's net resti for team A so far + D_BIAS
MODE = 124            # MODE_DEAL or MODE_MATCH
DEAL_NUMBER = 125     # 1-based
START_DEALER = 126    # the first deal's dealer (match tables)
STATE_LEN = 127

D_BIAS = 1 << 40
NO_SUIT = 5
TRUMPS = 4            # the "suit" of the trumps

# Scoring sources (POINTS + 2 * source + team): the events of MI-SCORE-1 and the parts of the
# end scoring.
SRC_CUTTER_ROB, SRC_EXPOSED, SRC_DEALER_ROB, SRC_DECLARED, SRC_DYING, SRC_PILE, \
    SRC_BEYOND_42, SRC_PILE_COMBOS, SRC_LAST_TRICK = range(9)
SOURCES = ("cutter_rob", "exposed", "dealer_rob", "declarations", "dying", "pile",
           "beyond_42", "pile_combinations", "last_trick")

# Phases: who decides what.
PHASE_DISCARD = 0     # MI-DISC-1: the cutter, then the dealer, one card at a time
PHASE_DECLARE = 1     # MI-DECL-1: the player to move declares combinations, then done
PHASE_PLAY = 2
PHASE_DEAL_OVER = 3
PHASE_MATCH_OVER = 4
PHASE_NEXT_DEAL = 5   # internal: a match deals again before the kernel returns
PHASE_NAMES = ("discard", "declare", "play", "deal_over", "match_over")

MODE_DEAL = 0
MODE_MATCH = 1

# Action kinds.
KIND_SHIFT = 8
VALUE_MASK = (1 << KIND_SHIFT) - 1
PLAY, DISCARD, DECLARE, DONE, DISCARD_SEEN = range(5)
KIND_NAMES = ("play", "discard", "declare", "done", "discard_seen")
MAX_ACTIONS = 40       # a discard from 21 + 13 cards; declarations: <= 9 combinations + done
MAX_DEAL_MOVES = 13 + 4 * 10 + 84   # discards, declarations, cards played

# --- card tables ---------------------------------------------------------------------------


def _card_value(c: int) -> int:
    """Rules §1.3."""
    if c < 40:
        n = c + 1
        if n >= 36:
            return 10
        if n in (30, 31, 32, 33, 34, 35, 28, 20, 13, 10, 1):
            return 5
        if 2 <= n <= 5:
            return 3
        return 0
    if c == MATTO:
        return 5
    return 5 if (c - WORD1_START) % 14 == 13 else 0


VALUE = np.array([_card_value(c) for c in range(N_CARDS)], dtype=np.int64)
"""Each card's value (rules §1.3): 25 counting cards, 142 points."""

SUIT = np.array([TRUMPS if c < 40 else (NO_SUIT if c == MATTO else (c - 41) // 14)
                 for c in range(N_CARDS)], dtype=np.int64)
"""0..3 a suit (coins, cups, swords, batons), 4 a trump, 5 the Matto."""


def _strength(c: int) -> int:
    """Rules §1.2/§1.4: within a suit (and among trumps) higher beats lower."""
    if c < 40:
        return c
    if c == MATTO:
        return -1
    s, f = divmod(c - 41, 14)
    if s <= 1 and f <= 9:      # coins, cups: pips reversed (A highest pip, 10 lowest)
        return 9 - f
    return f


STRENGTH = np.array([_strength(c) for c in range(N_CARDS)], dtype=np.int64)
KINGS = np.array([41 + 14 * s + 13 for s in range(4)], dtype=np.int64)


def _mask(cards) -> np.ndarray:
    m = [0, 0]
    for c in cards:
        if c < WORD1_START:
            m[0] |= 1 << c
        else:
            m[1] |= 1 << (c - WORD1_START)
    return np.array(m, dtype=np.uint64)


COUNTING = _mask(c for c in range(N_CARDS) if VALUE[c] > 0)
"""The 25 counting cards (two words)."""
ROB_ELIGIBLE = _mask(c for c in range(N_CARDS) if VALUE[c] > 0 or 20 <= c < 40)
"""Counting cards and trumps above 20: 33 cards (rules §1.4)."""
DISCARDABLE = _mask(c for c in range(N_CARDS) if VALUE[c] == 0 and c != T29)
"""Cards worth 0 other than T29: 71 cards (MI-DISC-2, ``discard_trumps=true``)."""
DISCARDABLE_NO_TRUMPS = _mask(c for c in range(N_CARDS) if VALUE[c] == 0 and c >= WORD1_START)
"""Cards worth 0 without trumps (``discard_trumps=false``)."""
SUIT_MASK = np.array([_mask(c for c in range(N_CARDS) if SUIT[c] == s) for s in range(5)],
                     dtype=np.uint64)
"""SUIT_MASK[s]: the two words of suit s (4 = the trumps; the Matto is in none)."""
ALL_CARDS = _mask(range(N_CARDS))

# --- the combination catalogue (MI-COMB-1, -2) --------------------------------------------
# Every combination a set of cards can score is one id: the runs of 3+ trumps within 1-5,
# then within 28-40 (each (low, high) pair), then Matto-1-40, 1-13-28, 10-20-30, 20-30-40,
# 10-20-30-40, then the four triples of Kings (by the missing King) and the four Kings.


def _catalogue():
    combos = []
    for lo, hi_max in ((1, 5), (28, 40)):
        for a in range(lo, hi_max - 1):
            for b in range(a + 2, hi_max + 1):
                combos.append(("run", [n - 1 for n in range(a, b + 1)]))
    combos.append(("matto_1_40", [MATTO, 0, 39]))
    combos.append(("papi_1_13_28", [0, 12, 27]))
    combos.append(("decine", [9, 19, 29]))
    combos.append(("decine", [19, 29, 39]))
    combos.append(("decine", [9, 19, 29, 39]))
    for missing in range(4):
        combos.append(("kings", [int(KINGS[s]) for s in range(4) if s != missing]))
    combos.append(("kings", [int(KINGS[s]) for s in range(4)]))
    return combos


_COMBOS = _catalogue()
N_COMBOS = len(_COMBOS)            # 82
COMBO_CARDS = tuple(tuple(cards) for _, cards in _COMBOS)
COMBO_KIND = tuple(kind for kind, _ in _COMBOS)
COMBO_KINDS = ("run_low", "run_high", "matto_1_40", "papi_1_13_28", "decine", "kings")
"""The kinds of combination the tables count (runs split by range)."""
COMBO_KIND_ID = np.array([COMBO_KINDS.index(k if k != "run" else
                                            ("run_low" if cards[0] < 5 else "run_high"))
                          for k, cards in _COMBOS], dtype=np.int64)
COMBO_MASK = np.array([_mask(cards) for cards in COMBO_CARDS], dtype=np.uint64)
COMBO_VALUE = np.array([sum(5 if c == T29 else int(VALUE[c]) for c in cards)
                        for cards in COMBO_CARDS], dtype=np.int64)
"""MI-COMB-3: the sum of the cards' values, trump 29 counting 5."""
COMBO_HAS_MATTO = np.array([MATTO in cards for cards in COMBO_CARDS], dtype=np.int64)
RUN_ID = np.full((40, 40), -1, dtype=np.int64)
"""RUN_ID[low, high]: the id of the run of trump indices low..high."""
for _i, (_k, _cards) in enumerate(_COMBOS):
    if _k == "run":
        RUN_ID[_cards[0], _cards[-1]] = _i
MATTO_1_40 = COMBO_KIND.index("matto_1_40")
PAPI_1_13_28 = COMBO_KIND.index("papi_1_13_28")
DECINE_LOW, DECINE_HIGH, DECINE_FOUR = range(PAPI_1_13_28 + 1, PAPI_1_13_28 + 4)
KINGS_THREE = DECINE_FOUR + 1      # + the missing King's suit
KINGS_FOUR = KINGS_THREE + 4
MATTO_BONUS = 5                    # MI-COMB-4


def deal_slots(rules, dealer: int) -> tuple[int, dict[int, tuple[int, ...]], frozenset[int]]:
    """Where the positions of the deal order go (``kernels.deal_cards``): ``(positions,
    {seat: positions}, loose)``. A robber's first hand holds the cards he robbed, chosen by
    their values: his place (loose) is his dealt positions and those he may rob from (the
    cutter the bottom ``rob_cap``, the dealer the Fola), a superset of his first hand.
    :mod:`cardsim.deals` draws rare conditions from it."""
    places = {(dealer + 1 + j) % 4: tuple(range(10 * j, 10 * j + 10))
              + tuple(range(40 + 11 * j, 51 + 11 * j)) for j in range(4)}
    loose = set()
    cutter = (dealer + 3) % 4
    if rules.cutter_rob == "auto":
        places[cutter] += tuple(range(N_CARDS - rules.rob_cap, N_CARDS))
        loose.add(cutter)
    if rules.dealer_rob == "auto_all":
        places[dealer] += tuple(range(4 * HAND_SIZE, N_CARDS))
        loose.add(dealer)
    return N_CARDS, places, frozenset(loose)


# The words each offset of the state vector spans, in the offsets' order (every offset once;
# tests/conformance/test_layout.py checks that they tile the vector without overlap or gap).
_SEAT_SETS = N_PLAYERS * N_WORDS      # a card set per seat
SLOT_WORDS = {
    "HAND": _SEAT_SETS, "PLAYED": _SEAT_SETS, "SHOWN": _SEAT_SETS, "EXCLUDED": _SEAT_SETS,
    "DISCARDS": _SEAT_SETS, "PILE": 2 * N_WORDS, "FOLA": N_WORDS, "CUTTER_ROBBED": N_WORDS,
    "DEALER_ROBBED": N_WORDS, "EXPOSED": N_WORDS,
    "DECLARED": N_PLAYERS * ((N_COMBOS + 63) // 64),      # a bit per combination id
    "TRICK_CARD": N_PLAYERS, "ORDER": ORDER_WORDS, "POINTS": 2 * len(SOURCES), "RNG": 4,
    "DEALER": 1, "LEADER": 1, "TO_MOVE": 1, "PHASE": 1, "TRICK_NUMBER": 1, "LED_SUIT": 1,
    "SUITS_LED": 1, "TRICKS_WON": 2, "MATTO_TEAM": 1, "MATTO_DEBT": 1, "LAST_WINNER": 1,
    "D_WORD": 1, "RESTI": 2, "TO_DISCARD": 1, "DECL_LAST": 1, "DECLARED_DONE": 1,
    "BONUS_CLAIMED": 1, "FOLA_OPEN": 1, "SEEN_BOTTOM": 1, "PAID_CARD": 1, "MATTO_GIVEN": 1,
    "NET": 1, "NET_TOTAL": 1, "MODE": 1, "DEAL_NUMBER": 1, "START_DEALER": 1}

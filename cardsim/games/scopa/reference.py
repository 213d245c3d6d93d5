"""A slow, plain-Python Scopa engine written for clarity: the test oracle of the kernels.

It implements ``../shared/rules/scopa.md`` again from the text, independently of
:mod:`.kernels` and of :mod:`.layout`'s tables: card sets are Python ``set`` objects of card
indices, the stock is a ``list`` in dealing order, and each rule is one small method whose
docstring starts with its rule ID. Only the deck (:data:`.layout.DECK`, with the mask helpers
``mask_of`` and ``bits_of`` of :mod:`cardsim.cards`), the random-number generator
(:class:`cardsim.compiled.rng.PyRng`, the plain-Python twin of the kernels' generator) and the options
(:class:`.rules.ScopaRules`) are shared, so that a seed deals the same cards in both engines.

The interface mirrors the public ``State`` for the differential test
(``tests/games/scopa/test_differential.py``): the same action ids
(``card << 40 | capture_mask``), the same position dict (:meth:`ReferenceScopa.to_dict`), the
same ``returns`` and ``score_breakdown``.

Cards: index = suit * 10 + rank, suits co cu sw ba, ranks A 2 3 4 5 6 7 J C K (rules §1.3);
capture value = rank + 1, suit = index // 10.
"""
from __future__ import annotations

from itertools import combinations

from ...cards import bits_of, mask_of
from ...compiled.rng import PyRng
from ...protocol.reference import ReferenceEngine
from .layout import DECK
from .rules import ScopaRules

N_CARDS = 40
ALL_CARDS = frozenset(range(N_CARDS))
CARD_SHIFT = 40                       # action id = card << 40 | capture mask
SETTEBELLO = DECK.index("7co")       # SC-SCORE-3
COIN_SUIT = 0                         # SC-SCORE-2: denari
# SC-PRIM-1: primiera values by rank A 2 3 4 5 6 7 J C K.
PRIMIERA_BY_RANK = (16, 12, 13, 14, 15, 18, 21, 10, 10, 10)
KING_VALUE = 10


def value(card: int) -> int:
    """Rules §1.2: the capture value of a card (A=1 ... 7=7, J=8, C=9, K=10)."""
    return card % 10 + 1


def suit(card: int) -> int:
    """Rules §1.1: the suit index of a card (0 coins, 1 cups, 2 swords, 3 batons)."""
    return card // 10


def primiera_value(card: int) -> int:
    """SC-PRIM-1: the primiera weight of a card."""
    return PRIMIERA_BY_RANK[card % 10]


def action_id(card: int, captured) -> int:
    """The action encoding shared with the compiled engine: ``card << 40 | capture mask``."""
    return card << CARD_SHIFT | mask_of(captured)


def split_action(action: int) -> tuple[int, set[int]]:
    """Inverse of :func:`action_id`: (played card, set of captured table cards)."""
    return action >> CARD_SHIFT, set(bits_of(action & ((1 << CARD_SHIFT) - 1)))


class ReferenceScopa(ReferenceEngine):
    """One Scopa deal or match in plain Python data.

    Attributes: ``hands`` (list of sets, per seat), ``table`` (set), ``stock`` (list, next card
    first), ``piles`` (two sets, per side), ``scopas`` and ``scores`` (two ints, per side),
    ``last_capturer`` (side or None), ``dealer``, ``to_move``, ``mode`` ("deal"/"match"),
    ``phase`` ("play"/"deal_over"/"match_over"), ``deal_number``, ``redeals`` and ``rng`` (a
    :class:`PyRng`, the chance stream of redeals and later deals).
    """

    game = "scopa"

    def __init__(self, rules: ScopaRules) -> None:
        super().__init__(rules)
        self.n = rules.num_players
        self.hands: list[set[int]] = [set() for _ in range(self.n)]
        self.table: set[int] = set()
        self.stock: list[int] = []
        self.piles: list[set[int]] = [set(), set()]
        self.scopas = [0, 0]
        self.scores = [0, 0]
        self.last_capturer: int | None = None
        self.dealer = 0
        self.to_move = 0
        self.mode = "deal"
        self.phase = "play"
        self.deal_number = 1
        self.redeals = 0
        self.rng = PyRng([0, 0, 0, 0])

    # --- construction ------------------------------------------------------------------------
    # (As in the other games' references, on purpose: each oracle restates its rules alone.)

    @classmethod
    def from_dict(cls, rules: ScopaRules, position: dict) -> "ReferenceScopa":
        """A state from the position-dict format (the output of :meth:`to_dict`)."""
        g = cls.for_position(rules, position)
        names = DECK.indices
        g.mode = position.get("mode", "deal")
        g.phase = position.get("phase", "play")
        g.dealer = int(position["dealer"])
        g.to_move = int(position["to_move"])
        if len(position["hands"]) != g.n:
            raise ValueError(f"expected {g.n} hands, got {len(position['hands'])}")
        g.hands = [set(names(h)) for h in position["hands"]]
        g.table = set(names(position["table"]))
        g.stock = list(names(position["stock"]))
        g.piles = [set(names(p)) for p in position.get("piles", [[], []])]
        g.scopas = [int(x) for x in position.get("scopas", [0, 0])]
        lc = position.get("last_capturer")
        g.last_capturer = None if lc is None else int(lc)
        g.scores = [int(x) for x in position.get("scores", [0, 0])]
        g.deal_number = int(position.get("deal_number", 1))
        g.redeals = int(position.get("redeals", 0))
        return g.placed(position, range(N_CARDS))

    def clone(self) -> "ReferenceScopa":
        """An independent copy."""
        g = ReferenceScopa(self.rules)
        g.hands = [set(h) for h in self.hands]
        g.table = set(self.table)
        g.stock = list(self.stock)
        g.piles = [set(p) for p in self.piles]
        g.scopas = list(self.scopas)
        g.scores = list(self.scores)
        g.last_capturer = self.last_capturer
        g.dealer, g.to_move = self.dealer, self.to_move
        g.mode, g.phase = self.mode, self.phase
        g.deal_number, g.redeals = self.deal_number, self.redeals
        g.rng = PyRng(self.rng.s)
        return g

    # --- dealing -----------------------------------------------------------------------------

    def side(self, seat: int) -> int:
        """SC-TEAM-2, SC-TEAM-3: seat p plays for side p & 1 (teams {0, 2} and {1, 3})."""
        return seat % 2

    def hand_size(self) -> int:
        """SC-DEAL-2, SC-DEAL-5: 3 cards at a time; 9 at once in the 2x2 nine_at_once variant."""
        if self.n == 4 and self.rules.four_player_deal == "nine_at_once":
            return 9
        return 3

    def is_void_table(self, table) -> bool:
        """SC-DEAL-3: 3 or 4 kings among the 4 initial table cards cancel the deal (option)."""
        if self.rules.redeal_kings_on_table == "off":
            return False
        return sum(1 for c in table if value(c) == KING_VALUE) >= 3

    def first_deal(self) -> None:
        """After SC-DEAL-1's draw of the first dealer, the first deal (SC-DEAL-2..4)."""
        self.deal()

    def deal(self) -> None:
        """SC-DEAL-2, SC-DEAL-3: shuffle the pack, 4 cards face up; redeal while the table is
        void; then hands (SC-DEAL-5) and the dealer's next player moves (SC-DEAL-4)."""
        cards = list(range(N_CARDS))
        while True:
            self.rng.shuffle(cards)
            if not self.is_void_table(cards[:4]):
                break
            self.redeals += 1
        self.table = set(cards[:4])
        self.stock = cards[4:]
        self.hands = [set() for _ in range(self.n)]
        self.piles = [set(), set()]
        self.scopas = [0, 0]
        self.last_capturer = None
        self.deal_hands()
        self.to_move = self.next_seat(self.dealer)
        self.phase = "play"

    def deal_hands(self) -> None:
        """SC-DEAL-5: each player receives hand_size cards from the front of the stock, the
        first player of the deal (after the dealer) first."""
        seat = self.dealer
        for _ in range(self.n):
            seat = self.next_seat(seat)
            k = self.hand_size()
            self.hands[seat] = set(self.stock[:k])
            self.stock = self.stock[k:]

    # --- legal actions -----------------------------------------------------------------------

    def equal_captures(self, card: int) -> list[set[int]]:
        """SC-CAPT-2: each single table card of the played card's value is one option."""
        return [{t} for t in self.table if value(t) == value(card)]

    def sum_captures(self, card: int) -> list[set[int]]:
        """SC-CAPT-4: every set of 2 or more table cards whose values sum to the played value
        (cards differing only in suit make different sets)."""
        v = value(card)
        small = sorted(t for t in self.table if value(t) < v)  # SC-CAPT-8: larger never fit
        out = []
        for k in range(2, len(small) + 1):
            if sum(sorted(value(t) for t in small)[:k]) > v:
                break  # even the k smallest exceed v
            for combo in combinations(small, k):
                if sum(value(t) for t in combo) == v:
                    out.append(set(combo))
        return out

    def capture_options(self, card: int) -> list[set[int]]:
        """SC-CAPT-2..6: the capture sets of a played card; [set()] when it must stay on the
        table. With SC-CAPT-3 (equal_card_priority) an equal card excludes every sum;
        otherwise singles and sums are all options. Capturing is compulsory (SC-CAPT-5)."""
        options = self.equal_captures(card)
        if not options or not self.rules.equal_card_priority:
            options += self.sum_captures(card)
        if not options:
            return [set()]  # SC-CAPT-6: a discard
        return options

    def legal_actions(self) -> list[int]:
        """SC-CAPT-1, SC-CAPT-8: every (card from hand, capture set), as sorted action ids."""
        if self.phase != "play":
            return []
        return sorted(action_id(card, taken)
                      for card in self.hands[self.to_move]
                      for taken in self.capture_options(card))

    # --- applying an action ------------------------------------------------------------------

    def is_last_move(self) -> bool:
        """SC-SCOPA-3, SC-TEAM-5: the card just played was the last of the deal (the stock and
        every hand are now empty)."""
        return not self.stock and all(not h for h in self.hands)

    def take(self, seat: int, card: int, taken: set[int]) -> None:
        """SC-CAPT-7: the played card and the captured cards go to the side's pile."""
        side = self.side(seat)
        self.table -= taken
        self.piles[side] |= taken | {card}
        self.last_capturer = side
        if not self.table:
            self.sweep(side)

    def sweep(self, side: int) -> None:
        """SC-SCOPA-1, SC-SCOPA-3: a capture that empties the table scores a scopa, except
        with the very last card of the deal (unless last_move_scopa_counts)."""
        if self.rules.last_move_scopa_counts or not self.is_last_move():
            self.scopas[side] += 1

    def apply_action(self, action: int) -> None:
        """SC-CAPT-1..7: play a card, capture or discard; next player (SC-DEAL-4); refill the
        hands (SC-DEAL-5) or end the deal (SC-END-1)."""
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action}")
        card, taken = split_action(action)
        seat = self.to_move
        self.hands[seat].remove(card)
        if taken:
            self.take(seat, card, taken)
        else:
            self.table.add(card)  # SC-CAPT-6
        self.to_move = self.next_seat(seat)
        if all(not h for h in self.hands):
            if self.stock:
                self.deal_hands()
            else:
                self.end_deal()

    # --- end of a deal and scoring -----------------------------------------------------------

    def clear_leftovers(self) -> None:
        """SC-END-2, SC-END-3: left-over table cards go to the last capturer's pile (option
        leftover_to_last_capturer), never as a scopa; with no capturer they stay unowned."""
        if self.rules.leftover_to_last_capturer and self.last_capturer is not None:
            self.piles[self.last_capturer] |= self.table
            self.table = set()

    def end_deal(self) -> None:
        """SC-END-1, SC-SCORE-6: score the deal into the match score; then SC-MATCH-2..3."""
        self.clear_leftovers()
        points = self.deal_points()
        for s in range(2):
            self.scores[s] += points[s]
        if self.mode == "deal":
            self.phase = "deal_over"
        elif self.match_is_won():
            self.phase = "match_over"
        else:
            self.next_deal()

    def match_is_won(self) -> bool:
        """SC-MATCH-3: over when a side reached the target and the scores differ (equal
        scores at or above the target: another deal, tie_at_target=extra_deal)."""
        return max(self.scores) >= self.rules.target_score and self.scores[0] != self.scores[1]

    def next_deal(self) -> None:
        """SC-DEAL-6: the next player in order deals the next deal from the same stream."""
        self.dealer = self.next_seat(self.dealer)
        self.deal_number += 1
        self.redeals = 0
        self.deal()

    def one_point_to_more(self, a, b) -> list[int]:
        """SC-SCORE-1..4: one point to the side with the larger figure; a tie gives none."""
        return [int(a > b), int(b > a)]

    def card_counts(self) -> list[int]:
        """SC-SCORE-1: captured cards per side."""
        return [len(p) for p in self.piles]

    def coin_counts(self) -> list[int]:
        """SC-SCORE-2: captured coins per side."""
        return [sum(1 for c in p if suit(c) == COIN_SUIT) for p in self.piles]

    def settebello(self) -> list[int]:
        """SC-SCORE-3: 1 point to the side holding the 7 of coins."""
        return [int(SETTEBELLO in p) for p in self.piles]

    def primiera_total(self, pile: set[int]) -> int | None:
        """SC-PRIM-1, SC-PRIM-2: the best primiera value per suit, summed; a missing suit
        counts 0, or (primiera_missing_suit=forfeit) makes the total None: cannot win."""
        total = 0
        for s in range(4):
            in_suit = [primiera_value(c) for c in pile if suit(c) == s]
            if not in_suit:
                if self.rules.primiera_missing_suit == "forfeit":
                    return None
                continue
            total += max(in_suit)
        return total

    def primiera_points(self) -> list[int]:
        """SC-SCORE-4, SC-PRIM-3: 1 point to the higher primiera total; a forfeiting side
        never wins it; equal totals (or both forfeiting) give no point."""
        a, b = (self.primiera_total(p) for p in self.piles)
        return self.one_point_to_more(-1 if a is None else a, -1 if b is None else b)

    def score_breakdown(self) -> dict:
        """SC-SCORE-1..6 on the current piles, per side."""
        cards = self.card_counts()
        coins = self.coin_counts()
        rows = {
            "cards": self.one_point_to_more(*cards),
            "coins": self.one_point_to_more(*coins),
            "settebello": self.settebello(),
            "primiera": self.primiera_points(),
            "scopas": list(self.scopas),  # SC-SCORE-5
        }
        rows["total"] = [sum(rows[k][s] for k in ("cards", "coins", "settebello", "primiera",
                                                  "scopas")) for s in range(2)]
        rows["card_count"] = cards
        rows["coin_count"] = coins
        rows["settebello_side"] = next((s for s in range(2) if SETTEBELLO in self.piles[s]), None)
        rows["primiera_total"] = [self.primiera_total(p) for p in self.piles]
        rows["match_scores"] = list(self.scores)
        return rows

    def deal_points(self) -> list[int]:
        """SC-SCORE-6: the points of the deal per side (4 categories plus scopas)."""
        return self.score_breakdown()["total"]

    # --- outcome -----------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """SC-END-1 (deal mode) or SC-MATCH-3 (match mode): nothing left to play."""
        return self.phase != "play"

    def current_player(self) -> int:
        """The seat to move, -1 once terminal."""
        return -1 if self.is_terminal() else self.to_move

    def returns(self) -> list[float]:
        """Per seat: deal mode, own side's deal points minus the other's; match mode, +1 for
        the winning side and -1 for the other; zeros before the end."""
        if not self.is_terminal():
            return [0.0] * self.n
        if self.mode == "match":
            diff = 1.0 if self.scores[0] > self.scores[1] else -1.0
        else:
            points = self.deal_points()
            diff = float(points[0] - points[1])
        return [diff if self.side(seat) == 0 else -diff for seat in range(self.n)]

    # --- the position dict -------------------------------------------------------------------

    def all_cards(self) -> list[int]:
        """Every card of every place (hands, table, stock, piles), duplicates kept: the 40
        cards when the state is consistent."""
        return [*self.table, *self.stock, *(c for place in self.hands + self.piles for c in place)]

    def to_dict(self) -> dict:
        """The position dict; card lists sorted by index, except the stock (dealing order)."""
        def names(cards):
            return [DECK.name(c) for c in sorted(cards)]

        return {
            "game": "scopa",
            "rules": dict(self.rules_dict),
            "mode": self.mode,
            "phase": self.phase,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "hands": [names(h) for h in self.hands],
            "table": names(self.table),
            "stock": [DECK.name(c) for c in self.stock],
            "piles": [names(p) for p in self.piles],
            "scopas": list(self.scopas),
            "last_capturer": self.last_capturer,
            "scores": list(self.scores),
            "deal_number": self.deal_number,
            "redeals": self.redeals,
            "rng": [int(x) for x in self.rng.s],
        }

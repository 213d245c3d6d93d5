"""A slow, plain-Python High card engine: the test oracle of the kernels.

It restates the rules of :mod:`.kernels`' docstring on its own: hands, piles and the stock are
Python sets and lists of card indices. Only the deck (:data:`.layout.DECK`), the random-number
generator (:class:`cardsim.compiled.rng.PyRng`) and the options are shared, so that a seed deals the
same cards as the kernels; :meth:`ReferenceHighCard.to_dict` gives the position dict of
:mod:`.notation`.
"""
from __future__ import annotations

from cardsim.protocol.reference import ReferenceEngine

from .layout import DECK

HAND_SIZE = 3


class ReferenceHighCard(ReferenceEngine):
    game = "highcard"
    n = 2

    def first_deal(self) -> None:
        self.scores = [0, 0]
        self.deal_number = 1
        self.deal()

    def deal(self) -> None:
        """HC-DEAL-2: shuffle, three cards to the dealer's opponent, three to the dealer; the
        opponent leads (HC-TRICK-1)."""
        cards = list(range(DECK.size))
        self.rng.shuffle(cards)
        first = self.next_seat(self.dealer)
        self.hands = [set(), set()]
        self.hands[first] = set(cards[:HAND_SIZE])
        self.hands[self.dealer] = set(cards[HAND_SIZE:2 * HAND_SIZE])
        self.stock = cards[2 * HAND_SIZE:]
        self.piles = [set(), set()]
        self.table: list[int] = []
        self.leader = self.to_move = first
        self.phase = "play"

    def legal_actions(self) -> list[int]:
        return sorted(self.hands[self.to_move]) if self.phase == "play" else []

    def beats(self, card: int, led: int) -> bool:
        """HC-TRICK-2: a higher rank wins; equal ranks: the leader, or the higher suit."""
        if card % 6 != led % 6:
            return card % 6 > led % 6
        return self.rules.ties == "suit" and card > led

    def apply_action(self, card: int) -> None:
        assert card in self.legal_actions()
        seat = self.to_move
        self.hands[seat].remove(card)
        if not self.table:
            self.table = [card]
            self.to_move = self.next_seat(seat)
            return
        led = self.table.pop()
        winner = seat if self.beats(card, led) else self.leader
        self.piles[winner] |= {card, led}
        for s in (winner, self.next_seat(winner)):      # HC-TRICK-3
            if self.stock:
                self.hands[s].add(self.stock.pop(0))
        self.leader = self.to_move = winner
        if not self.hands[winner]:
            self.end_deal()

    def tricks(self, seat: int) -> int:
        return len(self.piles[seat]) // 2

    def end_deal(self) -> None:
        """HC-END-1, HC-MATCH-1."""
        if self.mode == "deal":
            self.phase = "deal_over"
            return
        t0, t1 = self.tricks(0), self.tricks(1)
        winner = self.leader if t0 == t1 else int(t1 > t0)
        self.scores[winner] += 1
        if self.scores[winner] == self.rules.match_wins:
            self.phase = "match_over"
            return
        self.dealer = self.next_seat(self.dealer)
        self.deal_number += 1
        self.deal()

    def returns(self) -> list[float]:
        if self.phase == "play":
            return [0.0, 0.0]
        if self.mode == "match":
            diff = 1.0 if self.scores[0] > self.scores[1] else -1.0
        else:
            diff = float(self.tricks(0) - self.tricks(1))
        return [diff, -diff]

    def to_dict(self) -> dict:
        def names(cards) -> list[str]:
            return [DECK.name(c) for c in sorted(cards)]
        return {
            "game": self.game, "rules": self.rules_dict, "mode": self.mode,
            "phase": self.phase, "dealer": self.dealer, "leader": self.leader,
            "to_move": self.to_move, "hands": [names(h) for h in self.hands],
            "table": [DECK.name(c) for c in self.table],
            "stock": [DECK.name(c) for c in self.stock],
            "piles": [names(p) for p in self.piles], "scores": list(self.scores),
            "deal_number": self.deal_number, "rng": list(self.rng.s),
        }

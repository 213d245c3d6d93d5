"""The plain-Python Bura engine's scoring (the test oracle's, :mod:`.reference`): card points,
the combinations and what they decide, the claim, the count, the deal's result, the match (its
scores, its end, the next dealer) and the returns — each a small method whose docstring starts
with its rule ID.

:class:`ReferenceScoring` is a base of :class:`.reference.ReferenceBura` and works on its
attributes (``hands``, ``piles_up``, ``piles_down``, ``scores``, ``result``, ``rules``, ...);
like the rest of the oracle it imports nothing of the compiled engine.

Cards (rules §1): index = suit * 9 + r, ranks 6 7 8 9 J Q K T A in strength order.
"""
from __future__ import annotations

N_RANKS = 9
HAND_SIZE = 3                          # BU-DEAL-2, BU-DRAW-1
CLAIM_TARGET = 31                      # BU-CLAIM-2

# Rules §1: card points by rank 6 7 8 9 J Q K T A.
POINTS_BY_RANK = (0, 0, 0, 0, 2, 3, 4, 10, 11)
SIX, TEN, ACE = 0, 7, 8                # rank indices


def suit(card: int) -> int:
    """Rules §1: the suit index of a card (0 spades, 1 clubs, 2 diamonds, 3 hearts)."""
    return card // N_RANKS


def rank(card: int) -> int:
    """Rules §1: the rank index of a card in strength order (0 = six ... 8 = ace)."""
    return card % N_RANKS


def points(card: int) -> int:
    """Rules §1: the card points of a card (A 11, T 10, K 4, Q 3, J 2, others 0)."""
    return POINTS_BY_RANK[rank(card)]


class ReferenceScoring:
    """The scoring methods of :class:`.reference.ReferenceBura` (module docstring)."""

    # --- combinations (rules §2.5) -----------------------------------------------------------

    def is_bura(self, hand) -> bool:
        """BU-COMBO-2: three trumps in hand."""
        return len(hand) == HAND_SIZE and all(self.is_trump(c) for c in hand)

    def is_molodka(self, hand) -> bool:
        """BU-COMBO-5, BU-COMBO-9: three non-trump cards of one suit (a trump one is a bura)."""
        return (len(hand) == HAND_SIZE and len({suit(c) for c in hand}) == 1
                and not any(self.is_trump(c) for c in hand))

    def is_moscow(self, hand) -> bool:
        """BU-COMBO-1: three aces (``three_aces``), or three aces one of which is the trump ace
        (``three_aces_with_trump``); never with ``moscow=off``."""
        if self.rules.moscow == "off":
            return False
        if len(hand) != HAND_SIZE or any(rank(c) != ACE for c in hand):
            return False
        if self.rules.moscow == "three_aces_with_trump":
            return any(self.is_trump(c) for c in hand)
        return True

    def is_small_moscow(self, hand) -> bool:
        """BU-COMBO-6: three sixes including the trump six (``three_sixes_with_trump``) or
        three tens including the trump ten (``three_tens_with_trump``); never when off."""
        if self.rules.small_moscow == "off":
            return False
        wanted = SIX if self.rules.small_moscow == "three_sixes_with_trump" else TEN
        return (len(hand) == HAND_SIZE and all(rank(c) == wanted for c in hand)
                and any(self.is_trump(c) for c in hand))

    def has_active_combination(self, hand) -> bool:
        """BU-DEAL-5: a combination that has an effect under the options: bura always,
        molodka with ``molodka_stop``, Moscow and small Moscow when enabled."""
        return (self.is_bura(hand)
                or (self.rules.molodka_stop and self.is_molodka(hand))
                or self.is_moscow(hand)
                or self.is_small_moscow(hand))

    # --- what a check point decides (rules §2.5) ----------------------------------------------

    def moscow_holders(self) -> list[int]:
        """BU-COMBO-1: seats holding an enabled Moscow."""
        return [s for s in range(self.n) if self.is_moscow(self.hands[s])]

    def bura_holders(self, leader: int) -> list[int]:
        """BU-COMBO-2: seats whose bura counts now: anyone's (``any_check_point``) or only
        the scheduled leader's (``own_lead``)."""
        if self.rules.bura_timing == "own_lead":
            return [leader] if self.is_bura(self.hands[leader]) else []
        return [s for s in range(self.n) if self.is_bura(self.hands[s])]

    def highest_trump(self, seat: int) -> int:
        """BU-COMBO-3: the strongest trump in a hand (higher index = stronger)."""
        return max(c for c in self.hands[seat] if self.is_trump(c))

    def resolve_double_bura(self, holders: list[int]) -> None:
        """BU-COMBO-3: two or more burs: the highest top trump wins (``higher_top_card``) or
        the deal is void (``void_deal``)."""
        if self.rules.double_bura == "void_deal":
            self.end_deal("void", [], 0)
        else:
            best = max(holders, key=self.highest_trump)
            self.end_deal("bura", [best], 1)

    # --- the claim (BU-CLAIM-1..2) ------------------------------------------------------------

    def claim(self, seat: int) -> None:
        """BU-CLAIM-1, BU-CLAIM-2: the claimant's pile (face down cards included) is counted;
        31 or more wins (multiplier 1), less loses with multiplier 2 (``double``) or 1."""
        self.claim_points = self.pile_points(seat)
        if self.claim_points >= CLAIM_TARGET:
            self.end_deal("claim_won", [seat], 1)
        else:
            multiplier = 2 if self.rules.false_claim_penalty == "double" else 1
            self.end_deal("claim_lost", [s for s in range(self.n) if s != seat], multiplier)

    # --- end of a deal -----------------------------------------------------------------------

    def pile_points(self, seat: int) -> int:
        """BU-CLAIM-1, BU-END-4: card points of a pile, face up and face down."""
        return sum(points(c) for c in self.piles_up[seat] | self.piles_down[seat])

    def count_piles(self) -> None:
        """BU-END-2: nobody claimed after the last card: the most points wins; a tie for the
        most, or ``end_without_claim=void``, is a void deal."""
        if self.rules.end_without_claim == "void":
            self.end_deal("void", [], 0)
            return
        totals = [self.pile_points(s) for s in range(self.n)]
        best = max(totals)
        top = [s for s in range(self.n) if totals[s] == best]
        if len(top) == 1:
            self.end_deal("most_points", top, 1)
        else:
            self.end_deal("void", [], 0)

    def end_deal(self, kind: str, winners: list[int], multiplier: int) -> None:
        """BU-END-1, BU-END-3: the deal's result; scores (BU-MATCH-2/3); in a match, the
        match ends or the next deal is dealt (BU-END-6)."""
        self.result = (kind, sorted(winners), multiplier)
        self.trick = None
        self.to_move = None
        if kind != "void" and self.mode == "match":
            self.score_deal(winners, multiplier)
        if self.mode == "deal":
            self.phase = "deal_over"
        elif self.match_is_over():
            self.phase = "match_over"
        else:
            self.next_deal()

    def losers(self) -> list[int]:
        """BU-END-3: every seat that is not a winner of a decided deal."""
        kind, winners, _ = self.result
        return [] if kind == "void" else [s for s in range(self.n) if s not in winners]

    def score_deal(self, winners: list[int], multiplier: int) -> None:
        """BU-MATCH-2: each winner gets ``multiplier`` wins; BU-MATCH-3: each loser gets
        2 x ``multiplier`` penalty points; single_deal keeps no score. Matches only: a lone
        deal (``new_deal``) keeps the scores at zero."""
        fmt = self.rules.match_format
        for s in range(self.n):
            if fmt == "wins_to_n" and s in winners:
                self.scores[s] += multiplier
            elif fmt == "penalty_points" and s not in winners:
                self.scores[s] += 2 * multiplier

    def match_winner(self) -> int | None:
        """BU-MATCH-2: the seat with at least ``wins_target`` wins and a lead of 2 or more
        over every other player, if any."""
        for s in range(self.n):
            if self.scores[s] >= self.rules.wins_target and all(
                    self.scores[s] - self.scores[o] >= 2 for o in range(self.n) if o != s):
                return s
        return None

    def match_losers(self) -> list[int]:
        """BU-MATCH-3: the seats at or over ``penalty_limit`` penalty points."""
        return [s for s in range(self.n) if self.scores[s] >= self.rules.penalty_limit]

    def match_is_over(self) -> bool:
        """BU-MATCH-1..3: single_deal ends at the first deal that is not void; wins_to_n when a
        player has won; penalty_points when a player reached the limit."""
        fmt = self.rules.match_format
        if fmt == "single_deal":
            return self.result[0] != "void"
        if fmt == "wins_to_n":
            return self.match_winner() is not None
        return bool(self.match_losers())

    def next_dealer(self) -> int:
        """BU-END-6, BU-DEAL-1: the deal's winner deals; with several, the first clockwise
        from the claimant's left; after a void deal the same dealer."""
        kind, winners, _ = self.result
        if kind == "void":
            return self.dealer
        if len(winners) == 1:
            return winners[0]
        claimant = self.leader  # several winners only after a false claim (BU-END-3)
        seat = self.next_seat(claimant)
        while seat not in winners:
            seat = self.next_seat(seat)
        return seat

    # --- returns ------------------------------------------------------------------------------

    def deal_returns(self) -> list[float]:
        """BU-END-3: each loser -multiplier; the winners share the losers' total equally;
        a void deal is all zeros."""
        kind, winners, m = self.result
        if kind == "void":
            return [0.0] * self.n
        losers = [s for s in range(self.n) if s not in winners]
        share = m * len(losers) / len(winners)
        return [float(share) if s in winners else float(-m) for s in range(self.n)]

    def match_returns(self) -> list[float]:
        """BU-MATCH-1..3: single_deal, the deciding deal's returns; wins_to_n, +1 for the
        winner and -1/(n-1) for each other; penalty_points, -1 for each loser and the others
        share the losers' total."""
        fmt = self.rules.match_format
        if fmt == "single_deal":
            return self.deal_returns()
        if fmt == "wins_to_n":
            w = self.match_winner()
            return [1.0 if s == w else -1.0 / (self.n - 1) for s in range(self.n)]
        losers = self.match_losers()
        share = len(losers) / (self.n - len(losers))
        return [-1.0 if s in losers else share for s in range(self.n)]

    def returns(self) -> list[float]:
        """Per seat: the deal's returns (deal mode) or the match's (match mode); zeros before
        the end."""
        if not self.is_terminal():
            return [0.0] * self.n
        return self.match_returns() if self.mode == "match" else self.deal_returns()

"""The scoring of the plain-Python reference engine (:mod:`.reference`): card values, the
combinations a set of cards holds and their points, the scoring events with the resto
conversion, the declarations' event, the Matto's settlement and the end of a deal.

The rules are module functions over plain sets of card indices, so that the position checks
(:mod:`.validation`) and the conformance adapter apply the same text of the rules;
:class:`Scoring` holds the :class:`~.reference.ReferenceGame` methods that score.
"""
from __future__ import annotations

from . import layout

MATTO = 40
T29 = 28                    # index of trump 29
TRICKS = 21                 # MI-PLAY-1
LAST_TRICK_POINTS = 10      # MI-END-4
HALF_PACK = 42              # MI-END-2
MATTO_BONUS = 5             # MI-COMB-4
CAPOT_MINIMUM = 14          # capot=it_rules

# The engine's combination ids: the catalogue order of layout.py (the action encoding).
COMBO_ID = {tuple(sorted(cards)): i for i, cards in enumerate(layout.COMBO_CARDS)}


def trump(n: int) -> int:
    """Rules §1.4: the index of trump n."""
    return n - 1


def suit_card(s: int, f: int) -> int:
    """Rules §1.4: the index of the suit card of suit s and face rank f."""
    return 41 + s * 14 + f


KINGS = tuple(suit_card(s, 13) for s in range(4))


# A deliberate parallel of layout._card_value: the oracle derives every rule again from the text.
def value(c: int) -> int:
    """Rules §1.3: 36..40 are worth 10; 30..35, 28, 20, 13, 10, 1, the Matto and the Kings
    5; 2..5 3; every other card (T29 included) 0."""
    if c < 40:
        n = c + 1
        if n >= 36:
            return 10
        if 30 <= n <= 35 or n in (28, 20, 13, 10, 1):
            return 5
        if 2 <= n <= 5:
            return 3
        return 0
    if c == MATTO:
        return 5
    return 5 if (c - 41) % 14 == 13 else 0


def combo_value(cards) -> int:
    """MI-COMB-3: the sum of the cards' values, trump 29 counting 5."""
    return sum(5 if c == T29 else value(c) for c in cards)


def combos_of(cards: set[int], two_triples: bool) -> list[int]:
    """MI-COMB-1/2: the combination ids a set of cards holds, ascending: maximal runs of
    3+ trumps within 1..5 and within 28..40, Matto-1-40, 1-13-28, the decine (all four
    one combination, or two triples with ``decine_four=two_triples``), 3 or 4 Kings."""
    found: list[tuple[int, ...]] = []
    for lo, hi in ((1, 5), (28, 40)):
        n = lo
        while n <= hi:
            if trump(n) not in cards:
                n += 1
                continue
            m = n
            while m + 1 <= hi and trump(m + 1) in cards:
                m += 1
            if m - n + 1 >= 3:
                found.append(tuple(trump(x) for x in range(n, m + 1)))
            n = m + 1
    if {MATTO, trump(1), trump(40)} <= cards:
        found.append((trump(1), trump(40), MATTO))
    if {trump(1), trump(13), trump(28)} <= cards:
        found.append((trump(1), trump(13), trump(28)))
    dec = [trump(n) for n in (10, 20, 30, 40)]
    low, high = set(dec[:3]), set(dec[1:])
    if set(dec) <= cards and not two_triples:
        found.append(tuple(dec))
    else:
        if low <= cards:
            found.append(tuple(sorted(low)))
        if high <= cards:
            found.append(tuple(sorted(high)))
    kings = [k for k in KINGS if k in cards]
    if len(kings) >= 3:
        found.append(tuple(kings))
    return sorted(COMBO_ID[tuple(sorted(c))] for c in found)


def bonus_applies(combo: int, on_matto_combo: bool) -> bool:
    """MI-COMB-4: the Matto bonus applies to each combination without the Matto (to all
    with ``matto_bonus_on_matto_combo``)."""
    return on_matto_combo or MATTO not in layout.COMBO_CARDS[combo]


def combos_points(combos: list[int], bonus: bool, on_matto_combo: bool) -> int:
    """MI-COMB-3/4: the values of the combinations, + 5 for each one the bonus applies
    to when ``bonus``."""
    total = sum(combo_value(layout.COMBO_CARDS[c]) for c in combos)
    if bonus:
        total += MATTO_BONUS * sum(1 for c in combos if bonus_applies(c, on_matto_combo))
    return total


def pile_points(pile: set[int], rules) -> tuple[int, int, int]:
    """MI-END-1..3: (card values, cards beyond 42, combinations with the Matto bonus when the
    pile holds the Matto) of a final pile."""
    combos = combos_of(pile, rules.decine_four == "two_triples")
    return (sum(value(c) for c in pile), max(0, len(pile) - HALF_PACK),
            combos_points(combos, MATTO in pile, rules.matto_bonus_on_matto_combo))


def convert(d: int, resti: list[int], resto: int) -> int:
    """MI-RESTO-2 after one event: every ``resto`` points of D become a resto of the team
    ahead; returns the new D, ``resti`` updated in place."""
    while d >= resto:
        resti[0] += 1
        d -= resto
    while d <= -resto:
        resti[1] += 1
        d += resto
    return d


def final_rounding(d: int, resto: int) -> int:
    """MI-RESTO-3: the resti team A gains (negative: team B) from the final D."""
    if d > 0:
        return -(-d // resto)
    if d < 0:
        return d // resto
    return 0


def payment_card(pile: set[int]) -> int:
    """MI-MATTO-2: the debtor's lowest-index zero-value card but T29, else its lowest-valued
    card (lowest index among equals)."""
    zero = sorted(c for c in pile if value(c) == 0 and c != T29)
    return zero[0] if zero else min(pile, key=lambda c: (value(c), c))


def capot(net: int, tricks_won: list[int], rules) -> int:
    """``capot=it_rules``: when a team won no trick, the other team's net resti become
    ``max(14, 2 × net)``."""
    if rules.capot == "it_rules":
        if tricks_won[1] == 0:
            return max(CAPOT_MINIMUM, 2 * net)
        if tricks_won[0] == 0:
            return -max(CAPOT_MINIMUM, -2 * net)
    return net


class Scoring:
    """The scoring methods of :class:`~.reference.ReferenceGame` (its fields, documented
    there)."""

    def score_cutter_rob(self) -> None:
        """MI-CUT-2: the robbed cards join the cutter's hand; his team scores their values
        (one event)."""
        self.hands[self.cutter] |= self.cutter_robbed
        pts = [0, 0]
        pts[self.team(self.cutter)] = sum(value(c) for c in self.cutter_robbed)
        self.event({"cutter_rob": pts})

    def score_exposed(self) -> None:
        """MI-DEAL-3: each exposed card scores for its holder's team (one event for all)."""
        pts = [0, 0]
        for seat, c in enumerate(self.exposed):
            if c is not None:
                pts[self.team(seat)] += value(c)
        self.event({"exposed": pts})

    def event(self, by_source: dict) -> None:
        """MI-SCORE-1, MI-RESTO-1/2: one scoring event: the points of each source are added,
        D moves by A − B, and every 60 of D becomes a resto."""
        for src, (a, b) in by_source.items():
            self.points[src][0] += a
            self.points[src][1] += b
            self.D += a - b
        self.D = convert(self.D, self.resti, self.rules.resto_points)

    def combos_of(self, cards: set[int]) -> list[int]:
        """MI-COMB-1/2 (:func:`combos_of` with the rules' ``decine_four``)."""
        return combos_of(cards, self.rules.decine_four == "two_triples")

    def bonus_applies(self, combo: int) -> bool:
        """MI-COMB-4 (:func:`bonus_applies` with the rules' option)."""
        return bonus_applies(combo, self.rules.matto_bonus_on_matto_combo)

    def combos_points(self, combos: list[int], bonus: bool) -> int:
        """MI-COMB-3/4 (:func:`combos_points` with the rules' option)."""
        return combos_points(combos, bonus, self.rules.matto_bonus_on_matto_combo)

    def declare_source(self, seat: int) -> set[int]:
        """MI-DECL-1: the declarer's cards: his hand (plus his first card with
        ``after_own_first_card``)."""
        if self.rules.declaration_timing == "after_own_first_card":
            return self.hands[seat] | self.played[seat]
        return set(self.hands[seat])

    def may_claim_bonus(self, seat: int) -> bool:
        """MI-DECL-2: he holds the Matto (or played it as that first card) and has declared
        a combination the bonus applies to."""
        return (MATTO in self.declare_source(seat)
                and any(self.bonus_applies(c) for c in self.declared[seat]))

    def finish_declaration(self, seat: int, bonus: bool) -> None:
        """MI-DECL-3: the seat's declaration is one scoring event for its team."""
        pts = [0, 0]
        pts[self.team(seat)] = self.combos_points(self.declared[seat], bonus)
        self.declared_done[seat] = True
        self.bonus_claimed[seat] = bonus
        self.event({"declarations": pts})

    def declare_all(self, seat: int) -> None:
        """``declaration_mode=all``: the seat declares every combination it holds and claims
        the bonus when it can."""
        self.declared[seat] = self.combos_of(self.declare_source(seat))
        self.finish_declaration(seat, self.may_claim_bonus(seat))

    def complete_trick(self) -> None:
        """MI-PLAY-5, MI-MATTO-1/2, MI-SCORE-2, MI-KING-2: the winner's team takes the cards
        but the Matto (it goes to its own team, which then owes a card if the other team won);
        the other team's counting cards die (one event); the suit counts as led; the winner
        leads."""
        winner = self.trick_winner()
        wt = self.team(winner)
        dying = 0
        for s, c in self.trick:
            if c == MATTO:
                self.piles[self.team(s)].add(c)
                if self.team(s) != wt:
                    self.matto_debt = True
                continue
            self.piles[wt].add(c)
            if self.team(s) != wt:
                dying += value(c)
        pts = [0, 0]
        pts[wt] = dying
        led = self.led_suit()
        if led is not None and led < 4:
            self.suits_led.add(led)
        self.trick = []
        self.tricks_won[wt] += 1
        self.tricks_played += 1
        self.last_winner = winner
        self.leader = winner
        self.to_move = winner
        self.event({"dying": pts})
        if self.tricks_played == TRICKS:
            self.end_of_deal()

    def settle_matto(self) -> None:
        """MI-MATTO-3: a Matto team without a trick gives the Matto away; MI-MATTO-2: else a
        debt is paid with the debtor's :func:`payment_card`."""
        mt = self.matto_team
        if mt is None:
            return
        if self.tricks_won[mt] == 0:
            self.piles[mt].discard(MATTO)
            self.piles[1 - mt].add(MATTO)
            self.matto_given = True
        elif self.matto_debt:
            pile = self.piles[mt]
            card = payment_card(pile)
            pile.discard(card)
            self.piles[1 - mt].add(card)
            self.paid_card = card

    def end_of_deal(self) -> None:
        """MI-END-1..4 (one event), MI-RESTO-3/4, capot; then the next deal of a match."""
        self.settle_matto()
        by = {s: [0, 0] for s in ("pile", "beyond_42", "pile_combinations", "last_trick")}
        for t in (0, 1):
            by["pile"][t], by["beyond_42"][t], by["pile_combinations"][t] = \
                pile_points(self.piles[t], self.rules)
        by["last_trick"][self.team(self.last_winner)] = LAST_TRICK_POINTS
        self.event(by)
        rounding = final_rounding(self.D, self.rules.resto_points)
        self.resti[0 if rounding > 0 else 1] += abs(rounding)
        net = capot(self.resti[0] - self.resti[1], self.tricks_won, self.rules)
        self.net = net
        self.net_total += net
        self.to_move = None
        if self.mode == "deal":
            self.phase = "deal_over"
        elif self.deal_number >= self.rules.deals:
            self.phase = "match_over"
        else:
            self.deal_number += 1
            self.dealer = (self.dealer + 1) % 4
            self.start_deal()

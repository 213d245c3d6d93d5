"""A slow, plain-Python Bura engine written for clarity: the test oracle of the kernels.

It implements ``../shared/rules/bura.md`` again from the text, independently of the compiled
engine (:mod:`.kernels`, :mod:`.layout`, :mod:`.notation` are not imported): card sets are
Python ``set`` objects of card indices, the stock is a ``list`` in drawing order, and each rule
is one small method whose docstring starts with its rule ID; the scoring methods (points,
combinations, the claim, the count, the match, the returns) are in :mod:`.reference_scoring`.
Only the deck (:data:`.layout.DECK`, with the mask helpers of :mod:`cardsim.cards`), the
random-number generator (:class:`cardsim.compiled.rng.PyRng`, the plain-Python twin of the kernels'
generator) and the options (:class:`.rules.BuraRules`) are shared, so that a seed deals the
same cards in both engines.

The interface mirrors the public ``State`` for the differential test
(``tests/games/bura/test_differential.py``): the same action ids (``kind << 40 | card_mask``),
the same position dict (:meth:`ReferenceBura.to_dict`) and the same ``returns``.

Cards: index = suit * 9 + r, suits s c d h, ranks 6 7 8 9 J Q K T A in strength order
(rules §1), so within a suit a higher index is a stronger card.

Flow of a deal (rules §2.5): a *check point* comes before every lead, after the deal and after
every drawing phase. It resolves Moscow, then bura, then gives the scheduled leader his
decision. Without a Stop option (``molodka_stop`` off and ``small_moscow`` off) that decision
is one choice among ``claim`` and every lead (phase ``check``); with one, the leader first
chooses ``claim``/``no_claim`` (phase ``claim``), then the Stop calls are asked in up to two
rounds, the small-Moscow round (if ``small_moscow`` is on) before the molodka round (if
``molodka_stop`` is on): in each, every non-leader in turn from the leader's left chooses
``stop``/``pass`` (phase ``stop``); then the leader leads (phase ``lead``). When every card has
been played, the last trick's winner chooses ``claim``/``no_claim`` (phase ``claim``).
"""
from __future__ import annotations

from itertools import combinations, permutations

from ...cards import bits_of, mask_of
from ...compiled.rng import PyRng
from ...protocol.reference import ReferenceEngine
from .layout import DECK
from .reference_scoring import HAND_SIZE, ReferenceScoring, rank, suit
from .rules import BuraRules

N_CARDS = 36
KIND_SHIFT = 40                        # action id = kind << 40 | card mask
CARD_MASK = (1 << KIND_SHIFT) - 1

# Action kinds (the engine's encoding).
LEAD, BEAT, THROW_DOWN, THROW_UP, CLAIM, NO_CLAIM, STOP, PASS = range(8)
KIND_NAMES = ("lead", "beat", "throw_down", "throw_up", "claim", "no_claim", "stop", "pass")


def action_id(kind: int, cards=()) -> int:
    """The action encoding shared with the compiled engine: ``kind << 40 | card mask``."""
    return kind << KIND_SHIFT | mask_of(cards)


def split_action(action: int) -> tuple[int, set[int]]:
    """Inverse of :func:`action_id`: (kind, set of cards)."""
    return action >> KIND_SHIFT, set(bits_of(action & CARD_MASK))


class ReferenceBura(ReferenceScoring, ReferenceEngine):
    """One Bura deal or match in plain Python data.

    Attributes: ``hands`` (list of sets, per seat), ``stock`` (list, next card first, the
    turned trump card last while undrawn), ``piles_up`` / ``piles_down`` (lists of sets, per
    seat), ``thrown_down`` (list of sets: every card a seat threw face down this deal),
    ``trick`` (None or a dict of the trick in progress), ``trump_card``, ``dealer``,
    ``leader`` (scheduled leader, or the trick's leader during a trick), ``to_move``,
    ``phase``, ``stop_round`` ("small_moscow"/"molodka" in phase "stop", else None),
    ``revealed`` (list of sets: the cards shown at a refused Stop, this deal),
    ``revealed_at`` (card -> the check point it was first shown at), ``history`` (the tricks
    of this deal: per trick ``{"played": [set per seat], "drawn": [set per seat]}`` with the
    cards drawn after it; None when a position was given without it),
    ``mode`` ("deal"/"match"), ``result`` (None or (kind, winners, multiplier)),
    ``scores``, ``deal_number``, ``redeals``, ``last_trick_taker`` and ``rng`` (a
    :class:`PyRng`, the chance stream of redeals and later deals).
    """

    game = "bura"

    def __init__(self, rules: BuraRules) -> None:
        super().__init__(rules)
        self.n = rules.num_players
        self.mode = "deal"
        self.phase = "check"
        self.dealer = 0
        self.to_move: int | None = 0
        self.leader = 0
        self.trump_card = 0
        self.hands: list[set[int]] = [set() for _ in range(self.n)]
        self.stock: list[int] = []
        self.piles_up: list[set[int]] = [set() for _ in range(self.n)]
        self.piles_down: list[set[int]] = [set() for _ in range(self.n)]
        self.thrown_down: list[set[int]] = [set() for _ in range(self.n)]
        self.trick: dict | None = None
        self.stop_round: str | None = None
        self.revealed: list[set[int]] = [set() for _ in range(self.n)]
        self.revealed_at: dict[int, int] = {}
        self.history: list[dict] | None = []
        self.result: tuple[str, list[int], int] | None = None
        self.claim_points = 0
        self.tricks = 0
        self.first_leader = 0
        self.scores = [0] * self.n
        self.deal_number = 1
        self.redeals = 0
        self.last_trick_taker: int | None = None
        self.rng = PyRng([0, 0, 0, 0])
        self.setup_leader: int | str | None = None   # set_up's first_leader

    # --- construction ------------------------------------------------------------------------
    # (The oracle restates the rules on its own, so its construction and seats parallel the
    # other games' references on purpose: no code shared with them beyond cardsim's core.)

    @classmethod
    def from_dict(cls, rules: BuraRules, position: dict) -> "ReferenceBura":
        """A state from the position-dict format (the output of :meth:`to_dict`)."""
        g = cls.for_position(rules, position)
        names = DECK.indices
        g.mode = position.get("mode", "deal")
        g.phase = position["phase"]
        g.dealer = int(position["dealer"])
        tm = position.get("to_move")
        g.to_move = None if tm is None else int(tm)
        g.leader = int(position["leader"])
        g.trump_card = DECK.index(position["trump_card"])
        if len(position["hands"]) != g.n:
            raise ValueError(f"expected {g.n} hands, got {len(position['hands'])}")
        g.hands = [set(names(h)) for h in position["hands"]]
        g.stock = list(names(position["stock"]))
        piles = position.get("piles", [{"up": [], "down": []}] * g.n)
        g.piles_up = [set(names(p["up"])) for p in piles]
        g.piles_down = [set(names(p["down"])) for p in piles]
        g.thrown_down = [set(names(t)) for t in position.get("thrown_down", [[]] * g.n)]
        t = position.get("trick")
        if t is None:
            g.trick = None
        else:
            played = [set(names(p)) for p in t["played"]]
            thrown = set().union(*(set(names(x)) for x in position.get("thrown_down", [])))
            in_trick = set().union(*played)
            g.trick = {"leader": int(t["leader"]), "k": int(t["k"]),
                       "top": set(names(t["top"])), "holder": int(t["holder"]),
                       "up": in_trick - thrown, "down": in_trick & thrown,
                       "answered": sum(1 for p in played if p) - 1, "played": played}
        g.stop_round = position.get("stop_round")
        g.revealed = [set(names(r)) for r in position.get("revealed", [[]] * g.n)]
        g.revealed_at = {DECK.index(c): int(v)
                         for c, v in position.get("revealed_at", {}).items()}
        history = position.get("history")
        g.history = None if history is None else [
            {"played": [set(names(p)) for p in h["played"]],
             "drawn": [set(names(p)) for p in h["drawn"]]} for h in history]
        if g.history is None and int(position.get("tricks", 0)) == 0:
            g.history = []
        r = position.get("result")
        g.result = None if r is None else (r["kind"], [int(w) for w in r["winners"]],
                                           int(r["multiplier"]))
        g.scores = [int(x) for x in position.get("scores", [0] * g.n)]
        g.deal_number = int(position.get("deal_number", 1))
        g.redeals = int(position.get("redeals", 0))
        ltt = position.get("last_trick_taker")
        g.last_trick_taker = None if ltt is None else int(ltt)
        g.tricks = int(position.get("tricks", 0))
        g.first_leader = int(position.get("first_leader", position["leader"]))
        g.claim_points = int((r or {}).get("claim_points", 0))
        return g.placed(position, range(N_CARDS))

    def clone(self) -> "ReferenceBura":
        """An independent copy."""
        g = ReferenceBura(self.rules)
        g.mode, g.phase = self.mode, self.phase
        g.dealer, g.to_move, g.leader = self.dealer, self.to_move, self.leader
        g.trump_card = self.trump_card
        g.hands = [set(h) for h in self.hands]
        g.stock = list(self.stock)
        g.piles_up = [set(p) for p in self.piles_up]
        g.piles_down = [set(p) for p in self.piles_down]
        g.thrown_down = [set(t) for t in self.thrown_down]
        g.trick = None if self.trick is None else {
            k: (set(v) if isinstance(v, set) else [set(p) for p in v] if k == "played" else v)
            for k, v in self.trick.items()}
        g.claim_points, g.tricks, g.first_leader = self.claim_points, self.tricks, self.first_leader
        g.stop_round = self.stop_round
        g.revealed = [set(r) for r in self.revealed]
        g.revealed_at = dict(self.revealed_at)
        g.history = None if self.history is None else [
            {k: [set(p) for p in v] for k, v in h.items()} for h in self.history]
        g.result = None if self.result is None else (self.result[0], list(self.result[1]),
                                                     self.result[2])
        g.scores = list(self.scores)
        g.deal_number, g.redeals = self.deal_number, self.redeals
        g.last_trick_taker = self.last_trick_taker
        g.rng = PyRng(self.rng.s)
        return g

    # --- seats and cards ---------------------------------------------------------------------

    def trump_suit(self) -> int:
        """BU-DEAL-3: the suit of the turned card is trump for the whole deal."""
        return suit(self.trump_card)

    def is_trump(self, card: int) -> bool:
        """BU-DEAL-3: a card of the trump suit."""
        return suit(card) == self.trump_suit()

    def stop_options_on(self) -> bool:
        """BU-COMBO-5/6: an out-of-turn Stop exists only with ``molodka_stop`` or
        ``small_moscow``; otherwise the claim and the lead are one decision."""
        return self.rules.molodka_stop or self.rules.small_moscow != "off"

    # --- dealing -----------------------------------------------------------------------------

    def shuffle_and_deal(self, order: list[int]) -> None:
        """BU-DEAL-2, BU-DEAL-3: hands one card at a time from the dealer's left; the rest is
        the stock, whose last card is the turned trump card."""
        n = self.n
        self.hands = [set() for _ in range(n)]
        for i in range(HAND_SIZE * n):
            self.hands[(self.dealer + 1 + i) % n].add(order[i])
        self.stock = order[HAND_SIZE * n:]
        self.trump_card = self.stock[-1]

    def deal(self) -> None:
        """BU-DEAL-2..5: shuffle and deal; with ``initial_combo_redeal`` the same dealer deals
        again (the same list reshuffled) while any hand holds an active combination."""
        order = list(range(N_CARDS))
        while True:
            self.rng.shuffle(order)
            self.shuffle_and_deal(order)
            if not (self.rules.initial_combo_redeal
                    and any(self.has_active_combination(h) for h in self.hands)):
                return
            self.redeals += 1

    def set_up(self, first_leader=None) -> None:
        """A single deal may start from another scheduled first leader (BU-LEAD-2, as a later
        deal of a match): a seat, or ``"dealer"`` for the dealer himself."""
        if not (first_leader is None or first_leader == "dealer"
                or (type(first_leader) is int and 0 <= first_leader < self.n)):
            raise ValueError(f"first_leader {first_leader!r}: expected a seat or 'dealer'")
        self.setup_leader = first_leader

    def first_deal(self) -> None:
        """After BU-DEAL-1's draw of the first dealer; BU-LEAD-1: the dealer's left leads
        first, unless the deal was set up with another first leader (:meth:`set_up`)."""
        leader = self.setup_leader
        if leader is None:
            leader = self.next_seat(self.dealer)
        elif leader == "dealer":
            leader = self.dealer
        self.start_deal(leader)

    def start_deal(self, first_leader: int) -> None:
        """BU-DEAL-1..5, BU-LEAD-1/2: a fresh deal, then its first check point."""
        self.piles_up = [set() for _ in range(self.n)]
        self.piles_down = [set() for _ in range(self.n)]
        self.thrown_down = [set() for _ in range(self.n)]
        self.revealed = [set() for _ in range(self.n)]
        self.revealed_at = {}
        self.history = []
        self.trick = None
        self.result = None
        self.last_trick_taker = None
        self.tricks = 0
        self.first_leader = first_leader
        self.claim_points = 0
        self.deal()
        self.check_point(first_leader)

    # --- check points ------------------------------------------------------------------------

    def check_point(self, leader: int) -> None:
        """Rules §2.5: before every lead. Moscow (BU-COMBO-1), then bura (BU-COMBO-2/3), then
        the scheduled leader's decision (BU-COMBO-4, BU-COMBO-8); with every card played, his
        last claim (BU-END-2)."""
        self.leader = leader
        self.trick = None
        moscow = self.moscow_holders()
        if moscow:
            self.end_deal("moscow", [moscow[0]], 1)
            return
        bura = self.bura_holders(leader)
        if len(bura) == 1:
            self.end_deal("bura", bura, 1)
            return
        if len(bura) > 1:
            self.resolve_double_bura(bura)
            return
        self.to_move = leader
        if self.all_cards_played() or self.stop_options_on():
            self.phase = "claim"
        else:
            self.phase = "check"

    def all_cards_played(self) -> bool:
        """BU-END-2: the stock and every hand are empty."""
        return not self.stock and all(not h for h in self.hands)

    # --- legal actions -----------------------------------------------------------------------

    def lead_options(self, hand) -> list[set[int]]:
        """BU-LEAD-4, BU-LEAD-5: one card, or two or three cards of one suit, from the hand."""
        out = [{c} for c in hand]
        for k in (2, 3):
            for combo in combinations(sorted(hand), k):
                if len({suit(c) for c in combo}) == 1:
                    out.append(set(combo))
        return out

    def card_beats(self, x: int, y: int) -> bool:
        """BU-RESP-2: x beats y if it is the same suit and higher, or a trump on a non-trump."""
        if suit(x) == suit(y):
            return rank(x) > rank(y)
        return self.is_trump(x) and not self.is_trump(y)

    def set_beats(self, xs, ys) -> bool:
        """BU-RESP-3, BU-EX-4: k cards beat k cards if some one-to-one pairing has every card
        of ``xs`` beat its partner; every one of the k! pairings is tried."""
        xs, ys = sorted(xs), sorted(ys)
        if len(xs) != len(ys):
            return False
        return any(all(self.card_beats(x, y) for x, y in zip(perm, ys))
                   for perm in permutations(xs))

    def answer_actions(self, seat: int) -> list[int]:
        """BU-RESP-1, BU-RESP-6, BU-RESP-7: any k cards of the hand; ``beat`` when they beat
        the current top; ``throw_down`` (any cards) with ``always``/``choice``; ``throw_up``
        (any cards) with ``choice``; with ``off`` only non-beating cards are thrown up."""
        fd = self.rules.facedown_discards
        out = []
        for combo in combinations(sorted(self.hands[seat]), self.trick["k"]):
            beats = self.set_beats(combo, self.trick["top"])
            if beats:
                out.append(action_id(BEAT, combo))
            if fd in ("always", "choice"):
                out.append(action_id(THROW_DOWN, combo))
            if fd == "choice" or (fd == "off" and not beats):
                out.append(action_id(THROW_UP, combo))
        return out

    def first_stop_round(self) -> str:
        """BU-COMBO-6: the small-Moscow calls are considered before any molodka call, so the
        small-Moscow round (when on) comes first."""
        return "small_moscow" if self.rules.small_moscow != "off" else "molodka"

    def stop_eligible(self, seat: int) -> bool:
        """BU-COMBO-5, BU-COMBO-6: in the small-Moscow round a non-leader holding an enabled
        small Moscow may call Stop, in the molodka round one holding a molodka (with
        ``molodka_stop``); his own hand alone decides (the leader's refusal comes after the
        call, :meth:`leader_refuses`)."""
        hand = self.hands[seat]
        if self.stop_round == "small_moscow":
            return self.is_small_moscow(hand)
        return self.rules.molodka_stop and self.is_molodka(hand)

    def leader_refuses(self) -> bool:
        """BU-COMBO-5, BU-COMBO-6: a molodka Stop is refused when the scheduled leader holds a
        molodka or a small Moscow himself; a small-Moscow Stop is never refused."""
        lead_hand = self.hands[self.leader]
        return self.stop_round == "molodka" and (self.is_molodka(lead_hand)
                                                 or self.is_small_moscow(lead_hand))

    def legal_actions(self) -> list[int]:
        """The legal action ids of the player to move, sorted; empty when terminal."""
        if self.is_terminal():
            return []
        seat = self.to_move
        if self.phase == "check":       # BU-COMBO-4 and BU-COMBO-8 as one decision
            acts = [action_id(CLAIM)] + [action_id(LEAD, s)
                                         for s in self.lead_options(self.hands[seat])]
        elif self.phase == "claim":     # BU-CLAIM-1, BU-END-2
            acts = [action_id(CLAIM), action_id(NO_CLAIM)]
        elif self.phase == "stop":      # BU-COMBO-5..7: pass is always legal
            acts = [action_id(PASS)]
            if self.stop_eligible(seat):
                acts.append(action_id(STOP, self.hands[seat]))
        elif self.phase == "lead":      # BU-COMBO-8, BU-LEAD-4
            acts = [action_id(LEAD, s) for s in self.lead_options(self.hands[seat])]
        elif self.phase == "answer":    # BU-RESP-1..7
            acts = self.answer_actions(seat)
        else:
            raise ValueError(f"unknown phase {self.phase!r}")
        return sorted(acts)

    # --- applying an action ------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        """Play one action of the player to move (dispatch on its kind)."""
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action}")
        kind, cards = split_action(action)
        seat = self.to_move
        if kind == CLAIM:
            self.claim(seat)
        elif kind == NO_CLAIM:
            self.decline_claim(seat)
        elif kind == LEAD:
            self.lead(seat, cards)
        elif kind == STOP:
            self.call_stop(seat, cards)
        elif kind == PASS:
            self.pass_stop(seat)
        else:
            self.answer(seat, kind, cards)

    def decline_claim(self, seat: int) -> None:
        """BU-END-2: with every card played, no claim counts the piles; otherwise
        (BU-COMBO-5..7) the first Stop round begins at the leader's left."""
        if self.all_cards_played():
            self.count_piles()
        else:
            self.phase = "stop"
            self.stop_round = self.first_stop_round()
            self.to_move = self.next_seat(seat)

    def leader_leads(self) -> None:
        """BU-COMBO-8: no Stop was made (or it was refused): the scheduled leader leads."""
        self.phase = "lead"
        self.stop_round = None
        self.to_move = self.leader

    def pass_stop(self, seat: int) -> None:
        """BU-COMBO-7: the next non-leader clockwise is asked; after the last one, the molodka
        round follows the small-Moscow round (when on), else the leader leads."""
        nxt = self.next_seat(seat)
        if nxt != self.leader:
            self.to_move = nxt
        elif self.stop_round == "small_moscow" and self.rules.molodka_stop:
            self.stop_round = "molodka"
            self.to_move = self.next_seat(self.leader)
        else:
            self.leader_leads()

    def call_stop(self, seat: int, cards: set[int]) -> None:
        """BU-COMBO-5..7: the caller leads his three cards instead of the scheduled leader;
        a refused molodka Stop shows the leader's hand and the caller's three cards (rules §5:
        calls show their cards) and the leader leads."""
        if self.leader_refuses():
            shown = self.hands[self.leader] | cards
            self.revealed[self.leader] |= self.hands[self.leader]
            self.revealed[seat] |= cards
            for c in shown:
                self.revealed_at.setdefault(c, self.tricks)
            self.leader_leads()
            return
        self.stop_round = None
        self.lead(seat, cards)

    def lead(self, seat: int, cards: set[int]) -> None:
        """BU-LEAD-4, BU-RESP-4: the lead is face up and is the first top of the trick; the
        answers go clockwise from the leader's left (BU-RESP-1)."""
        self.hands[seat] -= cards
        self.leader = seat
        self.trick = {"leader": seat, "k": len(cards), "top": set(cards), "holder": seat,
                      "up": set(cards), "down": set(), "answered": 0,
                      "played": [set(cards) if q == seat else set() for q in range(self.n)]}
        self.phase = "answer"
        self.to_move = self.next_seat(seat)

    def answer(self, seat: int, kind: int, cards: set[int]) -> None:
        """BU-RESP-1..7: a beat makes the answerer the holder and his cards the top; a face
        down throw is hidden (and remembered by its thrower); a face up throw is open."""
        t = self.trick
        self.hands[seat] -= cards
        t["played"][seat] = set(cards)
        if kind == BEAT:
            t["holder"] = seat
            t["top"] = set(cards)
            t["up"] |= cards
        elif kind == THROW_DOWN:
            t["down"] |= cards
            self.thrown_down[seat] |= cards
        else:
            t["up"] |= cards
        t["answered"] += 1
        if t["answered"] == self.n - 1:
            self.finish_trick()
        else:
            self.to_move = self.next_seat(seat)

    def finish_trick(self) -> None:
        """BU-RESP-5, BU-RESP-6: the trick goes to the holder, face up cards to his face up
        pile, face down ones to his face down pile; then drawing (BU-DRAW-1) and the next check
        point with the winner as scheduled leader (BU-LEAD-3)."""
        t = self.trick
        winner = t["holder"]
        self.piles_up[winner] |= t["up"]
        self.piles_down[winner] |= t["down"]
        self.last_trick_taker = winner
        self.tricks += 1
        drawn = self.draw(winner)
        if self.history is not None:
            self.history.append({"played": [set(p) for p in t["played"]], "drawn": drawn})
        self.trick = None
        self.check_point(winner)

    def draw(self, winner: int) -> list[set[int]]:
        """BU-DRAW-1..3: from the trick's winner clockwise, one card at a time from the front
        of the stock, until every hand has 3 cards or the stock is empty (the turned trump
        card, last, is drawn like any card). Returns the cards each seat drew."""
        drawn = [set() for _ in range(self.n)]
        seat = winner
        while self.stock and any(len(h) < HAND_SIZE for h in self.hands):
            if len(self.hands[seat]) < HAND_SIZE:
                card = self.stock.pop(0)
                self.hands[seat].add(card)
                drawn[seat].add(card)
            seat = self.next_seat(seat)
        return drawn

    def next_first_leader(self, dealer: int) -> int:
        """BU-LEAD-2: the last trick's taker (``last_trick_taker``), or the dealer's left when
        the deal had no trick or with ``left_of_dealer``."""
        if (self.rules.next_deal_first_leader == "last_trick_taker"
                and self.last_trick_taker is not None):
            return self.last_trick_taker
        return self.next_seat(dealer)

    def next_deal(self) -> None:
        """BU-END-6, BU-LEAD-2: the next deal of the match from the same stream."""
        self.dealer = self.next_dealer()
        first = self.next_first_leader(self.dealer)
        self.deal_number += 1
        self.redeals = 0
        self.start_deal(first)

    # --- outcome -----------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """BU-END-1 (deal mode) or BU-MATCH-1..3 (match mode): nothing left to play."""
        return self.phase in ("deal_over", "match_over")

    def current_player(self) -> int:
        """The seat to move, -1 once terminal."""
        return -1 if self.is_terminal() else self.to_move

    # --- the position dict -------------------------------------------------------------------

    def all_cards(self) -> list[int]:
        """Every card of every place (hands, stock, piles, the trick), duplicates kept: the 36
        cards when the state is consistent."""
        out = list(self.stock)
        for h in self.hands:
            out += list(h)
        for s in range(self.n):
            out += list(self.piles_up[s]) + list(self.piles_down[s])
        if self.trick is not None:
            out += list(self.trick["up"]) + list(self.trick["down"])
        return out

    def to_dict(self) -> dict:
        """The position dict; card lists sorted by index, except the stock (drawing order)."""
        def names(cards):
            return [DECK.name(c) for c in sorted(cards)]

        t = self.trick
        trick = None if t is None else {
            "leader": t["leader"], "k": t["k"], "played": [names(p) for p in t["played"]],
            "top": names(t["top"]), "holder": t["holder"]}
        result = None if self.result is None else {
            "kind": self.result[0], "winners": list(self.result[1]),
            "multiplier": self.result[2], "claim_points": self.claim_points}
        return {
            "game": "bura",
            "rules": dict(self.rules_dict),
            "mode": self.mode,
            "phase": self.phase,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "leader": self.leader,
            "trump_card": DECK.name(self.trump_card),
            "hands": [names(h) for h in self.hands],
            "stock": [DECK.name(c) for c in self.stock],
            "piles": [{"up": names(self.piles_up[s]), "down": names(self.piles_down[s])}
                      for s in range(self.n)],
            "thrown_down": [names(t) for t in self.thrown_down],
            "trick": trick,
            "stop_round": self.stop_round,
            "revealed": [names(r) for r in self.revealed],
            "revealed_at": {DECK.name(c): self.revealed_at[c] for c in sorted(self.revealed_at)},
            "history": None if self.history is None else [
                {"played": [names(p) for p in h["played"]],
                 "drawn": [names(p) for p in h["drawn"]]} for h in self.history],
            "result": result,
            "scores": list(self.scores),
            "deal_number": self.deal_number,
            "redeals": self.redeals,
            "last_trick_taker": self.last_trick_taker,
            "tricks": self.tricks,
            "first_leader": self.first_leader,
            "rng": [int(x) for x in self.rng.s],
        }

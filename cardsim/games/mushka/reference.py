"""A slow, plain-Python Mushka engine written for clarity: the test oracle of the kernels.

It implements ``../shared/rules/mushka.md`` again from the text and from the engine's
conventions (dealing procedure, phases, decisions, action ids, the position dict of
:mod:`.notation`), independently of the compiled engine (:mod:`.kernels` and :mod:`.notation`
are not imported, nor :mod:`.layout`'s tables; its scoring is in :mod:`.reference_scoring`):
card sets are Python ``set`` objects of card indices, the stock is a ``list`` in drawing order,
and each rule is one small method whose docstring starts with its rule ID. Only the deck
(:data:`.layout.DECK`, and the rules' ``deck_mask`` of :func:`.layout.deck_mask`), the random
number generator (:class:`cardsim.compiled.rng.PyRng`, the plain-Python twin of the kernels' generator)
and the options (:class:`.rules.MushkaRules`) are shared, so that a seed deals the same cards in
both engines.

The interface mirrors the public ``State`` for the differential test
(``tests/games/mushka/test_differential.py``): the same action ids (``kind << 52 | card_mask``),
the same position dict (:meth:`ReferenceMushka.to_dict`) and the same ``returns``.

Cards: index = suit * 13 + r, suits s c d h, r = 0..12 for 2 3 4 5 6 7 8 9 T J Q K A, so within
a suit a higher index is a stronger card (rules §1); ``As`` = 12.

Flow of a deal: (``discard``, only with ``dealer_takes_trump_card``) -> ``exchange`` (each seat
once, from the dealer's left to the dealer) -> ``play`` (5 tricks among the active seats), or a
lone player credited with 5 tricks one at a time, or a void deal -> end of the deal (ace bonus
at the end, remises, end-of-deal stop offers). ``stop`` is the phase of a stop offer
(``stop_mode=declared``); a stop ends the deal (``deal_over``) or the match (``match_over``).
In a match, the next deal follows at once from the same chance stream.
"""
from __future__ import annotations

from itertools import combinations

from ...cards import bits_of, mask_of
from ...compiled.rng import PyRng
from ...protocol.reference import ReferenceEngine
from .layout import DECK
from .reference_scoring import ACE_OF_SPADES, ReferenceScoring
from .rules import MushkaRules

N_CARDS = 52
N_RANKS = 13
HAND_SIZE = 5                          # MU-DEAL-2
TRICKS_PER_DEAL = 5                    # MU-PLAY-1
SPADES = 0
ACE = 12                               # rank index of the ace
KIND_SHIFT = 52                        # action id = kind << 52 | card mask
CARD_MASK = (1 << KIND_SHIFT) - 1

# Action kinds (the engine's encoding).
PLAY, EXCHANGE, STAND, PASS, DISCARD, STOP, PLAY_ON = range(7)
KIND_NAMES = ("play", "exchange", "stand", "pass", "discard", "stop", "play_on")


def suit(card: int) -> int:
    """Rules §1: the suit index of a card (0 spades, 1 clubs, 2 diamonds, 3 hearts)."""
    return card // N_RANKS


def rank(card: int) -> int:
    """Rules §1: the rank index of a card (0 = two ... 12 = ace); higher is stronger."""
    return card % N_RANKS


def action_id(kind: int, cards=()) -> int:
    """The action encoding of the engine: ``kind << 52 | card mask``."""
    return kind << KIND_SHIFT | mask_of(cards)


def split_action(action: int) -> tuple[int, set[int]]:
    """Inverse of :func:`action_id`: (kind, set of cards)."""
    return action >> KIND_SHIFT, set(bits_of(action & CARD_MASK))


def action_text(action: int) -> str:
    """The engine's text form: ``"play Th"``, ``"exchange 7c+9d"``, ``"stand"``,
    ``"play_on"``."""
    kind, cards = split_action(action)
    names = "+".join(DECK.name(c) for c in sorted(cards))
    return KIND_NAMES[kind] + (" " + names if names else "")


class ReferenceMushka(ReferenceScoring, ReferenceEngine):
    """One Mushka deal or match in plain Python data.

    Every attribute is one field of the position dict (no hidden bookkeeping), so
    :meth:`from_dict` rebuilds any position exactly: ``hands``, ``discards``, ``played``,
    ``excluded`` (lists of sets per seat), ``stock`` (list, next card first), ``trump_card``,
    ``trump_taken``, ``records``, ``start_records``, ``decisions`` (None, "pass", "stand" or
    k), ``active`` (sorted seats), ``ace_holder``, ``ace_bonus_taken``, ``leader``, ``trick``
    (list of (seat, card) in playing order), ``tricks_won``, ``tricks_played``,
    ``lone_tricks_left``, ``stop_offer`` (None or (seat, "play"|"bonus"|"end")), ``void``,
    ``stopper``, ``winners``, ``phase``, ``mode``, ``dealer``, ``to_move``, ``deal_number``
    and ``rng`` (a :class:`PyRng`, the chance stream of later deals).
    """

    game = "mushka"

    def __init__(self, rules: MushkaRules) -> None:
        super().__init__(rules)
        self.n = rules.num_players
        self.deck = set(bits_of(rules.deck_mask))
        self.mode = "deal"
        self.phase = "exchange"
        self.dealer = 0
        self.to_move: int | None = 0
        self.deal_number = 1
        self.trump_card = 0
        self.trump_taken = False
        self.records = [rules.start_points] * self.n
        self.start_records = list(self.records)
        self.hands: list[set[int]] = [set() for _ in range(self.n)]
        self.discards: list[set[int]] = [set() for _ in range(self.n)]
        self.decisions: list = [None] * self.n
        self.stock: list[int] = []
        self.active: list[int] = []
        self.ace_holder: int | None = None
        self.ace_bonus_taken = False
        self.leader: int | None = None
        self.trick: list[tuple[int, int]] = []
        self.tricks_won = [0] * self.n
        self.tricks_played = 0
        self.lone_tricks_left = 0
        self.played: list[set[int]] = [set() for _ in range(self.n)]
        self.excluded: list[set[int]] = [set() for _ in range(self.n)]
        self.stop_offer: tuple[int, str] | None = None
        self.void = False
        self.stopper: int | None = None
        self.winners: list[int] = []
        self.rng = PyRng([0, 0, 0, 0])

    # --- construction ------------------------------------------------------------------------

    @classmethod
    def from_dict(cls, rules: MushkaRules, d: dict) -> "ReferenceMushka":
        """A state from the position-dict format (the output of :meth:`to_dict`)."""
        g = cls.for_position(rules, d)
        names = DECK.indices
        g.mode = d["mode"]
        g.phase = d["phase"]
        g.dealer = int(d["dealer"])
        g.to_move = None if d["to_move"] is None else int(d["to_move"])
        g.deal_number = int(d["deal_number"])
        g.trump_card = DECK.index(d["trump_card"])
        g.trump_taken = bool(d["trump_taken"])
        g.records = [int(x) for x in d["records"]]
        g.start_records = [int(x) for x in d["start_records"]]
        if len(d["hands"]) != g.n:
            raise ValueError(f"expected {g.n} hands, got {len(d['hands'])}")
        g.hands = [set(names(h)) for h in d["hands"]]
        g.discards = [set(names(x)) for x in d["discards"]]
        g.decisions = [x if x in (None, "pass", "stand") else int(x) for x in d["decisions"]]
        g.stock = list(names(d["stock"]))
        g.active = sorted(int(s) for s in d["active"])
        g.ace_holder = None if d["ace_holder"] is None else int(d["ace_holder"])
        g.ace_bonus_taken = bool(d["ace_bonus_taken"])
        g.leader = None if d["leader"] is None else int(d["leader"])
        g.trick = [(int(s), DECK.index(c)) for s, c in d["trick"]]
        g.tricks_won = [int(x) for x in d["tricks_won"]]
        g.tricks_played = int(d["tricks_played"])
        g.lone_tricks_left = int(d["lone_tricks_left"])
        g.played = [set(names(x)) for x in d["played"]]
        g.excluded = [set(names(x)) for x in d["excluded"]]
        offer = d["stop_offer"]
        g.stop_offer = None if offer is None else (int(offer["seat"]), offer["at"])
        g.void = bool(d["void"])
        g.stopper = None if d["stopper"] is None else int(d["stopper"])
        g.winners = sorted(int(s) for s in d["winners"])
        return g.placed(d, g.deck)

    def clone(self) -> "ReferenceMushka":
        """An independent copy."""
        g = ReferenceMushka(self.rules)
        for name, value in vars(self).items():
            if name in ("rules", "rules_dict", "deck", "n"):
                continue
            if isinstance(value, list):
                value = [set(v) if isinstance(v, set) else v for v in value]
            elif isinstance(value, PyRng):
                value = PyRng(value.s)
            setattr(g, name, value)
        return g

    # --- seats and cards ---------------------------------------------------------------------
    # (restated in each game's reference on purpose: an oracle shares no code with the engines)

    def trump_suit(self) -> int:
        """MU-DEAL-3: the suit of the turned card is trump for the whole deal."""
        return suit(self.trump_card)

    def is_trump(self, card: int) -> bool:
        """MU-DEAL-3: a card of the trump suit."""
        return suit(card) == self.trump_suit()

    def spades_trump(self) -> bool:
        """MU-ACE-1: spades are trump (the ace of spades is then simply the highest trump)."""
        return self.trump_suit() == SPADES

    def trump_ace(self) -> int:
        """MU-ACE-2: the ace of the trump suit."""
        return self.trump_suit() * N_RANKS + ACE

    def deck_suit(self, s: int) -> set[int]:
        """Rules §1: the cards of suit ``s`` in the deck in use."""
        return {c for c in self.deck if suit(c) == s}

    # --- dealing -----------------------------------------------------------------------------

    def reset_deal(self) -> None:
        """Per-deal state back to the start of a deal (records kept, MU-MATCH-2)."""
        n = self.n
        self.start_records = list(self.records)
        self.hands = [set() for _ in range(n)]
        self.discards = [set() for _ in range(n)]
        self.decisions = [None] * n
        self.stock = []
        self.trump_taken = False
        self.active = []
        self.ace_holder = None
        self.ace_bonus_taken = False
        self.leader = None
        self.trick = []
        self.tricks_won = [0] * n
        self.tricks_played = 0
        self.lone_tricks_left = 0
        self.played = [set() for _ in range(n)]
        self.excluded = [set() for _ in range(n)]
        self.stop_offer = None
        self.void = False
        self.stopper = None
        self.winners = []

    def deal_cards(self) -> None:
        """MU-DEAL-2..4: the deck in ascending index order is shuffled; position i < 5n goes
        to seat (dealer + 1 + i) % n, one card at a time from the dealer's left; the next card
        is the turned trump card; the rest is the stock, top (next to draw) first."""
        order = sorted(self.deck)
        self.rng.shuffle(order)
        k = HAND_SIZE * self.n
        for i in range(k):
            self.hands[(self.dealer + 1 + i) % self.n].add(order[i])
        self.trump_card = order[k]
        self.stock = order[k + 1:]

    def set_up(self, records=None) -> None:
        """A deal may start from ``records`` (else every record is ``start_points``)."""
        if records is not None:
            if len(records) != self.n:
                raise ValueError(f"expected {self.n} records, got {len(records)}")
            self.records = [int(r) for r in records]

    def first_deal(self) -> None:
        """After MU-DEAL-1's draw of the first dealer."""
        self.start_deal()

    def start_deal(self) -> None:
        """MU-DEAL-1..4, MU-EXCH-1: a fresh deal; then the dealer's discard (with
        ``dealer_takes_trump_card``) or the exchange from the dealer's left."""
        self.reset_deal()
        self.deal_cards()
        if self.rules.dealer_takes_trump_card:
            self.take_trump_card()
        else:
            self.phase = "exchange"
            self.to_move = self.next_seat(self.dealer)

    def take_trump_card(self) -> None:
        """MU-DEAL-3 (option ``dealer_takes_trump_card``): the dealer adds the turned card to
        his hand and must discard one card face down."""
        self.hands[self.dealer].add(self.trump_card)
        self.trump_taken = True
        self.phase = "discard"
        self.to_move = self.dealer

    # --- legal actions -----------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """The legal action ids of the seat to move, sorted ascending ([] when terminal)."""
        if self.is_terminal():
            return []
        if self.phase == "discard":
            return sorted(action_id(DISCARD, [c]) for c in self.discardable(self.dealer))
        if self.phase == "exchange":
            return sorted(self.exchange_actions(self.to_move))
        if self.phase == "stop":
            return [action_id(STOP), action_id(PLAY_ON)]
        return sorted(action_id(PLAY, [c]) for c in self.playable(self.to_move))

    def discardable(self, seat: int) -> set[int]:
        """MU-EXCH-4 (and the engine's discard phase): the cards a seat may throw away:
        never the ace of spades (unless ``ace_of_spades_discardable``), never the turned card
        the dealer took (it is publicly known to be in his hand)."""
        out = set(self.hands[seat])
        if not self.rules.ace_of_spades_discardable:
            out.discard(ACE_OF_SPADES)
        if self.trump_taken and seat == self.dealer:
            out.discard(self.trump_card)
        return out

    def max_exchange(self) -> int:
        """MU-EXCH-2, MU-EXCH-5: at most 5 cards, and no more than the stock holds."""
        return min(HAND_SIZE, len(self.stock))

    def may_pass(self, seat: int) -> bool:
        """MU-EXCH-3: the holder of the ace of spades may not pass."""
        return ACE_OF_SPADES not in self.hands[seat]

    def exchange_actions(self, seat: int) -> list[int]:
        """MU-EXCH-2: exchange any set of 1..k allowed cards, stand, or pass (if allowed)."""
        cards = sorted(self.discardable(seat))
        out = [action_id(STAND)]
        if self.may_pass(seat):
            out.append(action_id(PASS))
        for k in range(1, self.max_exchange() + 1):
            out += [action_id(EXCHANGE, combo) for combo in combinations(cards, k)]
        return out

    def led_card(self) -> int | None:
        """MU-PLAY-4: the first card of the current trick (None before the lead)."""
        return self.trick[0][1] if self.trick else None

    def best_of_suit_in_trick(self, s: int) -> int | None:
        """The highest card of suit ``s`` in the current trick, if any."""
        cards = [c for _, c in self.trick if suit(c) == s]
        return max(cards) if cards else None

    def trick_trumped(self) -> bool:
        """MU-PLAY-4 (``must_head_trick``): the led suit is not trump and a trump was
        played to the trick."""
        led = self.led_card()
        return not self.is_trump(led) and self.best_of_suit_in_trick(self.trump_suit()) is not None

    def head_duty(self) -> bool:
        """MU-PLAY-4 option ``must_head_trick``: a follower of suit must beat the best card of
        the led suit when able, unless the trick was already trumped."""
        return self.rules.must_head_trick and not self.trick_trumped()

    def ace_of_spades_power(self) -> bool:
        """MU-ACE-1/2: spades are not trump and the trick was led with the ace of trumps."""
        return not self.spades_trump() and self.led_card() == self.trump_ace()

    def playable(self, seat: int) -> set[int]:
        """MU-PLAY-3..5, MU-ACE-2..4: the cards a seat may play to the current trick."""
        hand = self.hands[seat]
        led = self.led_card()
        if led is None:
            return set(hand)
        legal = self.follow_cards(hand, led)
        if self.ace_of_spades_power() and ACE_OF_SPADES in hand:
            legal.add(ACE_OF_SPADES)
        return legal

    def follow_cards(self, hand: set[int], led: int) -> set[int]:
        """MU-PLAY-4/5: follow suit (heading the trick with ``must_head_trick``), else trump
        (overtrumping with ``must_overtrump``), else any card."""
        same = {c for c in hand if suit(c) == suit(led)}
        if same:
            if self.head_duty():
                best = self.best_of_suit_in_trick(suit(led))
                higher = {c for c in same if c > best}
                if higher:
                    return higher
            return same
        trumps = {c for c in hand if self.is_trump(c)}
        if trumps:
            if self.rules.must_overtrump:
                best = self.best_of_suit_in_trick(self.trump_suit())
                higher = {c for c in trumps if best is None or c > best}
                if higher:
                    return higher
            return trumps
        return set(hand)

    # --- applying actions --------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        """Apply one legal action of the seat to move; ValueError for an illegal one."""
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action} ({action_text(action)})")
        kind, cards = split_action(action)
        seat = self.to_move
        if kind == DISCARD:
            self.dealer_discards(cards)
        elif kind == EXCHANGE:
            self.exchange(seat, cards)
        elif kind == STAND:
            self.stand(seat)
        elif kind == PASS:
            self.pass_deal(seat)
        elif kind == PLAY:
            self.play(seat, next(iter(cards)))
        elif kind == STOP:
            self.stop(seat)
        else:
            self.play_on()

    # --- the dealer's discard and the exchange -----------------------------------------------

    def dealer_discards(self, cards: set[int]) -> None:
        """MU-DEAL-3 (``dealer_takes_trump_card``): the dealer's card goes face down to his
        discards (dead); then the exchange begins at the dealer's left (MU-EXCH-1)."""
        self.hands[self.dealer] -= cards
        self.discards[self.dealer] |= cards
        self.phase = "exchange"
        self.to_move = self.next_seat(self.dealer)

    def exchange(self, seat: int, cards: set[int]) -> None:
        """MU-EXCH-2, MU-EXCH-6: the k discarded cards are dead; the stock's top k cards are
        drawn at once."""
        k = len(cards)
        self.hands[seat] -= cards
        self.discards[seat] |= cards
        self.hands[seat] |= set(self.stock[:k])
        self.stock = self.stock[k:]
        self.decisions[seat] = k
        self.next_decision(seat)

    def stand(self, seat: int) -> None:
        """MU-EXCH-2: the seat keeps his cards."""
        self.decisions[seat] = "stand"
        self.next_decision(seat)

    def pass_deal(self, seat: int) -> None:
        """MU-PASS-1, rules §5: the hand is set aside (it stays his, face down); the pass
        shows publicly that he does not hold the ace of spades (MU-EXCH-3)."""
        self.decisions[seat] = "pass"
        self.excluded[seat].add(ACE_OF_SPADES)
        self.next_decision(seat)

    def next_decision(self, seat: int) -> None:
        """MU-EXCH-1: the next seat clockwise decides; after the dealer the exchange is over."""
        if seat == self.dealer:
            self.end_exchange()
        else:
            self.to_move = self.next_seat(seat)

    def end_exchange(self) -> None:
        """MU-PASS-2/3, MU-ACE-5, MU-PLAY-1/2: the active seats and the ace holder are fixed;
        no active seat (or a lone one with ``lone_player=redeal``): void deal; one: he is
        credited with the tricks; two or more: play."""
        self.active = [s for s in range(self.n) if self.decisions[s] != "pass"]
        holders = [s for s in self.active if ACE_OF_SPADES in self.hands[s]]
        self.ace_holder = holders[0] if holders else None
        if not self.active or (len(self.active) == 1 and self.rules.lone_player == "redeal"):
            self.void_deal()
        elif len(self.active) == 1:
            self.lone_tricks_left = TRICKS_PER_DEAL
            self.credit_lone_tricks()
        else:
            self.start_play()

    def first_leader(self) -> int:
        """MU-PLAY-2: the dealer's left, or the first active seat clockwise from there."""
        seat = self.next_seat(self.dealer)
        while seat not in self.active:
            seat = self.next_seat(seat)
        return seat

    def start_play(self) -> None:
        """MU-PLAY-1/2: the first trick is led by the first active seat from the dealer's
        left."""
        self.phase = "play"
        self.leader = self.first_leader()
        self.to_move = self.leader

    # --- play --------------------------------------------------------------------------------

    def next_active(self, seat: int) -> int:
        """MU-PLAY-1: play goes clockwise among the active seats only."""
        seat = self.next_seat(seat)
        while seat not in self.active:
            seat = self.next_seat(seat)
        return seat

    def play(self, seat: int, card: int) -> None:
        """MU-PLAY-3: one card to the trick (public); what it proves is noted (rules §5);
        when every active seat has played, the trick is decided."""
        if self.trick:
            self.note_inferences(seat, card)
        self.hands[seat].discard(card)
        self.played[seat].add(card)
        self.trick.append((seat, card))
        if len(self.trick) < len(self.active):
            self.to_move = self.next_active(seat)
            return
        winner = self.trick_winner()
        self.trick = []
        self.leader = winner
        self.to_move = winner
        if not self.win_trick(winner):
            self.after_trick()

    def note_inferences(self, seat: int, card: int) -> None:
        """Rules §5 (the engine's ``excluded``): what a follower's card proves about his
        hand: not following shows a void in the led suit, not trumping a void in trumps,
        a card under the best under a head or overtrump duty shows none above it. The
        MU-ACE-2 play (the ace of spades onto a led trump ace) proves nothing."""
        led = self.led_card()
        ls, ts = suit(led), self.trump_suit()
        if card == ACE_OF_SPADES and self.ace_of_spades_power():
            return
        if suit(card) != ls:
            self.excluded[seat] |= self.deck_suit(ls)
            if suit(card) != ts:
                self.excluded[seat] |= self.deck_suit(ts)
            elif self.rules.must_overtrump:
                best = self.best_of_suit_in_trick(ts)
                if best is not None and card < best:
                    self.excluded[seat] |= {c for c in self.deck_suit(ts) if c > best}
        elif self.head_duty():
            best = self.best_of_suit_in_trick(ls)
            if card < best:
                self.excluded[seat] |= {c for c in self.deck_suit(ls) if c > best}

    def trick_winner(self) -> int:
        """MU-PLAY-6, MU-ACE-2/3: the ace of spades takes a trick led with the ace of trumps
        (spades not trump); else the highest trump; else the highest card of the led suit."""
        if self.ace_of_spades_power():
            for seat, card in self.trick:
                if card == ACE_OF_SPADES:
                    return seat
        led = self.led_card()
        trumps = [(c, s) for s, c in self.trick if self.is_trump(c)]
        if trumps:
            return max(trumps)[1]
        return max((c, s) for s, c in self.trick if suit(c) == suit(led))[1]

    def after_trick(self) -> None:
        """MU-PLAY-2: the winner leads the next trick; after the 5th the deal ends."""
        if self.tricks_played >= TRICKS_PER_DEAL:
            self.end_of_deal()
        else:
            self.phase = "play"

    # --- outcome -----------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """The deal (deal mode) or the match (match mode) is over."""
        return self.phase in ("deal_over", "match_over")

    def current_player(self) -> int:
        """The seat to move, -1 once terminal."""
        return -1 if self.is_terminal() else self.to_move

    # --- the position dict -------------------------------------------------------------------

    def all_cards(self) -> list[int]:
        """Every card of every place (hands, discards, stock, the turned card unless taken,
        played cards), duplicates kept: the deck's cards when the state is consistent."""
        out = list(self.stock)
        for s in range(self.n):
            out += list(self.hands[s]) + list(self.discards[s]) + list(self.played[s])
        if not self.trump_taken:
            out.append(self.trump_card)
        return out

    def to_dict(self) -> dict:
        """The position dict; card lists sorted by index, except the stock
        (drawing order) and the trick (playing order)."""
        def names(cards):
            return [DECK.name(c) for c in sorted(cards)]

        offer = None if self.stop_offer is None else {"seat": self.stop_offer[0],
                                                      "at": self.stop_offer[1]}
        return {
            "game": "mushka",
            "rules": dict(self.rules_dict),
            "mode": self.mode,
            "phase": self.phase,
            "dealer": self.dealer,
            "to_move": None if self.is_terminal() else self.to_move,
            "deal_number": self.deal_number,
            "trump_card": DECK.name(self.trump_card),
            "trump_taken": self.trump_taken,
            "records": list(self.records),
            "start_records": list(self.start_records),
            "hands": [names(h) for h in self.hands],
            "discards": [names(x) for x in self.discards],
            "decisions": list(self.decisions),
            "stock": [DECK.name(c) for c in self.stock],
            "active": list(self.active),
            "ace_holder": self.ace_holder,
            "ace_bonus_taken": self.ace_bonus_taken,
            "leader": self.leader,
            "trick": [[s, DECK.name(c)] for s, c in self.trick],
            "tricks_won": list(self.tricks_won),
            "tricks_played": self.tricks_played,
            "lone_tricks_left": self.lone_tricks_left,
            "played": [names(x) for x in self.played],
            "excluded": [names(x) for x in self.excluded],
            "stop_offer": offer,
            "void": self.void,
            "stopper": self.stopper,
            "winners": list(self.winners),
            "rng": [int(x) for x in self.rng.s],
        }

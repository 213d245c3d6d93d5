"""A slow, plain-Python Minchiate engine written for clarity: the test oracle of the kernels.

It implements ``../shared/rules/minchiate.md`` again from the text and from the engine's layout and
notation (dealing procedure, phases, decisions, action ids, position dict), independently of the
compiled engine (:mod:`.kernels` and :mod:`.notation` are not imported): card sets are Python
``set`` objects of card indices, the pack is a ``list`` (top first), and each rule is one small
function or method whose docstring starts with its rule ID (the scoring in
:mod:`.reference_scoring`; :mod:`.validation` checks positions with these functions). Only the deck
(:data:`.layout.DECK`, for the card names), the random number generator
(:class:`cardsim.compiled.rng.PyRng`, the plain-Python twin of the kernels' generator), the options
(:class:`.rules.MinchiateRules`) and the engine's combination ids (the order of
``layout.COMBO_CARDS``, which is the action encoding) are shared, so that a seed deals the same
cards in both engines. Card values, strengths, the combinations a set holds and their values are
computed here again from the rules.

The interface mirrors the public ``State`` for the differential test
(``tests/games/minchiate/test_differential.py``): the same action ids (``kind << 8 | value``),
the same position dict (:meth:`ReferenceGame.to_dict`), ``current_player`` (-1 once
terminal) and ``returns``.

Cards (rules §1.4): trump n = n − 1 (0..39), the Matto = 40, suit card = 41 + suit * 14 + f
(suits co cu sw ba, f: A=0, 2..10 = 1..9, F=10, C=11, Q=12, K=13). Seats 0..3 in playing
order; the team of seat s is s & 1 (A = {0, 2}, B = {1, 3}).

Flow of a deal: the shuffle, the cutter's robbing, the deal with the exposed 21st cards, the
dealer's robbing (three scoring events) -> ``discard`` (the cutter, then the dealer, one card
at a time) -> ``declare`` (each seat from d+1 to d; ``before_first_lead`` with
``declaration_mode=choice``) -> ``play`` (21 tricks; with ``after_own_first_card`` each seat
declares right after its card of trick 1) -> the Matto settlement and the end event ->
``deal_over``; in a match the next deal follows at once from the same chance stream, and after
``deals`` deals the phase is ``match_over``.
"""
from __future__ import annotations

import dataclasses

from ...compiled.rng import PyRng
from ...protocol.reference import ReferenceEngine
from . import layout
from .layout import DECK
from .reference_scoring import COMBO_ID, KINGS, MATTO, T29, Scoring, value
from .rules import MinchiateRules

N_CARDS = 97
HAND_SIZE = 21              # MI-DEAL-2
TRUMP_SUIT = 4
MATTO_SUIT = 5
SUIT_SHORTS = ("co", "cu", "sw", "ba")

# Action kinds (the engine's encoding: kind << 8 | value).
PLAY, DISCARD, DECLARE, DONE, DISCARD_SEEN = range(5)
KIND_NAMES = ("play", "discard", "declare", "done", "discard_seen")
KIND_SHIFT = 8
VALUE_MASK = (1 << KIND_SHIFT) - 1

SOURCES = ("cutter_rob", "exposed", "dealer_rob", "declarations", "dying", "pile",
           "beyond_42", "pile_combinations", "last_trick")


def suit_of(c: int) -> int:
    """Rules §1.1: 0..3 a plain suit, 4 a trump, 5 the Matto."""
    if c < 40:
        return TRUMP_SUIT
    if c == MATTO:
        return MATTO_SUIT
    return (c - 41) // 14


def strength(c: int) -> int:
    """Rules §1.2: the rank of a card within its suit, higher wins: trumps by number;
    swords and batons A < 2 < ... < 10 < F < C < Q < K; coins and cups 10 < 9 < ... < A < F
    < C < Q < K."""
    if c < 40:
        return c
    s, f = divmod(c - 41, 14)
    if s <= 1 and f <= 9:
        return 9 - f
    return f


def rob_eligible(c: int) -> bool:
    """MI-CUT-1, MI-ROB-1: a counting card or a trump above 20."""
    return value(c) > 0 or 20 <= c < 40


def discard_classes(hand: set[int], discard_trumps: bool) -> list[set[int]]:
    """MI-DISC-2/3 and the engine's classes: (0) zero-value cards but T29 (no trumps
    with ``discard_trumps=false``); (1) the other zero-value cards but T29; (2) T29;
    (3) 3-point; (4) 5-point; (5) 10-point cards."""
    zero = {c for c in hand if value(c) == 0 and c != T29}
    if discard_trumps:
        first = zero
    else:
        first = {c for c in zero if c >= 41}
    return [first, zero - first, hand & {T29},
            {c for c in hand if value(c) == 3}, {c for c in hand if value(c) == 5},
            {c for c in hand if value(c) == 10}]


def led_suit(trick: list[tuple[int, int]]) -> int | None:
    """MI-PLAY-2: the suit of the trick's first non-Matto card (None before it)."""
    for _, c in trick:
        if c != MATTO:
            return suit_of(c)
    return None


def king_rule(trick: list[tuple[int, int]], suits_led: set[int]) -> bool:
    """MI-KING-1/2: a plain suit led for the first time in the deal, and a trump already
    in this trick."""
    led = led_suit(trick)
    return (led is not None and led < 4 and led not in suits_led
            and any(c < 40 for _, c in trick))


def playable(hand: set[int], trick: list[tuple[int, int]], suits_led: set[int]) -> set[int]:
    """MI-PLAY-2..4, MI-KING-1: lead (or second after a Matto lead) anything; the King of
    the led suit under the King rule; else follow suit, else trump (the Matto always
    allowed); else anything."""
    led = led_suit(trick)
    if led is None:
        return set(hand)
    if king_rule(trick, suits_led) and KINGS[led] in hand:
        return {KINGS[led]}
    same = {c for c in hand if suit_of(c) == led}
    if same:
        return same | (hand & {MATTO})
    trumps = {c for c in hand if c < 40}
    if trumps:
        return trumps | (hand & {MATTO})
    return set(hand)


def inferences(card: int, trick: list[tuple[int, int]], suits_led: set[int]) -> set[int]:
    """Rules §6 (the engine's ``excluded``): playing ``card`` to ``trick``, not following
    shows a void in the led suit, playing neither it nor a trump a void in trumps; under the
    King rule any card but the King proves its absence."""
    out: set[int] = set()
    led = led_suit(trick)
    if led is None:
        return out
    if card != MATTO and suit_of(card) != led:
        out |= {c for c in range(N_CARDS) if suit_of(c) == led}
        if suit_of(card) != TRUMP_SUIT:
            out |= set(range(40))
    if king_rule(trick, suits_led) and card != KINGS[led]:
        out.add(KINGS[led])
    return out


CARD_NAMES = tuple(DECK.name(c) for c in range(N_CARDS))


def names(cards) -> list[str]:
    """Card names sorted by index."""
    return [CARD_NAMES[c] for c in sorted(cards)]


def action_id(kind: int, v: int = 0) -> int:
    """The engine's action encoding."""
    return kind << KIND_SHIFT | v


def action_text(action: int) -> str:
    """The engine's text form: ``"play T29"``, ``"discard 6cu"``,
    ``"declare T28+T29+T30+T31"``, ``"done"``, ``"done bonus"``."""
    kind, v = action >> KIND_SHIFT, action & VALUE_MASK
    if kind in (PLAY, DISCARD):
        return f"{KIND_NAMES[kind]} {DECK.name(v)}"
    if kind == DECLARE:
        return "declare " + "+".join(names(layout.COMBO_CARDS[v]))
    if kind == DONE:
        return "done bonus" if v else "done"
    return KIND_NAMES[kind]


class ReferenceGame(Scoring, ReferenceEngine):
    """One Minchiate deal or match in plain Python data.

    Every attribute is one field of the position dict (no hidden bookkeeping), so
    :meth:`from_dict` rebuilds any position exactly. Card sets are Python sets of indices;
    ``declared`` holds combination ids per seat (ascending); ``trick`` is a list of (seat,
    card); teams are 0 (A) and 1 (B); ``matto_team`` is None until the Matto is played.
    """

    game = "minchiate"

    def __init__(self, rules: MinchiateRules | None = None, seed=None, mode: str = "deal"):
        self.rules = rules if rules is not None else MinchiateRules()
        self.rules_dict = dataclasses.asdict(self.rules)
        self.mode = mode
        self.deal_number = 1
        self.phase = "discard"
        self.dealer = 0
        self.start_dealer = 0
        self.net_total = 0
        self.rng = PyRng([0, 0, 0, 0])
        self.reset_deal()
        if seed is not None:
            self.draw_first_dealer(seed, 4)          # MI-DEAL-1
            self.start_dealer = self.dealer
            self.start_deal()

    @classmethod
    def _start(cls, rules: MinchiateRules, seed, mode: str) -> "ReferenceGame":
        """A deal from a seed, terminal (``deal_over``) when scored; or a match of
        ``rules.deals`` deals, terminal (``match_over``) at its end."""
        return cls(rules, seed, mode)

    # --- seats -----------------------------------------------------------------------------

    @property
    def cutter(self) -> int:
        """MI-CUT-1: the dealer's left, seat d + 3."""
        return (self.dealer + 3) % 4

    @staticmethod
    def team(seat: int) -> int:
        """Rules §1: team A = seats {0, 2}, team B = seats {1, 3}."""
        return seat & 1

    # --- dealing -----------------------------------------------------------------------------

    def reset_deal(self) -> None:
        """Every per-deal field back to the start of a deal (the match fields are kept)."""
        self.phase = "discard"
        self.to_move: int | None = None
        self.hands: list[set[int]] = [set() for _ in range(4)]
        self.cutter_robbed: set[int] = set()
        self.seen_bottom: int | None = None
        self.exposed: list[int | None] = [None] * 4
        self.dealer_robbed: set[int] = set()
        self.discards: list[set[int]] = [set() for _ in range(4)]
        self.to_discard = 0
        self.fola: set[int] = set()
        self.fola_open = False
        self.declared: list[list[int]] = [[] for _ in range(4)]
        self.declared_done = [False] * 4
        self.bonus_claimed = [False] * 4
        self.leader: int | None = None
        self.trick: list[tuple[int, int]] = []
        self.tricks_played = 0
        self.tricks_won = [0, 0]
        self.played: list[set[int]] = [set() for _ in range(4)]
        self.suits_led: set[int] = set()
        self.excluded: list[set[int]] = [set() for _ in range(4)]
        self.piles: list[set[int]] = [set(), set()]
        self.matto_team: int | None = None
        self.matto_debt = False
        self.last_winner: int | None = None
        self.points = {s: [0, 0] for s in SOURCES}
        self.D = 0
        self.resti = [0, 0]
        self.paid_card: int | None = None
        self.matto_given = False
        self.net: int | None = None

    def start_deal(self) -> None:
        """MI-DEAL-1..4, MI-CUT-1/2, MI-ROB-1: shuffle, rob, deal, expose, rob the Fola (three
        scoring events), then the discards or what follows them."""
        pack = list(range(N_CARDS))
        self.rng.shuffle(pack)                         # pack[0] top, pack[96] bottom
        self.deal_from_pack(pack)

    def deal_from_pack(self, pack: list[int]) -> None:
        """The deal of :meth:`start_deal` from a given pack order (top first): the tests use
        it to stack a deal."""
        self.reset_deal()
        k = self.cutter_robs(pack)
        self.deal(pack, k)
        self.fola = set(pack[84:N_CARDS - k])          # MI-DEAL-4
        self.score_cutter_rob()
        self.score_exposed()
        self.dealer_robs()
        self.begin_discards()

    def cutter_robs(self, pack: list[int]) -> int:
        """MI-CUT-1: from the bottom, every eligible card up to 13 joins the cutter's hand;
        the first ineligible card is seen (public) and stops the robbing."""
        if self.rules.cutter_rob != "auto":
            return 0
        k = 0
        while k < self.rules.rob_cap:
            c = pack[N_CARDS - 1 - k]
            if not rob_eligible(c):
                self.seen_bottom = c
                break
            self.cutter_robbed.add(c)
            k += 1
        return k

    def deal(self, pack: list[int], k: int) -> None:
        """MI-DEAL-2/3: packets of 10, then 11, from the top, to d+1, d+2, d+3, d; each
        21st card is exposed (``expose_last_card=all_players``)."""
        for j in range(4):
            seat = (self.dealer + 1 + j) % 4
            first = pack[10 * j:10 * j + 10]
            second = pack[40 + 11 * j:40 + 11 * j + 11]
            self.hands[seat] = set(first) | set(second)
            if self.rules.expose_last_card == "all_players":
                self.exposed[seat] = second[-1]

    def dealer_robs(self) -> None:
        """MI-ROB-1 (``dealer_rob=auto_all``): every eligible Fola card joins the dealer's
        hand; his team scores their values (one event)."""
        if self.rules.dealer_rob == "auto_all":
            self.dealer_robbed = {c for c in self.fola if rob_eligible(c)}
            self.fola -= self.dealer_robbed
            self.hands[self.dealer] |= self.dealer_robbed
        pts = [0, 0]
        pts[self.team(self.dealer)] = sum(value(c) for c in self.dealer_robbed)
        self.event({"dealer_rob": pts})

    # --- discards ----------------------------------------------------------------------------

    def begin_discards(self) -> None:
        """MI-DISC-1: the cutter discards as many as he robbed, then the dealer."""
        if self.cutter_robbed:
            self.phase, self.to_move = "discard", self.cutter
            self.to_discard = len(self.cutter_robbed)
        elif self.dealer_robbed:
            self.phase, self.to_move = "discard", self.dealer
            self.to_discard = len(self.dealer_robbed)
        else:
            self.after_discards()

    def discard_classes(self, hand: set[int]) -> list[set[int]]:
        """MI-DISC-2/3 (:func:`discard_classes` with the rules' ``discard_trumps``)."""
        return discard_classes(hand, self.rules.discard_trumps)

    def discardable(self, seat: int) -> set[int]:
        """MI-DISC-2/3: the first non-empty class."""
        for cls in self.discard_classes(self.hands[seat]):
            if cls:
                return cls
        return set()

    def discard(self, seat: int, card: int) -> None:
        """MI-DISC-1: the card goes face down to the seat's discards and to the Fola; after the
        cutter, the dealer (if he robbed)."""
        self.hands[seat].discard(card)
        self.discards[seat].add(card)
        self.fola.add(card)
        self.to_discard -= 1
        if self.to_discard > 0:
            return
        if seat == self.cutter and self.dealer_robbed:
            self.to_move = self.dealer
            self.to_discard = len(self.dealer_robbed)
            return
        self.after_discards()

    def after_discards(self) -> None:
        """MI-DECL-1, MI-FOLA-1: declarations before the first lead (turns from d+1, or all
        automatic), then the Fola is opened and d+1 leads; with ``after_own_first_card`` play
        starts at once."""
        self.to_discard = 0
        if self.rules.declaration_timing == "before_first_lead":
            if self.rules.declaration_mode == "choice":
                self.phase = "declare"
                self.to_move = (self.dealer + 1) % 4
                return
            for j in range(4):
                self.declare_all((self.dealer + 1 + j) % 4)
        self.start_play()

    def start_play(self) -> None:
        """MI-FOLA-1, MI-PLAY-1: the Fola is opened (``fola_visibility=open``); d+1 leads."""
        self.fola_open = self.rules.fola_visibility == "open"
        self.phase = "play"
        self.leader = (self.dealer + 1) % 4
        self.to_move = self.leader

    # --- declarations --------------------------------------------------------------------------------

    def declare_actions(self, seat: int) -> list[int]:
        """MI-DECL-2 and the engine: DECLARE c for each held combination above the last one
        declared, DONE, and DONE|1 when the bonus may be claimed."""
        last = self.declared[seat][-1] if self.declared[seat] else -1
        out = [action_id(DECLARE, c) for c in self.combos_of(self.declare_source(seat))
               if c > last]
        out.append(action_id(DONE, 0))
        if self.may_claim_bonus(seat):
            out.append(action_id(DONE, 1))
        return sorted(out)

    def done(self, seat: int, bonus: bool) -> None:
        """The end of a declare turn: the event; then the next declarer, or play (before the
        first lead), or play goes on (after one's first card)."""
        self.finish_declaration(seat, bonus)
        if self.rules.declaration_timing == "before_first_lead":
            if seat == self.dealer:
                self.start_play()
            else:
                self.to_move = (seat + 1) % 4
            return
        self.phase = "play"
        self.after_card(seat)

    # --- play --------------------------------------------------------------------------------

    def led_suit(self) -> int | None:
        """MI-PLAY-2 (:func:`led_suit` of the current trick)."""
        return led_suit(self.trick)

    def king_rule(self) -> bool:
        """MI-KING-1/2 (:func:`king_rule` of the current trick)."""
        return king_rule(self.trick, self.suits_led)

    def playable(self, seat: int) -> set[int]:
        """MI-PLAY-2..4, MI-KING-1 (:func:`playable`): the cards the seat may play."""
        return playable(self.hands[seat], self.trick, self.suits_led)

    def note_inferences(self, seat: int, card: int) -> None:
        """Rules §6 (:func:`inferences`): what playing ``card`` shows absent from the hand."""
        self.excluded[seat] |= inferences(card, self.trick, self.suits_led)

    def play(self, seat: int, card: int) -> None:
        """MI-PLAY-1..4: one card to the trick (public); with ``after_own_first_card`` the
        seat declares right after its card of trick 1."""
        self.note_inferences(seat, card)
        self.hands[seat].discard(card)
        self.played[seat].add(card)
        self.trick.append((seat, card))
        if card == MATTO:
            self.matto_team = self.team(seat)
        if self.rules.declaration_timing == "after_own_first_card" and self.tricks_played == 0:
            if self.rules.declaration_mode == "choice":
                self.phase = "declare"
                self.to_move = seat
                return
            self.declare_all(seat)
        self.after_card(seat)

    def after_card(self, seat: int) -> None:
        """MI-PLAY-1: the next seat plays; after the fourth card the trick is decided."""
        if len(self.trick) < 4:
            self.to_move = (seat + 1) % 4
        else:
            self.complete_trick()

    def trick_winner(self) -> int:
        """MI-PLAY-5: the highest trump; else the highest card of the led suit; never the
        Matto."""
        trumps = [(c, s) for s, c in self.trick if c < 40]
        if trumps:
            return max(trumps)[1]
        led = self.led_suit()
        return max((strength(c), s) for s, c in self.trick if suit_of(c) == led)[1]

    # --- the interface ------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """The deal (deal mode) or the match (match mode) is over."""
        return self.phase in ("deal_over", "match_over")

    def current_player(self) -> int:
        """The seat to move, -1 once terminal."""
        return -1 if self.is_terminal() else self.to_move

    def legal_actions(self) -> list[int]:
        """The legal action ids of the seat to move, sorted ascending ([] when terminal)."""
        if self.is_terminal():
            return []
        seat = self.to_move
        if self.phase == "discard":
            return sorted(action_id(DISCARD, c) for c in self.discardable(seat))
        if self.phase == "declare":
            return self.declare_actions(seat)
        return sorted(action_id(PLAY, c) for c in self.playable(seat))

    def apply(self, action: int) -> None:
        """Apply one legal action of the seat to move; ValueError for an illegal one."""
        action = int(action)
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action} ({action_text(action)})")
        kind, v = action >> KIND_SHIFT, action & VALUE_MASK
        seat = self.to_move
        if kind == DISCARD:
            self.discard(seat, v)
        elif kind == DECLARE:
            self.declared[seat].append(v)
        elif kind == DONE:
            self.done(seat, bool(v))
        else:
            self.play(seat, v)

    apply_action = apply

    def returns(self) -> list[float]:
        """Terminal: net resti of team A to seats 0 and 2, the negative to 1 and 3 (a match:
        the sum over its deals); zeros before the end."""
        if not self.is_terminal():
            return [0.0] * 4
        net = self.net if self.mode == "deal" else self.net_total
        return [float(net), float(-net), float(net), float(-net)]

    def clone(self) -> "ReferenceGame":
        """An independent copy."""
        return ReferenceGame.from_dict(self.rules, self.to_dict())

    # --- the position dict --------------------------------------------------------------------

    def all_cards(self) -> list[int]:
        """Every card of every place (hands, Fola, trick, piles), duplicates kept: the 97
        cards once each when the state is consistent."""
        out = list(self.fola) + [c for _, c in self.trick]
        for h in self.hands:
            out += list(h)
        for p in self.piles:
            out += list(p)
        return out

    def to_dict(self) -> dict:
        """The position dict."""
        def name(c):
            return None if c is None else CARD_NAMES[c]

        return {
            "game": "minchiate",
            "rules": dict(self.rules_dict),  # a copy: the caller may change it
            "mode": self.mode,
            "deal_number": self.deal_number,
            "phase": self.phase,
            "dealer": self.dealer,
            "cutter": self.cutter,
            "to_move": None if self.is_terminal() else self.to_move,
            "hands": [names(h) for h in self.hands],
            "cutter_robbed": names(self.cutter_robbed),
            "seen_bottom": name(self.seen_bottom),
            "exposed": [name(c) for c in self.exposed],
            "dealer_robbed": names(self.dealer_robbed),
            "discards": [names(x) for x in self.discards],
            "to_discard": self.to_discard,
            "fola": names(self.fola),
            "fola_open": self.fola_open,
            "declared": [[names(layout.COMBO_CARDS[c]) for c in d] for d in self.declared],
            "declared_done": list(self.declared_done),
            "bonus_claimed": list(self.bonus_claimed),
            "leader": self.leader,
            "trick": [[s, CARD_NAMES[c]] for s, c in self.trick],
            "tricks_played": self.tricks_played,
            "tricks_won": list(self.tricks_won),
            "played": [names(x) for x in self.played],
            "suits_led": [SUIT_SHORTS[s] for s in sorted(self.suits_led)],
            "excluded": [names(x) for x in self.excluded],
            "piles": [names(p) for p in self.piles],
            "matto_team": None if self.matto_team is None else "AB"[self.matto_team],
            "matto_debt": self.matto_debt,
            "last_winner": self.last_winner,
            "points": {s: list(self.points[s]) for s in SOURCES},
            "D": self.D,
            "resti": list(self.resti),
            "paid_card": name(self.paid_card),
            "matto_given": self.matto_given,
            "net": self.net,
            "net_total": self.net_total,
            "start_dealer": self.start_dealer,
            "rng": [int(x) for x in self.rng.s],
        }

    @classmethod
    def from_dict(cls, rules: MinchiateRules, d: dict) -> "ReferenceGame":
        """A state from the position-dict format (the output of :meth:`to_dict`)."""
        g = cls.for_position(rules, d)

        def card(n):
            return None if n is None else DECK.index(n)

        def cset(ns):
            return {DECK.index(n) for n in ns}

        g.mode = d["mode"]
        g.deal_number = int(d["deal_number"])
        g.phase = d["phase"]
        g.dealer = int(d["dealer"])
        if int(d["cutter"]) != g.cutter:
            raise ValueError("the cutter must be the dealer's left")
        g.to_move = None if d["to_move"] is None else int(d["to_move"])
        g.hands = [cset(h) for h in d["hands"]]
        g.cutter_robbed = cset(d["cutter_robbed"])
        g.seen_bottom = card(d["seen_bottom"])
        g.exposed = [card(c) for c in d["exposed"]]
        g.dealer_robbed = cset(d["dealer_robbed"])
        g.discards = [cset(x) for x in d["discards"]]
        g.to_discard = int(d["to_discard"])
        g.fola = cset(d["fola"])
        g.fola_open = bool(d["fola_open"])
        g.declared = [[COMBO_ID[tuple(sorted(cset(c)))] for c in x] for x in d["declared"]]
        g.declared_done = [bool(x) for x in d["declared_done"]]
        g.bonus_claimed = [bool(x) for x in d["bonus_claimed"]]
        g.leader = None if d["leader"] is None else int(d["leader"])
        g.trick = [(int(s), DECK.index(c)) for s, c in d["trick"]]
        g.tricks_played = int(d["tricks_played"])
        g.tricks_won = [int(x) for x in d["tricks_won"]]
        g.played = [cset(x) for x in d["played"]]
        g.suits_led = {SUIT_SHORTS.index(s) for s in d["suits_led"]}
        g.excluded = [cset(x) for x in d["excluded"]]
        g.piles = [cset(x) for x in d["piles"]]
        g.matto_team = None if d["matto_team"] is None else "AB".index(d["matto_team"])
        g.matto_debt = bool(d["matto_debt"])
        g.last_winner = None if d["last_winner"] is None else int(d["last_winner"])
        g.points = {s: [int(x) for x in d["points"][s]] for s in SOURCES}
        g.D = int(d["D"])
        g.resti = [int(x) for x in d["resti"]]
        g.paid_card = card(d["paid_card"])
        g.matto_given = bool(d["matto_given"])
        g.net = None if d["net"] is None else int(d["net"])
        g.net_total = int(d["net_total"])
        g.start_dealer = int(d["start_dealer"])
        return g.placed(d, range(N_CARDS))

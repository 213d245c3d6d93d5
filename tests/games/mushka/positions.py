"""Helpers for the Mushka tests: legal position dicts from the cards that matter, actions as text,
and an independent restatement of the deal.

The card index is restated here from rules/mushka.md §1 (``suit * 13 + r``, suits s c d h, ranks
2..A), and the action ids from the engine (layout.py and notation.py: ``kind << 52 | card mask``),
rather than taken from the code under test, so the expected ids are an independent oracle. The deal
a seed gives (:func:`oracle_deal`, :func:`oracle_next_deal`) is restated from the engine's "Dealing"
section on :class:`cardsim.compiled.rng.PyRng` (the project's one generator), not taken from the engine.

:func:`position` builds a ``from_dict`` position (the position dict of notation.py) from the cards a
test names and spreads every other card of the deck (the "filler") so that the position is legal:
each card of the deck exactly once among hands, discards, stock, played cards and the turned card;
hand sizes consistent with the phase, the tricks played and the current trick; a stock of ``deck -
5n - 1 - (cards exchanged)`` cards. Filler never goes into a hand the test names; the ace of spades,
when the test does not name it, is put in the stock (so nobody holds it).

:func:`walk` and :func:`reach` give states of random play with the engine's random player.
"""
from __future__ import annotations

import itertools
import json
import random
from types import SimpleNamespace

from cardsim.compiled.rng import PyRng, rng_from_seed

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
SUITS = ["s", "c", "d", "h"]
ALL52 = [r + s for s in SUITS for r in RANKS]
LOWEST_RANK = {32: 5, 36: 4, 52: 0}
ACE_OF_SPADES = "As"

KINDS = {"play": 0, "exchange": 1, "stand": 2, "pass": 3, "discard": 4, "stop": 5,
         "play_on": 6}
# The engine's action kinds (kind << 52 | card mask), restated as an oracle; SEEN is the
# observed form of a hidden exchange or discard.
PLAY, EXCHANGE, STAND, PASS, DISCARD, STOP, PLAY_ON, SEEN = range(8)
RNG_WORDS = [11, 22, 33, 44]   # an explicit chance stream for positions


# --- cards ---------------------------------------------------------------------------------

def idx(card: str) -> int:
    """Index of a card by rules §1: suit * 13 + r (2..A -> 0..12)."""
    assert len(card) == 2 and card[0] in RANKS and card[1] in SUITS, card
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def rank(card: str) -> int:
    return RANKS.index(card[0])


def suit(card: str) -> str:
    return card[1]


def cards(spec) -> list[str]:
    """A card list from a list or a space-separated string, in the order given."""
    if spec is None:
        return []
    return spec.split() if isinstance(spec, str) else list(spec)


def srt(spec) -> list[str]:
    """Cards sorted by index, as ``to_dict`` lists them."""
    return sorted(cards(spec), key=idx)


def deck_cards(size: int) -> list[str]:
    """The deck's cards in index order (32: 7..A, 36: 6..A, 52: 2..A; rules §1)."""
    low = LOWEST_RANK[size]
    return [c for c in ALL52 if rank(c) >= low]


def deck_size_for(n: int, deck: str = "auto") -> int:
    """rules §1 / §3: auto = 32 for 3-4 players, 52 for 5-7."""
    if deck == "auto":
        return 32 if n <= 4 else 52
    return int(deck)


def mask(spec) -> int:
    m = 0
    for c in cards(spec):
        m |= 1 << idx(c)
    return m


# --- actions -------------------------------------------------------------------------------

def action_id(text: str) -> int:
    """The id of ``"play Th"``, ``"exchange 7c+9d"``, ``"stand"``, ``"pass"``, ``"discard 8s"``,
    ``"stop"``, ``"play_on"`` (the engine: kind << 52 | card mask)."""
    kind, _, rest = text.partition(" ")
    return KINDS[kind] << 52 | mask(rest.split("+") if rest else [])


def aid(kind: int, cards=()) -> int:
    """The id of an action of ``kind`` (:data:`PLAY` ...) with ``cards``: kind << 52 | mask."""
    return kind << 52 | sum(1 << idx(c) for c in cards)


def canonical(text: str) -> str:
    """The action string with its cards in index order (the engine's string form)."""
    kind, _, rest = text.partition(" ")
    return kind + (" " + "+".join(srt(rest.split("+"))) if rest else "")


def ids(*texts: str) -> list[int]:
    """Sorted action ids of action strings."""
    return sorted(action_id(t) for t in texts)


def action_dict(text: str) -> dict:
    """The dict form of an action string (the engine: Action ids)."""
    kind, _, rest = text.partition(" ")
    named = srt(rest.split("+")) if rest else []
    if kind == "play":
        return {"play": named[0]}
    if kind == "exchange":
        return {"exchange": named}
    if kind == "stand":
        return {"stand": True}
    if kind == "pass":
        return {"pass": True}
    if kind == "discard":
        return {"discard": named[0]}
    if kind == "stop":
        return {"stop": True}
    if kind == "play_on":
        return {"stop": False}
    raise AssertionError(f"unknown action kind in {text!r}")


def legal_strings(state) -> list[str]:
    """The legal actions of ``state`` as strings, in the engine's (id) order."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def assert_legal(state, *texts: str) -> None:
    """The legal actions are exactly ``texts`` (cards in index order): the same ids in ascending
    order, the same string forms, and the engine's dict forms both ways."""
    for t in texts:
        assert t == canonical(t), f"test error: write {canonical(t)!r}, not {t!r}"
    expected = sorted(texts, key=action_id)
    assert state.legal_actions() == ids(*texts)
    assert legal_strings(state) == expected
    for a, text in zip(state.legal_actions(), expected):
        assert state.action_to_dict(a) == action_dict(text)
        assert state.action_from_dict(action_dict(text)) == a


def plays(*cs: str) -> list[str]:
    """``"play X"`` for each card."""
    return ["play " + c for c in cs]


def exchanges(hand, max_k: int, *, keep=("As",)) -> list[str]:
    """Every ``"exchange ..."`` text of a hand (MU-EXCH-2): each non-empty set of at most
    ``max_k`` cards, none of ``keep`` (MU-EXCH-4 / the taken trump card)."""
    pool = [c for c in srt(hand) if c not in keep]
    out = []
    for k in range(1, min(5, max_k) + 1):
        for combo in itertools.combinations(pool, k):
            out.append("exchange " + "+".join(combo))
    return out


def play(state, *texts: str):
    """Apply the actions written as text, each through ``action_from_dict``; return state."""
    for text in texts:
        a = state.action_from_dict(action_dict(text))
        assert a == action_id(text), (text, a)
        state.apply_action(a)
    return state


def play_cards(state, *cs: str):
    """Play the cards in order (``play X`` each)."""
    return play(state, *plays(*cs))


# --- rules ---------------------------------------------------------------------------------

# rules/mushka.md §3, every option and its default (restated, not imported from the engine)
DEFAULTS = {
    "num_players": 4, "deck": "auto", "start_points": 25, "remise_points": 5, "ace_bonus": 5,
    "ace_bonus_timing": "first_trick", "stop_mode": "automatic",
    "overshoot_reset": "start_minus_excess", "must_overtrump": False, "must_head_trick": False,
    "ace_of_spades_discardable": False, "dealer_takes_trump_card": False,
    "lone_player": "takes_all", "max_deals": None,
}


def rules_dict_of(n: int, **options) -> dict:
    """The position dict's ``rules`` value: every option (the engine), deck as a string."""
    unknown = set(options) - set(DEFAULTS)
    assert not unknown, f"test error: unknown options {unknown}"
    d = {**DEFAULTS, **options, "num_players": n}
    d["deck"] = str(d["deck"])
    return d


def rules_of(n: int, **options) -> SimpleNamespace:
    """The options as attributes, with the resolved ``deck_size``."""
    d = rules_dict_of(n, **options)
    return SimpleNamespace(**d, deck_size=deck_size_for(n, d["deck"]))


def ace_bonus(trump: str) -> int:
    """MU-SCORE-3: 5, or 10 when spades are trump."""
    return 10 if suit(trump) == "s" else 5


# --- positions -----------------------------------------------------------------------------

def _active_order(first: int, active: list[int], n: int) -> list[int]:
    return [s for s in ((first + j) % n for j in range(n)) if s in active]


def next_active(seat: int, active, n: int) -> int:
    for j in range(1, n + 1):
        s = (seat + j) % n
        if s in active:
            return s
    raise AssertionError("no active seat")


def position(hands, *, trump: str, dealer: int | None = None, phase: str = "play",
             decisions=None, leader: int | None = None, trick=(), tricks_won=None,
             tricks_played: int | None = None, played=None, records=None,
             start_records=None, stock=(), stock_size: int | None = None, discards=None,
             ace_holder="auto", ace_bonus_taken=None, trump_taken: bool = False,
             to_move="auto", excluded=None, stop_offer=None, lone_tricks_left: int = 0,
             mode: str = "deal", deal_number: int | None = None, rng=None, void: bool = False,
             stopper=None, winners=(), **options) -> dict:
    """A legal position dict (the position dict of notation.py) for ``len(hands)`` players.

    ``hands``: per seat the cards in hand now (a list, a string, or None for filler of the right
    size). ``trump``: the turned card. ``dealer``: default the last seat (P4 of the examples
    with 4 players). ``phase``: "play" (default), "exchange", "discard", "stop", "deal_over",
    "match_over". ``decisions``: per seat None / "pass" / "stand" / k; default "stand" for all
    in the play phases, None for all in "exchange"/"discard". ``trick``: the cards of the
    current trick in playing order, from ``leader`` round the active seats. ``tricks_won``:
    tricks won earlier this deal (default zeros); ``tricks_played`` defaults to their sum;
    ``played``: per seat the cards played in the earlier tricks (default filler).
    ``records`` / ``start_records``: either or both; the one missing is derived from the other
    with the tricks won and an ace bonus taken (default everyone at ``start_points``).
    ``stock``: its first cards (next to draw first); ``stock_size`` its total size.
    ``discards``: per seat named discards (padded with filler to what the decisions say).
    ``deal_number``: default 1, or 2 for a match position whose start records are not all
    ``start_points`` (a match's first deal starts there). Other keyword arguments are rules
    options (the engine: rules)."""
    n = len(hands)
    rules = rules_of(n, **options)
    size = rules.deck_size
    deck = deck_cards(size)
    if dealer is None:
        dealer = n - 1
    tsuit = suit(trump)
    in_play = phase in ("play", "stop", "deal_over", "match_over")

    if decisions is None:
        decisions = ["stand" if in_play else None] * n
    decisions = list(decisions)
    passed = [d == "pass" for d in decisions]
    active = [s for s in range(n) if not passed[s]] if in_play else []

    tw = list(tricks_won) if tricks_won is not None else [0] * n
    tp = tricks_played if tricks_played is not None else sum(tw)
    trick = cards(trick)
    if trick and leader is None:
        raise AssertionError("test error: a trick needs its leader")
    if leader is None and in_play and phase == "play":
        leader = _active_order((dealer + 1) % n, active, n)[0]
    trick_seats = []
    if trick:
        order = _active_order(leader, active, n)
        assert len(trick) < len(order), "test error: a complete trick is not stored"
        trick_seats = order[:len(trick)]

    # hand sizes
    given = [None if h is None else srt(h) for h in hands]
    want = []
    for s in range(n):
        if not in_play or passed[s]:
            k = 5 + (1 if (phase == "discard" and s == dealer and trump_taken) else 0)
        else:
            k = 5 - tp - (1 if s in trick_seats else 0)
        want.append(k)
        if given[s] is not None:
            assert len(given[s]) == k, f"test error: seat {s} holds {given[s]}, wants {k} cards"

    # earlier played cards
    named_played = [None] * n if played is None else [None if p is None else srt(p)
                                                      for p in played]
    played_want = [tp if (in_play and not passed[s]) else 0 for s in range(n)]
    for s in range(n):
        if named_played[s] is not None:
            assert len(named_played[s]) == played_want[s], f"test error: played of seat {s}"

    # discards
    disc_want = []
    for s in range(n):
        k = decisions[s] if isinstance(decisions[s], int) and not isinstance(
            decisions[s], bool) else 0
        if s == dealer and trump_taken and phase != "discard":
            k += 1
        disc_want.append(k)
    named_disc = [[] for _ in range(n)] if discards is None else [srt(d) for d in discards]

    named_stock = cards(stock)
    exchanged = sum(d for d in decisions if isinstance(d, int) and not isinstance(d, bool))
    if stock_size is None:
        stock_size = size - 5 * n - 1 - exchanged
    assert stock_size >= len(named_stock)

    named = [c for h in given if h for c in h] + trick + named_stock
    named += [c for p in named_played if p for c in p] + [c for d in named_disc for c in d]
    if not trump_taken:
        named.append(trump)
    else:
        assert trump in (given[dealer] or []) + (named_played[dealer] or []) + \
            (trick if dealer in trick_seats else []), "test error: name the taken trump card"
    assert len(named) == len(set(named)), f"test error: a card is named twice: {srt(named)}"
    assert all(c in deck for c in named), f"test error: not in the {size}-card deck: {named}"
    free = [c for c in deck if c not in set(named)]
    # filler for hands and played cards: plain low cards first; trumps and As last (the stock)
    free.sort(key=lambda c: (c == ACE_OF_SPADES, suit(c) == tsuit, rank(c), idx(c)))
    ace_free = ACE_OF_SPADES in free
    if ace_free:
        free.remove(ACE_OF_SPADES)

    def take(k):
        out = free[:k]
        del free[:k]
        assert len(out) == k, "test error: not enough filler cards"
        return out

    stock_fill = stock_size - len(named_stock)
    hand_list = []
    ace_placed = not ace_free
    # the ace of spades: the stock, else a passed hand, else a discard pile (if allowed)
    if not ace_placed and stock_fill > 0:
        ace_to = "stock"
    elif not ace_placed and any(passed[s] and given[s] is None for s in range(n)):
        ace_to = "passed"
    elif not ace_placed:
        raise AssertionError("test error: name the ace of spades somewhere")
    else:
        ace_to = None
    for s in range(n):
        if given[s] is None:
            if ace_to == "passed" and passed[s] and not ace_placed:
                hand_list.append(srt(take(want[s] - 1) + [ACE_OF_SPADES]))
                ace_placed = True
            else:
                hand_list.append(srt(take(want[s])))
        else:
            hand_list.append(given[s])
    played_list = []
    for s in range(n):
        if named_played[s] is None:
            played_list.append(srt(take(played_want[s])))
        else:
            played_list.append(named_played[s])
    disc_list = []
    for s in range(n):
        extra = disc_want[s] - len(named_disc[s])
        assert extra >= 0, f"test error: discards of seat {s}"
        disc_list.append(srt(named_disc[s] + take(extra)))
    stock_list = list(named_stock)
    if ace_to == "stock":
        stock_list += take(stock_fill - 1) + [ACE_OF_SPADES]
    else:
        stock_list += take(stock_fill)
    assert not free, f"test error: {len(free)} cards left over: {free}"

    # the current trick joins the played cards
    all_played = [list(p) for p in played_list]
    for seat, c in zip(trick_seats, trick):
        all_played[seat].append(c)
    all_played = [srt(p) for p in all_played]

    if ace_holder == "auto":
        ace_holder = None
        if in_play:
            for s in active:
                if ACE_OF_SPADES in hand_list[s] or ACE_OF_SPADES in all_played[s]:
                    ace_holder = s
    bonus = ace_bonus(trump)
    if ace_bonus_taken is None:
        ace_bonus_taken = (ace_holder is not None and rules.ace_bonus_timing == "first_trick"
                           and tw[ace_holder] >= 1)

    def derived(s, start):
        r = start - tw[s] - (bonus if (ace_bonus_taken and s == ace_holder) else 0)
        return max(0, r)

    if records is None and start_records is None:
        start_records = [rules.start_points] * n
    if records is None:
        records = [derived(s, start_records[s]) for s in range(n)]
    if start_records is None:
        start_records = [records[s] + tw[s] + (bonus if (ace_bonus_taken and s == ace_holder)
                                               else 0) for s in range(n)]

    if excluded is None:
        excluded = [[] for _ in range(n)]
        for s in range(n):
            if passed[s]:
                excluded[s].append(ACE_OF_SPADES)
            elif (in_play and tw[s] >= 1 and rules.ace_bonus_timing == "first_trick"
                  and s != ace_holder):
                excluded[s].append(ACE_OF_SPADES)
    excluded = [srt(e) for e in excluded]
    if deal_number is None:
        # a match's first deal starts everyone at start_points; other records: a later deal
        fresh = all(r == rules.start_points for r in start_records)
        deal_number = 1 if (mode == "deal" or fresh) else 2

    terminal = phase in ("deal_over", "match_over")
    if to_move == "auto":
        if terminal:
            to_move = None
        elif phase == "discard":
            to_move = dealer
        elif phase == "exchange":
            to_move = next(s for s in ((dealer + 1 + j) % n for j in range(n))
                           if decisions[s] is None)
        elif phase == "stop":
            to_move = stop_offer["seat"]
        elif trick:
            to_move = next_active(trick_seats[-1], active, n)
        else:
            to_move = leader

    pos = {
        "game": "mushka", "rules": rules_dict_of(n, **options), "mode": mode, "phase": phase,
        "dealer": dealer, "to_move": to_move, "deal_number": deal_number,
        "trump_card": trump, "trump_taken": bool(trump_taken),
        "records": list(records), "start_records": list(start_records),
        "hands": hand_list, "discards": disc_list, "decisions": decisions,
        "stock": stock_list, "active": sorted(active),
        "ace_holder": ace_holder, "ace_bonus_taken": bool(ace_bonus_taken),
        "leader": leader if in_play else None,
        "trick": [[seat, c] for seat, c in zip(trick_seats, trick)],
        "tricks_won": tw, "tricks_played": tp, "lone_tricks_left": lone_tricks_left,
        "played": all_played, "excluded": excluded, "stop_offer": stop_offer,
        "void": bool(void), "stopper": stopper, "winners": sorted(winners),
        "rng": list(rng if rng is not None else RNG_WORDS),
    }
    assert sorted(all_cards(pos), key=idx) == deck
    return pos


def exchange_position(hands, *, trump: str, decisions=None, stock=(), **kw) -> dict:
    """An exchange-phase position: ``decisions`` so far (None = still to decide)."""
    return position(hands, trump=trump, phase="exchange", decisions=decisions, stock=stock,
                    **kw)


def all_cards(d: dict) -> list[str]:
    """Every card of a position dict (hands, discards, stock, played, turned card)."""
    out = [c for h in d["hands"] for c in h] + [c for x in d["discards"] for c in x]
    out += list(d["stock"]) + [c for p in d["played"] for c in p]
    if not d["trump_taken"]:
        out.append(d["trump_card"])
    return out


# --- the deal, restated from the engine --------------------------------------------------

def _deal_from(rng: PyRng, n: int, size: int, dealer: int) -> dict:
    order = [idx(c) for c in deck_cards(size)]       # ascending indices
    rng.shuffle(order)
    names = [ALL52[i] for i in order]
    hands = [[] for _ in range(n)]
    for i in range(5 * n):
        hands[(dealer + 1 + i) % n].append(names[i])
    return {"dealer": dealer, "hands": [srt(h) for h in hands], "trump_card": names[5 * n],
            "stock": names[5 * n + 1:], "rng": list(rng.s), "order": names}


def oracle_deal(seed: int, n: int = 4, deck: str = "auto") -> dict:
    """What ``new_deal(seed)`` / ``new_match(seed)`` deals (the engine: Dealing): the state's
    stream is 4 outputs of the seed's generator, the first dealer ``below(n)`` (MU-DEAL-1),
    then a Fisher-Yates shuffle of the ascending deck; card i < 5n to seat
    (dealer + 1 + i) % n (MU-DEAL-2), card 5n turned (MU-DEAL-3), the rest the stock, top
    first (MU-DEAL-4). ``rng``: the stream words after the deal."""
    caller = PyRng(rng_from_seed(seed))
    rng = PyRng([caller.next() for _ in range(4)])
    dealer = rng.below(n)
    return _deal_from(rng, n, deck_size_for(n, deck), dealer)


def oracle_next_deal(rng_words, dealer: int, n: int = 4, deck: str = "auto") -> dict:
    """The next deal of a match, dealt by ``dealer`` from the given stream words."""
    return _deal_from(PyRng([int(x) for x in rng_words]), n, deck_size_for(n, deck), dealer)


def find_seed(predicate, n: int = 4, deck: str = "auto", limit: int = 100_000) -> int:
    """The first seed whose deal satisfies ``predicate(oracle_deal dict)``."""
    for seed in range(limit):
        if predicate(oracle_deal(seed, n, deck)):
            return seed
    raise AssertionError("no seed found")


def holder_of(deal: dict, card: str = ACE_OF_SPADES):
    """The seat whose dealt hand holds ``card``, else None."""
    for s, h in enumerate(deal["hands"]):
        if card in h:
            return s
    return None


def match_returns(n: int, winners) -> list[float]:
    """Each loser -1/(n-1); the winners share the losers' total."""
    w = list(winners)
    losers = n - len(w)
    return [losers / (n - 1) / len(w) if s in w else -1 / (n - 1) for s in range(n)]


# --- random play --------------------------------------------------------------------------

def walk(g, seed: int, match: bool, pass_probability: float = 0.25, limit: int = 10_000):
    """Every state of one random deal (or match) with the action taken from it (None at the
    end), at most ``limit`` states."""
    rnd = random.Random(seed)
    s = g.new_match(seed) if match else g.new_deal(seed)
    policy = (pass_probability, 0.25, 0.5)
    for _ in range(limit):
        if s.is_terminal():
            yield s.clone(), None
            return
        a = g.definition.choose_random(s.legal_actions(), policy, rnd)
        yield s.clone(), a
        s.apply_action(a)


def reach(g, want, seeds=range(200), match=False, pass_probability=0.25):
    """The first state of random play that satisfies ``want``."""
    for seed in seeds:
        for s, _ in walk(g, seed, match, pass_probability):
            if want(s.to_dict()):
                return s
    raise AssertionError("no such state in the seeds tried")


def rebuild(g, d):
    """``g.from_dict`` of ``d`` after a JSON round trip."""
    return g.from_dict(json.loads(json.dumps(d)))

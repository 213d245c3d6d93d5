"""Helpers for the Bura rule tests: legal positions from the cards that matter, actions as text.

The card index is restated here from rules/bura.md §1 (``suit * 9 + r``, suits s c d h, ranks
6 7 8 9 J Q K T A in strength order), and the action ids from the engine's layout and notation
(``kind << 40 | card mask``), rather than taken from the code under test, so the expected
action ids below are an independent oracle.

:func:`position` builds a ``from_dict`` position from the cards a test names and spreads every
other card (the "filler") so that the position is legal: each of the 36 cards exactly once, hand
sizes consistent with the phase and the trick, a stock that is a multiple of the player count
with the turned trump card last, piles whose sizes are multiples of the player count. Hands are
always named in full (filler in a hand could form a combination by accident). Filler goes to the
piles face up, zero-point cards first, so that a pile the test names keeps its point total when
it is padded.

What a seed deals comes from the reference engine (:func:`oracle_start`,
:func:`oracle_next_deal`, :func:`first_shuffle`), the one oracle of the tests.
"""
from __future__ import annotations

from cardsim.compiled.rng import PyRng
from cardsim.games.bura.reference import ReferenceBura
from cardsim.games.bura.rules import BuraRules

RANKS = ["6", "7", "8", "9", "J", "Q", "K", "T", "A"]
SUITS = ["s", "c", "d", "h"]
ALL_CARDS = [r + s for s in SUITS for r in RANKS]
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}

# The phase of the scheduled leader's single decision "claim or lead" at a check point when
# neither Stop option is on (the engine: steps 3 and 5 are one decision).
CHECK = "check"

KINDS = {"lead": 0, "beat": 1, "throw_down": 2, "throw_up": 3, "claim": 4, "no_claim": 5,
         "stop": 6, "pass": 7}

RNG_WORDS = [11, 22, 33, 44]   # an explicit chance stream for match positions


# --- cards ---------------------------------------------------------------------------------

def idx(card: str) -> int:
    """Index of a card by rules §1: suit * 9 + rank."""
    assert len(card) == 2 and card[0] in RANKS and card[1] in SUITS, card
    return SUITS.index(card[1]) * 9 + RANKS.index(card[0])


def cards(spec) -> list[str]:
    """A card list from a list or a space-separated string, in the order given."""
    if spec is None:
        return []
    return spec.split() if isinstance(spec, str) else list(spec)


def srt(spec) -> list[str]:
    """Cards sorted by index, as ``to_dict`` lists them."""
    return sorted(cards(spec), key=idx)


def points(spec) -> int:
    """Card points of a list of cards (rules §1: A 11, T 10, K 4, Q 3, J 2, others 0)."""
    return sum(POINTS.get(c[0], 0) for c in cards(spec))


def suit(card: str) -> str:
    return card[1]


# --- actions -------------------------------------------------------------------------------

def action_id(text: str) -> int:
    """The id of ``"lead Ks+As"``, ``"beat 9d"``, ``"claim"``, ``"stop 6s+Qs+Ts"``, ``"pass"``."""
    kind, _, rest = text.partition(" ")
    mask = 0
    for c in (rest.split("+") if rest else []):
        mask |= 1 << idx(c)
    return KINDS[kind] << 40 | mask


def canonical(text: str) -> str:
    """The action string with its cards in index order (the engine's string form)."""
    kind, _, rest = text.partition(" ")
    return kind + (" " + "+".join(srt(rest.split("+"))) if rest else "")


def ids(*texts: str) -> list[int]:
    """Sorted action ids of action strings."""
    return sorted(action_id(t) for t in texts)


def legal_strings(state) -> list[str]:
    """The legal actions of ``state`` as strings, in the engine's (id) order."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def assert_legal(state, *texts: str) -> None:
    """The legal actions are exactly ``texts`` (written with cards in index order): same ids in
    ascending order, the same string forms, and the engine's dict forms both ways."""
    for t in texts:
        assert t == canonical(t), f"test error: write {canonical(t)!r}, not {t!r}"
    assert legal_strings(state) == sorted(texts, key=action_id)
    assert state.legal_actions() == ids(*texts)
    for a, text in zip(state.legal_actions(), sorted(texts, key=action_id)):
        assert state.action_to_dict(a) == action_dict(text)
        assert state.action_from_dict(action_dict(text)) == a


def action_dict(text: str) -> dict:
    """The dict form of an action string (the engine: Actions)."""
    kind, _, rest = text.partition(" ")
    played = srt(rest.split("+")) if rest else []
    if kind in ("lead", "beat", "throw_down", "throw_up"):
        return {"play": played, "mode": kind}
    if kind == "claim":
        return {"claim": True}
    if kind == "no_claim":
        return {"claim": False}
    if kind == "stop":
        return {"stop": True, "play": played}
    if kind == "pass":
        return {"stop": False}
    raise AssertionError(f"unknown action kind in {text!r}")


def play(state, *texts: str):
    """Apply the actions written as text, each through ``action_from_dict``; return state."""
    for text in texts:
        a = state.action_from_dict(action_dict(text))
        assert a == action_id(text), (text, a)
        state.apply_action(a)
    return state


def result(kind: str, winners, multiplier: int = 1) -> dict:
    """A deal result as the engine writes it."""
    return {"kind": kind, "winners": list(winners), "multiplier": multiplier}


def core(res: dict | None) -> dict | None:
    """The engine's keys of a ``to_dict`` result (kind, winners, multiplier); extra keys the
    engine adds (``claim_points``) are not compared."""
    if res is None:
        return None
    return {k: res[k] for k in ("kind", "winners", "multiplier")}


# --- positions -----------------------------------------------------------------------------

def _pile_spec(p) -> tuple[list[str], list[str]]:
    if p is None:
        return [], []
    if isinstance(p, dict):
        return cards(p.get("up")), cards(p.get("down"))
    return cards(p), []


def position(*, hands, leader: int, trump: str, stock=(), stock_size: int | None = None,
             trick: dict | None = None, piles=None, phase: str | None = None,
             to_move: int | None = None, dealer: int | None = None, fill_seat: int | None = None,
             last_trick_taker="auto", thrown_down=None,
             mode: str = "deal", scores=None, rng=None, deal_number: int = 1) -> dict:
    """A legal position dict (the position dict of notation.py).

    ``hands``: one full card list per seat. ``leader``: the scheduled leader (check phases) or
    the trick's leader (``trick`` given). ``trump``: the turned card; while the stock is not
    empty it is its last card (appended unless ``stock`` already ends with it). ``stock``: the
    named first cards of the stock, in drawing order; ``stock_size``: its total size with filler
    (default: the named cards plus the trump card; 0 cards when ``stock`` is empty and
    ``stock_size`` is None). ``trick``: ``{"leader", "top", "holder", "played", "down"}``
    in the engine's trick format (``played``: the cards of each seat in this trick, default the
    leader's ``top`` only; ``down``: which of them were thrown face down; ``holder`` defaults to
    the leader). ``piles``: per seat a card list (face up) or ``{"up": ..., "down": ...}``; each
    pile is padded to a multiple of the player count with zero-point filler; the remaining
    filler goes to ``fill_seat`` or, in blocks of n cards, round the table from the last trick
    taker. Face-down cards of pile p were thrown by seat p + 1 (the opponent with 2 players)
    unless ``thrown_down`` is given; face-down trick cards by the seat that played them.
    """
    n = len(hands)
    hand_lists = [cards(h) for h in hands]
    named_stock = cards(stock)
    pile_specs = [_pile_spec(p) for p in (piles or [None] * n)]
    assert len(pile_specs) == n
    tr = None
    if trick is not None:
        tr = dict(trick)
        tr["top"] = srt(tr["top"])
        tr.setdefault("holder", tr["leader"])
        tr["k"] = len(tr["top"])
        if "played" in tr:
            tr["played"] = [srt(p) for p in tr["played"]]
        else:
            tr["played"] = [tr["top"] if s == tr["leader"] else [] for s in range(n)]
        tr["down"] = srt(tr.get("down", []))
        tr["answered"] = sum(1 for p in tr["played"] if p) - 1
        everything = [c for p in tr["played"] for c in p]
        assert set(tr["top"]) <= set(everything) and set(tr["down"]) <= set(everything)
        assert all(len(p) in (0, tr["k"]) for p in tr["played"])
        assert tr["played"][tr["leader"]] and len(everything) == tr["k"] * (tr["answered"] + 1)
        for j in range(tr["answered"] + 1):
            assert tr["played"][(tr["leader"] + j) % n], "the answers go round from the leader"

    # the stock and its trump card
    has_stock = bool(named_stock) or bool(stock_size)
    if has_stock:
        if named_stock and named_stock[-1] == trump:
            named_stock = named_stock[:-1]
        assert trump not in named_stock, "the trump card is the last card of the stock"
        total = stock_size if stock_size is not None else len(named_stock) + 1
        assert total % n == 0, f"stock of {total} cards with {n} players"
        assert total >= len(named_stock) + 1

    named = [c for h in hand_lists for c in h] + named_stock
    for up, down in pile_specs:
        named += up + down
    if tr:
        named += [c for p in tr["played"] for c in p]
    if has_stock:
        named.append(trump)
    assert len(named) == len(set(named)), f"a card is named twice: {srt(named)}"
    assert all(c in ALL_CARDS for c in named), named
    free = [c for c in ALL_CARDS if c not in set(named)]
    # zero-point filler first (pile padding), point cards last (stock filler takes those)
    free.sort(key=lambda c: (points([c]) > 0, idx(c)))

    stock_list = list(named_stock)
    if has_stock:
        extra = total - len(named_stock) - 1
        assert len(free) >= extra, "not enough filler cards for the stock"
        filler = free[len(free) - extra:] if extra else []
        del free[len(free) - extra:]
        stock_list += filler + [trump]

    # hand sizes
    if phase is None:
        phase = "answer" if tr else CHECK
    sizes = [len(h) for h in hand_lists]
    if tr:
        played = {(tr["leader"] + j) % n for j in range(tr["answered"] + 1)}
        full = {s + (tr["k"] if seat in played else 0) for seat, s in enumerate(sizes)}
    else:
        full = set(sizes)
    assert len(full) == 1, f"test error: hand sizes {sizes}"
    (h,) = full
    assert h <= 3 and (h == 3 or not stock_list), f"test error: hands of {h} with a stock"

    # piles
    if last_trick_taker == "auto":
        if tr is None:
            last_trick_taker = leader
        else:
            last_trick_taker = tr["leader"]
    ups = [list(u) for u, _ in pile_specs]
    downs = [list(d) for _, d in pile_specs]
    for seat in range(n):
        while (len(ups[seat]) + len(downs[seat])) % n:
            ups[seat].append(free.pop(0))
    assert len(free) % n == 0, f"test error: {len(free)} filler cards for the piles"
    if fill_seat is not None:
        ups[fill_seat] += free
    else:
        start = last_trick_taker if last_trick_taker is not None else 0
        k = 0
        while free:
            ups[(start + k) % n] += free[:n]
            del free[:n]
            k += 1
    if not any(ups[s] or downs[s] for s in range(n)):
        last_trick_taker = None
    elif last_trick_taker is not None:
        assert ups[last_trick_taker] or downs[last_trick_taker], \
            "test error: the last trick taker's pile is empty"

    if thrown_down is None:
        thrown = [[] for _ in range(n)]
        for seat in range(n):
            thrown[(seat + 1) % n] += downs[seat]
        if tr:
            for seat in range(n):
                thrown[seat] += [c for c in tr["played"][seat] if c in tr["down"]]
    else:
        thrown = [cards(t) for t in thrown_down]

    if to_move is None:
        to_move = (tr["leader"] + 1 + tr["answered"]) % n if tr else leader
    if dealer is None:
        dealer = (leader - 1) % n

    pos = {
        "game": "bura", "mode": mode, "phase": phase, "dealer": dealer, "to_move": to_move,
        "leader": leader, "trump_card": trump,
        "hands": [srt(h) for h in hand_lists], "stock": stock_list,
        "piles": [{"up": srt(ups[s]), "down": srt(downs[s])} for s in range(n)],
        "thrown_down": [srt(t) for t in thrown],
        "trick": None if tr is None else {
            "leader": tr["leader"], "k": tr["k"], "played": tr["played"], "top": tr["top"],
            "holder": tr["holder"]},
        "result": None, "scores": list(scores) if scores is not None else [0] * n,
        "deal_number": deal_number, "redeals": 0, "last_trick_taker": last_trick_taker,
        "tricks": sum(len(u) + len(d) for u, d in zip(ups, downs)) // n,
    }
    if rng is not None:
        pos["rng"] = list(rng)
    assert sorted(all_cards(pos), key=idx) == ALL_CARDS
    return pos


def all_cards(d: dict) -> list[str]:
    """Every card of a position dict (hands, stock, piles, trick), duplicates kept."""
    out = [c for h in d["hands"] for c in h] + list(d["stock"])
    for p in d["piles"]:
        out += p["up"] + p["down"]
    if d.get("trick"):
        out += [c for p in d["trick"]["played"] for c in p]
    return out


def pile(d: dict, seat: int) -> list[str]:
    """Every card of a seat's pile (face up and face down), sorted."""
    return srt(d["piles"][seat]["up"] + d["piles"][seat]["down"])


# --- combinations and the deal, restated from the engine --------------------------------

def combos(hand, trump_suit: str) -> set[str]:
    """Which combinations a hand holds (names: bura, molodka, moscow, moscow_trump,
    small_moscow_sixes, small_moscow_tens), independent of the options."""
    hand = cards(hand)
    out = set()
    if len(hand) != 3:
        return out
    suits = {suit(c) for c in hand}
    ranks = {c[0] for c in hand}
    if suits == {trump_suit}:
        out.add("bura")
    elif len(suits) == 1:
        out.add("molodka")
    if ranks == {"A"}:
        out.add("moscow")
        if "A" + trump_suit in hand:
            out.add("moscow_trump")
    if ranks == {"6"} and "6" + trump_suit in hand:
        out.add("small_moscow_sixes")
    if ranks == {"T"} and "T" + trump_suit in hand:
        out.add("small_moscow_tens")
    return out


def _reference_deal(engine: ReferenceBura) -> dict:
    d = engine.to_dict()
    return {"hands": d["hands"], "stock": d["stock"], "trump_card": d["trump_card"],
            "redeals": d["redeals"], "rng": d["rng"], "dealer": d["dealer"]}


def oracle_start(seed: int, **opts) -> dict:
    """What ``new_deal(seed)`` deals according to the reference engine: dealer, hands, stock,
    trump card, redeals, rng words and the first leader."""
    engine = ReferenceBura.new_deal(BuraRules(**opts), seed)
    d = _reference_deal(engine)
    d["leader"] = engine.to_dict()["first_leader"]
    return d


def oracle_next_deal(rng_words, dealer: int, **opts) -> dict:
    """The next deal of a match, dealt by ``dealer`` from the position's stream words, by the
    reference engine's dealing (BU-DEAL-2..5)."""
    engine = ReferenceBura(BuraRules(**opts))
    engine.rng = PyRng([int(x) for x in rng_words])
    engine.dealer = dealer
    engine.deal()
    return _reference_deal(engine)


def first_shuffle(seed: int, **opts) -> dict:
    """The first shuffle of ``new_deal(seed)`` as if no redeal happened (the reference engine's
    deal with ``initial_combo_redeal`` off)."""
    engine = ReferenceBura.new_deal(BuraRules(**{**opts, "initial_combo_redeal": False}), seed)
    return _reference_deal(engine)


def find_seed(predicate, limit: int = 200_000, **opts) -> int:
    """The first seed whose first shuffle satisfies ``predicate(deal_dict)``."""
    for seed in range(limit):
        if predicate(first_shuffle(seed, **opts)):
            return seed
    raise AssertionError("no seed found")


def after_trick(hand0, hand1, *, trump: str, draws, lead: str = "6s", throw: str = "7s",
                stock_size: int = 4, **kw) -> dict:
    """2 players, seat 0 has led ``lead``; seat 1 is to answer and will ``throw_down throw``,
    so that seat 0 takes the trick and the draw gives ``draws[0]`` to seat 0 and ``draws[1]``
    to seat 1: at the next check point seat 0 (the scheduled leader) holds ``hand0`` and seat 1
    holds ``hand1``. Keyword arguments go to :func:`position`."""
    hand0, hand1 = cards(hand0), cards(hand1)
    assert draws[0] in hand0 and draws[1] in hand1
    before0 = [c for c in hand0 if c != draws[0]]
    before1 = [c for c in hand1 if c != draws[1]] + [throw]
    return position(hands=[before0, before1], leader=0, trump=trump, stock=list(draws),
                    stock_size=stock_size, trick={"leader": 0, "top": [lead]}, **kw)


# --- matches -------------------------------------------------------------------------------

def match_check(n=2, *, leader, pile_cards, scores=None, dealer=None, hands=None, **kw):
    """A match position at a mid-deal check point: ``leader`` (the last trick's taker) holds
    exactly ``pile_cards`` (padded with zero cards); every other card is in the stock or in the
    next seat's pile."""
    if hands is None:
        hands = ["9s 9c 9h", "8s 8c 8h", "7s 7c 7h", "6s 6c 6h"][:n]
    return position(hands=hands, leader=leader, trump="Jd", stock_size=3 * n,
                    piles=[pile_cards if s == leader else [] for s in range(n)],
                    fill_seat=(leader + 1) % n, mode="match", scores=scores or [0] * n,
                    rng=RNG_WORDS, dealer=dealer, **kw)


def assert_next_deal(state, *, dealer, leader, scores, n=2, deal_number=2, **options):
    """The state is the first check point of the next deal of the match, dealt by ``dealer``
    from the position's stream words, ``leader`` to move."""
    d = state.to_dict()
    exp = oracle_next_deal(RNG_WORDS, dealer, num_players=n, **options)
    assert d["mode"] == "match" and d["phase"] == CHECK
    assert d["deal_number"] == deal_number and d["scores"] == scores
    assert d["dealer"] == dealer
    assert d["leader"] == leader and d["to_move"] == leader == state.current_player()
    assert d["hands"] == exp["hands"] and d["stock"] == exp["stock"]
    assert d["trump_card"] == exp["trump_card"] and d["rng"] == exp["rng"]
    assert d["redeals"] == exp["redeals"]
    assert d["piles"] == [{"up": [], "down": []}] * n and d["trick"] is None
    assert d["thrown_down"] == [[]] * n and d["last_trick_taker"] is None
    assert not state.is_terminal()

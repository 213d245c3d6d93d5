"""Helpers for the Scopa rule tests: legal positions from the cards that matter, actions as text.

The card index is restated here from rules/scopa.md §1.3 (``suit * 10 + capture value - 1``,
suits co cu sw ba) rather than taken from the code under test, so the expected action ids below
are an independent oracle.

:func:`position` builds a ``from_dict`` position from the cards a test names and spreads every
other card (the "filler") so that the position is legal: each of the 40 cards exactly once, the
hand sizes consistent with the turn order and a stock size that is a multiple of
``3 * num_players``. :func:`last_move_position` builds the position one move before the end of
a deal whose final piles the test chooses, so that scoring tests go through the real end of a
deal.

What a seed deals, and what a whole move does, is not restated here: :func:`reference_deal`,
:func:`reference_after` and :func:`find_redeal_seed` ask the plain-Python reference engine
(:class:`cardsim.games.scopa.reference.ReferenceScopa`), the tests' oracle.
"""
from __future__ import annotations

import functools

from cardsim.games.scopa.reference import ReferenceScopa
from cardsim.games.scopa.rules import ScopaRules

RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "C", "K"]
SUITS = ["co", "cu", "sw", "ba"]
ALL_CARDS = [r + s for s in SUITS for r in RANKS]


def idx(card: str) -> int:
    """Index of a card by rules §1.3."""
    return SUITS.index(card[-2:]) * 10 + RANKS.index(card[:-2])


def value(card: str) -> int:
    """Capture value of a card (rules §1.2)."""
    return RANKS.index(card[:-2]) + 1


def cards(spec) -> list[str]:
    """A card list from a list or a space-separated string, in the order given."""
    return spec.split() if isinstance(spec, str) else list(spec)


def srt(spec) -> list[str]:
    """Cards sorted by index, as ``to_dict`` lists them."""
    return sorted(cards(spec), key=idx)


def action_id(text: str) -> int:
    """The action id of ``"6cu>2co+4sw"`` / ``"3co"``: ``card << 40 | capture mask``."""
    play, _, taken = text.partition(">")
    mask = 0
    for c in (taken.split("+") if taken else []):
        mask |= 1 << idx(c)
    return idx(play) << 40 | mask


def ids(*texts: str) -> list[int]:
    """Sorted action ids of action strings."""
    return sorted(action_id(t) for t in texts)


def legal_strings(state) -> list[str]:
    """The legal actions of ``state`` as strings, in the engine's (id) order."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def assert_legal(state, *texts: str) -> None:
    """The legal actions are exactly ``texts`` (capture cards written in index order): same
    ids in ascending order, and the same string forms."""
    assert state.legal_actions() == ids(*texts)
    assert sorted(legal_strings(state)) == sorted(texts)


def play(state, text: str):
    """Apply the action written as ``"7sw>7cu"`` (through ``action_from_dict``); return state."""
    p, _, taken = text.partition(">")
    a = state.action_from_dict({"play": [p], "capture": taken.split("+") if taken else []})
    assert a == action_id(text)
    state.apply_action(a)
    return state


def position(*, hands, table, to_move: int, dealer: int | None = None, stock=0,
             piles=None, exact_piles: bool = False, fill_side: int | None = None,
             scopas=(0, 0), last_capturer="auto", mode: str = "deal", scores=(0, 0),
             **extra) -> dict:
    """A legal position dict.

    ``hands`` (one entry per seat), ``table`` and ``stock`` are card lists (or strings), or an
    int: that many filler cards. ``piles`` are the cards the test names per side; the filler left
    over goes to the piles (alternately to side 0 and 1, or all to ``fill_side``); with
    ``exact_piles`` no filler may be left for them. ``dealer`` defaults to the seat before
    ``to_move`` (so ``to_move`` is the first player of the deal). ``last_capturer`` "auto" is
    None when both piles are empty, else a side with a non-empty pile (0 first).
    Filler cards are taken in index order: hands first, then the table, then the stock.
    """
    n = len(hands)
    if dealer is None:
        dealer = (to_move - 1) % n
    named = [c for h in hands if not isinstance(h, int) for c in cards(h)]
    for part in (table, stock):
        if not isinstance(part, int):
            named += cards(part)
    pile_lists = [cards(p) for p in (piles or ([], []))]
    named += pile_lists[0] + pile_lists[1]
    assert len(named) == len(set(named)), f"a card is named twice: {sorted(named, key=idx)}"
    assert all(c in ALL_CARDS for c in named), named
    free = [c for c in ALL_CARDS if c not in set(named)]

    def take(k: int) -> list[str]:
        out = free[:k]
        del free[:k]
        assert len(out) == k, "not enough filler cards"
        return out

    hand_lists = [take(h) if isinstance(h, int) else cards(h) for h in hands]
    table_list = take(table) if isinstance(table, int) else cards(table)
    stock_list = take(stock) if isinstance(stock, int) else cards(stock)
    assert len(stock_list) % (3 * n) == 0, f"stock of {len(stock_list)} cards"
    # Hand sizes: the players from the first player of the deal up to to_move (excluded) have
    # played this round and hold one card fewer than the others.
    first = (dealer + 1) % n
    played = {(first + k) % n for k in range((to_move - first) % n)}
    sizes = {len(h) + (1 if seat in played else 0) for seat, h in enumerate(hand_lists)}
    assert len(sizes) == 1, f"hand sizes {[len(h) for h in hand_lists]} with to_move {to_move}"
    if exact_piles:
        assert not free, f"cards left over: {free}"
    for k, c in enumerate(free):
        side = fill_side if fill_side is not None else k % 2
        pile_lists[side].append(c)
    if last_capturer == "auto":
        last_capturer = 0 if pile_lists[0] else (1 if pile_lists[1] else None)
    pos = {
        "game": "scopa", "mode": mode, "phase": "play", "dealer": dealer, "to_move": to_move,
        "hands": [srt(h) for h in hand_lists], "table": srt(table_list), "stock": stock_list,
        "piles": [srt(p) for p in pile_lists], "scopas": list(scopas),
        "last_capturer": last_capturer, "scores": list(scores),
    }
    pos.update(extra)
    return pos


def last_move_position(final_piles, *, capturer: int, play: str, take: str, num_players=2,
                       dealer: int | None = None, scopas=(0, 0), mode: str = "deal",
                       scores=(0, 0), **extra) -> dict:
    """The position before the last move of a deal that ends with ``final_piles``.

    The dealer (a seat of side ``capturer``) holds ``play`` as the last card of the deal; the
    table holds only ``take``, of the same value, so the only legal action is ``play>take``; it
    clears the table with the last card (no scopa, SC-SCOPA-3) and leaves exactly
    ``final_piles``. Every other hand and the stock are empty.
    """
    final = [srt(p) for p in final_piles]
    assert sorted(final[0] + final[1], key=idx) == ALL_CARDS, "final piles must hold 40 cards"
    assert play in final[capturer] and take in final[capturer] and value(play) == value(take)
    piles = [[c for c in p if c not in (play, take)] for p in final]
    if dealer is None:
        dealer = capturer if num_players == 2 else capturer + 2
    assert dealer & 1 == capturer
    hands = [[] for _ in range(num_players)]
    hands[dealer] = [play]
    return position(hands=hands, table=[take], to_move=dealer, dealer=dealer, stock=[],
                    piles=piles, exact_piles=True, scopas=scopas, last_capturer=capturer,
                    mode=mode, scores=scores, **extra)


def complement(spec) -> list[str]:
    """Every card not in ``spec``, in index order."""
    named = set(cards(spec))
    return [c for c in ALL_CARDS if c not in named]


def kings(spec) -> int:
    """Number of kings in a card list."""
    return sum(1 for c in cards(spec) if c.startswith("K"))


def reference_deal(rules: ScopaRules, seed: int, mode: str = "deal") -> dict:
    """What ``new_deal(seed)`` (mode "deal") or ``new_match(seed)`` (mode "match") must deal:
    the reference engine's position from the same seed."""
    make = ReferenceScopa.new_deal if mode == "deal" else ReferenceScopa.new_match
    return make(rules, seed).to_dict()


def reference_after(rules: ScopaRules, pos: dict, *texts: str) -> dict:
    """The reference engine's position after the actions ``texts`` (``"7sw>7cu"``) from
    ``pos``."""
    ref = ReferenceScopa.from_dict(rules, pos)
    for text in texts:
        ref.apply_action(action_id(text))
    return ref.to_dict()


@functools.lru_cache(maxsize=None)
def find_redeal_seed() -> int:
    """The first seed whose first deal the reference cancels (3+ kings on the table, about
    1 seed in 630) with the default rules."""
    rules = ScopaRules()
    return next(seed for seed in range(100_000)
                if ReferenceScopa.new_deal(rules, seed).redeals > 0)


BREAKDOWN_KEYS = ("cards", "coins", "settebello", "primiera", "scopas", "total", "card_count",
                  "coin_count", "primiera_total", "match_scores")


def assert_breakdown(state, expected: dict) -> None:
    """``score_breakdown()`` holds the documented keys, with the values of ``expected`` (keys
    outside the documented list are extras and not compared)."""
    bd = state.score_breakdown()
    assert set(BREAKDOWN_KEYS) <= set(bd)
    assert {k: bd[k] for k in expected} == expected

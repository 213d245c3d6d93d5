"""Hypothesis property tests of Scopa (rules/scopa.md) through the public API.

Seeds for the deal and for the random choice of actions are drawn by hypothesis. Two kinds of
property are checked:

* agreement with the oracle, the plain-Python reference engine
  :class:`cardsim.games.scopa.reference.ReferenceScopa`: it is dealt from the same seed (or
  loaded from the same position) and given the same actions as the compiled engine, and the two
  must hold the same position dict, legal actions, score breakdown and returns
  (:func:`assert_agrees`): dealing SC-DEAL-1..6 with SC-DEAL-3 redeals, moves SC-CAPT-1..8,
  SC-SCOPA-1..3, SC-END-1..3, scoring SC-SCORE-1..6 and SC-PRIM-1..2, the match SC-MATCH-1..3,
  partnerships SC-TEAM-2..5;
* invariants, checked on the position dicts alone: 36 moves a deal, piles only grow, partners
  share a pile, a scopa empties the table, at most one point per category, match scores grow,
  the dealer rotates, hidden hands stay hidden.

numba compiles on first use, so every test has ``deadline=None``; ``max_examples`` is kept
small to hold the whole file to a few seconds.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardsim.compiled.rng import rng_from_seed
from cardsim.games.scopa.layout import DECK as SCOPA
from cardsim.games.scopa.reference import PRIMIERA_BY_RANK, ReferenceScopa
from tests.helpers import load_game

SETTINGS = dict(deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

OPTION_SETS = [
    {},
    {"num_players": 4},
    {"num_players": 4, "four_player_deal": "nine_at_once"},
    {"equal_card_priority": False},
    {"last_move_scopa_counts": True},
    {"leftover_to_last_capturer": False},
    {"primiera_missing_suit": "forfeit"},
    {"redeal_kings_on_table": "off"},
    {"num_players": 4, "last_move_scopa_counts": True, "leftover_to_last_capturer": False,
     "equal_card_priority": False, "primiera_missing_suit": "forfeit"},
]
seeds = st.integers(min_value=0, max_value=2**63 - 1)
option_sets = st.sampled_from(OPTION_SETS)

KINGS = {"Kco", "Kcu", "Ksw", "Kba"}
REDEAL_WORDS_SEED = 1231   # rng_from_seed(1231): a next deal dealt twice (SC-DEAL-3)
CATEGORIES = ("cards", "coins", "settebello", "primiera", "scopas")


# --- the oracle: the reference engine in lockstep -----------------------------------------------

def started(game, mode: str, seed: int):
    """The compiled state and the reference, both dealt from ``seed`` (mode "deal"/"match")."""
    if mode == "deal":
        return game.new_deal(seed=seed), ReferenceScopa.new_deal(game.rules, seed)
    return game.new_match(seed=seed), ReferenceScopa.new_match(game.rules, seed)


def assert_agrees(state, ref: ReferenceScopa, where: str = "", got: dict | None = None) -> None:
    """The compiled state holds the reference's position (``got``: the state's ``to_dict``,
    when the caller has it already), legal actions and player to move; once terminal, its
    score breakdown and returns too."""
    got = state.to_dict() if got is None else got
    want = ref.to_dict()
    diff = {k: (got.get(k), want.get(k)) for k in set(got) | set(want)
            if got.get(k) != want.get(k)}
    assert not diff, f"{where}: differs from the reference (compiled, reference): {diff}"
    assert state.legal_actions() == ref.legal_actions(), where
    assert state.current_player() == ref.current_player(), where
    if ref.is_terminal():
        assert state.score_breakdown() == ref.score_breakdown(), where
        assert state.returns() == ref.returns(), where


def play_random(state, rnd: random.Random, ref: ReferenceScopa | None = None) -> list:
    """Play random legal actions until the end of the deal (or match).

    With ``ref`` (the reference in the same position) every action is applied to it too and
    :func:`assert_agrees` is checked after every move. Returns the (before, action dict, after)
    triples of position dicts.
    """
    history = []
    before = state.to_dict()
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[rnd.randrange(len(legal))]
        as_dict = state.action_to_dict(action)
        state.apply_action(action)
        after = state.to_dict()
        history.append((before, as_dict, after))
        if ref is not None:
            ref.apply_action(action)
            assert_agrees(state, ref, f"move {len(history)} {as_dict}", got=after)
        before = after
        assert len(history) <= 36 * 50
    return history


# --- dealing ------------------------------------------------------------------------------------

@settings(max_examples=100, **SETTINGS)
@given(seed=seeds, opts=option_sets)
def test_new_deal_follows_the_dealing_procedure(seed, opts):
    """SC-DEAL-1..5, SC-DEAL-3: new_deal and new_match deal from a seed exactly what the
    reference deals from it (dealer, table, hands, stock, redeals, rng words)."""
    game = load_game("scopa", **opts)
    for mode in ("deal", "match"):
        state, ref = started(game, mode, seed)
        assert_agrees(state, ref, mode)
        assert state.to_dict()["mode"] == mode


@settings(max_examples=60, **SETTINGS)
@given(seed=seeds, opts=option_sets)
def test_initial_deal_shape(seed, opts):
    """SC-DEAL-2..5: 4 table cards, full hands, the first player after the dealer; no 3+ kings
    on the table when the redeal rule is on."""
    game = load_game("scopa", **opts)
    d = game.new_deal(seed=seed).to_dict()
    n, h = game.rules.num_players, game.rules.hand_size
    assert len(d["table"]) == 4
    assert [len(x) for x in d["hands"]] == [h] * n
    assert len(d["stock"]) == 40 - 4 - n * h
    assert d["to_move"] == (d["dealer"] + 1) % n
    if game.rules.redeal_kings_on_table == "three_or_more":
        assert len(KINGS & set(d["table"])) <= 2
    else:
        assert d["redeals"] == 0


# --- one deal -----------------------------------------------------------------------------------

@settings(max_examples=60, **SETTINGS)
@given(seed=seeds, play_seed=seeds, opts=option_sets)
def test_deal_moves_follow_the_rules(seed, play_seed, opts):
    """Every move of a random deal leaves the reference's successor position and legal actions
    (SC-CAPT-1..8, SC-SCOPA-1..3, SC-END-1..3, SC-SCORE-1..6); a deal has 36 moves."""
    game = load_game("scopa", **opts)
    state, ref = started(game, "deal", seed)
    history = play_random(state, random.Random(play_seed), ref)
    assert len(history) == 36
    assert state.current_player() == -1


@settings(max_examples=60, **SETTINGS)
@given(seed=seeds, play_seed=seeds, opts=option_sets)
def test_deal_invariants(seed, play_seed, opts):
    """The named invariants of a deal, each on its own, without the oracle."""
    game = load_game("scopa", **opts)
    rules = game.rules
    state = game.new_deal(seed=seed)
    history = play_random(state, random.Random(play_seed))
    for b, action, a in history:
        mover = b["to_move"]
        # piles only grow
        for s in range(2):
            assert set(b["piles"][s]) <= set(a["piles"][s])
        # the mover's side takes the captured cards, the other side's pile is unchanged (2x2:
        # partners share a pile, SC-TEAM-3)
        if action["capture"]:
            side = mover & 1
            assert set(action["capture"]) | set(action["play"]) <= set(a["piles"][side])
            if a["phase"] == "play" or not rules.leftover_to_last_capturer:
                assert a["piles"][1 - side] == b["piles"][1 - side]
            assert a["last_capturer"] == side
        else:
            assert a["piles"] == b["piles"] or a["phase"] != "play"
            assert action["play"][0] in a["table"] or a["phase"] != "play"
        # a scopa leaves the table empty; scopas never decrease
        for s in range(2):
            assert a["scopas"][s] >= b["scopas"][s]
        if a["scopas"] != b["scopas"]:
            assert sum(a["scopas"]) == sum(b["scopas"]) + 1
            assert a["scopas"][mover & 1] == b["scopas"][mover & 1] + 1
            assert a["table"] == [] and action["capture"]
        # a card is played from the mover's hand
        assert action["play"][0] in b["hands"][mover]
        assert all(action["play"][0] not in h for h in a["hands"])
    assert len(history) == 36
    # scoring
    sb = state.score_breakdown()
    d = state.to_dict()
    assert d["stock"] == [] and not any(d["hands"])
    for cat in ("cards", "coins", "primiera", "settebello"):
        assert sum(sb[cat]) <= 1 and min(sb[cat]) >= 0, (cat, sb)
    for s in range(2):
        assert sb["total"][s] == sum(sb[c][s] for c in CATEGORIES)
        assert 0 <= sb["total"][s] - sb["scopas"][s] <= 4
        assert sb["scopas"][s] == d["scopas"][s]
        assert sb["card_count"][s] == len(d["piles"][s])
        assert sb["match_scores"][s] == d["scores"][s] == sb["total"][s]
    # the settebello point goes to exactly one side when the table is swept up at the end
    in_pile = any("7co" in p for p in d["piles"])
    assert sum(sb["settebello"]) == int(in_pile)
    if rules.leftover_to_last_capturer and d["last_capturer"] is not None:
        assert sum(sb["settebello"]) == 1
        assert d["table"] == [] and sum(sb["card_count"]) == 40
    # returns: own side's points minus the other side's
    diff = sb["total"][0] - sb["total"][1]
    assert state.returns() == [float(diff if p % 2 == 0 else -diff)
                               for p in range(rules.num_players)]


# --- a match ------------------------------------------------------------------------------------

@settings(max_examples=20, **SETTINGS)
@given(seed=seeds, play_seed=seeds,
       opts=st.sampled_from([{}, {"num_players": 4}, {"target_score": 21},
                             {"num_players": 4, "four_player_deal": "nine_at_once",
                              "redeal_kings_on_table": "off"}]))
def test_match_follows_the_rules(seed, play_seed, opts):
    """A match moves exactly as the reference, including the next deals (SC-DEAL-6,
    SC-MATCH-1..3): scores only grow, the dealer rotates, it ends at the target."""
    game = load_game("scopa", **opts)
    rules = game.rules
    state, ref = started(game, "match", seed)
    history = play_random(state, random.Random(play_seed), ref)
    d = state.to_dict()
    deals = 1 + sum(1 for b, _, a in history if a["deal_number"] != b["deal_number"])
    assert d["deal_number"] == deals
    assert len(history) == 36 * deals
    for b, _, a in history:
        assert a["scores"][0] >= b["scores"][0] and a["scores"][1] >= b["scores"][1]
        if a["deal_number"] != b["deal_number"]:
            assert a["dealer"] == (b["dealer"] + 1) % rules.num_players
            assert max(a["scores"]) < rules.target_score or a["scores"][0] == a["scores"][1]
    assert d["phase"] == "match_over"
    assert max(d["scores"]) >= rules.target_score and d["scores"][0] != d["scores"][1]
    winner = 0 if d["scores"][0] > d["scores"][1] else 1
    assert state.returns() == [1.0 if p % 2 == winner else -1.0
                               for p in range(rules.num_players)]


# --- information --------------------------------------------------------------------------------

@settings(max_examples=20, **SETTINGS)
@given(seed=seeds, world_seed=seeds)
def test_2x2_partner_hand_is_hidden(seed, world_seed):
    """SC-TEAM-4: a sampled world keeps only the observer's own hand; the partner's is resampled
    from the unseen cards like the opponents' (it differs in some of 10 samples)."""
    game = load_game("scopa", num_players=4)
    state = game.new_deal(seed=seed)
    d = state.to_dict()
    p = d["to_move"]
    partner = (p + 2) % 4
    assert partner not in (p,) and state.observation(p)["hand"] == d["hands"][p]
    assert "hands" not in state.observation(p)
    partners = set()
    for k in range(10):
        w = state.sample_world(p, seed=(world_seed + k) % 2**63).to_dict()
        assert w["hands"][p] == d["hands"][p]
        partners.add(tuple(w["hands"][partner]))
    assert len(partners) > 1


@settings(max_examples=20, **SETTINGS)
@given(seed=seeds, play_seed=seeds)
def test_two_player_last_round_opponent_known(seed, play_seed):
    """Rules §5: with 2 players, once the stock is empty the opponent's hand is known, so every
    sampled world equals the true position (apart from the rng words)."""
    game = load_game("scopa")
    state = game.new_deal(seed=seed)
    rnd = random.Random(play_seed)
    while state.to_dict()["stock"]:
        state.apply_action(rnd.choice(state.legal_actions()))
    truth = state.to_dict()
    for p in range(2):
        w = state.sample_world(p, seed=play_seed).to_dict()
        assert {k: v for k, v in w.items() if k != "rng"} == \
            {k: v for k, v in truth.items() if k != "rng"}


def test_oracle_is_not_vacuous():
    """The comparison with the reference rejects a diverging engine: the same deal advanced by
    different actions, or a doctored position, is caught."""
    game = load_game("scopa")
    state, ref = started(game, "deal", 4)
    assert_agrees(state, ref, "start")
    legal = state.legal_actions()
    state.apply_action(legal[0])
    ref.apply_action(legal[1])
    with pytest.raises(AssertionError):
        assert_agrees(state, ref)
    doctored = ReferenceScopa.from_dict(game.rules, state.to_dict())
    assert_agrees(state, doctored, "copy")
    doctored.to_move = 1 - doctored.to_move
    with pytest.raises(AssertionError):
        assert_agrees(state, doctored)
    assert sum(PRIMIERA_BY_RANK) == 139   # 16+12+13+14+15+18+21+10+10+10 (SC-PRIM-1)


# --- the redeal path, made certain --------------------------------------------------------------

def _redeal_seeds(game, how_many):
    found = []
    for seed in range(20_000):
        if game.new_deal(seed=seed).to_dict()["redeals"]:
            found.append(seed)
            if len(found) == how_many:
                return found
    raise AssertionError("no redeal in 20 000 deals (expected one in ~630)")


def test_redeal_deals_follow_the_procedure():
    """SC-DEAL-3: deals that were cancelled and dealt again match the reference exactly."""
    for opts in ({}, {"num_players": 4}):
        game = load_game("scopa", **opts)
        found = _redeal_seeds(game, 3)
        for seed in found:
            for mode in ("deal", "match"):
                state, ref = started(game, mode, seed)
                assert state.to_dict()["redeals"] >= 1
                assert_agrees(state, ref, f"seed {seed} {mode}")
        off = load_game("scopa", redeal_kings_on_table="off", **opts)
        d = off.new_deal(seed=found[0]).to_dict()
        assert d["redeals"] == 0 and len(KINGS & set(d["table"])) >= 3


def test_match_next_deal_with_redeal():
    """SC-DEAL-6 + SC-DEAL-3 inside a match: the last move of a deal leads to the next deal,
    dealt by the next dealer from the position's rng words, with its own redeal count."""
    game = load_game("scopa")
    rest = [c for c in SCOPA.cards if c not in ("Aco", "2cu", "Kba")]
    # rng words whose next deal is cancelled at least once (3+ kings on the first table): the
    # first of rng_from_seed(0), (1), ... by the reference; checked here, so that a change of
    # the dealing shows
    words = [int(x) for x in rng_from_seed(REDEAL_WORDS_SEED)]
    position = {"mode": "match", "phase": "play", "dealer": 0, "to_move": 0,
                "hands": [["Aco"], []], "table": ["2cu", "Kba"], "stock": [],
                "piles": [rest[:20], rest[20:]], "scopas": [1, 0], "last_capturer": 1,
                "scores": [3, 4], "deal_number": 2, "redeals": 0, "rng": words}
    ref = ReferenceScopa.from_dict(game.rules, position)
    ref.apply_action(ref.legal_actions()[0])
    assert ref.redeals >= 1, "the next deal from these rng words is no longer cancelled"
    state = game.from_dict(position)
    legal = state.legal_actions()
    assert [state.action_to_string(a) for a in legal] == ["Aco"]
    state.apply_action(legal[0])
    assert_agrees(state, ref, "next deal")
    a = state.to_dict()
    assert a["redeals"] >= 1 and a["deal_number"] == 3 and a["dealer"] == 1
    # Aco is laid; side 1 captured last and takes [2cu, Kba, Aco]: piles of 20 and 20 cards,
    # coins 9-1, settebello to side 0, primiera 58 (7co 7cu Asw) - 70 (Aco 2cu 7sw 7ba) to
    # side 1, scopas 1-0: side 0 +3, side 1 +1
    assert a["to_move"] == 0 and a["scores"] == [3 + 3, 4 + 1]


# --- scoring of arbitrary piles -----------------------------------------------------------------

@st.composite
def card_splits(draw):
    """A zone (0 = pile 0, 1 = pile 1, 2 = table) for each of the 40 cards; each suit is split
    at random or kept out of one pile, so piles missing suits are common."""
    zones = []
    for _ in range(4):
        allowed = draw(st.sampled_from([(0, 1, 2), (0, 1), (1, 2), (0, 2), (0,), (1,)]))
        zones += draw(st.lists(st.sampled_from(allowed), min_size=10, max_size=10))
    return zones


@settings(max_examples=150, **SETTINGS)
@given(zones=card_splits(),
       scopas=st.tuples(st.integers(0, 8), st.integers(0, 8)),
       opts=st.sampled_from([{}, {"primiera_missing_suit": "forfeit"}, {"num_players": 4},
                             {"num_players": 4, "primiera_missing_suit": "forfeit"}]))
def test_score_breakdown_of_any_split(zones, scopas, opts):
    """SC-SCORE-1..6, SC-PRIM-1..2 on a finished deal with any split of the cards into the two
    piles and the table (hypothesis favours extreme splits, hence piles missing suits): the
    breakdown is the reference's on the same position, at most one point a category."""
    game = load_game("scopa", **opts)
    n = game.rules.num_players
    piles = [[c for c, z in zip(SCOPA.cards, zones) if z == s] for s in range(2)]
    table = [c for c, z in zip(SCOPA.cards, zones) if z == 2]
    for s in range(2):  # a capture takes at least two cards: move a lone card to the table
        if len(piles[s]) == 1:
            table.append(piles[s].pop())
    table.sort(key=SCOPA.index)
    lc = 0 if piles[0] else (1 if piles[1] else None)
    # each scopa is a capture of at least two cards
    scopas = [min(scopas[s], len(piles[s]) // 2) for s in range(2)]
    position = {"mode": "deal", "phase": "deal_over", "dealer": 0, "to_move": 1,
                "hands": [[] for _ in range(n)], "table": table, "stock": [],
                "piles": piles, "scopas": scopas, "last_capturer": lc}
    state = game.from_dict(position)
    sb = state.score_breakdown()
    assert sb == ReferenceScopa.from_dict(game.rules, position).score_breakdown()
    for cat in ("cards", "coins", "primiera", "settebello"):
        assert sum(sb[cat]) <= 1 and min(sb[cat]) >= 0, (cat, sb)
    assert sb["card_count"] == [len(p) for p in piles]
    assert sb["coin_count"] == [sum(c.endswith("co") for c in p) for p in piles]
    diff = sb["total"][0] - sb["total"][1]
    assert state.returns() == [float(diff if p % 2 == 0 else -diff) for p in range(n)]
    assert state.is_terminal() and state.legal_actions() == []

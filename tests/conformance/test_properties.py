"""Hypothesis property tests of Scopa (rules/scopa.md) through the public API.

Seeds for the deal and for the random choice of actions are drawn by hypothesis; every property
is checked on the position dicts only (``to_dict``, ``score_breakdown``, ``returns``), against
small independent re-statements of the rules written here:

* :func:`deal_from_seed` — the dealing procedure from a seed (SC-DEAL-1..5, SC-DEAL-3 redeals);
* :func:`expected_legal` — the legal (card, capture set) pairs by brute force (SC-CAPT-1..8);
* :func:`expected_after` — the position after one move (captures, piles, scopas, refills,
  end of deal, leftovers, match scores and the next deal: SC-CAPT-7, SC-SCOPA-1..3,
  SC-DEAL-5..6, SC-END-1..3, SC-SCORE-1..6, SC-MATCH-1..3, SC-TEAM-2..5);
* :func:`deal_points` — the scoring of a deal from the piles (SC-SCORE-1..6, SC-PRIM-1..2).

numba compiles on first use, so every test has ``deadline=None``; ``max_examples`` is kept
small to hold the whole file to a few seconds.
"""
from __future__ import annotations

import copy
import itertools
import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardsim
from cardsim.cards import SCOPA
from cardsim.rng import PyRng, rng_from_seed

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
RANKS = "A 2 3 4 5 6 7 J C K".split()
PRIMIERA = dict(zip(RANKS, [16, 12, 13, 14, 15, 18, 21, 10, 10, 10]))


def value(card: str) -> int:
    """Capture value (rules §1.2): A=1 .. 7=7, J=8, C=9, K=10."""
    return RANKS.index(card[:-2]) + 1


def suit(card: str) -> str:
    return card[-2:]


def by_index(cards) -> list[str]:
    return sorted(cards, key=SCOPA.index)


# --- independent re-statements of the rules -----------------------------------------------------

def deal_from_seed(seed: int, rules, mode: str) -> dict:
    """The position ``new_deal`` / ``new_match`` must produce (the dealing procedure)."""
    caller = PyRng(rng_from_seed(seed))
    s = PyRng([caller.next() for _ in range(4)])
    n = rules.num_players
    dealer = s.below(n)
    d = {"mode": mode, "dealer": dealer, "deal_number": 1, "scores": [0, 0]}
    return deal_with(s, rules, d)


def deal_with(s: PyRng, rules, d: dict) -> dict:
    """Shuffle and deal with the stream ``s`` for dealer ``d['dealer']`` (SC-DEAL-2..5)."""
    n = rules.num_players
    cards = list(range(40))
    redeals = 0
    while True:
        s.shuffle(cards)
        table = [SCOPA.name(c) for c in cards[:4]]
        if rules.redeal_kings_on_table == "three_or_more" and len(KINGS & set(table)) >= 3:
            redeals += 1
            continue
        break
    order = [SCOPA.name(c) for c in cards]
    hands = [[] for _ in range(n)]
    pos = 4
    for k in range(n):
        seat = (d["dealer"] + 1 + k) % n
        hands[seat] = by_index(order[pos:pos + rules.hand_size])
        pos += rules.hand_size
    out = dict(d)
    out.update({"phase": "play", "to_move": (d["dealer"] + 1) % n, "hands": hands,
                "table": by_index(order[:4]), "stock": order[pos:], "piles": [[], []],
                "scopas": [0, 0], "last_capturer": None, "redeals": redeals,
                "rng": list(s.s)})
    return out


def expected_legal(d: dict, rules) -> list[dict]:
    """All legal actions of the player to move, by brute force over subsets of the table."""
    if d["phase"] != "play":
        return []
    hand = d["hands"][d["to_move"]]
    table = d["table"]
    out = []
    for card in hand:
        v = value(card)
        equal = [[t] for t in table if value(t) == v]
        lower = [t for t in table if value(t) < v]
        sums = [list(c) for k in range(2, len(lower) + 1) for c in itertools.combinations(lower, k)
                if sum(value(t) for t in c) == v]
        options = equal + sums if (not equal or not rules.equal_card_priority) else equal
        if not options:
            options = [[]]
        out += [{"play": [card], "capture": by_index(o)} for o in options]
    return out


def primiera_total(pile: list[str], forfeit: bool):
    total = 0
    for s in ("co", "cu", "sw", "ba"):
        values = [PRIMIERA[c[:-2]] for c in pile if suit(c) == s]
        if not values:
            if forfeit:
                return None
            continue
        total += max(values)
    return total


def deal_points(piles, scopas, rules) -> dict:
    """SC-SCORE-1..6 from the two piles and the scopa counts."""
    def more(a, b):
        return [int(a > b), int(b > a)]
    forfeit = rules.primiera_missing_suit == "forfeit"
    prim = [primiera_total(p, forfeit) for p in piles]
    pv = [-1 if t is None else t for t in prim]
    out = {"cards": more(len(piles[0]), len(piles[1])),
           "coins": more(*(sum(suit(c) == "co" for c in p) for p in piles)),
           "settebello": [int("7co" in p) for p in piles],
           "primiera": more(pv[0], pv[1]),
           "scopas": list(scopas)}
    out["total"] = [sum(out[k][s] for k in ("cards", "coins", "settebello", "primiera", "scopas"))
                    for s in range(2)]
    out["primiera_total"] = prim
    return out


def expected_after(b: dict, action: dict, rules) -> dict:
    """The position after ``action`` in position ``b`` (a dict), by the rules."""
    a = copy.deepcopy(b)
    n = rules.num_players
    mover = b["to_move"]
    side = mover & 1
    card = action["play"][0]
    taken = action["capture"]
    a["hands"][mover] = [c for c in b["hands"][mover] if c != card]
    last_move = not b["stock"] and not any(a["hands"])
    if taken:
        a["table"] = [c for c in b["table"] if c not in taken]
        a["piles"][side] = by_index(b["piles"][side] + taken + [card])
        a["last_capturer"] = side
        if not a["table"] and (rules.last_move_scopa_counts or not last_move):
            a["scopas"][side] += 1
    else:
        a["table"] = by_index(b["table"] + [card])
    a["to_move"] = (mover + 1) % n
    if not any(a["hands"]) and b["stock"]:
        first = (b["dealer"] + 1) % n
        stock = list(b["stock"])
        for k in range(n):
            seat = (first + k) % n
            a["hands"][seat] = by_index(stock[:rules.hand_size])
            stock = stock[rules.hand_size:]
        a["stock"] = stock
    if last_move:
        if a["table"] and a["last_capturer"] is not None and rules.leftover_to_last_capturer:
            lc = a["last_capturer"]
            a["piles"][lc] = by_index(a["piles"][lc] + a["table"])
            a["table"] = []
        pts = deal_points(a["piles"], a["scopas"], rules)
        a["scores"] = [a["scores"][s] + pts["total"][s] for s in range(2)]
        if b["mode"] == "deal":
            a["phase"] = "deal_over"
        elif max(a["scores"]) >= rules.target_score and a["scores"][0] != a["scores"][1]:
            a["phase"] = "match_over"
        else:
            nxt = {"mode": "match", "dealer": (b["dealer"] + 1) % n,
                   "deal_number": b["deal_number"] + 1, "scores": a["scores"]}
            a.update(deal_with(PyRng(b["rng"]), rules, nxt))
            a["_deal_points"] = pts
            return a
        a["_deal_points"] = pts
    return a


def compare(actual: dict, expected: dict) -> None:
    exp = {k: v for k, v in expected.items() if not k.startswith("_")}
    if exp["phase"] != "play":   # nobody moves any more: to_move is not meaningful
        exp.pop("to_move")
        actual = {k: v for k, v in actual.items() if k != "to_move"}
    diff = {k: (actual.get(k), exp.get(k)) for k in set(actual) | set(exp)
            if actual.get(k) != exp.get(k)}
    assert not diff, f"differs from the rules (actual, expected): {diff}"


# --- dealing ------------------------------------------------------------------------------------

@settings(max_examples=100, **SETTINGS)
@given(seed=seeds, opts=option_sets)
def test_new_deal_follows_the_dealing_procedure(seed, opts):
    game = cardsim.load_game("scopa", **opts)
    for mode, make in (("deal", game.new_deal), ("match", game.new_match)):
        d = make(seed=seed).to_dict()
        expected = deal_from_seed(seed, game.rules, mode)
        expected["rules"] = d["rules"]
        expected["game"] = "scopa"
        compare(d, expected)


@settings(max_examples=60, **SETTINGS)
@given(seed=seeds, opts=option_sets)
def test_initial_deal_shape(seed, opts):
    """SC-DEAL-2..5: 4 table cards, full hands, the first player after the dealer; no 3+ kings
    on the table when the redeal rule is on."""
    game = cardsim.load_game("scopa", **opts)
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

def play_checked(game, state, rnd, check_legal=True):
    """Play a random deal (or match) to the end, checking every move against expected_after.

    Returns the list of (before, action, after) dicts.
    """
    rules = game.rules
    history = []
    while not state.is_terminal():
        b = state.to_dict()
        legal = state.legal_actions()
        as_dicts = [state.action_to_dict(x) for x in legal]
        if check_legal and len(b["table"]) <= 12:
            want = expected_legal(b, rules)
            assert sorted(map(str, as_dicts)) == sorted(map(str, want)), b
        k = rnd.randrange(len(legal))
        state.apply_action(legal[k])
        a = state.to_dict()
        exp = expected_after(b, as_dicts[k], rules)
        compare(a, exp)
        history.append((b, as_dicts[k], a, exp))
        assert len(history) <= 36 * 50
    return history


@settings(max_examples=60, **SETTINGS)
@given(seed=seeds, play_seed=seeds, opts=option_sets)
def test_deal_moves_follow_the_rules(seed, play_seed, opts):
    """Every move of a random deal equals the rules' successor position; a deal has 36 moves."""
    game = cardsim.load_game("scopa", **opts)
    state = game.new_deal(seed=seed)
    history = play_checked(game, state, random.Random(play_seed))
    assert len(history) == 36
    assert state.current_player() == -1


@settings(max_examples=60, **SETTINGS)
@given(seed=seeds, play_seed=seeds, opts=option_sets)
def test_deal_invariants(seed, play_seed, opts):
    """The named invariants of a deal, each on its own (they also follow from the test above)."""
    game = cardsim.load_game("scopa", **opts)
    rules = game.rules
    state = game.new_deal(seed=seed)
    rnd = random.Random(play_seed)
    moves = 0
    while not state.is_terminal():
        b = state.to_dict()
        mover = state.current_player()
        a_id = rnd.choice(state.legal_actions())
        action = state.action_to_dict(a_id)
        state.apply_action(a_id)
        a = state.to_dict()
        moves += 1
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
    assert moves == 36
    # scoring
    sb = state.score_breakdown()
    d = state.to_dict()
    assert d["stock"] == [] and not any(d["hands"])
    for cat in ("cards", "coins", "primiera", "settebello"):
        assert sum(sb[cat]) <= 1 and min(sb[cat]) >= 0, (cat, sb)
    for s in range(2):
        assert sb["total"][s] == sum(sb[c][s] for c in
                                     ("cards", "coins", "settebello", "primiera", "scopas"))
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
    # the breakdown agrees with an independent scoring of the piles
    pts = deal_points(d["piles"], d["scopas"], rules)
    for key in ("cards", "coins", "settebello", "primiera", "scopas", "total", "primiera_total"):
        assert sb[key] == pts[key], key
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
    """A match moves exactly as the rules say, including the next deals (SC-DEAL-6,
    SC-MATCH-1..3): scores only grow, the dealer rotates, it ends at the target."""
    game = cardsim.load_game("scopa", **opts)
    rules = game.rules
    state = game.new_match(seed=seed)
    history = play_checked(game, state, random.Random(play_seed), check_legal=False)
    d = state.to_dict()
    deals = 1 + sum(1 for b, _, a, _ in history if a["deal_number"] != b["deal_number"])
    assert d["deal_number"] == deals
    assert len(history) == 36 * deals
    for b, _, a, _ in history:
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
    game = cardsim.load_game("scopa", num_players=4)
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
    game = cardsim.load_game("scopa")
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
    """The re-statements above disagree with a wrong engine: a doctored successor is caught."""
    game = cardsim.load_game("scopa")
    state = game.new_deal(seed=4)
    b = state.to_dict()
    legal = state.legal_actions()
    action = state.action_to_dict(legal[0])
    state.apply_action(legal[0])
    a = state.to_dict()
    compare(a, expected_after(b, action, game.rules))
    wrong = copy.deepcopy(a)
    wrong["to_move"] = (wrong["to_move"] + 1) % 2
    try:
        compare(wrong, expected_after(b, action, game.rules))
    except AssertionError:
        pass
    else:
        raise AssertionError("compare() accepted a wrong position")
    assert np.isclose(sum(PRIMIERA.values()), 139)


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
    """SC-DEAL-3: deals that were cancelled and dealt again match the procedure exactly."""
    for opts in ({}, {"num_players": 4}):
        game = cardsim.load_game("scopa", **opts)
        for seed in _redeal_seeds(game, 3):
            for mode, make in (("deal", game.new_deal), ("match", game.new_match)):
                d = make(seed=seed).to_dict()
                assert d["redeals"] >= 1
                expected = deal_from_seed(seed, game.rules, mode)
                expected.update(rules=d["rules"], game="scopa")
                compare(d, expected)
        off = cardsim.load_game("scopa", redeal_kings_on_table="off", **opts)
        seed = _redeal_seeds(game, 1)[0]
        d = off.new_deal(seed=seed).to_dict()
        assert d["redeals"] == 0 and len(KINGS & set(d["table"])) >= 3


def test_match_next_deal_with_redeal():
    """SC-DEAL-6 + SC-DEAL-3 inside a match: the last move of a deal leads to the next deal,
    dealt by the next dealer from the position's rng words, with its own redeal count."""
    # rng words whose first shuffle puts 3+ kings on the table
    for k in range(100_000):
        words = [int(x) for x in rng_from_seed(k)]
        s = PyRng(words)
        cards = list(range(40))
        s.shuffle(cards)
        if len({9, 19, 29, 39} & set(cards[:4])) >= 3:
            break
    else:
        raise AssertionError("no such rng words")
    game = cardsim.load_game("scopa")
    rest = [c for c in SCOPA.cards if c not in ("Aco", "2cu", "Kba")]
    position = {"mode": "match", "phase": "play", "dealer": 0, "to_move": 0,
                "hands": [["Aco"], []], "table": ["2cu", "Kba"], "stock": [],
                "piles": [rest[:20], rest[20:]], "scopas": [1, 0], "last_capturer": 1,
                "scores": [3, 4], "deal_number": 2, "redeals": 0, "rng": words}
    state = game.from_dict(position)
    b = state.to_dict()
    legal = state.legal_actions()
    assert [state.action_to_string(a) for a in legal] == ["Aco"]
    state.apply_action(legal[0])
    a = state.to_dict()
    exp = expected_after(b, {"play": ["Aco"], "capture": []}, game.rules)
    compare(a, exp)
    assert a["redeals"] >= 1 and a["deal_number"] == 3 and a["dealer"] == 1
    assert a["to_move"] == 0 and a["scores"] == [3 + exp["_deal_points"]["total"][0],
                                                 4 + exp["_deal_points"]["total"][1]]


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
    piles and the table (hypothesis favours extreme splits, hence piles missing suits)."""
    game = cardsim.load_game("scopa", **opts)
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
    state = game.from_dict({"mode": "deal", "phase": "deal_over", "dealer": 0, "to_move": 1,
                            "hands": [[] for _ in range(n)], "table": table, "stock": [],
                            "piles": piles, "scopas": scopas, "last_capturer": lc})
    sb = state.score_breakdown()
    pts = deal_points(piles, scopas, game.rules)
    for key in ("cards", "coins", "settebello", "primiera", "scopas", "total", "primiera_total"):
        assert sb[key] == pts[key], (key, sb[key], pts[key])
    assert sb["card_count"] == [len(p) for p in piles]
    assert sb["coin_count"] == [sum(suit(c) == "co" for c in p) for p in piles]
    diff = pts["total"][0] - pts["total"][1]
    assert state.returns() == [float(diff if p % 2 == 0 else -diff) for p in range(n)]
    assert state.is_terminal() and state.legal_actions() == []

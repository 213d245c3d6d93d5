"""Hypothesis property tests of Bura (rules/bura.md) through the public API.

Hypothesis draws the option set, the deal's seed and the seed of the random player; the deal is
played to its end and checked on the position dicts alone, against facts restated here from the
rules and the engine (layout.py and notation.py: card index ``suit * 9 + r``, action id ``kind << 40
| card mask``), not taken from the engine:

* BU-RESP-5: a trick's cards go to the last player who beat, or to the leader; face-down cards
  to the face-down pile;
* BU-DRAW-1/2: drawing goes clockwise from the trick's winner, one card at a time; the turned
  trump card is the stock's last card while undrawn, and whoever draws it holds it;
* BU-DRAW-3: hands are equal at every check point (3 each while the stock holds cards);
* piles only grow within a deal;
* BU-EX-15: 120 points in the pack; a deal played out is won by the strict top scorer;
* BU-CLAIM-1..3: a claim is the scheduled leader's, and its result follows his pile points;
* BU-END-3, BU-COMBO-1..3: a finished deal's winners and multiplier fit its kind, and the
  returns fit the result;
* rules §5: a sampled world never gives a hand at the last check point a combination that
  would have ended the deal;
* BU-COMBO-5..7: with Stop options on, a declined claim asks every non-leader in clockwise
  order until one calls Stop, and Stop is legal exactly for the eligible players.

Random play claims rarely (a claim ends the deal): with probability ``CLAIM_P`` where a claim
is legal (``test_claim_result_matches_pile_points`` claims more often when the claim is good,
so that both outcomes occur). :func:`test_every_property_is_exercised` checks on fixed seeds
that each property meets the situations it is about, so none of them passes vacuously.

numba compiles on first use, so every test has ``deadline=None``; ``max_examples`` is kept
small to hold the whole file to a few seconds.
"""
from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardsim.games.bura.conformance import combos
from cardsim.games.bura.conformance import world_ok as bura_world_ok
from tests.helpers import load_game

SETTINGS = dict(deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# --- the engine, restated ----------------------------------------------------------------

RANKS = "6789JQKTA"
SUITS = "scdh"
CARDS = [r + s for s in SUITS for r in RANKS]          # index = suit * 9 + r
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
KINDS = ("lead", "beat", "throw_down", "throw_up", "claim", "no_claim", "stop", "pass")
CLAIM = 4 << 40
CHECK_PHASES = ("check", "claim", "stop", "lead")
CLAIM_P = 0.05
STOP_P = 0.5


def decode(action: int) -> tuple[str, list[str]]:
    """(kind, cards) of an action id: ``kind << 40 | mask`` over the card index."""
    kind, mask = action >> 40, action & ((1 << 40) - 1)
    return KINDS[kind], [CARDS[i] for i in range(36) if mask >> i & 1]


def points(cards) -> int:
    return sum(POINTS.get(c[0], 0) for c in cards)


def pile(d: dict, seat: int) -> list[str]:
    return d["piles"][seat]["up"] + d["piles"][seat]["down"]


def may_stop(d: dict, seat: int) -> bool:
    """BU-COMBO-5..7: in the small-Moscow round (asked first) a non-leader may call Stop with a
    small Moscow, in the molodka round with a molodka — by his own hand only."""
    mine = combos(d["hands"][seat], d)
    return ("small_moscow" if d["stop_round"] == "small_moscow" else "molodka") in mine


def refused(d: dict) -> bool:
    """BU-COMBO-5: a molodka Stop is refused when the scheduled leader holds a molodka or a
    small Moscow."""
    return d["stop_round"] == "molodka" and bool(
        combos(d["hands"][d["leader"]], d) & {"molodka", "small_moscow"})


def stop_rounds(rules) -> list[str]:
    """The Stop rounds under the options, in the order they are asked."""
    return ((["small_moscow"] if rules.small_moscow != "off" else [])
            + (["molodka"] if rules.molodka_stop else []))


def scheduled_leader(d: dict) -> int:
    """The scheduled leader of the last check point (BU-LEAD-1..3): the last trick's winner,
    or the deal's first leader before any trick."""
    return d["last_trick_taker"] if d["tricks"] else d["first_leader"]


def stops_on(rules) -> bool:
    return rules.molodka_stop or rules.small_moscow != "off"


# --- playing -------------------------------------------------------------------------------

OPTION_SETS = [
    {},
    {"num_players": 3},
    {"num_players": 4},
    {"facedown_discards": "choice"},
    {"facedown_discards": "off", "num_players": 3},
    {"false_claim_penalty": "single", "end_without_claim": "void"},
    {"molodka_stop": True},
    {"molodka_stop": True, "moscow": "three_aces", "small_moscow": "three_sixes_with_trump"},
    {"molodka_stop": True, "num_players": 4, "moscow": "three_aces_with_trump",
     "small_moscow": "three_tens_with_trump"},
    {"molodka_stop": True, "num_players": 3, "small_moscow": "three_sixes_with_trump",
     "initial_combo_redeal": False},
    {"initial_combo_redeal": False, "double_bura": "void_deal", "num_players": 3},
    {"initial_combo_redeal": False, "bura_timing": "own_lead", "num_players": 4},
    {"molodka_stop": True, "bura_timing": "own_lead", "num_players": 3},
]
STOP_SETS = [o for o in OPTION_SETS if o.get("molodka_stop") or o.get("small_moscow")]
seeds = st.integers(min_value=0, max_value=2**63 - 1)
option_sets = st.sampled_from(OPTION_SETS)


def random_policy(state, d: dict, legal: list[int], rnd: random.Random) -> int:
    """Claim with probability CLAIM_P, call Stop with STOP_P, else uniform."""
    if CLAIM in legal:
        others = [a for a in legal if a != CLAIM]
        return CLAIM if not others or rnd.random() < CLAIM_P else rnd.choice(others)
    stops = [a for a in legal if a >> 40 == 6]
    if stops and rnd.random() < STOP_P:
        return stops[0]
    return rnd.choice(legal)


def good_claims_policy(state, d: dict, legal: list[int], rnd: random.Random) -> int:
    """Claims half the time when the leader's whole pile has 31 or more, else rarely."""
    if CLAIM in legal and points(pile(d, d["to_move"])) >= 31 and rnd.random() < 0.5:
        return CLAIM
    return random_policy(state, d, legal, rnd)


def play(opts: dict, seed: int, rnd_seed: int, policy=random_policy, mode: str = "deal"):
    """Play one deal (or match) with ``policy``; returns (game, steps, final state), steps =
    [(before dict, legal, action, after dict)]."""
    game = load_game("bura", **opts)
    state = game.new_deal(seed=seed) if mode == "deal" else game.new_match(seed=seed)
    rnd = random.Random(rnd_seed)
    steps = []
    d = state.to_dict()
    while not state.is_terminal():
        legal = state.legal_actions()
        a = policy(state, d, legal, rnd)
        state.apply_action(a)
        after = state.to_dict()
        steps.append((d, legal, a, after))
        d = after
        assert len(steps) < 5000, "the deal does not end"
    return game, steps, state


# --- the checkers (each returns how many times it checked something) ------------------------

def check_tricks(game, steps) -> Counter:
    """BU-RESP-5 (and BU-RESP-4's top): follow each trick from the actions; when its last
    answer is played, the holder's piles gain exactly its face-up / face-down cards."""
    n = game.num_players
    seen = Counter()
    trick = None
    for before, legal, a, after in steps:
        kind, cards = decode(a)
        if kind == "stop" and after["phase"] == "lead":
            continue        # a refused Stop (BU-COMBO-5): no trick, the leader leads
        if kind in ("lead", "stop"):
            assert trick is None
            trick = {"leader": before["to_move"], "holder": before["to_move"], "top": cards,
                     "up": list(cards), "down": [], "answers": 0}
            assert after["trick"]["leader"] == trick["leader"], "the trick's leader"
            continue
        if kind not in ("beat", "throw_down", "throw_up"):
            continue
        assert trick is not None, "an answer without a lead"
        trick["answers"] += 1
        if kind == "beat":
            trick["holder"], trick["top"] = before["to_move"], cards
        (trick["down"] if kind == "throw_down" else trick["up"]).extend(cards)
        if trick["answers"] < n - 1:
            assert after["trick"]["holder"] == trick["holder"], "BU-RESP-4: the holder"
            assert after["trick"]["top"] == sorted(trick["top"], key=CARDS.index), "the top"
            continue
        holder = trick["holder"]
        for seat in range(n):
            gained_up = set(after["piles"][seat]["up"]) - set(before["piles"][seat]["up"])
            gained_down = set(after["piles"][seat]["down"]) - set(before["piles"][seat]["down"])
            want_up = set(trick["up"]) if seat == holder else set()
            want_down = set(trick["down"]) if seat == holder else set()
            assert (gained_up, gained_down) == (want_up, want_down), (
                f"BU-RESP-5: trick {trick} should go to seat {holder}; seat {seat} gained "
                f"up {sorted(gained_up)}, down {sorted(gained_down)}")
        assert after["last_trick_taker"] == holder
        seen["tricks"] += 1
        seen["tricks beaten"] += holder != trick["leader"]
        seen["tricks with face-down cards"] += bool(trick["down"])
        trick = None
    return seen


def check_drawing(game, steps) -> Counter:
    """BU-DRAW-1/2: while undrawn the trump card is the stock's last card; after a trick the
    players draw one at a time clockwise from its winner until each holds 3 or the stock is
    empty, so whoever draws the trump card holds it."""
    n = game.num_players
    seen = Counter()
    for before, legal, a, after in steps:
        for d in (before, after):
            if d["trump_card"] in d["stock"]:
                assert d["stock"][-1] == d["trump_card"], "BU-DRAW-2: trump card not last"
        kind, cards = decode(a)
        if before["phase"] != "answer" or after["trick"] is not None \
                or after["tricks"] == before["tricks"]:
            continue
        # the trick's last answer: take the cards out, then draw by the rules
        hands = [list(h) for h in before["hands"]]
        for c in cards:
            hands[before["to_move"]].remove(c)
        stock = list(before["stock"])
        seat = after["last_trick_taker"]
        while stock and len(hands[seat]) < 3:
            card = stock.pop(0)
            hands[seat].append(card)
            if card == before["trump_card"]:
                seen["trump card drawn"] += 1
                assert before["trump_card"] in after["hands"][seat], (
                    f"BU-DRAW-2: seat {seat} drew the trump card {card}")
            seat = (seat + 1) % n
        assert after["stock"] == stock, "BU-DRAW-1: the stock after drawing"
        assert after["hands"] == [sorted(h, key=CARDS.index) for h in hands], (
            f"BU-DRAW-1: hands after drawing from {before['stock']}")
        seen["drawing phases"] += 1
    return seen


def check_hand_sizes(game, steps) -> Counter:
    """BU-DRAW-3: at every check point the hands are equal, 3 each while the stock has cards;
    during a trick, hand + cards played are equal; the stock stays a multiple of n."""
    n = game.num_players
    seen = Counter()
    for d in [s[0] for s in steps[:1]] + [s[3] for s in steps]:
        sizes = [len(h) for h in d["hands"]]
        assert len(d["stock"]) % n == 0
        if d["phase"] in CHECK_PHASES:
            assert len(set(sizes)) == 1, f"BU-DRAW-3: hand sizes {sizes} at a check point"
            assert not d["stock"] or sizes[0] == 3, f"hand sizes {sizes} with a stock"
            seen["check points"] += 1
            seen["check points with empty stock"] += not d["stock"]
        elif d["phase"] == "answer":
            played = [len(p) for p in d["trick"]["played"]]
            assert len({s + p for s, p in zip(sizes, played)}) == 1, (sizes, played)
    return seen


def check_piles_grow(game, steps) -> Counter:
    """Within a deal, nothing ever leaves a pile (face-up or face-down)."""
    seen = Counter()
    for before, legal, a, after in steps:
        if after["deal_number"] != before["deal_number"]:
            continue
        for b, c in zip(before["piles"], after["piles"]):
            assert set(b["up"]) <= set(c["up"]) and set(b["down"]) <= set(c["down"]), (
                f"a pile shrank: {b} -> {c} after {decode(a)}")
            seen["pile growth"] += (len(c["up"]) + len(c["down"])) > (len(b["up"]) + len(b["down"]))
    return seen


def check_claims(game, steps) -> Counter:
    """BU-CLAIM-1..3: a claim is legal only for the scheduled leader before his lead; its
    result follows his pile (face-down cards included): 31+ wins (x1), else the others win
    (x2, or x1 with ``false_claim_penalty=single``)."""
    n = game.num_players
    seen = Counter()
    for before, legal, a, after in steps:
        if CLAIM in legal:
            assert before["phase"] in ("check", "claim") and before["trick"] is None
            assert before["to_move"] == before["leader"] == scheduled_leader(before)
        if a != CLAIM:
            continue
        seat = before["to_move"]
        total = points(pile(before, seat))
        result = after["result"] if after["deal_number"] == before["deal_number"] else None
        if result is None:      # a match went on to its next deal: the scores tell the result
            continue
        assert result["claim_points"] == total
        if total >= 31:
            assert (result["kind"], result["winners"], result["multiplier"]) == (
                "claim_won", [seat], 1), (total, result)
            seen["claims won"] += 1
        else:
            mult = 2 if game.rules.false_claim_penalty == "double" else 1
            assert (result["kind"], result["winners"], result["multiplier"]) == (
                "claim_lost", [q for q in range(n) if q != seat], mult), (total, result)
            seen["claims lost"] += 1
    return seen


def check_result(game, steps, state) -> Counter:
    """BU-END-1..3, BU-COMBO-1..3, BU-EX-15: the final position of a deal shows why it ended,
    and the winners, the multiplier and the returns fit its kind."""
    n = game.num_players
    rules = game.rules
    seen = Counter()
    d = state.to_dict()
    result = d["result"]
    kind, winners, mult = result["kind"], result["winners"], result["multiplier"]
    everyone = list(range(n))
    played_out = not d["stock"] and not any(d["hands"])
    totals = [points(pile(d, q)) for q in everyone]
    trumps = [[c for c in h if c[1] == d["trump_card"][1]] for h in d["hands"]]
    buras = [q for q in everyone if len(trumps[q]) == 3 and (
        rules.bura_timing == "any_check_point" or q == d["leader"])]
    moscows = [q for q in everyone if "moscow" in combos(d["hands"][q], d)]
    claimed = bool(steps) and steps[-1][2] == CLAIM
    if played_out:
        assert sum(totals) == 120, f"BU-EX-15: all cards in the piles, {totals} points"
        assert state.score_breakdown()["points"] == totals
        seen["deals played out"] += 1
    if kind in ("claim_won", "claim_lost"):
        assert claimed, "a claim result without a claim"
    elif kind == "moscow":
        assert winners == moscows and mult == 1, f"BU-COMBO-1: {result}, hands {d['hands']}"
        seen["moscow"] += 1
    elif kind == "bura":
        assert winners and winners[0] in buras and mult == 1 and len(winners) == 1, (d, buras)
        if len(buras) > 1:
            assert rules.double_bura == "higher_top_card"
            top = {q: max(CARDS.index(c) for c in trumps[q]) for q in buras}
            assert winners == [max(buras, key=top.get)], "BU-COMBO-3: the higher top trump"
            seen["double bura"] += 1
        assert not moscows, "BU-COMBO-1: Moscow wins before bura"
        seen["bura"] += 1
    elif kind == "most_points":
        assert played_out and not claimed and rules.end_without_claim == "most_points"
        best = max(totals)
        assert totals.count(best) == 1 and winners == [totals.index(best)] and mult == 1
        if n == 2:
            assert best >= 60, "BU-EX-15: with 2 players the top pile has at least 60"
        seen["most points"] += 1
    elif kind == "void":
        assert winners == [] and mult == 0
        if played_out and not claimed:
            assert rules.end_without_claim == "void" or totals.count(max(totals)) > 1
        else:
            assert len(buras) > 1 and rules.double_bura == "void_deal", "a void deal needs a cause"
            seen["double bura"] += 1
        seen["void"] += 1
    else:
        raise AssertionError(f"unknown result kind {kind}")
    if kind in ("bura", "moscow", "most_points") or kind == "void" and not played_out:
        assert not claimed
    ret = state.returns()
    if kind == "void":
        assert ret == [0.0] * n
    else:
        losers = [q for q in everyone if q not in winners]
        for q in losers:
            assert ret[q] == -mult
        for q in winners:
            assert abs(ret[q] - mult * len(losers) / len(winners)) < 1e-9
    seen[f"result {kind}"] += 1
    return seen


def check_stop_rounds(game, steps) -> Counter:
    """BU-COMBO-4..7: after a declined claim (Stop options on) every non-leader is asked, in
    clockwise order from the leader's left, in the small-Moscow round and then the molodka
    round, until one calls Stop; Stop is legal exactly for the eligible by their own hand; pass
    always; a refused molodka Stop shows the leader's hand and he leads. Without Stop options no
    Stop round happens, and the separate claim decision comes only when every card is
    played."""
    n = game.num_players
    seen = Counter()
    expect = None       # the seats still to be asked, in order
    for before, legal, a, after in steps:
        kind, cards = decode(a)
        if before["phase"] == "stop":
            assert stops_on(game.rules)
            assert expect, "a Stop decision outside a Stop round"
            seat = before["to_move"]
            assert (before["stop_round"], seat) == expect.pop(0), "BU-COMBO-7: the order"
            assert (1 << 40) * 7 in legal, "pass is always legal"
            stop = [x for x in legal if x >> 40 == 6]
            assert bool(stop) == may_stop(before, seat), (
                f"Stop legal={bool(stop)} for seat {seat} holding {before['hands'][seat]}, "
                f"leader {before['leader']} holding {before['hands'][before['leader']]}")
            if stop:
                assert decode(stop[0])[1] == before["hands"][seat]
                seen["stop offered"] += 1
            if kind == "stop" and refused(before):
                leader = before["leader"]
                assert after["phase"] == "lead" and after["to_move"] == leader
                assert after["revealed"][leader] == before["hands"][leader]
                seen["stops refused"] += 1
                expect = None
            elif kind == "stop":
                assert after["trick"]["leader"] == seat and after["trick"]["k"] == 3
                assert after["to_move"] == (seat + 1) % n
                seen["stops called"] += 1
                expect = None
            elif not expect:
                assert after["phase"] == "lead" and after["to_move"] == before["leader"]
                assert all(x >> 40 == 0 for x in after_legal(game, after))
                seen["stop rounds all passed"] += 1
                expect = None
            continue
        assert not expect, f"the Stop round stopped early: {expect} not asked"
        if before["phase"] == "claim" and kind == "no_claim" and any(before["hands"]):
            assert stops_on(game.rules), "a separate claim decision without Stop options"
            leader = before["leader"]
            expect = [(r, (leader + i) % n) for r in stop_rounds(game.rules) for i in range(1, n)]
            assert after["phase"] == "stop" and (after["stop_round"], after["to_move"]) == expect[0]
            seen["stop rounds"] += 1
    return seen


def after_legal(game, d: dict) -> list[int]:
    return game.from_dict(d).legal_actions()


def check_world(game, truth: dict, player: int, sample_seeds) -> Counter:
    """Rules §5 on the worlds ``sample_world(player, s)`` of the position ``truth``: at no check
    point so far (the deal's history) did a hand hold a bura that wins there (with
    ``bura_timing=own_lead``: the scheduled leader's only) or an enabled Moscow; before the
    first trick (``initial_combo_redeal``) no active combination at all (the conformance
    suite's Bura adapter, ``cardsim.games.bura.conformance.world_ok``); and the player to move
    has the same legal actions as in the truth (they are part of what he knows)."""
    seen = Counter()
    state = game.from_dict(truth)
    legal = state.legal_actions()
    for s in sample_seeds:
        world = state.sample_world(player, seed=s)
        w = world.to_dict()
        assert w["history"] is not None and len(w["history"]) == w["tricks"]
        assert bura_world_ok(w), (
            f"sample_world({player}, seed={s}) gives a hand a combination at a check point "
            f"passed: world {w}; truth {truth}")
        if player == truth["to_move"]:
            assert world.legal_actions() == legal, (
                f"sample_world({player}, seed={s}) offers the player to move "
                f"{[decode(a) for a in world.legal_actions()]}, the truth "
                f"{[decode(a) for a in legal]}; truth {truth}")
            seen["worlds of the player to move"] += 1
        seen["worlds"] += 1
        seen["worlds mid-trick"] += w["trick"] is not None
        seen["worlds after a trick"] += w["tricks"] > 0
    return seen


def trump_thrown_by_other(d: dict, player: int) -> bool:
    """Has another player thrown the trump card face down? (Those worlds' cards are checked
    by the conformance suite, test_every_game.py.)"""
    return any(d["trump_card"] in t for q, t in enumerate(d["thrown_down"]) if q != player)


def check_sampled_worlds(game, steps, sample_seeds=(0, 1)) -> Counter:
    """:func:`check_world` for every player at every other position of a playout."""
    seen = Counter()
    for i, (before, legal, a, after) in enumerate(steps):
        if i % 2 == 0:
            for player in range(game.num_players):
                if not trump_thrown_by_other(before, player):
                    seen += check_world(game, before, player, sample_seeds)
    return seen


# --- the properties ------------------------------------------------------------------------

@settings(max_examples=40, **SETTINGS)
@given(seed=seeds, rnd_seed=seeds, opts=option_sets)
def test_trick_goes_to_last_beater_or_leader(seed, rnd_seed, opts):
    """BU-RESP-5, BU-RESP-4."""
    game, steps, _ = play(opts, seed, rnd_seed)
    check_tricks(game, steps)


@settings(max_examples=40, **SETTINGS)
@given(seed=seeds, rnd_seed=seeds, opts=option_sets)
def test_drawing_and_the_trump_card(seed, rnd_seed, opts):
    """BU-DRAW-1, BU-DRAW-2."""
    game, steps, _ = play(opts, seed, rnd_seed)
    check_drawing(game, steps)


@settings(max_examples=40, **SETTINGS)
@given(seed=seeds, rnd_seed=seeds, opts=option_sets, mode=st.sampled_from(["deal", "match"]))
def test_hands_equal_at_check_points_and_piles_grow(seed, rnd_seed, opts, mode):
    """BU-DRAW-3; piles only grow within a deal (matches too, deal by deal)."""
    game, steps, _ = play(opts, seed, rnd_seed, mode=mode)
    check_hand_sizes(game, steps)
    check_piles_grow(game, steps)


@settings(max_examples=40, **SETTINGS)
@given(seed=seeds, rnd_seed=seeds, opts=option_sets)
def test_pack_has_120_points_and_results_fit_their_kind(seed, rnd_seed, opts):
    """BU-EX-15, BU-END-1..3, BU-COMBO-1..3: no claim before the last check point, so most
    deals are played out (or end with a bura / Moscow)."""
    def no_early_claims(state, d, legal, rnd):
        if any(d["hands"]):
            legal = [a for a in legal if a != CLAIM] or legal
        return random_policy(state, d, legal, rnd)

    game, steps, state = play(opts, seed, rnd_seed, policy=no_early_claims)
    check_result(game, steps, state)


@settings(max_examples=40, **SETTINGS)
@given(seed=seeds, rnd_seed=seeds, opts=option_sets)
def test_claim_result_matches_pile_points(seed, rnd_seed, opts):
    """BU-CLAIM-1..3, BU-END-3."""
    game, steps, state = play(opts, seed, rnd_seed, policy=good_claims_policy)
    check_claims(game, steps)
    check_result(game, steps, state)


@settings(max_examples=25, **SETTINGS)
@given(seed=seeds, rnd_seed=seeds, opts=option_sets)
def test_sampled_worlds_hold_no_combination_of_the_last_check_point(seed, rnd_seed, opts):
    """Rules §5."""
    game, steps, _ = play(opts, seed, rnd_seed)
    check_sampled_worlds(game, steps)


def test_sampled_worlds_after_a_stop():
    """Rules §5 where the trick's leader is not the scheduled leader of the last check point
    (a Stop was called): the scheduled leader's bura still counted there (with
    ``bura_timing=own_lead`` only his), so no world may give him one. Many worlds per position,
    on the first stopped tricks of fixed seeds."""
    checked = 0
    for opts in [{"molodka_stop": True, "bura_timing": "own_lead"},
                 {"molodka_stop": True, "bura_timing": "own_lead", "num_players": 3},
                 {"molodka_stop": True, "small_moscow": "three_sixes_with_trump"}]:
        found = 0
        for seed in range(60):
            game, steps, _ = play(opts, seed, seed)
            for before, legal, a, after in steps:
                if before["phase"] == "answer" and \
                        before["trick"]["leader"] != scheduled_leader(before):
                    for player in range(game.num_players):
                        if player != scheduled_leader(before) and \
                                not trump_thrown_by_other(before, player):
                            checked += check_world(game, before, player, range(150))["worlds"]
                    found += 1
                    break
            if found >= 3:
                break
        assert found >= 3, f"{opts}: {found} stopped trick(s) in seeds 0..59, 3 wanted"
    assert checked > 0, "no stopped trick met"


def test_sampled_worlds_keep_the_stop_decision():
    """Rules §5: a non-leader holding a molodka knows whether he may call Stop (BU-COMBO-5: not
    if the scheduled leader holds a molodka or a small Moscow), so his worlds must offer him
    the same decision. Many worlds per position, on Stop decisions of fixed seeds."""
    checked = 0
    for opts in [{"molodka_stop": True, "num_players": 3},
                 {"molodka_stop": True, "small_moscow": "three_sixes_with_trump"}]:
        found = 0
        for seed in range(200):
            game, steps, _ = play(opts, seed, seed)
            for before, legal, a, after in steps:
                mover = before["to_move"]
                if before["phase"] == "stop" and "molodka" in combos(before["hands"][mover],
                                                                     before):
                    if not trump_thrown_by_other(before, mover):
                        checked += check_world(game, before, mover, range(40))["worlds"]
                        found += 1
            if found >= 4:
                break
        assert found >= 4, (f"{opts}: {found} Stop decision(s) with a molodka in seeds "
                            "0..199, 4 wanted")
    assert checked > 0, "no Stop decision with a molodka met"


@settings(max_examples=40, **SETTINGS)
@given(seed=seeds, rnd_seed=seeds, opts=st.sampled_from(STOP_SETS + [{}, {"num_players": 4}]))
def test_stop_round_asks_every_non_leader_in_turn(seed, rnd_seed, opts):
    """BU-COMBO-4..7."""
    game, steps, _ = play(opts, seed, rnd_seed)
    check_stop_rounds(game, steps)


def test_every_property_is_exercised():
    """On fixed seeds each checker meets what it is about (so no property holds vacuously)."""
    seen = Counter()
    for i, opts in enumerate(OPTION_SETS):
        for k in range(6):
            seed = 7919 * i + k
            game, steps, state = play(opts, seed, seed)
            for check in (check_tricks, check_drawing, check_hand_sizes, check_piles_grow,
                          check_claims, check_stop_rounds):
                seen += check(game, steps)
            seen += check_result(game, steps, state)
            if k == 0:
                seen += check_sampled_worlds(game, steps, sample_seeds=(0,))
            game, steps, state = play(opts, seed, seed + 1, policy=good_claims_policy)
            seen += check_claims(game, steps)
    for what in ("tricks", "tricks beaten", "tricks with face-down cards", "trump card drawn",
                 "drawing phases", "check points", "check points with empty stock",
                 "pile growth", "claims won", "claims lost", "bura", "most points",
                 "result claim_lost", "stop rounds", "stop offered", "stops called",
                 "stop rounds all passed", "worlds", "worlds mid-trick",
                 "worlds of the player to move"):
        assert seen[what] > 0, f"never met: {what} ({dict(seen)})"

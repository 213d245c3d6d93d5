"""The Bura heuristic player (cardsim/games/bura/heuristic.py): strength, information, rules.

* It beats the random player (uniform over the legal actions, claiming with probability 0.1
  where a claim is legal, as ``kernels.play_random_deals`` does) on duplicate deals: every
  seeded deal is played twice, the heuristic in seat 0 then in seat 1, the other seats random.
* It never reads hidden cards (rules §5): on positions of random playouts it makes the same
  choice on the true state and on worlds sampled for the player to move, with the same rng.
* Each rule H1..H6 of the module docstring makes its choice on a hand-made position.
* Its index is always in range, under every option of rules/bura.md §3.

Games are driven through the kernels of the GameSpec (no Python API in the loop) so that the
statistical tests stay within a few seconds. Positions are built with
``positions.position`` (the cards that matter; the rest spread so that the position is
legal); every card it does not name lies face up in a pile, i.e. is seen.
"""
from __future__ import annotations

import numpy as np
import pytest

from cardsim.compiled.rng import PyRng, rng_from_seed
from cardsim.games.bura.heuristic import choose
from cardsim.stats import mean_interval, wilson_interval
from tests.games.bura.positions import action_id, play, position
from tests.helpers import game_loader
from tests.heuristic_helpers import assert_choice, heuristic_choice

CLAIM_ID = action_id("claim")
RANDOM_CLAIM_P = 0.1
OPTION_SETS = [
    {},
    {"num_players": 3},
    {"num_players": 4},
    {"facedown_discards": "choice", "false_claim_penalty": "single"},
    {"facedown_discards": "off", "end_without_claim": "void"},
    {"molodka_stop": True, "moscow": "three_aces", "small_moscow": "three_sixes_with_trump"},
    {"num_players": 3, "molodka_stop": True, "small_moscow": "three_tens_with_trump",
     "moscow": "three_aces_with_trump", "initial_combo_redeal": False,
     "bura_timing": "own_lead", "double_bura": "void_deal"},
    {"match_format": "wins_to_n", "next_deal_first_leader": "left_of_dealer"},
    {"num_players": 3, "match_format": "penalty_points"},
]
OPTION_IDS = ["default", "3_players", "4_players", "choice", "off", "yard", "3_players_yard",
              "wins_to_n", "penalty_points"]


game = game_loader("bura")




def random_choice(actions, n: int, rng: PyRng) -> int:
    """The random player of ``kernels.play_random_deals``: claims with probability 0.1 where
    a claim is legal, otherwise uniform over its other legal actions."""
    at = next((i for i in range(n) if actions[i] == CLAIM_ID), -1)
    if at < 0:
        return rng.below(n)
    if n == 1 or rng.next() >> 11 < int(RANDOM_CLAIM_P * 2**53):
        return at
    i = rng.below(n - 1)
    return i + 1 if i >= at else i


# --- 1. strength ---------------------------------------------------------------------------

def duplicate_returns(spec, n_deals: int, seed: int) -> np.ndarray:
    """Returns of the heuristic's seat: one row per deal, one column per seating (0, 1)."""
    params = spec.params
    state = np.zeros(spec.state_len, dtype=np.uint64)
    actions = np.empty(spec.max_actions, dtype=np.int64)
    out = np.zeros(spec.n_players)
    results = np.zeros((n_deals, 2))
    for d in range(n_deals):
        for seat in (0, 1):
            spec.new_deal(params, rng_from_seed(seed + d), state)
            own = rng_from_seed(10**6 + seed + d)
            other = PyRng(rng_from_seed(2 * 10**6 + seed + d))
            while not spec.is_terminal(state, params):
                n = spec.legal_actions(state, params, actions)
                if spec.current_player(state, params) == seat:
                    i = choose(state, params, actions, n, own)
                else:
                    i = random_choice(actions, n, other)
                spec.apply_action(state, params, actions[i])
            spec.returns(state, params, out)
            results[d, seat] = out[seat]
    return results


def test_heuristic_wins_most_two_player_deals_against_random():
    """H1-H6 together, 2 players: the heuristic wins more than half of the decided deals, the
    Wilson 95% interval's lower bound above 0.5 (measured on these deals: 0.941 [0.930,
    0.951])."""
    results = duplicate_returns(game().spec, 1000, seed=1)
    wins = int((results > 0).sum())
    losses = int((results < 0).sum())
    share, lo, hi = wilson_interval(wins, wins + losses)
    assert lo > 0.5, (wins, losses, share, lo, hi)


def test_heuristic_gains_against_random_with_three_players():
    """H1-H6 together, 3 players (one heuristic, two random): the heuristic's mean return per
    deal (zero-sum, 0 for a random seat among random seats) is positive, its 95% interval
    excluding 0 (measured on these deals: +1.18 [1.10, 1.26])."""
    results = duplicate_returns(game(num_players=3).spec, 400, seed=1)
    mean, lo, hi = mean_interval(results.mean(axis=1))
    assert lo > 0, (mean, lo, hi)


# --- 2. hidden information -----------------------------------------------------------------

# (The heuristic reads only what the player to move sees: tests/solvers/test_agents.py checks
# it for every game on sampled worlds.)


# --- 3. the rules, one by one --------------------------------------------------------------

def check_position(pile0, down0=(), *, hands=("6c 7c 8c", "6h 7h 9s"), stock_size=12,
                   **kw):
    """Seat 0 is the scheduled leader at a check point (2 players, trump diamonds) with the
    face-up pile ``pile0`` and the face-down cards ``down0`` (thrown by seat 1)."""
    return position(hands=list(hands), leader=0, trump="9d", stock_size=stock_size,
                    piles=[{"up": pile0, "down": list(down0)}, []], fill_seat=1, **kw)


def test_h1_claim_with_31_face_up():
    """H1, BU-CLAIM-1: 11 + 10 + 4 + 3 + 2 + 2 = 32 points face up: claim."""
    s = game().from_dict(check_position("As Ts Kc Qc Js Jh"))
    assert_choice(s, "claim")


def test_h1_no_claim_on_unseen_face_down_cards():
    """H1, BU-CLAIM-2, rules §5: 27 points face up and two face-down cards (in truth Tc and
    Ah: the claim would win) that could be zero-point cards: no claim, a lead instead."""
    s = game().from_dict(check_position("As Ts Kc Js", down0=["Tc", "Ah"]))
    assert heuristic_choice(s).startswith("lead ")
    play(s, "claim")
    assert s.to_dict()["result"]["kind"] == "claim_won"


@pytest.mark.parametrize("stock_card,expected", [("Qs", "claim"), ("6s", "lead 6c")])
def test_h1_face_down_cards_counted_at_their_lowest(stock_card, expected):
    """H1, BU-CLAIM-1: 29 points face up and one face-down card (Jh). Every zero-point card
    but the stock's first card is seen: when that card is Qs, the face-down card is worth at
    least 2 (a jack) and 29 + 2 = 31 is sure: claim; when it is 6s, it could be worth 0:
    lead low instead."""
    s = game().from_dict(check_position("As Ts Kc Jc Jd", down0=["Jh"],
                                        hands=("6c 7c 8c", "Js Qh Kh"),
                                        stock=[stock_card], stock_size=2))
    assert_choice(s, expected)


@pytest.mark.parametrize("down,expected", [(["Ts", "6c"], "claim"), (["7c", "6c"], "no_claim")])
def test_h1_last_check_point_counts_what_the_face_down_cards_can_be(down, expected):
    """H1, BU-END-2: every card played; seat 0 has 22 points face up and two face-down cards.
    All other cards are seen, so the two are known to be the two unseen cards: with Ts they
    make 32 (claim), with 7c 6c only 22 (no claim: the most points decide)."""
    s = game().from_dict(check_position("As Kc Qc Jh Jc", down0=down, hands=([], []),
                                        stock_size=0, phase="claim"))
    assert_choice(s, expected)


def stop_position(leader_hand, my_hand):
    """2 players, trump diamonds (turned Kd), stock empty: seat 0 is the scheduled leader,
    seat 1 holds a molodka; after seat 0's ``no_claim`` seat 1 may call Stop."""
    s = game(molodka_stop=True).from_dict(
        position(hands=[leader_hand, my_hand], leader=0, trump="Kd", phase="claim"))
    return play(s, "no_claim")


@pytest.mark.parametrize("leader_hand,my_hand,expected", [
    ("7c 9d Kd", "Qs Ts Ks", "stop Qs+Ks+Ts"),   # 17 points, at most two beaters unseen
    ("As 9d Kd", "6s 7s 8s", "stop 6s+7s+8s"),   # no points at stake
    ("As 9d Kd", "Qs Ts Ks", "pass"),            # 17 points, the leader surely beats them
])
def test_h2_call_stop(leader_hand, my_hand, expected):
    """H2, BU-COMBO-5: Stop is called unless the three cards carry 10 points or more and are
    likely to be beaten: here every other card is seen, so seat 1 knows the leader's hand
    (the trump card Kd he drew is public) and how many of its cards beat his."""
    assert_choice(stop_position(leader_hand.split(), my_hand.split()), expected)


def test_h3_lead_a_strong_plain_pair():
    """H3, BU-LEAD-4, BU-RESP-3: early in the deal As alone is likely trumped, but As+Ts
    needs two trumps in one hand (about 1 chance in 5): lead the pair, 21 points."""
    s = game().from_dict(position(hands=["As Ts 6c", "7h 8h 9c"], leader=0, trump="9d",
                                  stock_size=24))
    assert_choice(s, "lead Ts+As")


def test_h3_cash_a_master():
    """H3, BU-RESP-2: every trump is seen (in the piles or the turned 9d at the bottom of the
    stock), so nothing beats As: lead it."""
    s = game().from_dict(position(hands=["As 6c 7c", "7h 8h 9c"], leader=0, trump="9d",
                                  stock_size=6,
                                  piles=["6d 7d 8d Jd", "Qd Kd Td Ad"]))
    assert_choice(s, "lead As")


def test_h4_lead_low():
    """H4: no strong plain set (Ts alone is likely beaten; Ad is a trump): lead 7c and keep
    the trump ace and the ten."""
    s = game().from_dict(position(hands=["Ad Ts 7c", "7h 8h 9c"], leader=0, trump="9d",
                                  stock_size=24))
    assert_choice(s, "lead 7c")


def answer_position(lead, my_hand, **options):
    """2 players, trump diamonds (turned 9d, still in the stock): seat 0 has led ``lead`` and
    seat 1 holding ``my_hand`` answers."""
    return game(**options).from_dict(
        position(hands=["7h 8h", my_hand], leader=0, trump="9d", stock_size=12,
                 trick={"leader": 0, "top": [lead]}))


@pytest.mark.parametrize("lead,my_hand,expected", [
    ("6s", "7s Kd Kc", "beat 7s"),        # a plain beat costs nothing
    ("6s", "7s As 8c", "beat As"),        # of two plain beats, bank the ace
    ("8s", "6d 7c Jh", "throw_down 7c"),  # nothing at stake: keep the trump
    ("Ts", "6d 7c Jh", "beat 6d"),        # a ten at stake: trump it
    ("Ts", "Ad 6d 7c", "beat 6d"),        # with the lowest trump
    ("8s", "6d Th Ac", "beat 6d"),        # the cheapest throw would give away 10
])
def test_h5_beat_cheaply(lead, my_hand, expected):
    """H5, BU-RESP-2, BU-RESP-7: plain beats are made, trumps spent only with 10 points at
    stake, and the beat is the cheapest."""
    assert_choice(answer_position(lead, my_hand), expected)


@pytest.mark.parametrize("facedown,expected", [
    ("always", "throw_down 6c"), ("choice", "throw_down 6c"), ("off", "throw_up 6c")])
def test_h6_throw_low_face_down(facedown, expected):
    """H6, BU-RESP-6: Ah cannot be beaten without trumps and none is held: throw the lowest
    card, face down when the rules allow."""
    assert_choice(answer_position("Ah", "6c Ks Qh", facedown_discards=facedown), expected)


# --- 4. always legal -----------------------------------------------------------------------

@pytest.mark.parametrize("options", OPTION_SETS, ids=OPTION_IDS)
def test_choice_is_always_a_legal_index(options):
    """Every decision of whole deals (heuristic in every seat, or against random) returns an
    index into the legal actions, in deal and match mode."""
    spec = game(**options).spec
    params = spec.params
    state = np.zeros(spec.state_len, dtype=np.uint64)
    actions = np.empty(spec.max_actions, dtype=np.int64)
    decisions = 0
    for d in range(30):
        start = spec.new_match if d % 3 == 2 else spec.new_deal
        start(params, rng_from_seed(500 + d), state)
        rng = rng_from_seed(600 + d)
        other = PyRng(rng_from_seed(700 + d))
        while not spec.is_terminal(state, params):
            n = spec.legal_actions(state, params, actions)
            i = choose(state, params, actions, n, rng)
            assert 0 <= i < n
            if d % 2 and spec.current_player(state, params) != 0:
                i = random_choice(actions, n, other)
            spec.apply_action(state, params, actions[i])
            decisions += 1
    assert decisions > 200

"""The Scopa heuristic player (cardsim/games/scopa/heuristic.py): strength, information, rules.

* It beats the random player (uniform over the legal actions) on duplicate deals: every seeded
  deal is played twice, the heuristic's side in seat 0 then in seat 1, and the deal's margin is
  the mean of the two (2 players, and 2x2 with both partners heuristic).
* It never reads hidden cards (rules §5): on positions of random playouts it makes the same
  choice on the true state and on worlds sampled for the player to move, with the same rng.
* Each rule H1..H5 of the module docstring makes its choice on a hand-made position.
* Its index is always in range, under every option of rules/scopa.md §3.

Games are driven through the kernels of the GameSpec (no Python API in the loop) so that the
statistical tests stay within a few seconds.
"""
from __future__ import annotations

import numpy as np
import pytest

from cardsim.compiled.rng import PyRng, rng_from_seed
from cardsim.games.scopa.heuristic import choose
from cardsim.stats import mean_interval
from tests.games.scopa.positions import position
from tests.helpers import game_loader
from tests.heuristic_helpers import assert_choice

OPTION_SETS = [
    {},
    {"num_players": 4},
    {"num_players": 4, "four_player_deal": "nine_at_once"},
    {"equal_card_priority": False, "last_move_scopa_counts": True,
     "primiera_missing_suit": "forfeit", "leftover_to_last_capturer": False,
     "redeal_kings_on_table": "off"},
]


game = game_loader("scopa")


# Stocks for the rule tests (every card not named goes to the piles, i.e. is seen): the four
# knights unseen, or only plain low cards.
KNIGHTS_IN_STOCK = ["Cco", "Ccu", "Csw", "Cba", "2sw", "3sw"]
PLAIN_STOCK = ["2sw", "3sw", "4sw", "2cu", "3cu", "4cu"]




# --- 1. strength ---------------------------------------------------------------------------

def duplicate_margins(spec, n_deals: int, seed: int) -> np.ndarray:
    """Per deal: the heuristic side's point margin, averaged over the two seatings."""
    params = spec.params
    state = np.zeros(spec.state_len, dtype=np.uint64)
    actions = np.empty(spec.max_actions, dtype=np.int64)
    out = np.zeros(spec.n_players)
    margins = np.zeros(n_deals)
    for d in range(n_deals):
        for side in (0, 1):
            spec.new_deal(params, rng_from_seed(seed + d), state)
            own = rng_from_seed(10**6 + seed + d)
            other = PyRng(rng_from_seed(2 * 10**6 + seed + d))
            while not spec.is_terminal(state, params):
                n = spec.legal_actions(state, params, actions)
                if spec.current_player(state, params) & 1 == side:
                    i = choose(state, params, actions, n, own)
                else:
                    i = other.below(n)
                spec.apply_action(state, params, actions[i])
            spec.returns(state, params, out)
            margins[d] += out[side] / 2
    return margins


@pytest.mark.parametrize("options,n_deals", [({}, 1000), ({"num_players": 4}, 400)],
                         ids=["2_players", "2x2"])
def test_heuristic_beats_random_on_duplicate_deals(options, n_deals):
    """H1-H5 together: the heuristic's mean point margin per deal over the random player is
    positive, its 95% interval excluding 0 (measured on these deals: +1.97 [1.86, 2.07] points
    a deal with 2 players, +2.27 [2.10, 2.44] in 2x2)."""
    margins = duplicate_margins(game(**options).spec, n_deals, seed=1)
    mean, lo, hi = mean_interval(margins)
    assert lo > 0, (mean, lo, hi)


# --- 2. hidden information -----------------------------------------------------------------

# (The heuristic reads only what the player to move sees: tests/solvers/test_agents.py checks
# it for every game on sampled worlds.)


# --- 3. the rules, one by one --------------------------------------------------------------

def test_h1_take_the_scopa():
    """H1, SC-SCOPA-1: 5sw takes 2ba+3ba and clears the table (a scopa), preferred to 2co>2ba,
    which takes a coin and leaves 3ba."""
    s = game().from_dict(position(hands=[["5sw", "2co"], ["Kco", "Kcu"]], table=["2ba", "3ba"],
                                  to_move=0, dealer=1, stock=0))
    assert_choice(s, "5sw>2ba+3ba")


def test_h2_take_the_settebello():
    """H2, SC-SCORE-3: 7sw>7co (the settebello) rather than Kcu>Aco+4cu+5sw (three cards, a
    coin among them), although the 5sw 4cu Aco it leaves sum to 10 and the opponent holds
    two kings to sweep them."""
    s = game().from_dict(position(hands=[["7sw", "Kcu"], ["Kco", "Ksw"]],
                                  table=["7co", "5sw", "4cu", "Aco"], to_move=0, dealer=1,
                                  stock=0))
    assert_choice(s, "7sw>7co")


def test_h3_a_seven_before_a_coin():
    """H3, SC-PRIM-1: 7cu>7sw (two sevens for primiera) rather than 2ba>2co (a coin)."""
    s = game().from_dict(position(hands=[["7cu", "2ba", "4sw"], ["Kco", "Ksw", "Cba"]],
                                  table=["7sw", "2co", "Kba", "Kcu"], to_move=0, dealer=1,
                                  stock=0))
    assert_choice(s, "7cu>7sw")


def test_h3_a_coin_before_more_cards():
    """H3, SC-SCORE-2: with ``equal_card_priority=False`` 4cu may take 4co or 2ba+2sw; the
    coin is worth more than one more card."""
    s = game(equal_card_priority=False).from_dict(
        position(hands=[["4cu"], ["Ksw"]], table=["4co", "2ba", "2sw", "Kba"], to_move=0,
                 dealer=1, stock=0))
    assert_choice(s, "4cu>4co")


@pytest.mark.parametrize("missing", ["zero", "forfeit"])
def test_h3_first_card_of_a_missing_suit(missing):
    """H3, SC-PRIM-2: Jcu may take Jba or Jsw (equal cards); the side's pile has swords but no
    batons, so it takes the baton (under both ``primiera_missing_suit`` options)."""
    pos = position(hands=[["Jcu"], []], table=["Jba", "Jsw", "Kco", "Kcu"], to_move=0,
                   dealer=0, stock=0, piles=[["2sw", "3co", "4cu"], []], fill_side=1)
    assert_choice(game(primiera_missing_suit=missing).from_dict(pos), "Jcu>Jba")


def test_h4_leave_no_sweep():
    """H4, SC-CAPT-4: no capture is possible on [Aba]; discarding Jcu would leave 1 + 8 = 9,
    which any of the four unseen knights sweeps; the coin king leaves 11, which no card
    sweeps."""
    s = game().from_dict(position(hands=[["Kco", "Jcu"], ["Ksw", "Kcu"]], table=["Aba"],
                                  to_move=0, dealer=1, stock=KNIGHTS_IN_STOCK))
    assert_choice(s, "Kco")


def test_h4_no_sweep_when_its_card_is_out():
    """H4, rules §5: the same position with the four knights already captured: nobody can
    sweep 9, so the plain jack goes and the coin king stays in hand."""
    s = game().from_dict(position(hands=[["Kco", "Jcu"], ["Ksw", "Kcu"]], table=["Aba"],
                                  to_move=0, dealer=1, stock=PLAIN_STOCK,
                                  piles=[["Cco", "Ccu"], ["Csw", "Cba"]]))
    assert_choice(s, "Jcu")


def test_h5_discard_neither_seven_nor_coin():
    """H5: nothing can be captured on [Ccu, Jba]; the discard is the plain king, not the
    seven nor the coin (sevens and fives are unseen)."""
    s = game().from_dict(position(hands=[["7cu", "Ksw", "5co"], ["Kco", "Jsw", "Cba"]],
                                  table=["Ccu", "Jba"], to_move=0, dealer=1,
                                  stock=["7sw", "7ba", "5cu", "5sw", "2cu", "3cu"]))
    assert_choice(s, "Ksw")


def test_h5_discard_the_card_whose_rank_is_out():
    """H5, rules §5: of two plain cards worth the same, Jba goes: the other three jacks are
    already captured, so no equal card can take it, while knights are still unseen."""
    s = game().from_dict(position(hands=[["Jba", "Csw"], ["Kco", "Ksw"]],
                                  table=["Kcu", "Kba"], to_move=0, dealer=1,
                                  stock=["Cco", "Ccu", "Cba", "2cu", "3cu", "4cu"],
                                  piles=[["Jco", "Jcu"], ["Jsw"]]))
    assert_choice(s, "Jba")


# --- 4. always legal -----------------------------------------------------------------------

@pytest.mark.parametrize("options", OPTION_SETS,
                         ids=["default", "2x2", "2x2_nine_at_once", "other_options"])
def test_choice_is_always_a_legal_index(options):
    """Every decision of whole deals (heuristic in every seat, or against random) returns an
    index into the legal actions."""
    spec = game(**options).spec
    params = spec.params
    state = np.zeros(spec.state_len, dtype=np.uint64)
    actions = np.empty(spec.max_actions, dtype=np.int64)
    decisions = 0
    for d in range(16):
        spec.new_deal(params, rng_from_seed(500 + d), state)
        rng = rng_from_seed(600 + d)
        other = PyRng(rng_from_seed(700 + d))
        while not spec.is_terminal(state, params):
            n = spec.legal_actions(state, params, actions)
            i = choose(state, params, actions, n, rng)
            assert 0 <= i < n
            if d % 2 and spec.current_player(state, params) & 1:
                i = other.below(n)
            spec.apply_action(state, params, actions[i])
            decisions += 1
    assert decisions >= 16 * 36

"""The Mushka heuristic player (cardsim/games/mushka/heuristic.py): legality, information,
determinism, strength, and its rules H1..H8 one by one.

* Always legal: over whole deals and matches for 3..7 players under several option sets
  (declared stops, the head and overtrump duties, the dealer taking the turned card, a
  discardable ace of spades, low records so that stops happen), every choice is an index into
  the legal actions, and a player holding the ace of spades never passes (MU-EXCH-3: the pass
  is not among his actions).
* Deterministic: the same deal played twice gives the same moves; the choice does not depend
  on the rng words (ties go to the lower card).
* Reads no hidden information (rules §5): on positions of playouts the choice is the same on
  the true state, on worlds sampled for the player to move (``state.sample_world``) and on
  states where hidden cards were moved: two other hands of one size swapped (with their
  discards), a card swapped between another hand and the stock, and the ``ACE_HOLDER`` word
  changed while the ace's place is not public.
* Beats random clearly: on duplicate deals (:func:`cardsim.solvers.duplicate.play_duplicate`, every
  deal once per rotation of the seats, one heuristic against random players), its mean return
  per deal, and its gap to the random players' mean return at the same tables, have 95%
  intervals far above 0, for 3, 4 and 6 players.

Moves are made by the GameSpec's kernels on the state vector (the heuristic is called
directly, as the agents' compiled play-outs call it);
positions for the rule tests are built with ``positions.position`` (the cards that matter,
the rest spread so that the position is legal; an ace of spades not named lies in the stock).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardsim.compiled.rng import PyRng, rng_from_seed
from cardsim.games.mushka.heuristic import choose
from cardsim.games.mushka.layout import (
    ACE_HOLDER,
    BONUS_TAKEN,
    DISCARDS,
    HAND,
    PHASE,
    PHASE_EXCHANGE,
    PLAYED,
    STOCK,
    TRUMP_CARD,
)
from cardsim.solvers.duplicate import deal_returns, margin, play_duplicate
from cardsim.stats import mean_interval
from tests.games.mushka.positions import action_id, position
from tests.helpers import game_loader

PASS_ID = action_id("pass")
AS_BIT = 1 << 12
OPTION_SETS = [
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 5},
    {"num_players": 6},
    {"num_players": 7},
    {"num_players": 4, "stop_mode": "declared", "must_overtrump": True,
     "must_head_trick": True},
    {"num_players": 5, "deck": "36", "dealer_takes_trump_card": True,
     "ace_of_spades_discardable": True},
    {"num_players": 3, "ace_bonus_timing": "end_of_deal", "lone_player": "redeal",
     "start_points": 30},
    {"num_players": 7, "stop_mode": "declared", "overshoot_reset": "start",
     "ace_bonus_timing": "end_of_deal"},
    {"num_players": 6, "deck": "36", "must_overtrump": True, "dealer_takes_trump_card": True},
]
OPTION_IDS = ["3p", "4p", "5p", "6p", "7p", "4p_declared_duties", "5p_36_taken_discardable",
              "3p_end_bonus_redeal_30", "7p_declared_reset", "6p_36_overtrump_taken"]


game = game_loader("mushka")


def heuristic_index(spec, vec, actions, n, seed=0) -> int:
    return int(choose(vec, spec.params, actions, n, rng_from_seed(seed)))


def pick(state, seed: int = 0) -> str:
    """The heuristic's action in ``state`` (a :class:`cardsim.State`), as text."""
    actions = np.array(state.legal_actions(), dtype=np.int64)
    i = heuristic_index(state.game.spec, state.vec, actions, len(actions), seed)
    return state.action_to_string(int(actions[i]))


def low_records(n: int, rnd: PyRng, start: int) -> list[int]:
    """Records near 0 (1..4) for about half the seats, so that stops happen."""
    return [1 + rnd.below(4) if rnd.below(2) else start for _ in range(n)]


def playout_states(options: dict, deals: int, seed: int):
    """Yield (state, actions, n, choice) at every decision of whole deals and matches: the
    heuristic plays seat 0 (every seat in odd deals), random players the rest; a third of the
    deals start from low records, every fourth is a whole match."""
    g = game(**options)
    spec = g.spec
    n_seats = spec.n_players
    actions = np.empty(spec.max_actions, dtype=np.int64)
    for d in range(deals):
        rnd = PyRng(rng_from_seed(seed + d))
        if d % 4 == 3:
            state = g.new_match(seed=seed + d)
        elif d % 3 == 1:
            state = g.new_deal(seed=seed + d,
                               records=low_records(n_seats, rnd, g.rules.start_points))
        else:
            state = g.new_deal(seed=seed + d)
        vec = state.vec
        moves = 0
        while not spec.is_terminal(vec, spec.params) and moves < 400:
            n = spec.legal_actions(vec, spec.params, actions)
            i = heuristic_index(spec, vec, actions, n, seed=d * 1000 + moves)
            yield state, actions, n, i
            seat = spec.current_player(vec, spec.params)
            if seat != 0 and d % 2 == 0:
                i = rnd.below(n)
            spec.apply_action(vec, spec.params, actions[i])
            moves += 1


# --- 1. always legal ---------------------------------------------------------------------------

@pytest.mark.parametrize("options", OPTION_SETS, ids=OPTION_IDS)
def test_choice_is_always_a_legal_index_and_never_a_pass_with_the_ace(options):
    """Every decision of whole deals and matches (heuristic in every seat, or against random)
    is an index into the legal actions; with the ace of spades in hand the exchange choice is
    never a pass (MU-EXCH-3) — the pass is not offered, and the choice is legal."""
    decisions = holder_decisions = 0
    phases = set()
    for state, actions, n, i in playout_states(options, 40, seed=500):
        assert 0 <= i < n, (i, n, state.to_dict())
        vec = state.vec
        phases.add(int(vec[PHASE]))
        if vec[PHASE] == PHASE_EXCHANGE and int(vec[HAND + state.current_player()]) & AS_BIT:
            assert PASS_ID not in actions[:n].tolist()
            assert actions[i] != PASS_ID
            holder_decisions += 1
        decisions += 1
    assert decisions > 300 and holder_decisions > 0
    assert PHASE_EXCHANGE in phases


def test_declared_stops_are_taken():
    """H1: at every stop offer (declared mode, low records) the heuristic stops."""
    offers = 0
    for state, actions, n, i in playout_states(OPTION_SETS[5], 60, seed=900):
        if state.to_dict()["phase"] == "stop":
            assert state.action_to_string(int(actions[i])) == "stop"
            offers += 1
    assert offers > 0


# --- 2. deterministic -------------------------------------------------------------------------

def test_same_deal_same_moves_whatever_the_rng():
    """The same deals played twice give the same moves, and each choice is the same with other
    rng words (ties go to the lower card, no randomness)."""
    def moves(rng_offset):
        out = []
        for state, actions, n, i in playout_states({"num_players": 5}, 12, seed=77):
            j = heuristic_index(state.game.spec, state.vec, actions, n, seed=rng_offset)
            out.append((int(actions[i]), int(actions[j])))
        return out
    first, second = moves(1), moves(2)
    assert [a for a, _ in first] == [a for a, _ in second]
    assert all(a == b for a, b in first) and all(a == b for a, b in second)


# --- 3. hidden information --------------------------------------------------------------------

def perturbed(state, rnd: PyRng):
    """A copy of ``state`` with hidden cards moved (see the module docstring); the player to
    move's own hand, discards and every public word are left alone."""
    vec = state.vec.copy()
    spec = state.game.spec
    me = state.current_player()
    others = [s for s in range(spec.n_players) if s != me]
    size = {s: bin(int(vec[HAND + s])).count("1") for s in others}
    pairs = [(a, b) for a in others for b in others if a < b and size[a] == size[b]
             and bin(int(vec[DISCARDS + a])).count("1") == bin(int(vec[DISCARDS + b])).count("1")]
    if pairs:
        a, b = pairs[rnd.below(len(pairs))]
        for w in (HAND, DISCARDS):
            vec[w + a], vec[w + b] = vec[w + b], vec[w + a]
    stock = int(vec[STOCK])
    holders = [s for s in others if vec[HAND + s]]
    if stock and holders:
        s = holders[rnd.below(len(holders))]
        hand_cards = [c for c in range(52) if int(vec[HAND + s]) >> c & 1]
        stock_cards = [c for c in range(52) if stock >> c & 1]
        x = hand_cards[rnd.below(len(hand_cards))]
        y = stock_cards[rnd.below(len(stock_cards))]
        vec[HAND + s] = np.uint64((int(vec[HAND + s]) & ~(1 << x)) | 1 << y)
        vec[STOCK] = np.uint64((stock & ~(1 << y)) | 1 << x)
    public = (int(vec[TRUMP_CARD]) == 12 or vec[BONUS_TAKEN]
              or any(int(vec[PLAYED + s]) & AS_BIT for s in range(spec.n_players)))
    if not public:
        vec[ACE_HOLDER] = np.uint64(rnd.below(spec.n_players + 1))
    return vec


@pytest.mark.parametrize("options", [OPTION_SETS[1], OPTION_SETS[2], OPTION_SETS[5],
                                     OPTION_SETS[6], OPTION_SETS[8]],
                         ids=["4p", "5p", "4p_declared_duties", "5p_36_taken_discardable",
                              "7p_declared_reset"])
def test_same_choice_whatever_the_hidden_cards(options):
    """Rules §5: the choice is the same on the true state, on two worlds sampled for the
    player to move, and on a state with hidden cards moved and the unpublished ace holder
    changed."""
    spec = game(**options).spec
    rnd = PyRng(rng_from_seed(31))
    checked = 0
    for state, actions, n, i in playout_states(options, 16, seed=300):
        me = state.current_player()
        for k in range(2):
            world = state.sample_world(me, seed=checked * 7 + k)
            assert world.legal_actions() == actions[:n].tolist()
            assert heuristic_index(spec, world.vec, actions, n) == i, state.to_dict()
        assert heuristic_index(spec, perturbed(state, rnd), actions, n) == i, state.to_dict()
        checked += 1
    assert checked > 150


# --- 4. strength against random ----------------------------------------------------------------

def per_deal(table, agent: int):
    """Agent ``agent``'s return per deal, averaged over the rotations."""
    return pd.Series(deal_returns(table, agent))


@pytest.mark.parametrize("num_players,deals,floor", [(4, 600, 2.0), (3, 400, 2.0),
                                                     (6, 400, 0.7)])
def test_heuristic_beats_random_on_duplicate_deals(num_players, deals, floor):
    """H1-H8 together: one heuristic against random players, every deal once per rotation of
    the seats (the same cards). Its mean return per deal (the record written off: +1 a trick,
    -5 a remise, the ace bonus) has a 95% interval whose lower bound is above ``floor``, and
    so has its gap to the random players' mean return at the same tables (Mushka is not
    zero-sum: a random player among random ones does not average 0). Measured on these deals
    (95% intervals): 4 players +3.16 [3.04, 3.29], gap +3.00 [2.84, 3.17]; 3 players +3.76
    [3.56, 3.96], gap +3.01 [2.74, 3.27]; 6 players +1.62 [1.50, 1.74], gap +2.69 [2.55,
    2.82]."""
    agents = ["heuristic"] + ["random"] * (num_players - 1)
    table = play_duplicate(game(num_players=num_players), agents, deals=deals, seed=11)
    mean, lo, hi = margin(table, 0)
    assert lo > floor, (mean, lo, hi)
    randoms = sum(per_deal(table, k) for k in range(1, num_players)) / (num_players - 1)
    gap, lo, hi = mean_interval((per_deal(table, 0) - randoms).to_numpy())
    assert lo > floor, (gap, lo, hi)


# --- 5. the rules, one by one -----------------------------------------------------------------

JUNK = "7c 8c 7d 8d 9c"


def test_h1_stop_at_zero():
    """H1, MU-STOP-4: the seat at 0 is offered the stop and stops."""
    s = game(stop_mode="declared").from_dict(position(
        ["Ah Kh", "7c 8c", "7d 8d", "9c 9d"], trump="Th", tricks_won=[3, 0, 0, 0],
        tricks_played=3, records=[0, 25, 25, 25], start_records=[3, 25, 25, 25],
        leader=0, phase="stop", stop_offer={"seat": 0, "at": "play"},
        played=["Qh Jh 9h", "Tc Jc Qc", "Td Jd Qd", "Kc Kd Ac"], stop_mode="declared"))
    assert pick(s) == "stop"


def test_h2_pass_a_weak_hand():
    """H2, MU-EXCH-5: five low plain cards, two cards left in the stock (the first two seats
    exchanged nine) and an opponent still to come: pass, since two draws cannot make the
    hand worth the remise risk. With the stock full the same hand is exchanged whole (five
    draws are worth playing against three opponents)."""
    s = game().from_dict(position([None, None, JUNK, None], trump="Th", phase="exchange",
                                  decisions=[5, 4, None, None]))
    assert pick(s) == "pass"
    s = game().from_dict(position([JUNK, None, None, None], trump="Th", phase="exchange"))
    assert pick(s) == "exchange 7c+8c+9c+7d+8d"


def test_h2_the_dealer_plays_when_everyone_passed():
    """H2, MU-PASS-3: the same weak hand with the dealer's three opponents passed: he plays
    (and is credited the five tricks)."""
    s = game().from_dict(position([None, None, None, JUNK], trump="Th", phase="exchange",
                                  decisions=["pass", "pass", "pass", None]))
    assert pick(s) != "pass"


def test_h3_exchange_the_low_plain_cards():
    """H3: trumps and the plain ace are kept; the low plain cards go."""
    s = game().from_dict(position(["Ah Kh Ac 8d 7s", None, None, None], trump="Th",
                                  phase="exchange"))
    assert pick(s) == "exchange 7s+8d"


def test_h3_the_ace_of_spades_is_kept():
    """H3, MU-EXCH-4: with the ace of spades and low cards, the low cards are exchanged."""
    s = game().from_dict(position(["As 7c 8d 9d Jh", None, None, None], trump="Th",
                                  phase="exchange"))
    assert pick(s) == "exchange 7c+8d+9d"


def play_position(hand, *, trump="Th", played=None, trick=(), leader=0, **kw):
    """4 players (dealer seat 3), one trick played and won by ``leader``, who led ``trick``;
    the seat after the trick's cards is to move, holding ``hand`` (4 cards)."""
    n = 4
    me = (leader + len(trick)) % n
    hands = [None] * n
    hands[me] = hand
    won = [0] * n
    won[leader] = 1
    return game().from_dict(position(hands, trump=trump, tricks_won=won,
                                     tricks_played=1, played=played, trick=trick,
                                     leader=leader, **kw))


def test_h5_lead_the_trump_ace_when_the_ace_of_spades_cannot_answer():
    """H5, MU-ACE-2: the ace of spades was played: the trump ace is a sure trick, lead it."""
    s = play_position("Ah 7c 8d 9s", played=["Tc", "As", "Jc", "Qc"])
    assert pick(s) == "play Ah"


def test_h5_keep_the_trump_ace_while_the_ace_of_spades_is_live():
    """H5, MU-ACE-2: the ace of spades is unseen (it may answer a led trump ace): the trump
    ace is kept, a low plain card led instead."""
    s = play_position("Ah 7c 8d 9s", played=["Tc", "Qs", "Jc", "Qc"])
    assert pick(s) != "play Ah"


def test_h6_lead_a_strong_plain_card():
    """H6: the plain ace of clubs is led (the king of hearts is a trump under the unseen ace).
    Had three more clubs been played, the others would likely be void and trump it: then a
    low card is led instead."""
    s = play_position("Kh Ac 8d 9s", played=["Td", "Qs", "Jd", "Qd"])
    assert pick(s) == "play Ac"
    s = play_position("Kh Ac 8d 9s", played=["Tc", "Qs", "Jc", "Qc"])
    assert pick(s) == "play 8d"


def test_h7_lead_low_from_the_shortest_suit():
    """H7: nothing strong: the lowest card of the shortest plain suit (a void to trump)."""
    s = play_position("7h 8d 9d 8s", played=["Tc", "Qs", "Jc", "Qc"])
    assert pick(s) == "play 8s"


def test_h8_the_last_player_wins_with_the_cheapest_card():
    """H8: last to play to 9c, with Kc and Jc: Jc wins as surely and costs less."""
    s = play_position("Kc Jc 8d 9s", trick=["9c", "7c", "8c"], leader=1,
                      played=["Tc", "Qs", "Jd", "Qc"])
    assert pick(s) == "play Jc"


def test_h8_trump_low_when_void():
    """H8: void in the led suit with the trump ace and a low trump: the low trump wins the
    trick, the ace (a sure trick later) is kept."""
    s = play_position("Ah 7h 8d 9s", trick=["9c", "7c", "8c"], leader=1,
                      played=["Tc", "Qs", "Jd", "Qc"])
    assert pick(s) == "play 7h"


def test_h8_the_ace_of_spades_beats_a_led_trump_ace():
    """H8, MU-ACE-2 (MU-EX-5): the trump ace led, the holder of As plays it and wins."""
    s = game().from_dict(position(["9h Jh Qh 8c", "As 7h Kd Qd 8d", None, None],
                                  trump="Th", trick=["Ah"], leader=0))
    assert pick(s) == "play As"


def test_h8_throw_the_least_worth_when_the_trick_is_lost():
    """H8: the trick is trumped by the trump ace and cannot be won; without clubs or trumps
    any card may go: the lowest plain card, keeping the high diamonds."""
    s = play_position("Kd 7s Qd 8s", trick=["9c", "Ah", "8c"], leader=1,
                      played=["Tc", "Qs", "Jd", "Kc"])
    assert pick(s) == "play 7s"

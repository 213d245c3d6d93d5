"""A whole match's trajectory (:func:`cardsim.protocol.outcome.match_facts`): duplicate play of
matches keeps the state after every deal (:func:`cardsim.solvers.agents.play_deal_by_deal`)
to read each seat's standing, plays the same games as one plain call of the game loop, and its
facts follow the standings a move-by-move replay reads."""
from __future__ import annotations

import numpy as np
import pytest

import cardsim
from cardsim.experiments.rows import duplicate_rows
from cardsim.protocol.outcome import MATCH_FACTS, match_facts
from cardsim.solvers.agents import (
    parse_agent,
    play_deal_by_deal,
    play_out,
    prime_record,
    switches,
    workspace,
)
from cardsim.solvers.duplicate import play_duplicate

MATCH_RULES = {"scopa": {"target_score": 11}, "bura": {"match_format": "wins_to_n"},
               "mushka": {"max_deals": 40}, "minchiate": {"deals": 3}}
INFERRING = {"scopa", "bura"}
"""Where the searcher infers (its record of the deal must carry over a stop); elsewhere its
worlds cost more than this test should."""


def facts(standings, returns):
    return tuple(match_facts(standings, returns)[c] for c in MATCH_FACTS)


def test_a_match_led_from_the_first_deal_to_the_end():
    """(deals, lead changes, comeback, deals before the winner led for good)."""
    assert facts([[0, 0], [3, 1], [6, 2], [11, 4]], [1, -1]) == (3, 0, 0, 1)


def test_a_comeback_after_half_the_deals():
    """Side b leads after 1 and 2 of 4 deals, side a wins: one lead change, a comeback, and
    the match decided after 3 deals."""
    assert facts([[0, 0], [0, 3], [2, 4], [5, 4], [11, 6]], [1, -1]) == (4, 1, 1, 3)


def test_a_level_moment_is_no_lead_change():
    assert facts([[0, 0], [2, 0], [2, 2], [4, 2]], [1, -1])[1] == 0
    assert facts([[0, 0], [2, 0], [2, 2], [2, 4]], [-1, 1])[1] == 1


def test_no_comeback_or_decision_without_a_leader_or_a_winner():
    """Level after half the deals: no comeback either way (the winner led from the second
    deal's end); a drawn match: neither."""
    assert facts([[0, 0], [1, 1], [3, 1]], [1, -1])[2:] == (-1, 2)
    assert facts([[0, 0], [2, 0], [2, 2]], [0, 0])[2:] == (-1, -1)


def test_shared_leads_and_a_winner_not_leading_at_the_end():
    """Three seats (Mushka: standings are records negated): a lead shared by seats 0 and 2
    that seat 0 keeps is no change, passing to seat 1 is one, and seat 1 won from behind; a
    winner that did not lead at the end (a rule ended the match) was decided only by the
    end."""
    assert facts([[-25, -25, -25], [-20, -22, -20], [-15, -21, -18], [-14, -10, -16]],
                 [-0.5, 1, -0.5]) == (3, 1, 1, 3)
    assert facts([[0, 0], [4, 1], [6, 2]], [-1, 1]) == (2, 0, 1, 2)


@pytest.mark.parametrize("name", sorted(MATCH_RULES))
def test_a_match_played_deal_by_deal_is_the_one_call_game(name):
    """The rows of a match played deal by deal: its moves, returns and decisions are those of
    the game loop's one call from the same seeds (an inferring search keeps its record of the
    deal across the stops), and its trajectory is the standings that a move-by-move replay of
    the same moves reads whenever the deal number changes."""
    game = cardsim.load_game(name, **MATCH_RULES[name])
    spec, n = game.spec, game.num_players
    searcher = "ismcts:iterations=12" + (",infer=0.3" if name in INFERRING else "")
    agents = [parse_agent(a, game) for a in (searcher, "heuristic")] + \
        [parse_agent("random", game)] * (n - 2)
    deals = 2 if n == 2 else 1
    rows = duplicate_rows(play_duplicate(game, agents, deals=deals, seed=5, match=True))
    assert len(rows) == deals * n and set(MATCH_FACTS) <= set(rows.columns)
    word = game.definition.layout.DEAL_NUMBER
    for _, row in rows.iterrows():
        deal_seq, *agent_seqs = np.random.SeedSequence([5, int(row["deal"])]).spawn(1 + n)
        start = game.new_match(seed=deal_seq)
        order = [int(row[f"seat_{s}"]) for s in range(n)]
        line = np.zeros(20_000, dtype=np.int64)
        ws = workspace(spec, agents)
        state = start.clone()
        prime_record(ws, state)
        kinds = np.array([agents[k].kind for k in order])
        params = np.stack([agents[k].params for k in order])
        moves = play_out[spec, switches(agents)](
            spec.params, state.vec, kinds, params,
            agent_seqs[int(row["rotation"])].generate_state(4, dtype=np.uint64), ws,
            spec.reward_scale, 0, line)
        assert moves == row["moves"] < len(line)
        assert list(state.returns()) == [row[f"return_{s}"] for s in range(n)]
        assert list(ws.decisions) == [row[f"decisions_{s}"] for s in range(n)]
        assert list(ws.options) == [row[f"options_{s}"] for s in range(n)]
        replay = start.clone()
        standings = [game.definition.standing(replay.vec, game.rules, n)]
        for a in line[:moves]:
            deal = int(replay.vec[word])
            replay.apply_action(int(a))
            if replay.is_terminal() or int(replay.vec[word]) != deal:
                standings.append(game.definition.standing(replay.vec, game.rules, n))
        assert replay.is_terminal()
        assert match_facts(standings, replay.returns()) == {c: row[c] for c in MATCH_FACTS}
        final, returns = standings[-1], list(replay.returns())
        if max(returns) > min(returns):         # the standing's leaders at the end won
            assert returns[int(np.argmax(final))] == max(returns) and max(final) > min(final)
        # a track of one row: the game loop returns after every deal, and goes on the same
        ws = ws._replace(track=np.zeros((1, spec.state_len), dtype=np.uint64))
        state, seen = start.clone(), []
        prime_record(ws, state)
        rng = agent_seqs[int(row["rotation"])].generate_state(4, dtype=np.uint64)
        assert play_deal_by_deal(play_out[spec, switches(agents)], spec, state, kinds, params,
                                 rng, ws, lambda v: seen.append(
                                     game.definition.standing(v, game.rules, n))) == moves
        assert seen == standings[1:] and list(state.returns()) == list(replay.returns())
    assert rows["match_deals"].min() >= 1
    if name != "minchiate":                         # 3 deals, by the rules
        assert rows["match_deals"].max() > 1

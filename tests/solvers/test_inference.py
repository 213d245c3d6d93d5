"""Inference (cardsim/solvers/inference.py): worlds weighted by the other players' moves.

A world's deal start (the game's ``world_start``) replays the deal's moves into that very
world; the weights read only what the player saw (a second true deal the player cannot tell
from the first gives the same worlds and weights); the uniform model is the solvers' uniform
worlds; and in heuristic self-play, where the model is right, the weighted worlds give the
true hidden cards more probability than uniform ones."""
from __future__ import annotations

import numpy as np
import pytest

import cardsim
from cardsim.errors import CardsimError
from cardsim.game import State
from cardsim.solvers.agents import choose, parse_agent, play
from cardsim.solvers.inference import infer_worlds, known_record, log_prob_of_truth, world_replay

GAMES = ["scopa", "bura", "mushka", "minchiate"]


def positions(name: str, deals: int, every: int = 3):
    """States of heuristic self-play with their records, every ``every`` moves."""
    game = cardsim.load_game(name)
    agent = parse_agent("heuristic", game)
    for d in range(deals):
        state = game.new_deal(seed=d)
        k = 0
        while not state.is_terminal():
            if k % every == every - 1 and len(state.legal_actions()) > 1:
                yield state.clone()
            state.apply_action(choose(agent, state, seed=1000 * d + k))
            k += 1


@pytest.mark.parametrize("name", GAMES)
def test_a_worlds_start_replays_into_the_world(name):
    """Every sampled world has a deal start whose moves (as made there) lead back to it,
    card for card."""
    checked = 0
    for state in positions(name, 3):
        player = state.current_player()
        for seed in range(3):
            world = state.sample_world(player, seed=seed)
            ok, _, _, end = world_replay(state, player, world)
            assert ok
            public = world.to_dict()
            reached = State(state.game, end).to_dict()
            for key in ("rng",):
                public.pop(key, None), reached.pop(key, None)
            assert reached == public
            checked += 1
    assert checked > 10


MATCHES = {"bura": {"match_format": "penalty_points"}, "minchiate": {"deals": 3}}
"""Rules of matches of several deals (Scopa's and Mushka's default rules are)."""


def later_deal_positions(name: str, every: int = 3):
    """States of the second deal of a heuristic self-play match, every ``every`` moves, with
    the whole match's record."""
    game = cardsim.load_game(name, **MATCHES.get(name, {}))
    agent = parse_agent("heuristic", game)
    word = game.definition.layout.DEAL_NUMBER
    for seed in range(10):
        state = game.new_match(seed=seed)
        first = int(state.vec[word])
        k = 0
        while not state.is_terminal() and int(state.vec[word]) < first + 2:
            if int(state.vec[word]) == first + 1 and k % every == every - 1 and len(
                    state.legal_actions()) > 1:
                yield state.clone()
            state.apply_action(choose(agent, state, seed=1000 * seed + k))
            k += 1


@pytest.mark.parametrize("name", GAMES)
def test_a_matchs_later_deal_starts_where_its_first_move_was_made(name):
    """In a match, the deal's record starts where the deal's first move was made (the state
    the last deal's end dealt), and every sampled world replays from there back to itself."""
    checked = 0
    for state in later_deal_positions(name):
        start, moves = known_record(state)
        assert 0 < len(moves) < len(state.actions)
        replayed = State(state.game, start.copy())
        for a in moves:
            replayed.apply_action(int(a))
        assert np.array_equal(replayed.vec, state.vec)
        player = state.current_player()
        world = state.sample_world(player, seed=checked)
        ok, _, _, end = world_replay(state, player, world)
        assert ok
        assert State(state.game, end).to_dict() == world.to_dict()
        checked += 1
        if checked >= 6:
            break
    assert checked >= 6


@pytest.mark.parametrize("name", GAMES)
def test_a_game_records_positions_weigh_as_the_live_deals(name):
    """A position replayed from a game record (its start read from a dict, whose dealt
    positions of the deal order are blanks) gets the same worlds and weights as the live deal
    at the same move, and some of them are possible (a start the replay cannot use would make
    every world impossible, and the analysis silently uniform)."""
    game = cardsim.load_game(name)
    live = game.new_deal(seed=3)
    play(live, ["heuristic"] * game.num_players, seed=1)
    decisions = list(live.record(["heuristic"] * game.num_players).decisions())
    replayed = game.new_deal(seed=3)
    for k, (state, action, seat) in enumerate(decisions):
        if k in (len(decisions) // 3, len(decisions) // 2) and len(state.legal_actions()) > 1:
            a, b = (infer_worlds(s, seat, 40, seed=2) for s in (state, replayed))
            assert np.array_equal(a.logw, b.logw) and np.array_equal(a.vecs, b.vecs)
            assert np.isfinite(a.logw).any() and a.logw.min() < a.logw.max()
        replayed.apply_action(action)


@pytest.mark.parametrize("name", GAMES)
def test_weights_never_read_a_hidden_card(name):
    """A second true deal the player cannot tell from the first (a sampled world's own start
    and moves) gives the same worlds and the same weights."""
    compared = 0
    for state in positions(name, 2, every=4):
        player = state.current_player()
        world = state.sample_world(player, seed=7)
        _, begin, made, _ = world_replay(state, player, world)
        other = State(state.game, begin.copy()).started()
        for a in made:
            other.apply_action(int(a))
        assert other.observation(player) == state.observation(player)
        a, b = (infer_worlds(s, player, 30, seed=5) for s in (state, other))
        assert np.array_equal(a.vecs, b.vecs) and np.array_equal(a.logw, b.logw)
        compared += not np.array_equal(other.vec, state.vec)
    assert compared > 3


@pytest.mark.parametrize("name", GAMES)
def test_the_uniform_model_is_the_uniform_worlds(name):
    """``epsilon=None``: every weight 1, the worlds those ``determinize`` samples (which a
    model weighs, the same)."""
    state = next(positions(name, 1, every=5))
    player = state.current_player()
    worlds = infer_worlds(state, player, 5, seed=3, epsilon=None)
    assert (worlds.logw == 0).all() and worlds.effective == pytest.approx(5)
    assert np.array_equal(worlds.vecs[0], state.sample_world(player, seed=3).vec)
    weighted = infer_worlds(state, player, 5, seed=3)
    assert np.array_equal(weighted.vecs, worlds.vecs)     # the same worlds, other weights


@pytest.mark.parametrize("name", GAMES)
def test_inference_finds_the_hidden_cards_in_heuristic_self_play(name):
    """Where the model plays as the players do, the weighted worlds (tempered to a tenth
    effective, as an analysis draws them) give the true hidden cards more probability than
    the same worlds unweighted (mean log probability, at least 40 positions)."""
    gain = []
    for state in positions(name, {"bura": 30, "mushka": 30, "minchiate": 3}.get(name, 12),
                           every=4):
        player = state.current_player()
        worlds = infer_worlds(state, player, 200, seed=1)
        weighted = log_prob_of_truth(state, player, worlds.tempered(20))
        uniform = log_prob_of_truth(state, player, infer_worlds(state, player, 200, seed=1,
                                                                epsilon=None))
        if not np.isnan(weighted):
            gain.append(weighted - uniform)
    assert len(gain) >= 40 and np.mean(gain) > 0.02, (len(gain), np.mean(gain))


def test_bad_inference_arguments_are_refused():
    state = next(positions("scopa", 1))
    for bad in (0, 1, 1.5, -0.1, True, "x"):
        with pytest.raises(CardsimError, match="infer="):
            infer_worlds(state, state.current_player(), 3, epsilon=bad)
    with pytest.raises(CardsimError, match="worlds=0"):
        infer_worlds(state, state.current_player(), 0)


def test_a_position_without_its_record_has_equal_weights():
    """A position read from a dict has no moves to read: every weight is 1."""
    state = next(positions("scopa", 1, every=7))
    alone = state.game.from_dict(state.to_dict())
    worlds = infer_worlds(alone, alone.current_player(), 10, seed=2)
    assert (worlds.logw == 0).all()


def test_tempering_keeps_the_effective_worlds_asked_for():
    """``tempered(k)`` scales the log weights down just enough for ``k`` effective worlds,
    and leaves worlds that have as many as they are."""
    from cardsim.solvers.inference import Worlds
    logw = np.linspace(0.0, -400.0, 100)
    worlds = Worlds(np.zeros((100, 1), dtype=np.uint64), logw)
    assert worlds.effective < 2
    tempered = worlds.tempered(30)
    assert 29.9 < tempered.effective < 31 and tempered.logw[-1] > logw[-1]
    assert worlds.tempered(1).logw is logw
    impossible = Worlds(worlds.vecs, np.full(100, -np.inf))
    assert impossible.effective == pytest.approx(100)


def test_analyze_reads_a_game_records_moves_with_infer(tmp_path, capsys):
    """``cardsim analyze GAME RECORD --at N --infer``: the position after N moves of a game
    record, its worlds drawn by inference (the table's note says so); a position without moves
    is analyzed on the uniform worlds; --at past the record's end, --at with a position file,
    and a bad epsilon are refused in one line."""
    from cardsim.app.cli import main
    from cardsim.solvers.agents import play
    game = cardsim.load_game("scopa")
    state = game.new_deal(seed=3)
    play(state, ["heuristic", "heuristic"], seed=1)
    record = tmp_path / "deal.json"
    state.record(seats=["heuristic", "heuristic"]).write(record)
    assert main(["analyze", "scopa", str(record), "--at", "9", "--player", "0", "--infer",
                 "--worlds", "20"]) == 0
    out = capsys.readouterr().out
    assert "drawn by inference (epsilon 0.3)" in out
    position = tmp_path / "position.json"
    position.write_text(__import__("json").dumps(game.new_deal(seed=1).to_dict()))
    for args, needle in ((["--at", "99"], "the record has 36 moves"),
                         (["--infer", "2"], "between 0 and 1")):
        assert main(["analyze", "scopa", str(record), "--player", "0", *args]) == 2
        err = capsys.readouterr().err.strip()
        assert needle in err and "\n" not in err, err
    assert main(["analyze", "scopa", str(position), "--player", "1", "--at", "3"]) == 2
    assert "--at goes with a game record" in capsys.readouterr().err
    assert main(["analyze", "scopa", str(position), "--player", "1", "--infer", "--worlds",
                 "10"]) == 0
    inferred = capsys.readouterr().out
    assert "10 sampled worlds (no moves of the deal recorded to infer from)" in inferred
    assert main(["analyze", "scopa", str(position), "--player", "1", "--worlds", "10"]) == 0
    uniform = capsys.readouterr().out               # the same worlds, the same figures
    assert inferred.split("sampled worlds")[0] == uniform.split("sampled worlds")[0]


def test_intervals_widen_for_worlds_drawn_from_fewer_effective_ones():
    """An analysis over worlds drawn by inference from 25 effective ones for 100 draws
    widens its intervals twofold (the drawn worlds repeat); uniform worlds keep theirs."""
    from cardsim.solvers.analyze import ActionValues
    from cardsim.stats import mean_interval
    out = np.random.default_rng(2).normal(size=(1, 100))
    values = ActionValues(None, np.zeros(1), out, None, None, None, None, effective=25.0)
    mean, lo, hi = mean_interval(out[0])
    assert values.widening() == pytest.approx(2.0)
    assert values.interval(out[0]) == pytest.approx((mean, mean - 2 * (mean - lo),
                                                     mean + 2 * (hi - mean)))
    assert values._replace(effective=None).interval(out[0]) == pytest.approx((mean, lo, hi))
    assert values._replace(effective=400.0).widening() == 1.0


def test_analysis_infers_by_default_where_it_measured_better_calibrated():
    """``AnalysisConfig``'s and ``ReviewConfig``'s default is the game's: inference's worlds in
    Bura and Mushka (better calibrated there), uniform worlds in Scopa (as well calibrated,
    cheaper) and Minchiate (worse calibrated on inference's); explicit choices win."""
    from cardsim.solvers.analyze import AnalysisConfig, infer_epsilon
    from cardsim.solvers.review import ReviewConfig
    for name, expected in (("scopa", None), ("bura", 0.3), ("mushka", 0.3),
                           ("minchiate", None)):
        game = cardsim.load_game(name)
        assert infer_epsilon(AnalysisConfig(player=0), game) == expected
        assert infer_epsilon(ReviewConfig(), game) == expected
        assert infer_epsilon(AnalysisConfig(player=0, infer=0.5), game) == 0.5
        assert infer_epsilon(AnalysisConfig(player=0, infer=None), game) is None
    with pytest.raises(CardsimError, match="infer='always'"):
        infer_epsilon(AnalysisConfig(player=0, infer="always"), cardsim.load_game("bura"))

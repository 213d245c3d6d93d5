"""The learned evaluation (cardsim/solvers/evaluation.py), ISMCTS with ``leaf=net`` and ``cardsim
train`` (cardsim/solvers/training.py): the network's compiled values against numpy's, agents legal,
deterministic and blind to hidden cards in every game, weights refused in one line, training
reproducible and resumable, shipped weights playing as recorded."""
from __future__ import annotations

import random

import numpy as np
import pytest

import cardsim
from cardsim.compiled.rng import rng_from_seed
from cardsim.errors import AgentError
from cardsim.solvers import ismcts
from cardsim.solvers.agent_spec import ITERATIONS, SECONDS
from cardsim.solvers.agents import choose, parse_agent, play, workspace
from cardsim.solvers.evaluation import (
    N_WDL,
    Weights,
    net_for,
    read_weights,
    weights_folder,
    world_value,
)
from cardsim.solvers.training import (
    Data,
    Plan,
    TrainError,
    fit,
    playout_targets,
    position_inputs,
    split,
    train,
)
from tests.conformance.test_every_game import _permuted_truth

GAMES = ("scopa", "bura", "mushka", "minchiate")


def random_weights(game, hidden=8, seed=0) -> Weights:
    """Weights of the right shapes for ``game``'s rules, drawn at random."""
    spec = game.spec
    enc = spec.definition.encoding
    rng = np.random.default_rng(seed)
    return Weights(game=game.name, encoding=enc.VERSION,
                   params=tuple(int(x) for x in spec.params), rules={},
                   w1=rng.normal(0, 0.3, (enc.N_INPUTS, hidden)), b1=rng.normal(0, 0.1, hidden),
                   w2=rng.normal(0, 0.3, (hidden, enc.N_SEATS + N_WDL)),
                   b2=rng.normal(0, 0.1, enc.N_SEATS + N_WDL), made={})


def saved(weights: Weights, tmp_path, name="w.npz") -> str:
    path = tmp_path / name
    weights.save(path)
    return str(path)


def net_agent(path, iterations=40, extra=""):
    return parse_agent(f"ismcts:iterations={iterations},rollout=heuristic,leaf=net,"
                       f"weights={path}{extra}")


def _search(state, agent, seed):
    """One ISMCTS search with the network: (action, root children's keys and visits)."""
    spec = state.game.spec
    ws = workspace(spec, [agent]).search
    run = ismcts.search[spec, {"WITH_NET": True, "WITH_POINTS": True}]
    action, _ = run(spec.params, state.vec, agent.params, rng_from_seed(seed), ws,
                    spec.reward_scale)
    children = []
    child = ws.tree[0, ismcts.CHILD]
    while child >= 0:
        children.append((int(ws.tree[child, ismcts.KEY]), ws.stats[child, ismcts.VISITS],
                         ws.stats[child, ismcts.TOTAL]))
        child = ws.tree[child, ismcts.SIBLING]
    return int(action), children


# --- the network ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_compiled_values_are_numpys_forward_pass(name, tmp_path):
    """The compiled first layer (rows of the active inputs added) computes the same returns as
    a dense numpy forward pass over the one-hot input vector, rotated back to seats."""
    game = cardsim.load_game(name)
    spec = game.spec
    enc = spec.definition.encoding
    w = random_weights(game, hidden=16, seed=3)
    state = game.new_deal(seed=4)
    idx = np.zeros(enc.MAX_ACTIVE, dtype=np.int64)
    val = np.zeros(enc.MAX_ACTIVE)
    rnd = random.Random(1)
    checked = 0
    while not state.is_terminal():
        for player in range(spec.n_players):
            n = enc.encode(state.vec, spec.params, player, idx, val)
            x = np.zeros(enc.N_INPUTS)
            x[idx[:n]] = val[:n]
            out = np.maximum(x @ w.w1 + w.b1, 0) @ w.w2 + w.b2
            want = np.zeros(spec.n_players)
            for r in range(spec.n_players):
                want[(player + r) % spec.n_players] = out[r] * spec.reward_scale
            assert np.allclose(world_value(w, state, player), want, atol=1e-9)
            checked += 1
        state.apply_action(rnd.choice(state.legal_actions()))
    assert checked > 10


@pytest.mark.parametrize("extra", ["", ",prior=2"])
@pytest.mark.parametrize("name", GAMES)
def test_net_agents_play_legal_deals_under_every_preset(name, extra, tmp_path):
    """ISMCTS with ``leaf=net`` (also with a prior) plays whole deals of every preset; every
    move it made is legal where it was made (replayed on a fresh state)."""
    for preset, game, path in presets(name, tmp_path):
        start = game.new_deal(seed=2)
        state = start.clone()
        agents = [net_agent(path, 20, extra)] + ["heuristic"] * (game.num_players - 1)
        play(state, agents, seed=5)
        assert_legal_line(start, state.actions, preset)


def presets(name, tmp_path):
    """(preset, game, a file of random weights for it) for every preset of game ``name``."""
    from cardsim.game import definition
    rules = __import__(definition(name).rules_type.__module__, fromlist=["PRESETS"]).PRESETS
    for preset, r in sorted(rules.items()):
        game = cardsim.load_game(name, r)
        yield preset, game, saved(random_weights(game, seed=1), tmp_path, f"{preset}.npz")


def assert_legal_line(start, actions, where):
    """Every move of ``actions`` is legal where it is played from ``start``, and the line
    plays the deal to its end."""
    replay = start.clone()
    for a in actions:
        assert a in replay.legal_actions(), (where, a)
        replay.apply_action(a)
    assert replay.is_terminal()


@pytest.mark.parametrize("name", GAMES)
def test_net_search_is_deterministic(name, tmp_path):
    """Under an iteration budget the same seed gives the same move and the same tree."""
    game = cardsim.load_game(name)
    agent = net_agent(saved(random_weights(game), tmp_path), 200)
    state = game.new_deal(seed=7)
    assert _search(state, agent, 3) == _search(state, agent, 3)
    assert choose(agent, state, seed=4) == choose(agent, state, seed=4)


@pytest.mark.parametrize("name,opts", [("scopa", {}), ("bura", {}),
                                       ("bura", {"facedown_discards": "choice"})])
def test_net_search_ignores_the_hidden_truth(name, opts, tmp_path):
    """No leak: two true states the player to move cannot tell apart give the same move and
    the same root statistics (the network values sampled worlds only)."""
    game = cardsim.load_game(name, **opts)
    agent = net_agent(saved(random_weights(game, seed=2), tmp_path), 150)
    compared = 0
    for state, other in indistinguishable(game, 4):
        assert _search(state, agent, 9) == _search(other, agent, 9)
        compared += 1
    assert compared >= 5


def indistinguishable(game, deals, most=None):
    """Pairs of true states the player to move cannot tell apart (his observation is the
    same), from every third position of ``deals`` deals played at random: at most ``most``."""
    rnd = random.Random(5)
    found = 0
    for seed in range(deals):
        state = game.new_deal(seed=seed)
        k = 0
        while not state.is_terminal() and (most is None or found < most):
            legal = state.legal_actions()
            if k % 3 == 0 and len(legal) > 1:
                player = state.current_player()
                other = _permuted_truth(game, state.to_dict(), player, rnd)
                if other.to_dict() != state.to_dict():
                    assert other.observation(player) == state.observation(player)
                    yield state, other
                    found += 1
            state.apply_action(rnd.choice(legal))
            k += 1


def test_without_weights_a_net_search_plays_out_and_says_so_once():
    """Rules without shipped weights: ``leaf=net`` falls back to play-outs — the same search as
    ``value=points`` with the same play-out — with one warning per game and rules."""
    game = cardsim.load_game("scopa", target_score=21, redeal_kings_on_table="off")
    state = game.new_deal(seed=3)
    with pytest.warns(UserWarning, match="no learned evaluation for these rules"):
        a = choose(parse_agent("ismcts:iterations=300,rollout=heuristic,leaf=net"), state, 2)
    b = choose(parse_agent("ismcts:iterations=300,rollout=heuristic,value=points"), state, 2)
    assert a == b
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        net_for(game.spec)


@pytest.mark.parametrize("name", ["scopa", "mushka"])
def test_mixed_leaves_are_between_the_network_and_the_play_out(name, tmp_path):
    """``mix=0`` backs up the play-out alone: the same tree as the play-out search
    (``value=points``); ``mix=1`` is the network alone (the default); after one iteration,
    ``mix=0.5`` has backed up the average of the two (the same leaf, the same play-out)."""
    game = cardsim.load_game(name)
    path = saved(random_weights(game, seed=6), tmp_path)
    state = game.new_deal(seed=8)
    plain = parse_agent("ismcts:iterations=120,rollout=heuristic,value=points")
    assert _search(state, net_agent(path, 120, ",mix=0"), 4) == _search(state, plain, 4)
    assert _search(state, net_agent(path, 120, ",mix=1"), 4) == _search(
        state, net_agent(path, 120), 4)
    half = _search(state, net_agent(path, 1, ",mix=0.5"), 4)[1]
    net = _search(state, net_agent(path, 1), 4)[1]
    out = _search(state, parse_agent("ismcts:iterations=1,rollout=heuristic,value=points"),
                  4)[1]
    assert len(half) == len(net) == len(out) == 1 and net[0][2] != out[0][2]
    assert half[0][2] == pytest.approx((net[0][2] + out[0][2]) / 2)


# --- weights files -------------------------------------------------------------------------

def test_weights_for_other_rules_or_games_or_damaged_are_refused_in_one_line(tmp_path):
    scopa = cardsim.load_game("scopa")
    w = random_weights(scopa)
    path = saved(w, tmp_path)
    cases = {
        "other rules": (cardsim.load_game("scopa", num_players=4), path, "other rules"),
        "other game": (cardsim.load_game("bura"), path, "trained for scopa"),
    }
    truncated = tmp_path / "cut.npz"
    truncated.write_bytes(open(path, "rb").read()[:300])
    garbage = tmp_path / "junk.npz"
    garbage.write_bytes(b"\x00not weights" * 50)
    old = tmp_path / "old.npz"
    Weights(**{**w.__dict__, "encoding": 0}).save(old)
    cases["truncated"] = (scopa, str(truncated), "cannot be read")
    cases["garbage"] = (scopa, str(garbage), "cannot be read")
    cases["old encoding"] = (scopa, str(old), "encoding version")
    cases["missing"] = (scopa, str(tmp_path / "none.npz"), "cannot read")
    cases["a device"] = (scopa, "/dev/zero", "is a character device, not a regular file")
    for what, (game, p, text) in cases.items():
        with pytest.raises(AgentError, match=text) as e:
            workspace(game.spec, [net_agent(p)])
        assert "\n" not in str(e.value), what


@pytest.mark.parametrize("spec,text", [
    ("ismcts:leaf=net,value=match", "leaf=net values the deal"),
    ("ismcts:leaf=net,value=game", "leaf=net values the deal"),
    ("ismcts:playout=3", "playout is for leaf=net"),
    ("ismcts:mix=0.5", "mix is for leaf=net"),
    ("ismcts:leaf=net,mix=1.5", "a number from 0 to 1"),
    ("ismcts:weights=x.npz", "weights is for leaf=net"),
    ("ismcts:leaf=net,weights=", "expected weights=PATH"),
    ("ismcts:leaf=tree", "playout or net"),
    ("ismcts:leaf=net,playout=1001", "at most 1000"),
])
def test_bad_net_specs_are_one_line(spec, text):
    with pytest.raises(AgentError, match=text):
        parse_agent(spec)


def test_two_weights_in_one_game_are_refused(tmp_path):
    game = cardsim.load_game("scopa")
    a = saved(random_weights(game, seed=1), tmp_path, "a.npz")
    b = saved(random_weights(game, seed=2), tmp_path, "b.npz")
    with pytest.raises(AgentError, match="different weights"):
        workspace(game.spec, [net_agent(a), net_agent(b)])


# --- training ------------------------------------------------------------------------------

def test_fit_learns_a_known_value():
    """A target that is a fixed function of the inputs is learned far below the error of the
    mean (a fit that learned nothing fails this)."""
    rng = np.random.default_rng(0)
    n, n_inputs, active = 6000, 50, 6
    idx = np.stack([rng.choice(n_inputs, active, replace=False) for _ in range(n)])
    val = np.ones((n, active), dtype=np.float32)
    true = rng.normal(0, 0.5, n_inputs)
    y = np.stack([true[idx].sum(axis=1), -true[idx].sum(axis=1)], axis=1)
    data = Data(idx.astype(np.int16), val, np.zeros(n, np.int8), np.arange(n, dtype=np.int32),
                y.astype(np.float32))
    train_set, held = split(data, 1)
    result = fit(train_set, held, n_inputs, 2, hidden=16, seed=1, epochs=30, rate=3e-3)
    baseline = ((held.targets - held.targets.mean(axis=0)) ** 2).sum(axis=1).mean()
    assert result.curve[result.best_epoch - 1]["held_mse"] < 0.1 * baseline


TINY = dict(rounds=2, deals=30, hidden=4, epochs=2, iterations=8, check_deals=2,
            check_iterations=10, chunk=15)


def test_training_is_reproducible_and_resumes_to_the_same_weights(tmp_path):
    """The same plan and seed give byte-identical weights on 1 or 2 workers, and a folder
    trained one round, then told to go on to two, ends where the straight run did; a lost or
    damaged chunk of data is played again, the same."""
    plan = Plan("scopa", {}, seed=4, **TINY)
    train(plan, tmp_path / "a", jobs=1, say=lambda s: None)
    train(Plan("scopa", {}, seed=4, **{**TINY, "rounds": 1}), tmp_path / "b", jobs=2,
          say=lambda s: None)
    (tmp_path / "b" / "data-0-1.npz").unlink()
    (tmp_path / "b" / "data-0-0.npz").write_bytes(b"damaged")
    train(plan, tmp_path / "b", jobs=2, say=lambda s: None)
    a, b = read_weights(tmp_path / "a" / "weights.npz"), read_weights(tmp_path / "b" /
                                                                       "weights.npz")
    assert all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ("w1", "b1", "w2", "b2"))
    assert a.made["command"].startswith("cardsim train scopa --seed 4")


def test_training_refuses_another_plan_in_the_same_folder(tmp_path):
    """Another plan in a folder is refused naming what differs (the view too); a folder made
    before ``--view`` existed goes on as the world view it was."""
    import json
    one = {**TINY, "rounds": 1, "check_deals": 0}
    train(Plan("scopa", {}, seed=1, **one), tmp_path, say=lambda s: None)
    with pytest.raises(TrainError, match="another plan.*hidden"):
        train(Plan("scopa", {}, seed=1, **{**one, "hidden": 5}), tmp_path, say=lambda s: None)
    with pytest.raises(TrainError, match=r"another plan \(view differ"):
        train(Plan("scopa", {}, seed=1, **one, view="info"), tmp_path, say=lambda s: None)
    state = json.loads((tmp_path / "train.json").read_text())
    del state["plan"]["view"]
    (tmp_path / "train.json").write_text(json.dumps(state))
    assert len(train(Plan("scopa", {}, seed=1, **one), tmp_path,
                     say=lambda s: None)["rounds"]) == 1


def test_a_view_other_than_world_or_info_is_refused_in_one_line():
    with pytest.raises(TrainError, match="^view 'truth': one of world, info$"):
        Plan("scopa", {}, view="truth")
    with pytest.raises(TrainError, match="^playouts -1: an integer from 0 to 10,000$"):
        Plan("scopa", {}, playouts=-1)


def test_training_on_play_out_targets_learns_from_other_targets(tmp_path):
    """``playouts`` changes the targets of the kept positions (not which positions): the same
    plan with and without it keeps the same inputs, with other returns."""
    one = {**TINY, "rounds": 1, "check_deals": 0}
    train(Plan("scopa", {}, seed=2, **one), tmp_path / "a", say=lambda s: None)
    train(Plan("scopa", {}, seed=2, playouts=4, **one), tmp_path / "b", say=lambda s: None)
    a, b = (Data.load(tmp_path / k / "data-0-0.npz") for k in ("a", "b"))
    assert len(a.idx) == len(b.idx) > 0
    assert not np.array_equal(a.targets, b.targets)


def seen(spec, state, seat, info):
    """What training keeps of ``state`` for ``seat`` in a view (``info``: the information
    view): the inputs (``position_inputs``) and three play-outs' targets (``playout_targets``),
    each from a fixed random stream."""
    enc = spec.definition.encoding
    idx = np.zeros(enc.MAX_ACTIVE, dtype=np.int64)
    val = np.zeros(enc.MAX_ACTIVE, dtype=np.float64)
    world = np.zeros(spec.state_len, dtype=np.uint64)
    n = position_inputs[spec](spec.params, state.vec, seat, info, rng_from_seed(3), world, idx,
                              val)
    row = np.zeros(enc.N_SEATS)
    playout_targets[spec](spec.params, state.vec, seat, info, 3, rng_from_seed(4), world,
                          np.zeros(spec.max_actions, dtype=np.int64),
                          np.zeros(spec.n_players, dtype=np.float64), spec.reward_scale, row)
    return sorted(zip(idx[:n].tolist(), val[:n].tolist())), row


@pytest.mark.parametrize("name", GAMES)
def test_the_information_view_shows_a_seat_only_what_it_knows(name):
    """``view="info"`` (cardsim/solvers/training.py ``VIEWS``): two true states the player to move
    cannot tell apart give him the same inputs and the same play-out targets (``--playouts``)
    from the same random stream. The world view, shown the truth, tells some of the same pairs
    apart (so the test can fail). Targets are every seat's: partners get one, and in a game of
    two sides that is zero-sum they cancel."""
    game = cardsim.load_game(name)
    spec = game.spec
    n = spec.n_players
    told_apart = 0
    for a, b in indistinguishable(game, 6, most=12):
        seat = a.current_player()
        (inputs_a, row_a), (inputs_b, row_b) = (seen(spec, s, seat, True) for s in (a, b))
        assert inputs_a == inputs_b and np.array_equal(row_a, row_b)
        world_a, world_b = (seen(spec, s, seat, False) for s in (a, b))
        told_apart += world_a[0] != world_b[0] and not np.array_equal(world_a[1], world_b[1])
        for row in (row_a, world_a[1]):
            assert not row[n:].any()
            if name == "minchiate":
                assert row[0] == row[2] == -row[1] == -row[3]
            elif game.definition.zero_sum:
                assert row[:n].sum() == pytest.approx(0.0)
    assert told_apart > 0


def test_cardsim_train_end_to_end(tmp_path, capsys):
    """``cardsim train`` on a tiny budget (of the information-state view): weights a search can
    load, the training report with its learning curve, one line at the end."""
    from cardsim.app.cli import main
    out = tmp_path / "t"
    assert main(["train", "bura", "--deals", "20", "--rounds", "1", "--hidden", "4",
                 "--epochs", "2", "--check-deals", "2", "--check-iterations", "10",
                 "--view", "info", "--keep", "0.5", "--out", str(out), "--quiet"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert "1 of 1 rounds done" in last and "weights.npz" in last
    report = (out / "report.md").read_text()
    assert "Learned evaluation of bura" in report and "learning.png" in report
    assert "information state" in report and "--keep 0.5" in report and "--view info" in report
    assert (out / "learning.png").read_bytes()[:4] == b"\x89PNG"
    game = cardsim.load_game("bura")
    choose(net_agent(out / "weights.npz"), game.new_deal(seed=1), seed=1)
    assert main(["train", "bura", "--hidden", "0", "--out", str(out)]) == 2
    assert main(["train", "bura", "--keep", "1.5", "--out", str(out)]) == 2


# --- shipped weights -----------------------------------------------------------------------

SHIPPED = sorted(p for g in GAMES for p in weights_folder(g).glob("*.npz"))


def test_every_game_ships_weights_for_its_default_rules():
    for name in GAMES:
        spec = cardsim.load_game(name).spec
        from cardsim.solvers.evaluation import shipped_weights
        assert shipped_weights(spec) is not None, name


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_shipped_weights_play_the_moves_recorded_when_they_were_made(path):
    from cardsim.solvers.training import fingerprint
    w = read_weights(path)
    game = cardsim.load_game(w.game, w.rules)
    recorded = w.made["choices"]
    assert recorded and fingerprint(path, game, len(recorded),
                                    recorded[0]["iterations"]) == recorded


@pytest.mark.parametrize("name", GAMES)
def test_the_fast_level_is_a_4_ms_search_that_plays_a_deal(name):
    """``fast``: a search of 4 ms a move (its time budget, no iteration cap), with the shipped
    network where the level uses it; it plays a whole deal against the heuristic, its thinking
    timed. Its speed on an idle core is a benchmark's figure (README, "Agents"), not this
    test's: a shared test machine is too noisy for a timed assertion."""
    from cardsim.experiments.rows import duplicate_rows
    from cardsim.solvers.duplicate import play_duplicate
    game = cardsim.load_game(name)
    fast = parse_agent("fast", game)
    assert fast.params[SECONDS] == 0.004 and fast.params[ITERATIONS] == 0
    table = duplicate_rows(play_duplicate(
        game, ["fast"] + ["heuristic"] * (game.num_players - 1), 1, seed=2, rotate=False))
    think, decisions = float(table["think_0"].iloc[0]), int(table["decisions_0"].iloc[0])
    assert decisions > 0 and 0 < think


def test_a_runs_warm_up_compiles_the_network_search_its_batches_play():
    """``cardsim run`` compiles each agent loop once before its workers start, with a tiny
    budget: for ``leaf=net`` agents that is the network's loop, not a play-out one."""
    from pathlib import Path

    from cardsim.experiments.runner import warm_up
    from cardsim.experiments.spec import load_spec
    from cardsim.solvers.agents import play_out
    spec = load_spec(Path(__file__).resolve().parents[2] / "experiments" / "specs" /
                     "bura_net_tuning.toml")
    warm_up(spec)
    loops = [dict(key[1]) for key in play_out.copies if key[0] == "bura"]
    assert any(d.get("WITH_NET") and d.get("WITH_ISMCTS") for d in loops)

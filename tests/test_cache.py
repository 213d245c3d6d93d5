"""Compiled code is cached between processes: a second process loads, never recompiles."""
import os
import subprocess
import sys


def test_second_process_loads_compiled_kernels_from_the_cache(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), NUMBA_DEBUG_CACHE="1")
    argv = [sys.executable, "-m", "cardsim", "simulate", "scopa", "--deals", "10", "--quiet"]
    runs = [subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
            for _ in range(2)]
    first, second = (r.stdout + r.stderr for r in runs)
    assert "[cache] data saved" in first
    assert "[cache] data loaded" in second
    assert "[cache] data saved" not in second


def test_agents_and_ismcts_load_from_the_cache(tmp_path):
    """The compiled game loop with every agent (ISMCTS with a time budget, PIMC and the oracle
    included) and the exact solver are cached: a second process loads every kernel and
    compiles nothing (numba cannot load a cached recursive function: the solver is
    iterative)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), NUMBA_DEBUG_CACHE="1")
    code = ("import cardsim\n"
            "from solvers.agents import play\n"
            "from solvers.exact import solve, solve_actions\n"
            "for name in ('scopa', 'bura'):\n"
            "    state = cardsim.load_game(name).new_deal(seed=1)\n"
            "    play(state, ['ismcts:iterations=5,seconds=0.01', 'heuristic'], seed=1)\n"
            "    state = cardsim.load_game(name).new_deal(seed=2)\n"
            "    solve(state); solve_actions(state)\n"
            "    play(state, ['pimc:worlds=2', 'oracle'], seed=1)\n")
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True) for _ in range(2)]
    first, second = (r.stdout + r.stderr for r in runs)
    assert "[cache] data saved" in first and "play_out" in first and "alphabeta" in first
    assert "[cache] data loaded" in second
    assert "[cache] data saved" not in second, second[-2000:]
    assert "cannot cache" not in first + second

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
    iterative). The processes share the suite's cache (the first one compiles only what no
    earlier test compiled): what matters is that the second compiles nothing."""
    env = dict(os.environ, NUMBA_DEBUG_CACHE="1")
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
    for out in (first, second):
        assert "play_out" in out and "solve_root" in out and "solve_children" in out
    assert "[cache] data loaded" in second
    assert "[cache] data saved" not in second, second[-2000:]
    assert "cannot cache" not in first + second


def test_the_cache_folder_follows_every_compiled_source(tmp_path):
    """Numba checks only a function's own file, so cardsim keys its cache folder by a hash of
    every source file with compiled code: editing a kernel changes it, editing other code does
    not."""
    from cardsim._cache import sources_hash
    for package in ("cardsim", "solvers"):
        (tmp_path / package).mkdir()
    kernel = tmp_path / "cardsim" / "kernels.py"
    kernel.write_text("from numba import njit\n")
    other = tmp_path / "solvers" / "text.py"
    other.write_text("x = 1\n")
    first = sources_hash(tmp_path)
    other.write_text("x = 2\n")
    assert sources_hash(tmp_path) == first
    kernel.write_text("from numba import njit\n# changed\n")
    assert sources_hash(tmp_path) != first


def test_the_cache_folder_is_per_version_unless_numba_cache_dir_is_set(tmp_path):
    code = "import cardsim, numba; print(numba.config.CACHE_DIR)"
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=dict(env, XDG_CACHE_HOME=str(tmp_path)))
    folder = run.stdout.strip()
    assert folder.startswith(str(tmp_path / "cardsim" / "numba-"))
    assert os.path.isdir(folder)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=dict(env, NUMBA_CACHE_DIR=str(tmp_path / "mine")))
    assert run.stdout.strip() == str(tmp_path / "mine")

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

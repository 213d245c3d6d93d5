"""Compiled code is cached per game, and a command compiles only what it runs.

- a cold process (an empty cache folder) that plays Scopa with random, heuristic and ISMCTS
  players — ``cardsim demo``'s agents — compiles Scopa's code and the shared code only: no
  other game, no PIMC, no exact solver; analyzing a position with ISMCTS (``cardsim analyze
  --agent ismcts:...``) compiles none of the search's parts that the agent does not use
  (matches, inference, the network);
- a second process loads every compiled entry point it needs from the cache and compiles
  nothing (numba's own compile events, and ``NUMBA_DEBUG_CACHE``);
- the cache folders follow the sources of their group: editing one game's kernels changes
  that game's folders and no other game's.
"""
import json
import os
import subprocess
import sys

import pytest

import cardsim

COMPILED = """
import json, sys
from cardsim.compiled.compiling import watch
from cardsim.compiled.cache import group_of
from numba.core import event
seen = []
class L(event.Listener):
    def on_start(self, ev):
        f = ev.data["dispatcher"].py_func
        seen.append([f.__module__, f.__qualname__, group_of(f)])
    def on_end(self, ev):
        pass
event.register("numba:compile", L())
import cardsim
import cardsim.simulate
from cardsim.solvers.agents import play
game = cardsim.load_game("scopa")
cardsim.simulate.play_random_deals("scopa", 5, 1)
by_simulate = len(seen)
from cardsim.solvers.analyze import AnalysisConfig, analyze
position = game.new_deal(seed=3)
analyze(position, AnalysisConfig(player=position.current_player(),
                                 agent="ismcts:iterations=20", worlds=2))
by_analyze = len(seen)
state = game.new_deal(seed=1)
play(state, ["ismcts:iterations=20", "heuristic"], seed=1)
play(game.new_deal(seed=2), ["random", "heuristic"], seed=1)
print(json.dumps({"simulate": by_simulate, "analyze": by_analyze, "seen": seen}))
"""


UNUSED_BY_ISMCTS = {"deal_ended", "match_values", "match_start", "alone", "lone_deal",
                    "net_leaf", "infer_pool", "draw_weighted", "weigh_worlds", "net_returns"}
"""Parts of the search that a plain ISMCTS agent (no ``value=match``/``points``, ``leaf=net``
or ``infer``) never runs: its copy must not compile them (switched off where they are
called)."""


def test_demo_agents_compile_only_scopa_and_their_kinds_then_load(tmp_path):
    """``cardsim demo``'s agents (Scopa: random, heuristic, ISMCTS), ``cardsim simulate
    scopa`` and an analysis played out by ISMCTS from an empty cache compile Scopa's code and
    the shared code only, into Scopa's folders, and of the search only what the agent runs; a
    second process doing the same compiles nothing and loads it all."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), NUMBA_DEBUG_CACHE="1")
    first, second = (subprocess.run([sys.executable, "-c", COMPILED], env=env,
                                    capture_output=True, text=True, check=True)
                     for _ in range(2))
    out = json.loads(first.stdout.strip().splitlines()[-1])
    seen = out["seen"]
    # simulate compiles only the core and Scopa (None: numba's own functions, not cached here)
    assert {g for _, _, g in seen[:out["simulate"]]} - {None} == {"core", "scopa"}
    groups = {g for _, _, g in seen}
    modules = {m for m, _, _ in seen}
    assert "scopa" in groups and "scopa-solvers" in groups
    assert groups <= {"core", "solvers", "scopa", "scopa-solvers", None}, groups
    assert not any(m.startswith("cardsim.games.") and not m.startswith("cardsim.games.scopa")
                   for m in modules), modules
    assert not modules & {"cardsim.solvers.pimc", "cardsim.solvers.exact", "cardsim.games.scopa.exact"}
    names = {q for _, q, _ in seen}
    assert {"play_out__scopa__heuristic_ismcts", "play_out__scopa__heuristic"} <= names, names
    assert not any("exact" in q.rsplit("__", 1)[-1] for q in names if "__scopa__" in q)
    folders = sorted(p.name.rsplit("-", 1)[0] for p in tmp_path.iterdir())
    assert folders == ["core", "scopa", "scopa-solvers", "solvers"], folders
    analysis = seen[out["simulate"]:out["analyze"]]
    assert "_evaluate__scopa__ismcts" in {q for _, q, _ in analysis}
    # random rollouts: the analysis compiles no heuristic; the games against it do
    assert not any(m.endswith(".heuristic") for m, _, _ in analysis), analysis
    assert any(m == "cardsim.games.scopa.heuristic" for m, _, _ in seen[out["analyze"]:])
    assert not {q.split("__")[0] for q in names} & UNUSED_BY_ISMCTS, names
    assert not modules & {"cardsim.solvers.inference", "cardsim.solvers.evaluation", "cardsim.solvers.lookahead"}
    assert not any("raise_with_shape" in q for q in names)    # numba's slice-copy message
    assert json.loads(second.stdout.strip().splitlines()[-1])["seen"] == []   # compiled nothing
    log = second.stdout + second.stderr
    assert "[cache] data loaded" in log and "[cache] data saved" not in log
    assert "cannot cache" not in first.stdout + first.stderr + log


@pytest.mark.parametrize("name", cardsim.list_games())
def test_a_second_process_compiles_nothing(name):
    """The warm-up of ``cardsim compile`` drives every compiled entry point of the game. This
    process shares the suite's cache, which the suite's own warm-up filled: it must load
    everything and compile nothing. (On a run without that warm-up, the first process here
    compiles and a second one is checked.)"""
    env = dict(os.environ, NUMBA_DEBUG_CACHE="1")

    def warm_up():
        run = subprocess.run([sys.executable, "-m", "cardsim.solvers.warmup", name], env=env,
                             capture_output=True, text=True, check=True)
        assert "cannot cache" not in run.stdout + run.stderr
        return json.loads(run.stdout.strip().splitlines()[-1]), run.stdout + run.stderr

    result, log = warm_up()
    if result["compiled"]:
        result, log = warm_up()
    assert result["game"] == name
    assert result["compiled"] == [] and result["compile_seconds"] == 0.0, result
    assert "[cache] data loaded" in log and "[cache] data saved" not in log


def _tree(root):
    files = {"cardsim/compiled/bits.py": "@helper\ndef f(x):\n    return x\n",
             "cardsim/compiled/turns.py": "@helper\ndef over(x):\n    return x\n",
             "cardsim/compiled/cache.py": "FOLDERS = 1\n",
             "cardsim/errors.py": "class E(Exception):\n    pass\n",
             "cardsim/notation_like.py": "import numba\nx = 1\n",
             "cardsim/solvers/ismcts.py": "@generic\ndef g(x):\n    return x\n"}
    for game in ("scopa", "bura"):
        files[f"cardsim/games/{game}/kernels.py"] = ("from . import layout as L\n"
                                                     "from ...errors import E\n"
                                                     "@kernel\ndef k(x):\n    return x\n")
        files[f"cardsim/games/{game}/layout.py"] = "X = 1\n"
        files[f"cardsim/games/{game}/notation.py"] = "from . import kernels\ny = 2\n"
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)


def _hashes(root):
    from cardsim.compiled.cache import group_hash
    group_hash.cache_clear()
    groups = ["core", "solvers", "scopa", "bura", "scopa-solvers", "bura-solvers"]
    return {g: group_hash(g, root / "cardsim") for g in groups}


def test_cache_folders_follow_their_sources(tmp_path):
    """Numba checks a cached function against its own file only, so each group's folder is
    named after a hash of the compiling sources its code can hold and of the modules they
    import (a layout's constants are compiled in), not of other modules (cardsim/compiled/cache.py)."""
    _tree(tmp_path)
    before = _hashes(tmp_path)
    assert len(set(before.values())) == len(before)
    (tmp_path / "cardsim/games/bura/kernels.py").write_text("@kernel\ndef k(x):\n    return 1\n")
    after = _hashes(tmp_path)
    changed = {g for g in before if before[g] != after[g]}
    assert changed == {"bura", "bura-solvers"}                  # one game's kernels
    (tmp_path / "cardsim/games/scopa/layout.py").write_text("X = 2\n")
    later = _hashes(tmp_path)
    assert {g for g in after if after[g] != later[g]} == {"scopa", "scopa-solvers"}
    (tmp_path / "cardsim/games/bura/layout.py").write_text("X = 2\n")   # no longer imported
    after = _hashes(tmp_path)
    assert after == later
    (tmp_path / "cardsim/solvers/ismcts.py").write_text("@generic\ndef g(x):\n    return 2\n")
    again = _hashes(tmp_path)
    assert {g for g in after if after[g] != again[g]} == {"solvers", "scopa-solvers",
                                                          "bura-solvers"}
    kernels = tmp_path / "cardsim/games/scopa/kernels.py"
    kernels.write_text('"""A docstring."""\n\n# a comment\n' + kernels.read_text().replace(
        "def k(x):\n", 'def k(x):\n    """What k does."""\n\n'))
    assert _hashes(tmp_path) == again                          # docstrings, comments, lines
    for path in ("cardsim/notation_like.py", "cardsim/games/scopa/notation.py",
                 "cardsim/errors.py"):
        (tmp_path / path).write_text("z = 3\n")                 # no compiled code
    assert _hashes(tmp_path) == again
    (tmp_path / "cardsim/compiled/bits.py").write_text("@helper\ndef f(x):\n    return 3\n")
    assert all(v != again[g] for g, v in _hashes(tmp_path).items())
    later = _hashes(tmp_path)
    (tmp_path / "cardsim/compiled/cache.py").write_text("FOLDERS = 2\n")   # not compiled code
    assert _hashes(tmp_path) == later
    (tmp_path / "cardsim/compiled/turns.py").write_text("@helper\ndef over(x):\n    return 0\n")
    assert all(v != later[g] for g, v in _hashes(tmp_path).items())
    from cardsim.compiled.cache import group_hash
    group_hash.cache_clear()


def _compiling_modules():
    """Every module of the package that defines compiled code, with its group."""
    from cardsim.compiled.cache import _COMPILED, ROOT, part_folder
    parts = {"core", "solvers", *cardsim.list_games()}
    folders = {p: part_folder(ROOT, p) for p in parts}
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        if _COMPILED.search(path.read_bytes()):
            out[path] = next((p for p, f in folders.items() if f in path.parents), None)
    return out, folders


def test_an_edit_outside_the_compiled_folders_compiles_nothing_again():
    """Compiled code lives only in ``cardsim/compiled/``, ``cardsim/games/<game>/`` and
    ``cardsim/solvers/``, and no group's hash covers a module outside those folders: editing
    an error message (``cardsim/errors.py``), the public ``Game``, a notation, a report or the
    command line recompiles nothing."""
    from cardsim.compiled.cache import ROOT, _hashed
    found, _ = _compiling_modules()
    assert len(found) > 30
    outside = [p.relative_to(ROOT).as_posix() for p, part in found.items() if part is None]
    assert outside == []
    groups = ["core", "solvers", *cardsim.list_games(), *(f"{g}-solvers" for g in cardsim.list_games())]
    hashed = {f.relative_to(ROOT).as_posix() for g in groups for f in _hashed(ROOT, g)}
    assert {"compiled/jit.py", "compiled/turns.py", "games/scopa/kernels.py",
            "games/bura/layout.py", "solvers/ismcts.py"} <= hashed
    assert not {f for f in hashed if not f.startswith(("compiled/", "games/", "solvers/"))}
    assert not {"errors.py", "game.py", "games/scopa/notation.py", "app/cli.py"} & hashed


COMPILING = {"kernel", "helper", "leaf", "generic", "njit", "intrinsic"}


def _names_read_by_compiled_code(tree) -> set[str]:
    """The global names read inside the module's compiled functions (by decorator)."""
    import ast
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any(
                (d.func if isinstance(d, ast.Call) else d).__dict__.get("id") in COMPILING
                for d in node.decorator_list):
            out |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
                    and isinstance(n.ctx, ast.Load)}
    return out


def test_compiled_code_reads_no_constant_from_outside_its_group():
    """A constant that compiled code reads is baked into its machine code, so it must come
    from a module its group's hash covers: no compiled function reads a name that its module
    imported from a module outside its group's folders, unless it is a function, a class or
    a module (a number, a string, a tuple or an array would be baked in unhashed)."""
    import ast

    from cardsim.compiled.cache import ROOT, group_parts
    found, folders = _compiling_modules()
    bad = []
    for path, part in found.items():
        allowed = [folders[p] for p in group_parts(part if part in ("core", "solvers")
                                                  else f"{part}-solvers")]
        tree = ast.parse(path.read_bytes())
        module = ".".join(("cardsim", *path.relative_to(ROOT).with_suffix("").parts))
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        read = _names_read_by_compiled_code(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            if not base.startswith("cardsim"):
                continue
            source = ROOT.joinpath(*base.split(".")[1:])
            if any(a == source or a in source.parents for a in allowed):
                continue
            for alias in node.names:
                if (alias.asname or alias.name) in read:
                    bad.append(f"{path.relative_to(ROOT)}: {alias.name} from {base}")
    assert not bad, "\n".join(bad)


def test_a_cached_function_is_not_named_by_its_line():
    """Numba names a cached function's files by its line unless its locator says otherwise: a
    docstring added above it would orphan its cached code (the hash does not change)."""
    from cardsim.compiled.cache import GroupLocator
    from cardsim.compiled.rng import rng_next, rng_shuffle
    first, second = (GroupLocator(f.py_func, f.py_func.__code__.co_filename, "core")
                     for f in (rng_next, rng_shuffle))
    assert rng_next.py_func.__code__.co_firstlineno != rng_shuffle.py_func.__code__.co_firstlineno
    assert first.get_disambiguator() == second.get_disambiguator()


def test_the_cache_lives_in_numba_cache_dir_or_the_user_cache(tmp_path):
    code = ("import cardsim, json; from cardsim.compiled.cache import group_folder; "
            "print(json.dumps([str(group_folder(g)) for g in ('core', 'scopa-solvers')]))")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=dict(env, XDG_CACHE_HOME=str(tmp_path)))
    core, solvers = json.loads(run.stdout)
    assert core.startswith(str(tmp_path / "cardsim" / "core-"))
    assert solvers.startswith(str(tmp_path / "cardsim" / "scopa-solvers-"))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=dict(env, NUMBA_CACHE_DIR=str(tmp_path / "mine")))
    assert json.loads(run.stdout)[0].startswith(str(tmp_path / "mine" / "core-"))


def test_prune_removes_only_other_versions(tmp_path, monkeypatch):
    from cardsim.compiled import cache as _cache
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    current = _cache.group_folder("scopa")
    current.mkdir(parents=True)
    old = tmp_path / "scopa-0123456789abcdef"
    old.mkdir()
    other = tmp_path / "notes"
    other.mkdir()
    assert _cache.prune(cardsim.list_games()) == [old]
    assert current.is_dir() and other.is_dir() and not old.exists()

"""The layers of DESIGN.md run one way, and no module imports itself round a cycle.

The import graph of the ``cardsim`` package is read from the sources with :mod:`ast`: every ``import`` and ``from ... import`` anywhere in a module
(inside functions too), relative imports resolved; ``from pkg import name`` is an edge to
``pkg.name`` when that is a module, else to ``pkg``; importing ``a.b.c`` is an edge to ``a.b.c``
only (no implicit edges to the parent packages that Python also runs).

Layers, lowest first: the engines (``cardsim`` but the packages named next), ``cardsim.solvers``,
``cardsim.experiments``, ``cardsim.reports``, and the application (``cardsim.app``,
``cardsim.__main__``), which alone may import from every layer. A module may import from its own layer or below.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cardsim",)
LAYERS = ("cardsim", "cardsim.solvers", "cardsim.experiments", "cardsim.reports", "cardsim.app")
"""The layers, lowest first (by name: :func:`layer`)."""


# --- the graph ---------------------------------------------------------------------------------

def modules(root: Path = ROOT, packages=PACKAGES) -> dict[str, Path]:
    """Module name -> source file of every ``.py`` file of the packages."""
    out = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _base(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute module of ``from <level dots><name> import ...`` written in ``module``."""
    if level == 0:
        return name or ""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    if level > 1:
        parts = parts[:len(parts) - (level - 1)]
    return ".".join(parts + ([name] if name else []))


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``module`` (source ``path``) imports (module docstring)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _base(module, is_package, node.level, node.module)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                out.add(full if full in known else base)
    return {m for m in out if m in known and m != module}


def import_graph(root: Path = ROOT, packages=PACKAGES) -> dict[str, set[str]]:
    """Module -> the modules it imports, for every module of the packages."""
    found = modules(root, packages)
    known = set(found)
    return {m: imports_of(m, path, known) for m, path in found.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, with
    an explicit stack), each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    component.append(m)
                    if m == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return sorted(out)


def layer(module: str) -> int:
    """A module's layer: its index in :data:`LAYERS` (the application is ``cardsim.app`` and
    ``cardsim.__main__``)."""
    if module == "cardsim.__main__":
        return LAYERS.index("cardsim.app")
    return max(i for i, name in enumerate(LAYERS)
               if module == name or module.startswith(name + ".") or name == "cardsim")


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a higher layer, as ``"a (layer) -> b (layer)"``."""
    return [f"{m} ({LAYERS[layer(m)]}) -> {t} ({LAYERS[layer(t)]})"
            for m in sorted(graph) for t in sorted(graph[m]) if layer(t) > layer(m)]


# --- the checks on the sources -----------------------------------------------------------------

GRAPH = import_graph()


def test_the_graph_sees_the_packages():
    """The graph holds the known modules and edges (a reader that found nothing would pass)."""
    assert {"cardsim", "cardsim.app.cli", "cardsim.solvers.agents", "cardsim.experiments.tables",
            "cardsim.reports.content"} <= set(GRAPH)
    assert "cardsim.solvers.agent_spec" in GRAPH["cardsim.solvers.agents"]              # from .agent_spec import
    assert "cardsim.solvers.warmup" in GRAPH["cardsim.app.engine"]              # inside a function
    assert "cardsim.app.cli" in GRAPH["cardsim.__main__"]               # from .app.cli import
    assert "cardsim" in GRAPH["cardsim.experiments.store"]                      # from cardsim import name


def test_no_import_cycle():
    found = cycles(GRAPH)
    assert not found, "import cycles (each a set of modules that import one another): " + \
        "; ".join(" <-> ".join(c) for c in found)


def test_layers_import_downward_only():
    bad = upward(GRAPH)
    assert not bad, ("imports of a higher layer (the order is " + " < ".join(LAYERS)
                     + "):\n  " + "\n  ".join(bad))


def test_the_compiled_toolkit_is_the_bottom_layer():
    """``cardsim.compiled`` (the core compile group, hashed into every compiled function's cache
    folder) imports nothing of cardsim but itself and the error classes: a compiled module that
    reached into the game protocol or the records could bake their contents into machine code
    cached against other sources."""
    bad = {m: sorted(t for t in GRAPH[m] if not t.startswith("cardsim.compiled")
                     and t != "cardsim.errors")
           for m in GRAPH if m.startswith("cardsim.compiled")}
    assert {m for m in GRAPH if m.startswith("cardsim.compiled.")} >= {
        "cardsim.compiled.jit", "cardsim.compiled.cache", "cardsim.compiled.rng"}
    assert not {m: t for m, t in bad.items() if t}, bad


# --- the checker itself ------------------------------------------------------------------------

def test_cycle_finder_on_a_hand_made_graph():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"a"},
             "g": {"g"}, "h": set()}
    assert cycles(graph) == [["a", "b", "c"], ["d", "e"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert cycles({"x": {"y"}, "y": {"x"}, "z": {"x"}}) == [["x", "y"]]
    chain = {f"m{i}": {f"m{i + 1}"} for i in range(5000)}      # deep: no recursion limit
    chain["m5000"] = {"m0"}
    assert cycles(chain) == [sorted(chain)]


def test_layer_order():
    assert [layer(m) for m in ("cardsim.game", "cardsim.games.scopa.kernels", "cardsim.solvers.agents",
                               "cardsim.experiments.store", "cardsim.reports.run", "cardsim.app.cli",
                               "cardsim.__main__", "cardsim.app")] == [0, 0, 1, 2, 3, 4, 4, 4]
    assert upward({"cardsim.game": {"cardsim.solvers.agents"}, "cardsim.solvers.agents": {"cardsim.game"},
                   "cardsim.app.cli": {"cardsim.reports"}}) == [
        "cardsim.game (cardsim) -> cardsim.solvers.agents (cardsim.solvers)"]


def test_graph_of_a_small_tree(tmp_path):
    """Relative imports, ``from pkg import module`` against ``from pkg import name``,
    function-level imports, and a cycle that a lazy import hides."""
    files = {
        "p/__init__.py": "from .a import f\n",
        "p/a.py": "import os\nfrom . import b\n\ndef f():\n    from .sub.c import g\n",
        "p/b.py": "from p.sub import c\nfrom p.sub import VALUE\n",
        "p/sub/__init__.py": "VALUE = 1\n",
        "p/sub/c.py": "from .. import b\nfrom ..a import f\nimport p.sub\n",
        "q/__init__.py": "",
        "q/d.py": "import p.sub.c\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    graph = import_graph(tmp_path, ("p", "q"))
    assert graph == {"p": {"p.a"}, "p.a": {"p.b", "p.sub.c"}, "p.b": {"p.sub", "p.sub.c"},
                     "p.sub": set(), "p.sub.c": {"p.a", "p.b", "p.sub"}, "q": set(),
                     "q.d": {"p.sub.c"}}
    assert cycles(graph) == [["p.a", "p.b", "p.sub.c"]]


# --- agent specs without compiled code ---------------------------------------------------------

def test_reading_a_store_and_its_agents_imports_no_compiled_solver():
    """A store's reader (cardsim.experiments.store, the spec, the report's run) parses its agent specs
    with cardsim.solvers.agent_spec alone: no solver module with compiled code is imported. (numba
    itself is: ``import cardsim`` sets up its cache locator, and a spec's rules are checked by
    loading the game.)"""
    code = """
import sys
import cardsim.experiments.store
from cardsim.experiments.spec import spec_from_dict
from cardsim.reports.run import load_run
from cardsim.solvers.agent_spec import parse_agent, search_budget

store = cardsim.experiments.store.Store("tests/data/scopa_budget")
spec = spec_from_dict(store.manifest()["spec"])
budgets = [search_budget(parse_agent(a)) for a in spec.agents]
assert budgets[2][:2] == ("iterations", 10.0), budgets
run = load_run("tests/data/scopa_budget")
assert len(run.rows) > 0 and run.spec == spec
print(" ".join(sorted(m for m in sys.modules if m.startswith("cardsim.solvers"))))
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == ["cardsim.solvers", "cardsim.solvers.agent_spec"]


def test_agent_spec_module_imports_no_numba():
    """cardsim.solvers.agent_spec itself imports nothing compiled: its own imports are plain (the
    registry, inside :func:`cardsim.solvers.agent_spec.level`, only when a level is asked for a game
    by name: its package declares its levels)."""
    assert GRAPH["cardsim.solvers.agent_spec"] <= {"cardsim.errors", "cardsim.protocol.registry"}
    source = (ROOT / "cardsim" / "solvers" / "agent_spec.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not {n for n in names if n.split(".")[0] == "numba"}


@pytest.mark.parametrize("module", ["cardsim.app.cli", "cardsim.app.arguments",
                                    "cardsim.app.engine", "cardsim.app.positions",
                                    "cardsim.app.studies", "cardsim.app.bench",
                                    "cardsim.app.interactive"])
def test_the_application_defines_no_compiled_code(module):
    """cardsim/compiled/cache.py keeps compiled code of its groups' folders only (not
    ``cardsim/app/``): a compiled function there would be cached by numba's own rules."""
    source = (ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")
    decorators = {d.id if isinstance(d, ast.Name) else getattr(d, "attr", "")
                  for n in ast.walk(ast.parse(source))
                  if isinstance(n, (ast.FunctionDef, ast.ClassDef))
                  for d in (x.func if isinstance(x, ast.Call) else x for x in n.decorator_list)}
    assert not decorators & {"kernel", "helper", "leaf", "generic", "njit", "jit", "intrinsic"}


def test_no_game_is_named_outside_its_package():
    """Every game fact lives in its game's package and is read through its
    ``GameDefinition``: outside ``cardsim/games/`` no code compares a game's name with a
    literal one or keys a table by it (the registry's one line per game aside), and no module
    declares a deck (a module-level ``Deck(...)``: a game's cards are its layout's ``DECK``)."""
    import re

    from cardsim.protocol.registry import list_games
    names = "|".join(list_games())
    literal = rf"[\"']({names})[\"']"
    pattern = re.compile(rf"(==|!=|\bin\b)\s*[\(\[\{{]?\s*{literal}|{literal}\s*(==|!=|:)")
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith("cardsim/games/") or relative == "cardsim/protocol/registry.py":
                continue
            source = path.read_text(encoding="utf-8")
            for number, line in enumerate(source.splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{relative}:{number}: {line.strip()}")
            for node in ast.parse(source).body:
                value = getattr(node, "value", None)
                if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(value, ast.Call) \
                        and getattr(value.func, "id", getattr(value.func, "attr", "")) == "Deck":
                    found.append(f"{relative}:{node.lineno}: a deck declared outside a game")
    assert len(names.split("|")) >= 4 and not found, "\n".join(found)

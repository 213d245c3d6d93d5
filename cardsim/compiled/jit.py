"""How cardsim compiles: three decorators for a game's kernels and one for code written once
for every game (DESIGN.md §1).

- :func:`kernel` — an entry point, called from Python or from other compiled code
  (``legal_actions``, ``play_random_deals``): ``@njit(cache=True, _nrt=False)``, so it pays no
  reference counting (``nrt=True`` for one that allocates).
- :func:`helper` — called only from compiled code: LLVM inlines it into its callers
  (``forceinline``), it has no Python wrapper and no reference counting. Numba's own
  ``inline="always"`` inlines numba IR instead, once per call site and with the whole caller
  re-analysed each time: a kernel of nested helpers took over a minute to compile that way,
  against a few seconds now, and runs as fast or faster (``cardsim bench``).
- :func:`leaf` — numba-IR inlining, for the few tiny helpers that hand back a view of an array
  (LLVM-level inlining cannot return an array without reference counting).
- :func:`generic` — a solver's compiled function, written once against the placeholder
  module :data:`G` (``G.legal_actions(state, params, out)``) and compiled once per game:
  ``search[spec]`` is numba's dispatcher of a copy of ``search`` whose ``G`` is that game's
  kernels (:func:`namespace`) and whose calls to other generic functions are their copies for
  the same game. No game id at run time, no other game's code compiled, each game cached in
  its own folder (:mod:`cardsim.compiled.cache`).

**Compile time.** Numba compiles every called function on its own and links its machine code
into each caller, which LLVM then optimises again: a chain of solver layers (analysis → game
loop → agent → search) optimises the game's kernels once per layer. Thin layers are therefore
``inline="ir"`` (taken into their callers as numba IR: one optimisation for the whole chain),
and kernels' helpers are LLVM-inlined helpers.

**Switches.** A generic function may read module-level booleans named in ``switches``
(``if WITH_EXACT:``). They are constants of each copy: numba prunes the dead branch before it
types anything, so a copy without the exact agents never compiles the exact solver. A copy
depends on its own switches and on those of every generic function it calls; ``f[spec,
{"WITH_EXACT": False}]`` picks the copy (switches left out keep their module values).

>>> import numpy as np
>>> from cardsim.compiled.jit import G, generic
>>> @generic
... def moves(state, params, out):
...     return G.legal_actions(state, params, out)
>>> import cardsim
>>> game = cardsim.load_game("scopa")
>>> out = np.zeros(game.spec.max_actions, dtype=np.int64)
>>> int(moves[game.spec](game.new_deal(seed=1).vec, game.spec.params, out)) > 0
True
"""
from __future__ import annotations

import dataclasses
import types
from typing import Any, Callable, Mapping

from numba import njit
from numba import types as nb_types
from numba.core.registry import CPUDispatcher

_HELPER = dict(forceinline=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)


class Dispatcher(CPUDispatcher):
    """Numba's dispatcher, compiling one copy per argument *type*: a call from compiled code
    with a constant (``event(state, params, 0, points)``) is compiled for ``int64``, not once
    more for each constant value (numba's literal types; cardsim never asks for them)."""

    def get_call_template(self, args, kws):
        args = tuple(nb_types.unliteral(a) for a in args)
        kws = {k: nb_types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


class HelperDispatcher(Dispatcher):
    """The dispatcher of a :func:`helper`: compiled without a Python wrapper, so a call from
    Python is refused (it would jump to no code)."""

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.py_func.__module__}.{self.py_func.__qualname__} is a compiled "
                        "helper: call it from compiled code (or make it a kernel)")


def _dispatcher(fn: Callable, cls: type = Dispatcher, **options) -> Dispatcher:
    """``njit(cache=True, **options)`` with a dispatcher of class ``cls``."""
    dispatcher = cls(py_func=fn, locals={}, targetoptions=dict(options, nopython=True))
    dispatcher.enable_caching()
    return dispatcher


def _helper_dispatcher(fn: Callable, nrt: bool) -> HelperDispatcher:
    return _dispatcher(fn, HelperDispatcher, **_HELPER, _nrt=nrt)


def kernel(fn: Callable | None = None, *, nrt: bool = False, inline: bool = False):
    """A compiled entry point (module docstring); ``@kernel``, ``@kernel(nrt=True)`` for one
    that allocates, ``@kernel(inline=True)`` for a small one that compiled callers inline too
    (LLVM's ``alwaysinline``) while Python can still call it."""
    def wrap(f: Callable) -> Dispatcher:
        return _dispatcher(f, _nrt=nrt, forceinline=inline)
    return wrap if fn is None else wrap(fn)


def helper(fn: Callable | None = None, *, nrt: bool = False):
    """A compiled helper that LLVM inlines into its callers (module docstring); ``@helper``
    or ``@helper(nrt=True)`` for one that needs reference counting."""
    if fn is None:
        return lambda f: _helper_dispatcher(f, nrt)
    return _helper_dispatcher(fn, nrt)


def leaf(fn: Callable):
    """A tiny helper inlined as numba IR (module docstring): only for one returning a view."""
    return njit(cache=True, inline="always")(fn)


# --- code written once for every game ----------------------------------------------------------

G = types.ModuleType("cardsim.compiled.jit.G", """The placeholder of a game's kernels in generic code:
every name of :class:`cardsim.protocol.spec.Kernels` (``G.legal_actions``, ``G.heuristic``, ...) and,
for a game with an exact solver, ``G.exact_<hook>`` for every hook of
:class:`cardsim.protocol.spec.ExactHooks`; for a game with a match model, ``G.match_cell``; for a game
with a learned evaluation's encoding, ``G.encode``. Each copy of a generic function sees one
game's kernels under these names.""")

EXACT_HOOKS = ("single_deal", "side", "value", "features", "bounds", "order", "cards_left",
               "deal_return")
"""The compiled hooks of :class:`cardsim.protocol.spec.ExactHooks`, ``G.exact_<hook>`` in generic code."""
_NAMESPACES: dict[str, types.ModuleType] = {}


def namespace(game) -> types.ModuleType:
    """The kernels of ``game`` (a :class:`~cardsim.protocol.spec.GameDefinition`) under the protocol's
    names (:data:`G`), one module per game."""
    ns = _NAMESPACES.get(game.name)
    if ns is None:
        ns = types.ModuleType(f"cardsim.compiled.jit.G_{game.name}", f"{game.name}'s kernels")
        for f in dataclasses.fields(game.kernels):
            setattr(ns, f.name, getattr(game.kernels, f.name))
        if game.exact is not None:
            for name in EXACT_HOOKS:
                setattr(ns, f"exact_{name}", getattr(game.exact, name))
        if game.match_cell is not None:
            ns.match_cell = game.match_cell
        if game.encoding is not None:
            ns.encode = game.encoding.encode
        if game.world_start is not None:
            ns.world_start, ns.world_action = game.world_start, game.world_action
            ns.world_start_draws = game.world_start_draws
            ns.world_moves_whole = game.world_moves_whole
        ns.deal_word = game.layout.DEAL_NUMBER
        _NAMESPACES[game.name] = ns
    return ns


def _definition(game: Any):
    """The game's definition, given the definition, a ``GameSpec`` (its ``definition``) or a
    ``Game`` (its ``spec.definition``): the one object of these that has a ``layout``."""
    for found in (game, getattr(game, "definition", None),
                  getattr(getattr(game, "spec", None), "definition", None)):
        if found is not None and hasattr(found, "layout") and hasattr(found, "kernels"):
            return found
    raise TypeError(f"expected a game, a GameSpec or a GameDefinition, got {game!r}")


class Generic:
    """A function compiled once per game (module docstring); ``f[game]`` or ``f[game,
    switches]`` is the numba dispatcher for ``game`` (a Game, GameSpec or GameDefinition)."""

    def __init__(self, py_func: Callable, switches: tuple[str, ...], nrt: bool,
                 inline: bool | str) -> None:
        self.py_func = py_func
        self.switches = tuple(switches)
        self.nrt = nrt
        self.inline = inline
        self.copies: dict[tuple, Any] = {}
        self.__doc__ = py_func.__doc__
        self.__name__ = py_func.__name__
        self.__qualname__ = py_func.__qualname__
        self.__module__ = py_func.__module__
        self.__wrapped__ = py_func

    def __repr__(self) -> str:
        return f"<generic {self.__module__}.{self.__qualname__}>"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.__qualname__} is compiled per game: call "
                        f"{self.__qualname__}[spec](...)")

    def _callees(self) -> list[tuple[str, "Generic"]]:
        """(global name, function) of the generic functions this one calls."""
        glob = self.py_func.__globals__
        return [(n, glob[n]) for n in self.py_func.__code__.co_names
                if isinstance(glob.get(n), Generic)]

    def all_switches(self, _seen: frozenset = frozenset()) -> tuple[str, ...]:
        """The switches this function's copies depend on: its own and its callees'."""
        if self in _seen:
            raise RuntimeError(f"{self.__qualname__}: generic functions must not be recursive "
                               "(numba cannot load a cached recursive function)")
        found = list(self.switches)
        for _, callee in self._callees():
            found += callee.all_switches(_seen | {self})
        return tuple(sorted(set(found)))

    def switch_defaults(self, _seen: frozenset = frozenset()) -> dict[str, bool]:
        """Each switch's value when a caller gives none: the module's own global of that name
        where the module has one, else that of the callee's module that declares it."""
        glob = self.py_func.__globals__
        found: dict[str, bool] = {}
        for _, callee in self._callees():
            if callee not in _seen:
                found.update(callee.switch_defaults(_seen | {self}))
        found.update({name: bool(glob.get(name, False)) for name in self.switches})
        found.update({name: bool(glob[name]) for name in found if name in glob})
        return found

    def __getitem__(self, key):
        game, given = key if isinstance(key, tuple) else (key, {})
        return self.specialize(game, given)

    def specialize(self, game: Any, switches: Mapping[str, bool] | None = None):
        """The dispatcher of this function for ``game`` with ``switches`` (module docstring)."""
        record = _definition(game)
        glob = self.py_func.__globals__
        defaults = self.switch_defaults()
        values = {name: bool((switches or {}).get(name, defaults[name]))
                  for name in self.all_switches()}
        key = (record.name, tuple(sorted(values.items())))
        dispatcher = self.copies.get(key)
        if dispatcher is not None:
            return dispatcher
        new_globals = dict(glob)
        new_globals["G"] = namespace(record)
        new_globals.update(values)
        for name, callee in self._callees():
            new_globals[name] = callee.specialize(record, values)
        fn = types.FunctionType(self.py_func.__code__, new_globals, self.py_func.__name__,
                                self.py_func.__defaults__, self.py_func.__closure__)
        on = [name.removeprefix("WITH_").lower() for name, v in sorted(values.items()) if v]
        suffix = "__" + record.name + ("__" + ("_".join(on) or "base") if values else "")
        fn.__qualname__ = self.py_func.__qualname__ + suffix
        fn.__doc__ = self.py_func.__doc__
        fn.__kwdefaults__ = self.py_func.__kwdefaults__
        fn._cardsim_game = record.name            # its cache folder (cardsim/compiled/cache.py)
        if self.inline == "ir":
            dispatcher = _dispatcher(fn, _nrt=self.nrt, inline="always")
        elif self.inline:
            dispatcher = _helper_dispatcher(fn, self.nrt)
        else:
            dispatcher = _dispatcher(fn, _nrt=self.nrt)
        self.copies[key] = dispatcher
        return dispatcher


def generic(fn: Callable | None = None, *, switches: tuple[str, ...] = (), nrt: bool = True,
            inline: bool | str = False):
    """Declare a function compiled once per game (module docstring). ``nrt=False`` for one
    that allocates nothing; ``inline=True`` for a small helper LLVM inlines (no Python
    wrapper); ``inline="ir"`` for a layer of glue that compiled callers take in as numba IR
    (Python can still call it): its caller then compiles no separate copy of it, and does not
    re-optimise its code a second time (module docstring, "Compile time")."""
    def wrap(f: Callable) -> Generic:
        return Generic(f, switches, nrt, inline)
    return wrap if fn is None else wrap(fn)

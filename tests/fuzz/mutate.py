"""Mutations of valid JSON-like values (dicts, lists, strings, numbers) for the fuzz suite.

A mutation is three integers drawn by hypothesis, ``(where, how, what)``: ``where`` picks one
place of the value (any dict entry or list element, at any depth, or the whole value), ``how``
one of :data:`KINDS`, ``what`` its argument (which junk value, which other card name, which
number). The same integers always give the same mutated value, so a failing example shrinks
and replays like any hypothesis example.
"""
from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

JUNK = (None, True, False, 0, 1, -1, 7, 2 ** 63, -(2 ** 63) - 1, 10 ** 30, 1.5, float("nan"),
        float("inf"), "", "x", "deal", "match", "play", "ЖЖ", "\n", [], {}, [None], [[]],
        {"a": 1}, [1, 2], ["x"], [{}])
"""Values put where a value was: every JSON type, edge numbers, strings that are
almost names, nested empties."""

NUMBERS = (-1, 1, -(10 ** 6), 10 ** 6, 2 ** 63, -(2 ** 64), 10 ** 19)
"""Offsets added to a number."""

KINDS = ("delete", "rename", "junk", "wrap", "unwrap", "card", "number", "swap")
"""``delete`` a key or element; ``rename`` a key (or repeat a list element); put a ``junk``
value; ``wrap`` the value in a list; ``unwrap`` it (a list's first element, a dict's values);
put another ``card`` name of the same value (a duplicated card); shift a ``number``; ``swap``
two places."""

mutations = st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, len(KINDS) - 1),
                               st.integers(0, 10 ** 6)), min_size=1, max_size=3)
"""One to three mutations."""


def places(value: Any, path: tuple = ()) -> list[tuple]:
    """Every place in ``value``: the paths (keys and indices) of each dict entry and list
    element, depth first, the whole value (``()``) first."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += places(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += places(v, path + (i,))
    return out


def strings(value: Any) -> list[str]:
    """Every string inside ``value`` (card names, phases, modes)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def _get(value: Any, path: tuple) -> Any:
    for k in path:
        value = value[k]
    return value


def mutate(value: Any, steps: list[tuple[int, int, int]]) -> Any:
    """A deep copy of ``value`` with the mutations ``steps`` applied in order."""
    value = copy.deepcopy(value)
    for where, how, what in steps:
        value = _mutate_once(value, where, KINDS[how], what)
    return value


def _mutate_once(root: Any, where: int, kind: str, what: int) -> Any:
    all_places = places(root)
    path = all_places[where % len(all_places)]
    target = _get(root, path)
    new: Any
    if kind == "delete" and path:
        parent = _get(root, path[:-1])
        del parent[path[-1]]
        return root
    if kind == "rename" and path:
        parent = _get(root, path[:-1])
        if isinstance(parent, dict):
            parent[f"{path[-1]}_"] = parent.pop(path[-1])
        else:
            parent.insert(path[-1], copy.deepcopy(target))
        return root
    if kind == "swap" and len(all_places) > 2:
        other = all_places[what % len(all_places)]
        if other and path and other[:len(path)] != path and path[:len(other)] != other:
            a, b = _get(root, path), _get(root, other)
            _set(root, path, copy.deepcopy(b))
            _set(root, other, copy.deepcopy(a))
        return root
    if kind == "wrap":
        new = [target]
    elif kind == "unwrap" and isinstance(target, list) and target:
        new = target[0]
    elif kind == "unwrap" and isinstance(target, dict):
        new = list(target.values())
    elif kind == "card":
        names = strings(root) or ["x"]
        name = names[what % len(names)]
        new = target + [name] if isinstance(target, list) else name
    elif kind == "number" and isinstance(target, (int, float)) and not isinstance(target, bool):
        new = target + NUMBERS[what % len(NUMBERS)]
    else:
        new = copy.deepcopy(JUNK[what % len(JUNK)])
    if not path:
        return new
    _set(root, path, new)
    return root


def _set(root: Any, path: tuple, new: Any) -> None:
    _get(root, path[:-1])[path[-1]] = new

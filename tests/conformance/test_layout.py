"""Every game's state layout: the named slots of its state vector do not overlap.

A game's state is a flat ``numpy.uint64`` vector whose words are named by the offsets of its
layout module (``cardsim/games/<game>/layout.py``, the block that starts at its "state vector
offsets" comment and ends at ``STATE_LEN``). The layout's ``SLOT_WORDS`` states, apart from
the offsets, how many words each offset spans; the check runs for every registered game and
requires that

- ``SLOT_WORDS`` names exactly the layout's offsets (a new offset needs its width there), and
- the slots cover the words ``0 .. STATE_LEN - 1`` exactly once (no overlap, no gap).
"""
from __future__ import annotations

import ast
import inspect

import numpy as np

import cardsim
from cardsim.protocol.registry import definition


def pytest_generate_tests(metafunc):
    if "name" in metafunc.fixturenames:
        metafunc.parametrize("name", cardsim.list_games())


def offset_names(layout) -> list[str]:
    """The names the layout assigns after its "state vector offsets" comment, up to
    ``STATE_LEN``, widths (``*_WORDS``) aside."""
    source = inspect.getsource(layout)
    start = next((n for n, line in enumerate(source.splitlines(), 1)
                  if line.startswith("#") and "state vector offsets" in line.lower()), None)
    assert start is not None, f"{layout.__name__}: no '# State vector offsets' comment"
    names = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and node.lineno > start:
            name = node.targets[0].id
            if name == "STATE_LEN":
                return names
            if not name.endswith("_WORDS"):
                names.append(name)
    raise AssertionError(f"{layout.__name__}: no STATE_LEN after the offsets")


def test_state_offsets_do_not_overlap(name):
    """The slots of the game's state vector cover each word exactly once, and every offset of
    its layout has a slot."""
    L = definition(name).layout
    assert hasattr(L, "SLOT_WORDS"), f"{name}: no SLOT_WORDS in its layout"
    slots = list(L.SLOT_WORDS.items())
    names = [slot for slot, _ in slots]
    assert set(names) == set(offset_names(L)), \
        f"{name}: offsets without a slot {set(offset_names(L)) - set(names)}, " \
        f"slots without an offset {set(names) - set(offset_names(L))}"
    used = np.zeros(L.STATE_LEN, dtype=int)
    for slot, width in slots:
        start = getattr(L, slot)
        assert 0 <= start and start + width <= L.STATE_LEN, (slot, start, width)
        used[start:start + width] += 1
    assert (used == 1).all(), \
        f"{name}: words used twice {np.flatnonzero(used > 1)}, unused {np.flatnonzero(used == 0)}"

"""Compiled helpers that every game's kernels share: action ids and the order of the seats.

An action id is ``kind << shift | value``: the game's layout names its kinds and its shift
(the value is a card mask in Bura and Mushka, a card or combination index in Minchiate).
"""
import numpy as np

from .jit import helper


@helper
def action_id(kind, value, shift):
    """The action id of ``kind`` with ``value`` below bit ``shift``."""
    return np.int64((np.uint64(kind) << np.uint64(shift)) | np.uint64(value))


@helper
def next_seat(seat, n_players):
    """The seat after ``seat`` in playing order (every game here plays seat -> seat + 1)."""
    return seat + 1 if seat + 1 < n_players else 0


@helper
def kind_of(a, shift):
    """The kind of an action id made by :func:`action_id` with this ``shift``."""
    return np.int64(np.uint64(a) >> np.uint64(shift))


@helper
def value_of(a, shift):
    """The value (a card mask, a card or a combination index) of an action id made by
    :func:`action_id` with this ``shift``, as ``uint64``."""
    return np.uint64(a) & ((np.uint64(1) << np.uint64(shift)) - np.uint64(1))


@helper
def find_kind(actions, n_actions, kind, shift):
    """The index of the first of ``actions[:n_actions]`` of ``kind``, or -1."""
    for i in range(n_actions):
        if kind_of(actions[i], shift) == kind:
            return i
    return -1

"""Card planes of an observation: the pieces each game's notation builds its
``OBSERVATION_PLANES`` from (:attr:`cardsim.protocol.spec.GameDefinition.observation_planes`, the tensors
of :mod:`cardsim.interop.openspiel`). A plane function takes an observation dict
(``State.observation``) and the number of seats and gives a list of card-name lists, one a
plane."""
from __future__ import annotations


def flat(x) -> list:
    """The card names in a nested observation entry (lists, ``[seat, card]`` pairs)."""
    if x is None:
        return []
    if isinstance(x, str):
        return [x]
    if isinstance(x, (list, tuple)):
        return [c for item in x for c in flat(item)]
    return []


def per_seat(key: str, sub=None):
    """Planes ``key[s]`` (or ``key[s][sub]``), one per seat."""
    def planes(o, n):
        rows = o.get(key) or []
        return [flat((rows[s] if sub is None else rows[s][sub]) if s < len(rows) else [])
                for s in range(n)]
    return planes


def one(getter):
    """One plane: the cards of ``getter(observation)``."""
    return lambda o, n: [flat(getter(o))]

"""What every game's plain-Python reference engine (``cardsim/games/<game>/reference.py``, the
tests' oracle) shares: how one is made from a seed or from a position dict, and the order of
the seats. No rule of any game is here: each oracle restates its game's rules on its own.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from .rng import PyRng, rng_from_seed


class ReferenceEngine:
    """The base of each game's reference engine. A subclass names its ``game`` (as in
    position dicts), sets ``n`` (the players) and defines ``_start(rules, seed, mode,
    **setup)``: a new deal (``mode`` ``"deal"``) or match (``"match"``) from a seed."""

    game = ""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.rules_dict = dataclasses.asdict(rules)  # every option, for to_dict

    @classmethod
    def new_deal(cls, rules: Any, seed, **setup) -> ReferenceEngine:
        """One deal from a seed, terminal once it has a result (``setup``: what a deal of the
        game may start from, such as Mushka's ``records``)."""
        return cls._start(rules, seed, "deal", **setup)

    @classmethod
    def new_match(cls, rules: Any, seed) -> ReferenceEngine:
        """A whole match (Mushka: a game) from a seed."""
        return cls._start(rules, seed, "match")

    @classmethod
    def _start(cls, rules: Any, seed, mode: str, **setup) -> ReferenceEngine:
        raise NotImplementedError

    def draw_first_dealer(self, seed, n_players: int) -> None:
        """Each rules file's DEAL-1: the state's chance stream is 4 outputs of the seed's
        generator (as the kernels' ``seed_stream``), and the first dealer is drawn from it by
        lot."""
        caller = PyRng(rng_from_seed(seed))
        self.rng = PyRng([caller.next() for _ in range(4)])
        self.dealer = self.rng.below(n_players)

    @classmethod
    def for_position(cls, rules: Any, position: dict) -> ReferenceEngine:
        """A new engine for ``position`` (a dict of ``to_dict``'s form) of this game under
        ``rules``: ``from_dict`` then fills it in."""
        if position.get("game", cls.game) != cls.game:
            raise ValueError(f"not a {cls.game} position: game={position.get('game')!r}")
        g = cls(rules)
        if "rules" in position and position["rules"] != g.rules_dict:
            raise ValueError("position rules differ from the engine's rules")
        return g

    def next_seat(self, seat: int) -> int:
        """Dealing and play go seat -> seat + 1, round the table (every game here)."""
        return (seat + 1) % self.n

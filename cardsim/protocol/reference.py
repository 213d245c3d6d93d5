"""What every game's plain-Python reference engine (``cardsim/games/<game>/reference.py``, the
tests' oracle) shares: how one is made from a seed or from a position dict, and the order of
the seats. No rule of any game is here: each oracle restates its game's rules on its own.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from ..compiled.rng import PyRng, rng_from_seed


class ReferenceEngine:
    """The base of each game's reference engine. A subclass names its ``game`` (as in
    position dicts), sets ``n`` (the players) and defines :meth:`first_deal` (or its own
    ``_start(rules, seed, mode)``): a new deal (``mode`` ``"deal"``) or match (``"match"``)
    from a seed."""

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
        """Each rules file's DEAL-1 (:meth:`draw_first_dealer`), then :meth:`first_deal`;
        ``setup`` goes to :meth:`set_up` first."""
        g = cls(rules)
        g.mode = mode
        g.set_up(**setup)
        g.draw_first_dealer(seed, g.n)
        g.first_deal()
        return g

    def set_up(self) -> None:
        """What a game's first deal may start from (none here: Mushka's ``records``)."""

    def first_deal(self) -> None:
        """Deal the first deal, once the first dealer is drawn."""
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

    def placed(self, position: dict, deck) -> ReferenceEngine:
        """The end of each ``from_dict``: the chance stream of later deals
        (``position["rng"]``, when given) and every card of ``deck`` exactly once."""
        if "rng" in position:
            self.rng = PyRng([int(x) for x in position["rng"]])
        if sorted(self.all_cards()) != sorted(deck):
            raise ValueError(f"every one of the deck's {len(deck)} cards must appear exactly "
                             "once")
        return self

    def next_seat(self, seat: int) -> int:
        """Dealing and play go seat -> seat + 1, round the table (every game here)."""
        return (seat + 1) % self.n

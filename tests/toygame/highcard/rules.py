"""High card's variant options and their packed form for the kernels."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.protocol.options import check_options, option

# Indices into the int64 params vector that the kernels receive.
P_NUM_PLAYERS = 0
P_SUIT_BREAKS_TIES = 1      # 1 = of two equal ranks the higher suit wins, else the leader
P_MATCH_WINS = 2            # deals a player must win to win the match
N_PARAMS = 3


@dataclass(frozen=True, slots=True, kw_only=True)
class HighCardRules:
    """Variant switches for High card; each names the rule it changes."""

    num_players: int = option(2, (2,), "HC-DEAL-1", "two players")
    ties: str = option("leader", ("leader", "suit"), "HC-TRICK-2",
                       "two cards of one rank: the leader wins, or the higher suit")
    match_wins: int = option(2, (1, 2, 3), "HC-MATCH-1", "deals won that win a match")

    def __post_init__(self) -> None:
        check_options(self)

    def kernel_params(self) -> np.ndarray:
        """The packed int64 form the kernels read (indices ``P_*`` of this module)."""
        p = np.zeros(N_PARAMS, dtype=np.int64)
        p[P_NUM_PLAYERS] = self.num_players
        p[P_SUIT_BREAKS_TIES] = self.ties == "suit"
        p[P_MATCH_WINS] = self.match_wins
        return p


PRESETS = {"classic": HighCardRules()}

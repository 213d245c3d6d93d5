"""Scopa's variant options (rules/scopa.md §3) and their packed form for the kernels."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...protocol.options import check_options, option

# Indices into the int64 params vector that the kernels receive.
P_NUM_PLAYERS = 0
P_TARGET_SCORE = 1
P_REDEAL_KINGS = 2          # 1 = redeal on 3 or 4 kings among the first table cards
P_LAST_MOVE_SCOPA = 3       # 1 = a sweep with the very last card still counts
P_LEFTOVER_TO_CAPTURER = 4  # 1 = left-over table cards go to the last capturer
P_EQUAL_PRIORITY = 5        # 1 = an equal card forbids capturing a sum
P_PRIMIERA_FORFEIT = 6      # 1 = a side missing a suit cannot win primiera
P_HAND_SIZE = 7             # 3 (three at a time) or 9 (2x2, nine at once)
N_PARAMS = 8


@dataclass(frozen=True, slots=True, kw_only=True)
class ScopaRules:
    """Variant switches for Scopa; each names the rule it changes (rules/scopa.md §3)."""

    num_players: int = option(2, (2, 4), "SC-TEAM-2", "2 players, or 4 in two partnerships (2x2)")
    target_score: int = option(11, (11, 21, 31, 41, 51, 61, 71, 81, 91, 101), "SC-MATCH-1",
                               "match points that end a match")
    redeal_kings_on_table: str = option("three_or_more", ("off", "three_or_more"), "SC-DEAL-3",
                                        "redeal when 3 or 4 kings lie among the first table cards")
    last_move_scopa_counts: bool = option(False, (False, True), "SC-SCOPA-3",
                                          "a sweep made with the very last card scores a scopa")
    leftover_to_last_capturer: bool = option(True, (True, False), "SC-END-2",
                                             "cards left on the table go to the last capturer")
    equal_card_priority: bool = option(True, (True, False), "SC-CAPT-3",
                                       "an equal card on the table forbids capturing a sum")
    primiera_missing_suit: str = option("zero", ("zero", "forfeit"), "SC-PRIM-2",
                                        "a missing suit counts 0 (zero) or loses primiera (forfeit)")
    four_player_deal: str = option("three_at_a_time", ("three_at_a_time", "nine_at_once"),
                                   "SC-DEAL-5", "2x2 only: 3 cards at a time, or 9 each at once")
    tie_at_target: str = option("extra_deal", ("extra_deal",), "SC-MATCH-3",
                                "equal scores at or above the target: play another deal")

    def __post_init__(self) -> None:
        check_options(self)

    @property
    def hand_size(self) -> int:
        """Cards each player receives at a time (SC-DEAL-2, SC-DEAL-5)."""
        return 9 if self.num_players == 4 and self.four_player_deal == "nine_at_once" else 3

    def kernel_params(self) -> np.ndarray:
        """The packed int64 form the kernels read (indices ``P_*`` of this module)."""
        p = np.zeros(N_PARAMS, dtype=np.int64)
        p[P_NUM_PLAYERS] = self.num_players
        p[P_TARGET_SCORE] = self.target_score
        p[P_REDEAL_KINGS] = self.redeal_kings_on_table == "three_or_more"
        p[P_LAST_MOVE_SCOPA] = self.last_move_scopa_counts
        p[P_LEFTOVER_TO_CAPTURER] = self.leftover_to_last_capturer
        p[P_EQUAL_PRIORITY] = self.equal_card_priority
        p[P_PRIMIERA_FORFEIT] = self.primiera_missing_suit == "forfeit"
        p[P_HAND_SIZE] = self.hand_size
        return p


PRESETS = {
    "classic": ScopaRules(),
    "two_by_two": ScopaRules(num_players=4),
    "traditional_primiera": ScopaRules(primiera_missing_suit="forfeit"),
}

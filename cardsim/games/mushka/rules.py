"""Mushka's variant options (rules/mushka.md §3) and their packed form for the kernels."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import OptionError
from ...protocol.options import Integers, check_options, option
from . import layout

# Indices into the int64 params vector that the kernels receive.
P_NUM_PLAYERS = 0
P_DECK_SIZE = 1            # 32, 36 or 52 (``deck=auto`` resolved)
P_LOWEST_RANK = 2          # rank index of the deck's lowest card: 5 (7), 4 (6) or 0 (2)
P_START_POINTS = 3
P_REMISE = 4
P_ACE_BONUS = 5            # 5; doubled when spades are trump (MU-SCORE-3)
P_BONUS_AT_END = 6         # 1 = ace_bonus_timing=end_of_deal
P_DECLARED_STOP = 7        # 1 = stop_mode=declared
P_RESET_TO_START = 8       # 1 = overshoot_reset=start (25), 0 = start - 1 (24)
P_MUST_OVERTRUMP = 9
P_MUST_HEAD = 10
P_ACE_DISCARDABLE = 11
P_DEALER_TAKES_TRUMP = 12
P_LONE_REDEAL = 13         # 1 = lone_player=redeal
P_MAX_DEALS = 14           # 0 = no limit
N_PARAMS = 15

HAND_SIZE = 5              # MU-DEAL-2
MAX_DEALS = 1_000_000
"""The most deals of a game (``max_deals``), and the largest ``deal_number`` of a position."""
MAX_DEALS_ALLOWED = (None, Integers(1, MAX_DEALS))
"""MU-MATCH-2's ``max_deals``: none, or any number of deals up to :data:`MAX_DEALS`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MushkaRules:
    """Variant switches for Mushka; each names the rule it changes (rules/mushka.md §3)."""

    num_players: int = option(4, (3, 4, 5, 6, 7), "MU-PLAY-1", "players, each for himself")
    deck: str = option("auto", ("auto", "32", "36", "52"), "MU-DEAL-2",
                       "cards used: auto = 32 for 3-4 players, 52 for 5-7")
    start_points: int = option(25, (25, 30), "MU-SCORE-1", "each record starts at")
    remise_points: int = option(5, (5,), "MU-SCORE-2", "added for a deal without a trick")
    ace_bonus: int = option(5, (5,), "MU-SCORE-3", "written off for the ace of spades "
                            "(doubled when spades are trump)")
    ace_bonus_timing: str = option("first_trick", ("first_trick", "end_of_deal"), "MU-SCORE-3",
                                   "the ace bonus at the holder's first trick, or at the end")
    stop_mode: str = option("automatic", ("automatic", "declared"), "MU-STOP-4",
                            "a record of 0 stops the game at once, or by declaration")
    overshoot_reset: str = option("start_minus_excess", ("start_minus_excess", "start"),
                                  "MU-STOP-3", "a trick won at 0 restarts at 24 (or 25)")
    must_overtrump: bool = option(False, (False, True), "MU-PLAY-5",
                                  "without the led suit, trump higher than the trick if able")
    must_head_trick: bool = option(False, (False, True), "MU-PLAY-4",
                                   "follow suit higher than the trick's best if able")
    ace_of_spades_discardable: bool = option(False, (False, True), "MU-EXCH-4",
                                             "the ace of spades may be discarded")
    dealer_takes_trump_card: bool = option(False, (False, True), "MU-DEAL-3",
                                           "the dealer takes the turned card and discards one")
    lone_player: str = option("takes_all", ("takes_all", "redeal"), "MU-PASS-3",
                              "one player left: he takes all 5 tricks, or the deal is void")
    max_deals: int | None = option(None, MAX_DEALS_ALLOWED, "MU-MATCH-2",
                                   "a match ends after this many deals (lowest record wins)")

    def __post_init__(self) -> None:
        check_options(self)
        if self.deck_size < HAND_SIZE * self.num_players + 1:
            raise OptionError(
                f"option deck={self.deck!r} is too small for {self.num_players} players: "
                f"{HAND_SIZE} cards each and the trump card need {HAND_SIZE * self.num_players + 1}"
                " cards; use deck=auto, 36 or 52")

    @property
    def deck_size(self) -> int:
        """The number of cards in play (``deck=auto`` resolved, rules §1)."""
        if self.deck == "auto":
            return 32 if self.num_players <= 4 else 52
        return int(self.deck)

    @property
    def deck_mask(self) -> int:
        """The cards in play as a mask of the universal 52-card index."""
        return layout.deck_mask(self.deck_size)

    def kernel_params(self) -> np.ndarray:
        """The packed int64 form the kernels read (indices ``P_*`` of this module)."""
        p = np.zeros(N_PARAMS, dtype=np.int64)
        p[P_NUM_PLAYERS] = self.num_players
        p[P_DECK_SIZE] = self.deck_size
        p[P_LOWEST_RANK] = {32: 5, 36: 4, 52: 0}[self.deck_size]
        p[P_START_POINTS] = self.start_points
        p[P_REMISE] = self.remise_points
        p[P_ACE_BONUS] = self.ace_bonus
        p[P_BONUS_AT_END] = self.ace_bonus_timing == "end_of_deal"
        p[P_DECLARED_STOP] = self.stop_mode == "declared"
        p[P_RESET_TO_START] = self.overshoot_reset == "start"
        p[P_MUST_OVERTRUMP] = self.must_overtrump
        p[P_MUST_HEAD] = self.must_head_trick
        p[P_ACE_DISCARDABLE] = self.ace_of_spades_discardable
        p[P_DEALER_TAKES_TRUMP] = self.dealer_takes_trump_card
        p[P_LONE_REDEAL] = self.lone_player == "redeal"
        p[P_MAX_DEALS] = self.max_deals or 0
        return p


PRESETS = {
    "classic": MushkaRules(),
    "three_players": MushkaRules(num_players=3),
    "six_players": MushkaRules(num_players=6),
    "loo_style": MushkaRules(must_overtrump=True, must_head_trick=True,
                             dealer_takes_trump_card=True),
}

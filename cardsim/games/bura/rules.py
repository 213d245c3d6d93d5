"""Bura's variant options (rules/bura.md §3) and their packed form for the kernels."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...protocol.options import check_options, option

# Indices into the int64 params vector that the kernels receive.
P_NUM_PLAYERS = 0
P_FACEDOWN = 1            # FACEDOWN_* below
P_FALSE_CLAIM_MULT = 2    # multiplier of a false claim: 2 (double) or 1 (single)
P_MATCH_FORMAT = 3        # MATCH_* below
P_WINS_TARGET = 4
P_PENALTY_LIMIT = 5
P_INITIAL_REDEAL = 6      # 1 = redeal when a hand holds an active combination
P_MOLODKA_STOP = 7
P_MOSCOW = 8              # 0 off, 1 three aces, 2 three aces with the trump ace
P_SMALL_MOSCOW = 9        # 0 off, 1 three sixes with the trump six, 2 three tens with the trump ten
P_DOUBLE_BURA_VOID = 10   # 1 = two buras void the deal; 0 = the higher top trump wins
P_LEFT_OF_DEALER = 11     # 1 = the next deal's first lead is the dealer's left
P_BURA_OWN_LEAD = 12      # 1 = a bura counts only on its holder's lead
P_END_VOID = 13           # 1 = a deal played out without a claim is void
N_PARAMS = 14

FACEDOWN_ALWAYS = 0
FACEDOWN_CHOICE = 1
FACEDOWN_OFF = 2
MATCH_SINGLE_DEAL = 0
MATCH_WINS_TO_N = 1
MATCH_PENALTY_POINTS = 2


@dataclass(frozen=True, slots=True, kw_only=True)
class BuraRules:
    """Variant switches for Bura; each names the rule it changes (rules/bura.md §3)."""

    num_players: int = option(2, (2, 3, 4), "BU-DRAW-3", "players, each for himself")
    facedown_discards: str = option("always", ("always", "choice", "off"), "BU-RESP-6",
                                    "non-beating answers face down: always, by choice, never")
    false_claim_penalty: str = option("double", ("double", "single"), "BU-CLAIM-2",
                                      "a false claim loses double or single")
    match_format: str = option("single_deal", ("single_deal", "wins_to_n", "penalty_points"),
                               "BU-MATCH-1", "a match: one deal, wins to a target, penalties")
    wins_target: int = option(11, (11, 21), "BU-MATCH-2", "wins_to_n: wins needed (lead of 2)")
    penalty_limit: int = option(12, (12,), "BU-MATCH-3", "penalty_points: points that lose")
    initial_combo_redeal: bool = option(True, (True, False), "BU-DEAL-5",
                                        "redeal when a combination is dealt")
    molodka_stop: bool = option(False, (False, True), "BU-COMBO-5",
                                "3 plain cards of a suit may stop the leader")
    moscow: str = option("off", ("off", "three_aces", "three_aces_with_trump"), "BU-COMBO-1",
                         "three aces win the deal")
    small_moscow: str = option("off", ("off", "three_sixes_with_trump", "three_tens_with_trump"),
                               "BU-COMBO-6", "three sixes (tens) with the trump one may stop")
    double_bura: str = option("higher_top_card", ("higher_top_card", "void_deal"), "BU-COMBO-3",
                              "two buras at once: higher top trump wins, or void deal")
    next_deal_first_leader: str = option("last_trick_taker",
                                         ("last_trick_taker", "left_of_dealer"), "BU-LEAD-2",
                                         "who leads first in later deals")
    bura_timing: str = option("any_check_point", ("any_check_point", "own_lead"), "BU-COMBO-2",
                              "a bura wins at any check point, or on its holder's lead")
    end_without_claim: str = option("most_points", ("most_points", "void"), "BU-END-2",
                                    "all cards played, no claim: most points wins, or void")

    def __post_init__(self) -> None:
        check_options(self)

    def kernel_params(self) -> np.ndarray:
        """The packed int64 form the kernels read (indices ``P_*`` of this module)."""
        p = np.zeros(N_PARAMS, dtype=np.int64)
        p[P_NUM_PLAYERS] = self.num_players
        p[P_FACEDOWN] = ("always", "choice", "off").index(self.facedown_discards)
        p[P_FALSE_CLAIM_MULT] = 2 if self.false_claim_penalty == "double" else 1
        p[P_MATCH_FORMAT] = ("single_deal", "wins_to_n", "penalty_points").index(self.match_format)
        p[P_WINS_TARGET] = self.wins_target
        p[P_PENALTY_LIMIT] = self.penalty_limit
        p[P_INITIAL_REDEAL] = self.initial_combo_redeal
        p[P_MOLODKA_STOP] = self.molodka_stop
        p[P_MOSCOW] = ("off", "three_aces", "three_aces_with_trump").index(self.moscow)
        p[P_SMALL_MOSCOW] = ("off", "three_sixes_with_trump",
                             "three_tens_with_trump").index(self.small_moscow)
        p[P_DOUBLE_BURA_VOID] = self.double_bura == "void_deal"
        p[P_LEFT_OF_DEALER] = self.next_deal_first_leader == "left_of_dealer"
        p[P_BURA_OWN_LEAD] = self.bura_timing == "own_lead"
        p[P_END_VOID] = self.end_without_claim == "void"
        return p


PRESETS = {
    "classic": BuraRules(),
    "yard": BuraRules(molodka_stop=True, moscow="three_aces",
                      small_moscow="three_sixes_with_trump"),
    "three_players": BuraRules(num_players=3),
}

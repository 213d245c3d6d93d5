"""Minchiate's variant options (rules/minchiate.md §3) and their packed form for the kernels."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...protocol.options import check_options, option

# Indices into the int64 params vector that the kernels receive.
P_DEALS = 0                # deals in a match (new_match); resti add up
P_CUTTER_ROB = 1           # 1 = cutter_rob=auto
P_DEALER_ROB = 2           # 1 = dealer_rob=auto_all
P_ROB_CAP = 3              # 13
P_EXPOSE = 4               # 1 = expose_last_card=all_players
P_DISCARD_TRUMPS = 5       # 1 = zero-value trumps may be discarded
P_DECLARE_ALL = 6          # 1 = declaration_mode=all (no decisions)
P_DECLARE_AFTER_CARD = 7   # 1 = declaration_timing=after_own_first_card
P_FOLA = 8                 # FOLA_OPEN, FOLA_SUIT_COUNTS or FOLA_HIDDEN
P_DECINE_TWO = 9           # 1 = decine_four=two_triples
P_BONUS_ON_MATTO_COMBO = 10
P_RESTO = 11               # 60
P_CAPOT = 12               # 1 = capot=it_rules
N_PARAMS = 13

FOLA_OPEN, FOLA_SUIT_COUNTS, FOLA_HIDDEN = 0, 1, 2
FOLA_MODES = ("open", "suit_counts", "hidden")
DEALS_ALLOWED = tuple(range(1, 21))


@dataclass(frozen=True, slots=True, kw_only=True)
class MinchiateRules:
    """Variant switches for Minchiate; each names the rule it changes (rules/minchiate.md §3)."""

    deals: int = option(1, DEALS_ALLOWED, "MI-RESTO-4",
                        "deals in a match (new_match); the resti add up, the deal passes on")
    cutter_rob: str = option("auto", ("auto", "off"), "MI-CUT-1",
                             "the cutter robs eligible cards from the bottom of the pack")
    dealer_rob: str = option("auto_all", ("auto_all", "off"), "MI-ROB-1",
                             "the dealer robs every eligible card of the Fola")
    rob_cap: int = option(13, (13,), "MI-CUT-3", "most cards the cutter may rob")
    expose_last_card: str = option("all_players", ("all_players", "none"), "MI-DEAL-3",
                                   "each player's 21st card is dealt face up and scored")
    discard_trumps: bool = option(True, (True, False), "MI-DISC-2",
                                  "zero-value trumps may be discarded")
    declaration_mode: str = option("choice", ("choice", "all"), "MI-DECL-2",
                                   "each combination is declared by choice, or all of them")
    declaration_timing: str = option("before_first_lead",
                                     ("before_first_lead", "after_own_first_card"), "MI-DECL-1",
                                     "declarations before the first lead, or after one's "
                                     "first card")
    fola_visibility: str = option("open", FOLA_MODES, "MI-FOLA-1",
                                  "the Fola is opened before the first lead, only its suit "
                                  "counts are announced, or it stays hidden")
    decine_four: str = option("one_combination", ("one_combination", "two_triples"),
                              "MI-COMB-2", "trumps 10-20-30-40 are one combination or two")
    matto_bonus_on_matto_combo: bool = option(False, (False, True), "MI-COMB-4",
                                              "the Matto bonus also for Matto-1-40")
    resto_points: int = option(60, (60,), "MI-RESTO-2", "points in a resto")
    capot: str = option("off", ("off", "it_rules"), "MI-RESTO-4",
                        "a team without a trick pays at least 14 resti, its loss doubled")

    def __post_init__(self) -> None:
        check_options(self)

    def kernel_params(self) -> np.ndarray:
        """The packed int64 form the kernels read (indices ``P_*`` of this module)."""
        p = np.zeros(N_PARAMS, dtype=np.int64)
        p[P_DEALS] = self.deals
        p[P_CUTTER_ROB] = self.cutter_rob == "auto"
        p[P_DEALER_ROB] = self.dealer_rob == "auto_all"
        p[P_ROB_CAP] = self.rob_cap
        p[P_EXPOSE] = self.expose_last_card == "all_players"
        p[P_DISCARD_TRUMPS] = self.discard_trumps
        p[P_DECLARE_ALL] = self.declaration_mode == "all"
        p[P_DECLARE_AFTER_CARD] = self.declaration_timing == "after_own_first_card"
        p[P_FOLA] = FOLA_MODES.index(self.fola_visibility)
        p[P_DECINE_TWO] = self.decine_four == "two_triples"
        p[P_BONUS_ON_MATTO_COMBO] = self.matto_bonus_on_matto_combo
        p[P_RESTO] = self.resto_points
        p[P_CAPOT] = self.capot == "it_rules"
        return p


PRESETS = {
    "cardavia": MinchiateRules(),
    "florentine": MinchiateRules(declaration_timing="after_own_first_card",
                                 fola_visibility="suit_counts", capot="it_rules"),
    "declare_all": MinchiateRules(declaration_mode="all"),
}

"""Scopa, the Italian fishing game, exactly as ``../shared/rules/scopa.md`` specifies it.

Two players, or four in two partnerships (2x2). Roles of the modules: :mod:`.rules` (variant
options), :mod:`.layout` (state vector and action encoding), :mod:`.kernels` (compiled play),
:mod:`.scoring` (compiled scoring of a deal and a match), :mod:`.worlds` (hidden information:
sampled worlds, observed actions), :mod:`.heuristic`, :mod:`.notation` (positions and actions
as dicts and text), :mod:`.validation` (the checks that a position is possible),
:mod:`.reference` (plain-Python oracle for the tests), :mod:`.summary`, :mod:`.exact` (the
exact solver's hooks), :mod:`.match` (the match as states and deal outcomes, for match-equity
tables).

Returns: for a deal, each seat's side's deal points minus the other side's; for a match,
+1 for the winning side and -1 for the other.
"""
from ...cards import SCOPA
from ...spec import ExactHooks, GameDefinition
from . import exact, layout, match
from .rules import PRESETS, ScopaRules
from .summary import summarize

RECORD_COLUMNS = tuple(f"side{s}_{c}" for s in range(2) for c in layout.CATEGORIES) + (
    "dealer", "redeals", "moves")

GAME = GameDefinition.of_package(
    __name__, reference="ReferenceScopa", rules_type=ScopaRules, deck=SCOPA,
    summary="Italian fishing game: 40 cards, captures by equal card or sum, 2 players or 2x2",
    summarize=summarize, record_columns=RECORD_COLUMNS,
    max_actions=lambda rules: (layout.MAX_ACTIONS_9 if rules.hand_size == 9
                               else layout.MAX_ACTIONS_3),
    reward_scale=4.0,
    exact=ExactHooks(
        single_deal=exact.single_deal, side=exact.side_of, value=exact.deal_value,
        features=exact.features, bounds=exact.bounds, order=exact.move_order,
        cards_left=exact.cards_left, deal_return=exact.deal_return, unit="points of the deal's difference"),
    categories=("cards", "coins", "settebello", "primiera", "scopas"),
    match=match.model, match_cell=match.match_cell,
    partnerships=lambda rules: rules.num_players == 4)

__all__ = ["GAME", "PRESETS", "ScopaRules"]

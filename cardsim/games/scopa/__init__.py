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
from ...protocol.spec import DealConditions, ExactHooks, GameDefinition
from . import exact, layout, match
from .layout import DECK
from .rules import PRESETS, ScopaRules
from .summary import summarize

KINGS = DECK.matching(lambda c: c.startswith("K"))


def deal_refusal(rules: ScopaRules, place: int, cards, low: int) -> str | None:
    """SC-DEAL-3: a deal condition that puts at least three kings on the opening table (at
    least ``low`` of ``cards`` there, of which at most the non-kings are not kings) is never
    dealt as asked while such a table is redealt."""
    if place < 0 and rules.redeal_kings_on_table == "three_or_more" \
            and low - (cards & ~KINGS).bit_count() >= 3:
        return ("an opening table with three or four kings is redealt (SC-DEAL-3); set "
                "redeal_kings_on_table=off")
    return None


def return_bounds(rules: ScopaRules, n: int) -> tuple[float, float]:
    """A deal's return lies within ±(4 + 18): four categories, and at most one scopa for each
    of a side's 18 plays."""
    return -22.0, 22.0


ROW_COLUMNS = tuple(f"side{s}_{c}" for s in range(2) for c in layout.CATEGORIES) + (
    "dealer", "redeals", "moves")

GAME = GameDefinition.of_package(
    __name__, reference="ReferenceScopa", rules_type=ScopaRules,
    summary="Italian fishing game: 40 cards, captures by equal card or sum, 2 players or 2x2",
    summarize=summarize, row_columns=ROW_COLUMNS,
    max_actions=lambda rules: (layout.MAX_ACTIONS_9 if rules.hand_size == 9
                               else layout.MAX_ACTIONS_3),
    reward_scale=4.0,
    exact=ExactHooks(
        single_deal=exact.single_deal, side=exact.side_of, value=exact.deal_value,
        features=exact.features, bounds=exact.bounds, order=exact.move_order,
        cards_left=exact.cards_left, deal_return=exact.deal_return, unit="points of the deal's difference"),
    categories=("cards", "coins", "settebello", "primiera", "scopas"),
    match=match.model, match_cell=match.match_cell,
    partnerships=lambda rules: rules.num_players == 4,
    deal_conditions=DealConditions(
        sets={"coins": DECK.matching(lambda c: c.endswith("co")),
              "sevens": DECK.matching(lambda c: c.startswith("7")), "kings": KINGS},
        table=True, refuses=deal_refusal),
    return_bounds=return_bounds,
    # the opponent model (model=1) lifts ISMCTS from below the heuristic to about its level;
    # the learned evaluation wins at equal time with a wider c (README, "Agents")
    levels={"strong": "ismcts:seconds=0.1,rollout=heuristic,model=1",
            "best": "ismcts:seconds=1,rollout=heuristic,model=1",
            "fast": "ismcts:seconds=0.004,rollout=heuristic,leaf=net,c=1.4"},
    bench_where={"hold": {"0": ["7co", "7cu", "7sw"]}})

__all__ = ["GAME", "PRESETS", "ScopaRules"]

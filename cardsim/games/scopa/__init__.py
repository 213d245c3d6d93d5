"""Scopa, the Italian fishing game, exactly as ``../shared/rules/scopa.md`` specifies it.

Two players, or four in two partnerships (2x2). Roles of the modules: :mod:`.rules` (variant
options), :mod:`.layout` (state vector and action encoding), :mod:`.kernels` (compiled rules),
:mod:`.notation` (positions and actions as dicts and text), :mod:`.reference` (plain-Python
oracle for the tests).

Returns: for a deal, each seat's side's deal points minus the other side's; for a match,
+1 for the winning side and -1 for the other.
"""
from ...cards import SCOPA
from ...game import GameDefinition
from ...spec import GAME_IDS, GameSpec
from . import kernels, layout, notation
from .summary import summarize
from .rules import PRESETS, ScopaRules

RECORD_COLUMNS = tuple(f"side{s}_{c}" for s in range(2) for c in layout.CATEGORIES) + (
    "dealer", "redeals", "moves")


def make_spec(rules: ScopaRules) -> GameSpec:
    """The :class:`GameSpec` of Scopa under ``rules``."""
    return GameSpec(
        name="scopa", n_players=rules.num_players, n_cards=layout.N_CARDS,
        n_words=layout.N_WORDS, state_len=layout.STATE_LEN,
        max_actions=layout.MAX_ACTIONS_9 if rules.hand_size == 9 else layout.MAX_ACTIONS_3,
        params=rules.kernel_params(),
        new_deal=kernels.new_deal, new_match=kernels.new_match,
        legal_actions=kernels.legal_actions, apply_action=kernels.apply_action,
        is_terminal=kernels.is_terminal, current_player=kernels.current_player,
        returns=kernels.returns, determinize=kernels.determinize,
        play_random_deals=kernels.play_random_deals, record_columns=RECORD_COLUMNS,
        game_id=GAME_IDS["scopa"], dealer_word=layout.DEALER,
        max_deal_moves=layout.MAX_DEAL_MOVES, reward_scale=4.0)


DEFINITION = GameDefinition(
    name="scopa", rules_type=ScopaRules, deck=SCOPA, make_spec=make_spec, codec=notation,
    summary="Italian fishing game: 40 cards, captures by equal card or sum, 2 players or 2x2",
    summarize=summarize,
    categories=("cards", "coins", "settebello", "primiera", "scopas"))

__all__ = ["DEFINITION", "PRESETS", "ScopaRules", "make_spec"]

"""Bura, the Russian trick game of 36 cards, exactly as ``../shared/rules/bura.md`` specifies.

Two to four players, each for himself; multi-card leads, face-down throws, claims of 31.
Roles of the modules: :mod:`.rules` (variant options), :mod:`.layout` (state vector and action
encoding), :mod:`.kernels` (compiled rules), :mod:`.notation` (positions and actions as dicts
and text), :mod:`.reference` (plain-Python oracle for the tests).

Returns: for a deal, each loser -multiplier and the winners share the losers' total (0 for a
void deal); for a match, see :func:`.kernels.returns`.
"""
from ...cards import BURA
from ...game import GameDefinition
from ...spec import GAME_IDS, GameSpec
from . import kernels, layout, notation
from .rules import PRESETS, BuraRules
from .summary import summarize


def choose_random(legal: list, policy, rnd) -> int:
    """The random player of ``play_random_deals`` in Python: claim with probability
    ``policy[0]`` when a claim is legal, else a uniformly random other action."""
    claim = layout.CLAIM << layout.KIND_SHIFT
    others = [a for a in legal if a != claim]
    if claim in legal and (not others or rnd.random() < policy[0]):
        return claim
    return rnd.choice(others)


def make_spec(rules: BuraRules) -> GameSpec:
    """The :class:`GameSpec` of Bura under ``rules``."""
    return GameSpec(
        name="bura", n_players=rules.num_players, n_cards=layout.N_CARDS,
        n_words=layout.N_WORDS, state_len=layout.STATE_LEN, max_actions=layout.MAX_ACTIONS,
        params=rules.kernel_params(),
        new_deal=kernels.new_deal, new_match=kernels.new_match,
        legal_actions=kernels.legal_actions, apply_action=kernels.apply_action,
        is_terminal=kernels.is_terminal, current_player=kernels.current_player,
        returns=kernels.returns, determinize=kernels.determinize,
        play_random_deals=kernels.play_random_deals, record_columns=kernels.RECORD_COLUMNS,
        game_id=GAME_IDS["bura"], dealer_word=layout.DEALER,
        max_deal_moves=layout.MAX_DEAL_MOVES, reward_scale=1.0)


DEFINITION = GameDefinition(
    name="bura", rules_type=BuraRules, deck=BURA, make_spec=make_spec, codec=notation,
    summary="Russian trick game: 36 cards, leads of 1-3 cards, face-down throws, claim 31",
    summarize=summarize,
    random_player=(("claim_probability", 0.1,
                    "chance to claim 31 at each check point where a claim is legal; "
                    "otherwise a uniformly random other action"),),
    choose_random=choose_random, return_unit="stakes",
    categories=("points_up", "points_down", "points"))

__all__ = ["DEFINITION", "PRESETS", "BuraRules", "make_spec"]

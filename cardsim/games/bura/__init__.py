"""Bura, the Russian trick game of 36 cards, exactly as ``../shared/rules/bura.md`` specifies.

Two to four players, each for himself; multi-card leads, face-down throws, claims of 31.
Roles of the modules: :mod:`.rules` (variant options), :mod:`.layout` (state vector and action
encoding), :mod:`.kernels` (compiled play), :mod:`.scoring` (compiled scoring: points,
combinations, results, the match), :mod:`.worlds` (hidden information: ``determinize``,
``observed_action``), :mod:`.heuristic` (the heuristic agent), :mod:`.notation` (positions and
actions as dicts and text), :mod:`.validation` (the checks that a position is possible),
:mod:`.reference` and :mod:`.reference_scoring` (plain-Python oracle for the tests),
:mod:`.summary`, :mod:`.conformance` and :mod:`.exact` (the exact solver's hooks).

Returns: for a deal, each loser -multiplier and the winners share the losers' total (0 for a
void deal); for a match, see :func:`.kernels.returns`.
"""
from ...cards import BURA
from ...spec import ExactHooks, GameDefinition
from . import exact, kernels, layout
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


def exact_columns(value: int) -> dict:
    """A solver value's two parts as table columns: the deal's result, then the margin."""
    result, margin = exact.split_value(value)
    return {"result": "void" if result == 0 else f"{'win' if result > 0 else 'loss'} "
                                                 f"x{abs(result)}",
            "margin": margin}


def exact_refuses(rules: BuraRules) -> str | None:
    """The exact solver covers 2-player Bura only (two sides)."""
    if rules.num_players != 2:
        return (f"the exact solver covers 2-player Bura; this game has {rules.num_players} "
                "players")
    return None


# The same GameDefinition fields as every game's record (cardsim/spec.py).
GAME = GameDefinition.of_package(
    __name__, reference="ReferenceBura", rules_type=BuraRules, deck=BURA,
    summary="Russian trick game: 36 cards, leads of 1-3 cards, face-down throws, claim 31",
    summarize=summarize, record_columns=kernels.RECORD_COLUMNS,
    reward_scale=1.0,
    exact=ExactHooks(
        single_deal=exact.single_deal, side=exact.side_of, value=exact.deal_value,
        features=exact.features, bounds=exact.bounds, order=exact.move_order,
        cards_left=exact.cards_left, deal_return=exact.deal_return, unit="256 x the deal's result + the card-point margin", columns=exact_columns,
        refuses=exact_refuses),
    random_player=(("claim_probability", 0.1,
                    "chance to claim 31 at each check point where a claim is legal; "
                    "otherwise a uniformly random other action"),),
    choose_random=choose_random, return_unit="stakes",
    categories=("points_up", "points_down", "points"))

__all__ = ["GAME", "PRESETS", "BuraRules"]

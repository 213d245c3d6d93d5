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

A single deal may be set up to start from another first leader than the dealer's left
(``new_deal(seed, first_leader=...)``, :func:`set_first_leader`), as later deals of a match do
(BU-LEAD-2); the match model (:mod:`.match`) measures every deal configuration so.
"""
import numpy as np

from ...errors import CardsimError
from ...protocol.spec import DealConditions, ExactHooks, GameDefinition, TurnedSuit
from . import exact, kernels, layout, match
from .layout import DECK
from .rules import PRESETS, BuraRules
from .summary import summarize


def set_first_leader(vec, rules: BuraRules, first_leader=None, **other) -> None:
    """``new_deal(seed, first_leader=...)``: the deal's scheduled first leader is this seat, or
    the dealer himself with ``"dealer"`` (BU-LEAD-2: the last trick's taker leads a later
    deal), instead of the dealer's left (BU-LEAD-1); the cards are those of the seed either
    way (:func:`.kernels.lead_first`)."""
    n = rules.num_players
    if other:
        raise CardsimError("bura deals take a seed and first_leader, not "
                           + ", ".join(sorted(other)))
    if first_leader is None:
        return
    if first_leader == "dealer":
        first_leader = int(vec[layout.DEALER])
    elif isinstance(first_leader, bool) or not isinstance(first_leader, (int, np.integer)) \
            or not 0 <= first_leader < n:
        raise CardsimError(f"first_leader {first_leader!r}: expected a seat 0..{n - 1} or "
                           '"dealer"')
    kernels.lead_first(vec, rules.kernel_params(), int(first_leader))


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


TRUMPS = TurnedSuit(DECK, "scdh")


def deal_refusal(rules: BuraRules, place: int, cards, low: int) -> str | None:
    """BU-DEAL-5: a deal condition that puts three trumps in a first hand is never dealt as
    asked while such a hand (a bura) is redealt."""
    if place >= 0 and cards is TRUMPS and low >= 3 and rules.initial_combo_redeal:
        return ("three trumps (a bura) in a first hand are redealt (BU-DEAL-5); set "
                "initial_combo_redeal=false")
    return None


# The same GameDefinition fields as every game's definition (cardsim/protocol/spec.py).
GAME = GameDefinition.of_package(
    __name__, reference="ReferenceBura", rules_type=BuraRules,
    summary="Russian trick game: 36 cards, leads of 1-3 cards, face-down throws, claim 31",
    summarize=summarize, row_columns=kernels.ROW_COLUMNS,
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
    categories=("points_up", "points_down", "points"), deal_setup=set_first_leader,
    match_cell=match.match_cell,
    match=match.model,
    deal_conditions=DealConditions(
        sets={"trumps": TRUMPS, "tens": DECK.matching(lambda c: c[:-1] == "T"),
              "aces": DECK.matching(lambda c: c[:-1] == "A")},
        turned=True, refuses=deal_refusal),
    return_bounds=lambda rules, n: (-2.0, 2.0 * (n - 1)),   # a loser pays at most the doubled
    # false-claim stake; the winners share the losers' total
    # the opponent model loses, a wider c wins, and more time than 1,000 iterations (about
    # 5 ms) plays no better, so best is fast (README, "Agents")
    levels={"strong": "ismcts:iterations=1000,rollout=heuristic,c=2",
            "best": "ismcts:iterations=1000,rollout=heuristic,c=2",
            "fast": "ismcts:seconds=0.004,rollout=heuristic,leaf=net,c=2"},
    bench_where={"hold": {"0": ["6s", "6h", "6d"]}},
    match_rules={"match_format": "wins_to_n"})

__all__ = ["GAME", "PRESETS", "BuraRules"]

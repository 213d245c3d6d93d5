"""Minchiate (Germini), the 97-card Florentine tarot, as ``../shared/rules/minchiate.md``
specifies it: four players in two partnerships, the cutter's and the dealer's robbing, the
10 + 11 deal with the exposed 21st cards, the discards into the Fola, the declarations of
versicole and other combinations, 21 tricks (follow suit, else trump; the Matto excuses; the
King rule), dying cards scored at once, the end scoring, and the resto conversion after every
scoring event.

Roles of the modules: :mod:`.rules` (variant options), :mod:`.layout` (state vector, card
tables, the combination catalogue, action encoding), :mod:`.kernels` (compiled play),
:mod:`.scoring` (compiled scoring: combinations, resti, the end of the deal),
:mod:`.worlds` (hidden information: sampled worlds, observed actions), :mod:`.notation`
(positions and actions as dicts and text), :mod:`.reference` (plain-Python oracle for the
tests), :mod:`.heuristic`, :mod:`.summary` (the tables of ``cardsim simulate minchiate``),
:mod:`.exact` (the exact solver's hooks, for endgames), :mod:`.match` (the match as states
and deal outcomes, for match-equity tables).

Returns: the net resti of team A (seats 0 and 2) for seats 0 and 2 and the opposite for seats
1 and 3 (zero-sum between the teams); ``new_match`` plays ``deals`` deals and adds them up.

Decisions where the rules are silent (each also in the kernel that implements it):

- Every player gets his declaration turn (``declaration_mode=choice``) even with nothing to
  declare, so that the turn reveals nothing; he declares his combinations one at a time in
  ascending catalogue order (each subset is one path) and ends with ``done`` or ``done bonus``
  (the Matto bonus); declined combinations are never named.
- MI-DISC-3: with ``discard_trumps=false``, a player without eligible cards discards his
  zero-value trumps before T29.
- MI-MATTO-2: the debtor pays its lowest-index zero-value card other than T29, else its
  lowest-valued card (no decision: which zero-value card moves cannot change any score).
- ``capot=it_rules``: when a team won no trick, the other team's net resti become
  ``max(14, 2 × net)``.
- A card the table has seen in a hand (robbed, or an exposed 21st card) stays public: when it
  is discarded, everybody sees it go to the Fola (other discards are face down); the
  observation, the sampled worlds and the observed actions all treat it so.
- A declaration proves what a maximal run, three Kings or a decina exclude (a declared run's
  neighbours are not in the hand); the sampled worlds honour it (:mod:`.worlds`).
- ``fola_visibility``: ``fola_open`` is set at the first lead only with ``open``.
- A match (``deals`` > 1) passes the deal to the dealer's right (seat ``d + 1``).
"""
from __future__ import annotations

import math

from ...protocol.spec import DealConditions, ExactHooks, GameDefinition
from . import exact, layout, match, scoring
from .layout import DECK
from .rules import PRESETS, MinchiateRules
from .summary import summarize


def choose_random(legal: list, policy, rnd) -> int:
    """The random player of ``play_random_deals`` in Python (:func:`.kernels.random_action`):
    uniform among discards and cards; in a declaration each combination, ascending, is
    declared with probability ``policy[0]``, then the bonus claimed with that probability."""
    declares = [a for a in legal if a >> layout.KIND_SHIFT == layout.DECLARE]
    if not any(a >> layout.KIND_SHIFT == layout.DONE for a in legal):
        return rnd.choice(legal)
    for a in declares:
        if rnd.random() < policy[0]:
            return a
    done = layout.DONE << layout.KIND_SHIFT
    if done + 1 in legal and rnd.random() < policy[0]:
        return done + 1
    return done


def return_bounds(rules: MinchiateRules, n: int) -> tuple[float, float]:
    """A bound on the resti of every point of a deal, doubled for ``capot``: every card's
    value counted three times (robbed or exposed, dying, in a pile), a point per card beyond
    42, every combination declared and again in a pile, the last trick."""
    points = (3 * int(layout.VALUE.sum()) + layout.N_CARDS + 2 * int(layout.COMBO_VALUE.sum())
              + layout.LAST_TRICK_POINTS)
    bound = 2 * (math.ceil(points / rules.resto_points) + 1)
    return -float(bound), float(bound)


GAME = GameDefinition.of_package(
    __name__, reference="ReferenceGame", rules_type=MinchiateRules,
    summary="Florentine tarot: 97 cards, 2 x 2 partnerships, robbing, versicole, resti",
    summarize=summarize, row_columns=scoring.ROW_COLUMNS,
    reward_scale=2.0, n_players=lambda rules: 4, partnerships=lambda rules: True,
    exact=ExactHooks(
        single_deal=exact.single_deal, side=exact.side_of, value=exact.deal_value,
        features=exact.features, bounds=exact.bounds, order=exact.move_order,
        cards_left=exact.cards_left, deal_return=exact.deal_return,
        unit="net resti of team A, seats 0 and 2", max_cards=exact.MAX_CARDS),
    random_player=(
        ("declare_probability", 1.0, "in a declaration: chance to declare each combination "
         "(and to claim the Matto bonus); play and discards are uniform"),),
    choose_random=choose_random, return_unit="net resti",
    categories=("pile", "dying", "declarations", "beyond_42", "last_trick"),
    match=match.model, match_cell=match.match_cell,
    deal_conditions=DealConditions(sets={
        "trumps": DECK.mask([f"T{n}" for n in range(1, 41)]),
        "kings": DECK.matching(lambda c: c[:-2] == "K")}),
    return_bounds=return_bounds,
    # nothing measured beats the default levels but fast's: the learned evaluation loses
    # to play-outs, the heuristic's advice (prior=10) wins where the search is short
    levels={"fast": "ismcts:seconds=0.004,rollout=heuristic,prior=10"},
    bench_where={"count": [{"seat": 0, "cards": "trumps", "min": 18}]})

__all__ = ["GAME", "PRESETS", "MinchiateRules"]

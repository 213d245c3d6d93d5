"""Mushka, the Russian Loo-like game of the ace of spades, as ``../shared/rules/mushka.md``
specifies it: 3 to 7 players each for himself, an exchange round with passing, five tricks
with the duty to follow suit and else to trump, and a count-down from 25 to 0.

Roles of the modules: :mod:`.rules` (variant options), :mod:`.layout` (state vector and action
encoding), :mod:`.kernels` (compiled play), :mod:`.scoring` (compiled scoring and the stop at
0), :mod:`.worlds` (hidden information: ``determinize``, ``observed_action``), :mod:`.heuristic`,
:mod:`.notation` (positions and actions as dicts and text), :mod:`.validation` (the checks that
a position is possible), :mod:`.reference` and :mod:`.reference_scoring` (plain-Python oracle for
the tests), :mod:`.summary` (the tables of ``cardsim simulate mushka``) and :mod:`.exact` (the
exact solver's hooks: a paranoid search of endgames).

Returns: for a deal, each player's record written off (``start_record - record``: +1 per
trick, +5 or +10 for the ace bonus, -5 or -10 for a remise; not zero-sum); for a game
(``new_match``), +1 shared by the winners and -1/(n-1) for each other player.

Decisions where the rules are silent (each also in the kernel that implements it):

- ``dealer_takes_trump_card``: the dealer adds the turned card to his hand and at once
  discards one other card face down (never the ace of spades unless
  ``ace_of_spades_discardable``); the taken card stays publicly known in his hand, so he may
  not discard it in the exchange either. When the turned card is the ace of spades, the
  dealer who took it holds it after the exchange and is its holder (MU-ACE-5 names the turned
  card as held by nobody only while it lies on the table).
- ``must_head_trick``: a player following suit must beat the best card of the suit in the
  trick when he can, unless the trick was trumped; ``must_overtrump``: a player trumping must
  beat the best trump in the trick when he can, and otherwise may play any trump.
- A lone player (MU-PASS-3) is credited his five tricks one at a time, each exactly like a
  trick won in play (ace bonus, stop at 0, stop offers).
- ``stop_mode=declared`` (MU-STOP-4): a player at 0 is offered the stop after the trick or
  bonus that brought him there, and at the end of the deal (after the remises) every player
  at 0 is offered it in turn from the dealer's left.
"""
from __future__ import annotations

from ...errors import CardsimError
from ...protocol.spec import DealConditions, ExactHooks, GameDefinition, TurnedSuit
from . import exact, layout, match, scoring
from .layout import DECK
from .rules import PRESETS, MushkaRules
from .summary import summarize


def choose_random(legal: list, policy, rnd) -> int:
    """The random player of ``play_random_deals`` in Python (its docstring): in the exchange
    pass, stand or exchange a uniformly chosen set by ``policy[0]`` and ``policy[1]``; at a
    stop offer stop with probability ``policy[2]``; elsewhere uniformly."""
    kind = legal[0] >> layout.KIND_SHIFT
    pass_id = layout.PASS << layout.KIND_SHIFT
    stand_id = layout.STAND << layout.KIND_SHIFT
    if kind == layout.STOP:
        return legal[0] if rnd.random() < policy[2] else legal[1]
    if stand_id not in legal:
        return rnd.choice(legal)
    u = rnd.random()
    sets = [a for a in legal if a >> layout.KIND_SHIFT == layout.EXCHANGE]
    if u < policy[0]:
        return pass_id if pass_id in legal else stand_id
    if u < policy[0] + policy[1] or not sets:
        return stand_id
    return rnd.choice(sets)


def set_records(vec, rules: MushkaRules, records=None, **other) -> None:
    """``new_deal(seed, records=[...])``: the deal starts from these records (rules §1)."""
    n = rules.num_players
    if other:
        raise CardsimError("mushka deals take a seed and records, not " + ", ".join(sorted(other)))
    if records is None:
        return
    if (not isinstance(records, (list, tuple)) or len(records) != n
            or not all(isinstance(r, int) and not isinstance(r, bool) for r in records)):
        raise CardsimError(f"records {records!r}: expected a list of {n} integers, one per "
                           "seat")
    low = 0 if rules.stop_mode == "declared" else 1
    for seat, r in enumerate(records):
        if not low <= r <= 999:
            raise CardsimError(f"record {r} of seat {seat}: expected {low} to 999"
                               + ("" if low == 0 else " (a record of 0 has already stopped the "
                                  "game; stop_mode=declared allows it)"))
    for seat, r in enumerate(records):
        vec[layout.RECORD + seat] = r
        vec[layout.START_RECORD + seat] = r


def endless_match(rules: MushkaRules) -> str | None:
    """Why a Mushka game under ``rules`` may never end: without ``max_deals`` (MU-MATCH-2) it
    ends only when a record reaches 0 (MU-MATCH-1), and random games of 5 to 7 players can
    last thousands of deals."""
    if rules.max_deals is not None:
        return None
    return ("a Mushka game without max_deals may never end (random games of 5 to 7 players "
            "can last thousands of deals): set max_deals")


def return_bounds(rules: MushkaRules, n: int) -> tuple[float, float]:
    """A deal writes off at most 5 points and twice the ace bonus, and adds at most a remise
    and twice the ace bonus."""
    return (-float(rules.remise_points + 2 * rules.ace_bonus), float(5 + 2 * rules.ace_bonus))


GAME = GameDefinition.of_package(
    __name__, reference="ReferenceMushka", rules_type=MushkaRules,
    summary="Russian Loo-like game: 3-7 players, exchange or pass, the ace of spades, "
            "count-down from 25",
    summarize=summarize, row_columns=scoring.ROW_COLUMNS,
    reward_scale=5.0,
    exact=ExactHooks(
        single_deal=exact.single_deal, side=exact.side_of, value=exact.deal_value,
        features=exact.features, bounds=exact.bounds, order=exact.move_order,
        cards_left=exact.cards_left, deal_return=exact.deal_return,
        unit="points written off by the seat searched for, every other seat playing against "
             "it (paranoid)", max_cards=exact.MAX_CARDS),
    random_player=(
        ("pass_probability", 0.25, "in the exchange: chance to pass (stands instead while "
         "holding the ace of spades)"),
        ("stand_probability", 0.25, "in the exchange: chance to stand; otherwise exchange a "
         "uniformly chosen allowed set of cards (stands when none is allowed)"),
        ("stop_probability", 0.5, "stop_mode=declared: chance to stop when offered; play is "
         "otherwise uniform among the legal cards")),
    choose_random=choose_random, return_unit="points written off", zero_sum=False,
    categories=("tricks", "ace_bonus", "remise"), deal_setup=set_records,
    endless_match=endless_match, records_match=match.model,
    deal_conditions=DealConditions(
        sets={"trumps": TurnedSuit(DECK, "scdh"),
              "aces": DECK.matching(lambda c: c[:-1] == "A"),
              "ace_of_spades": DECK.mask(["As"])},
        turned=True),
    return_bounds=return_bounds,
    # the opponent model (model=1) lifts ISMCTS from below the heuristic to about its level
    # (README, "Agents")
    levels={"strong": "ismcts:seconds=0.1,rollout=heuristic,model=1",
            "best": "ismcts:seconds=1,rollout=heuristic,model=1",
            "fast": "ismcts:seconds=0.004,rollout=heuristic,leaf=net,model=1"},
    bench_where={"hold": {"0": ["As", "Ks", "Qs", "Js"]}})

__all__ = ["GAME", "PRESETS", "MushkaRules"]

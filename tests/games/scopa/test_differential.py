"""Differential test: the compiled Scopa engine against the plain-Python reference.

Both engines start from the same seed (so the same dealer and deal order, SC-DEAL-1..3), the
same random choice is applied to both at every move, and after every move the legal-action
lists, ``to_dict`` positions, ``current_player`` and ``is_terminal`` must be identical; at the
end, ``returns`` and ``score_breakdown`` too. The reference
(:mod:`cardsim.games.scopa.reference`) is an independent plain-Python reading of
``rules/scopa.md``; it is also checked to conserve the 40 cards after every move.

The normal suite plays 2,048 deals over all 128 combinations of the options (both player
counts), a few whole matches with a low and a high target, 20 seeds that trigger a redeal, and
positions passed across through ``from_dict``. ``test_differential_many_deals`` (marked slow,
skipped by default; run it with ``-m slow``) plays 100,000 deals; the environment variable
``CARDSIM_DIFF_DEALS`` overrides that count. The harness (the lockstep play, the comparisons)
is :mod:`tests.differential`; this file holds what is Scopa's.
"""
from __future__ import annotations

import dataclasses
import itertools

import pytest

from cardsim.games.scopa.reference import ReferenceScopa
from cardsim.games.scopa.rules import ScopaRules
from tests.differential import Chooser, Differential, deal_count

# Every combination of the options that change play or scoring (target_score only matters in
# matches, tie_at_target has one value). four_player_deal is included for 2 players too: it
# must then change nothing (the deal is 3 cards at a time, SC-DEAL-5).
OPTION_AXES = {
    "num_players": (2, 4),
    "redeal_kings_on_table": ("three_or_more", "off"),
    "last_move_scopa_counts": (False, True),
    "leftover_to_last_capturer": (True, False),
    "equal_card_priority": (True, False),
    "primiera_missing_suit": ("zero", "forfeit"),
    "four_player_deal": ("three_at_a_time", "nine_at_once"),
}
COMBOS = [dict(zip(OPTION_AXES, values)) for values in itertools.product(*OPTION_AXES.values())]
DEALS_PER_COMBO = 16          # 128 combinations x 16 = 2,048 deals in the normal suite
SLOW_DEALS = deal_count(100_000)

# Seeds whose first deal is cancelled by SC-DEAL-3 (3+ kings on the table); the test checks
# that the reference agrees they are redeal seeds, so a change of the dealing would show.
REDEAL_SEEDS = [121, 368, 1028, 1046, 1633, 2517, 2977, 3776, 6008, 6096, 6391, 6926, 7808,
                8722, 9075, 9907, 10651, 10843, 10930, 10965]


class Scopa(Differential):
    """Scopa's engines: 40 cards; at the end the score breakdowns agree too."""

    name = "scopa"
    reference = ReferenceScopa
    rules_type = ScopaRules
    n_cards = 40

    def check_end(self, state, ref, where: str) -> None:
        super().check_end(state, ref, where)
        assert state.score_breakdown() == ref.score_breakdown(), f"{where}: score breakdown differs"


DIFF = Scopa()


def combo_id(options: dict) -> str:
    """A short test id for an option combination (defaults filled in)."""
    options = dataclasses.asdict(ScopaRules(**options))
    short = {"three_or_more": "redeal", "off": "noredeal", "zero": "zero", "forfeit": "forfeit",
             "three_at_a_time": "by3", "nine_at_once": "by9"}
    parts = [f"{options['num_players']}p", short[options["redeal_kings_on_table"]],
             "lastscopa" if options["last_move_scopa_counts"] else "nolastscopa",
             "leftover" if options["leftover_to_last_capturer"] else "noleftover",
             "prio" if options["equal_card_priority"] else "noprio",
             short[options["primiera_missing_suit"]], short[options["four_player_deal"]]]
    return "-".join(parts)


def run_deal(options: dict, seed: int) -> int:
    """One deal from ``seed`` in both engines, played to the end with seeded choices; returns
    the moves made."""
    state, ref = DIFF.deal(options, seed)
    return DIFF.play_both(ref, state, Chooser(seed), f"{combo_id(options)} seed {seed}")


def run_match(options: dict, seed: int) -> ReferenceScopa:
    """A whole match from ``seed`` in both engines; returns the finished reference."""
    state, ref = DIFF.match(options, seed)
    DIFF.play_both(ref, state, Chooser(seed), f"match {options} seed {seed}")
    return ref


# --- the normal suite ---------------------------------------------------------------------

@pytest.mark.parametrize("options", COMBOS, ids=[combo_id(c) for c in COMBOS])
def test_random_deals_match_reference(options):
    """SC-DEAL-1..5, SC-CAPT-1..8, SC-SCOPA-1..3, SC-END-1..3, SC-SCORE-1..6, SC-PRIM-1..2,
    SC-TEAM-2..5: 16 random deals per option combination, identical in both engines move by
    move (legal actions, positions) and in the final returns and score breakdown."""
    base = 1000 * COMBOS.index(options)
    moves = [run_deal(options, base + k) for k in range(DEALS_PER_COMBO)]
    assert all(m == 36 for m in moves)  # SC-DEAL-5, SC-TEAM-5: 36 cards played in every deal


@pytest.mark.parametrize("num_players", [2, 4])
@pytest.mark.parametrize("target_score", [11, 101])
def test_matches_match_reference(num_players, target_score):
    """SC-MATCH-1..3, SC-DEAL-6: whole matches (later deals from the state's own stream, the
    next dealer in order, the target and the extra deal on a tie) agree in both engines."""
    options = {"num_players": num_players, "target_score": target_score}
    seeds = range(6) if target_score == 11 else range(2)
    deals = []
    for seed in seeds:
        ref = run_match(options, 500 + seed)
        scores = ref.scores
        assert ref.phase == "match_over"
        assert max(scores) >= target_score and scores[0] != scores[1]
        deals.append(ref.deal_number)
    assert max(deals) > 1


@pytest.mark.parametrize("options", [
    {"num_players": 2, "equal_card_priority": False, "last_move_scopa_counts": True},
    {"num_players": 4, "four_player_deal": "nine_at_once", "primiera_missing_suit": "forfeit",
     "leftover_to_last_capturer": False, "redeal_kings_on_table": "off"},
], ids=["2p-variants", "4p-variants"])
def test_variant_matches_match_reference(options):
    """SC-MATCH-3 with non-default options: a few low-target matches agree in both engines."""
    for seed in range(3):
        assert run_match({**options, "target_score": 21}, 900 + seed).phase == "match_over"


@pytest.mark.parametrize("num_players", [2, 4])
def test_sc_deal_3_redeal_seeds_match_reference(num_players):
    """SC-DEAL-3: on seeds whose first table shows 3+ kings, the same dealer deals again
    (``redeals`` counted) in both engines; with the option off the deal stands."""
    for seed in REDEAL_SEEDS:
        on = {"num_players": num_players}
        off = {"num_players": num_players, "redeal_kings_on_table": "off"}
        assert ReferenceScopa.new_deal(ScopaRules(**on), seed).redeals >= 1
        assert ReferenceScopa.new_deal(ScopaRules(**off), seed).redeals == 0
        run_deal(on, seed)
        run_deal(off, seed)


def test_positions_cross_from_dict():
    """Position dicts cross between the engines: each engine's ``from_dict`` accepts the
    other's ``to_dict`` mid-deal (and mid-match), and play continues identically."""
    for k, options in enumerate(COMBOS[::4]):
        seed = 7000 + k
        chooser = Chooser(seed)
        for start in (DIFF.deal, DIFF.match):
            state, ref = start(options, seed)
            DIFF.play_both(ref, state, chooser, "prefix", max_steps=chooser.rnd.randrange(120))
            # Reference position into the compiled engine, compiled position into the reference.
            state2, ref2 = DIFF.cross(ref, state, options, f"{options} seed {seed}")
            DIFF.play_both(ref2, state2, Chooser(seed + 1), f"from_dict seed {seed}")


def test_reference_rules_dict_lists_every_option():
    """The reference's position dict carries every option of ScopaRules (dataclasses.asdict)."""
    rules = ScopaRules(num_players=4, equal_card_priority=False)
    d = ReferenceScopa.new_deal(rules, 3).to_dict()
    assert DIFF.reference_dict_problems(d, rules) == []


# --- the large run ----------------------------------------------------------------------------

@pytest.mark.slow
def test_differential_many_deals():
    """All rules of the normal suite on 100,000 deals spread over the 128 option combinations
    (override the count with ``CARDSIM_DIFF_DEALS``)."""
    for i in range(SLOW_DEALS):
        options = COMBOS[i % len(COMBOS)]
        run_deal(options, 1_000_000 + i)

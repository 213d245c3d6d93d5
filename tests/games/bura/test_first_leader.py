"""The deal setup ``first_leader`` (``new_deal(seed, first_leader=...)``, BU-LEAD-2): a single
deal started from another scheduled first leader than the dealer's left, as a later deal of a
match may be (the last trick's taker leads it). The cards are the seed's either way; the
first check point is resolved for the new leader. The compiled engine
(:func:`cardsim.games.bura.kernels.lead_first`) and the reference
(:meth:`ReferenceBura.set_up`) agree step by step on many seeds (the differential test's
helpers), also where the first check point decides the deal.
"""
from __future__ import annotations

import pytest

from cardsim.errors import CardsimError
from cardsim.games.bura.reference import ReferenceBura
from cardsim.games.bura.rules import BuraRules

from .test_differential import DIFF, Chooser, random_options, short

DEALS = 40                 # per player count: 120 deals in all


def leaders(n: int, seed: int) -> list:
    """The first leaders a deal of ``n`` players is tried from: the dealer, and a seat."""
    return ["dealer", seed % n]


@pytest.mark.parametrize("num_players", (2, 3, 4))
def test_bu_lead_2_a_deal_set_up_with_its_first_leader_matches_the_reference(num_players):
    """BU-LEAD-2, BU-COMBO-1..8: deals under random options, each from two first leaders (the
    dealer, and a seat), identical in the compiled engine and the reference step by step."""
    for k in range(DEALS):
        seed = 40_000 + 100 * num_players + k
        options = random_options(num_players, seed)
        game, rules = DIFF.load(**options), BuraRules(**options)
        for leader in leaders(num_players, seed):
            state = game.new_deal(seed=seed, first_leader=leader)
            ref = ReferenceBura.new_deal(rules, seed, first_leader=leader)
            d = state.to_dict()
            assert d["first_leader"] == (d["dealer"] if leader == "dealer" else leader)
            DIFF.play_both(ref, state, Chooser(seed),
                      f"deal {short(options)} seed {seed} first_leader={leader!r}")


def test_bu_lead_2_the_first_leader_changes_no_card():
    """BU-DEAL-2..5: the setup deals the seed's cards (hands, stock, trump card, dealer and
    redeals); only the leader and whose move it is change."""
    game = DIFF.load(num_players=3)
    for seed in range(20):
        plain = game.new_deal(seed=seed).to_dict()
        for leader in ("dealer", 0, 1, 2):
            d = game.new_deal(seed=seed, first_leader=leader).to_dict()
            assert {k: d[k] for k in ("hands", "stock", "trump_card", "dealer", "redeals")} == \
                {k: plain[k] for k in ("hands", "stock", "trump_card", "dealer", "redeals")}
            seat = d["dealer"] if leader == "dealer" else leader
            assert d["leader"] == d["to_move"] == d["first_leader"] == seat


def test_bu_lead_2_a_deal_decided_at_its_first_check_point_is_decided_again():
    """BU-LEAD-2, BU-COMBO-2 (``bura_timing=own_lead``, no initial redeal): a bura dealt to
    the non-leader wins only once its holder leads. A deal that a bura ended at its first
    check point goes on when another seat leads, and one that went on ends when the holder
    leads, in both engines alike."""
    options = {"initial_combo_redeal": False, "bura_timing": "own_lead"}
    game, rules = DIFF.load(**options), BuraRules(**options)
    seen = {"reopened": 0, "decided": 0}
    for seed in range(3000):
        plain = game.new_deal(seed=seed)
        d = plain.to_dict()
        trump = d["trump_card"][-1]
        holders = [s for s in range(2) if sum(c[-1] == trump for c in d["hands"][s]) == 3]
        if len(holders) != 1:
            continue
        other = 1 - holders[0]
        for leader, kind in ((other, "reopened"), (holders[0], "decided")):
            if seen[kind] >= 3:
                continue
            state = game.new_deal(seed=seed, first_leader=leader)
            ref = ReferenceBura.new_deal(rules, seed, first_leader=leader)
            assert state.is_terminal() == (kind == "decided")
            assert state.is_terminal() != plain.is_terminal() or leader == d["first_leader"]
            DIFF.play_both(ref, state, Chooser(seed), f"seed {seed} first_leader={leader}")
            seen[kind] += 1
        if min(seen.values()) >= 3:
            break
    assert seen == {"reopened": 3, "decided": 3}


@pytest.mark.parametrize("bad", [2, -1, True, 1.0, "left", None, "Dealer"])
def test_bad_first_leaders_are_refused_in_one_line(bad):
    """A seat outside the table, a bool, a float or an unknown word: one clear line naming
    the value and what is allowed (None is no setup: the dealer's left leads)."""
    game = DIFF.load(num_players=2)
    if bad is None:
        assert game.new_deal(seed=1, first_leader=None).to_dict() == game.new_deal(
            seed=1).to_dict()
        return
    with pytest.raises(CardsimError) as e:
        game.new_deal(seed=1, first_leader=bad)
    message = str(e.value)
    assert "\n" not in message and repr(bad) in message and '"dealer"' in message
    with pytest.raises(ValueError):
        ReferenceBura.new_deal(BuraRules(), 1, first_leader=bad)


def test_an_unknown_setup_is_refused_in_one_line():
    with pytest.raises(CardsimError, match="bura deals take a seed and first_leader, not "
                                           "leader$"):
        DIFF.load(num_players=2).new_deal(seed=1, leader=0)

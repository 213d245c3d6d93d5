"""One test (or more) per rule ID of rules/scopa.md §2, and per option of §3.

Every expectation is worked out by hand from the rules file: exact legal-action sets (ids and
strings), exact piles, scopa counts and scores. Positions are written in card notation with
``positions.position`` (the cards that matter; the rest spread so that the position is legal).
Only the cards a seed deals, which no one works out by hand, are compared with the reference
engine (``positions.reference_deal`` / ``reference_after``).
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import cardsim
from cardsim.errors import IllegalActionError, OptionError
from tests.games.scopa.positions import (
    ALL_CARDS,
    action_id,
    assert_breakdown,
    assert_legal,
    complement,
    find_redeal_seed,
    idx,
    kings,
    last_move_position,
    play,
    position,
    reference_after,
    reference_deal,
    srt,
)
from tests.helpers import game_loader

RNG_WORDS = [11, 22, 33, 44]   # an explicit chance stream for match positions


game = game_loader("scopa")


def load(pos, **options):
    return game(**options).from_dict(pos)


def all_cards_once(d: dict) -> bool:
    """Every card exactly once across hands, table, stock and piles of a ``to_dict``."""
    seen = [c for h in d["hands"] for c in h] + d["table"] + d["stock"] \
        + [c for p in d["piles"] for c in p]
    return sorted(seen, key=idx) == ALL_CARDS


def play_out(state, max_moves: int = 100_000):
    """Play the first legal action until the end; return the seats that moved, in order."""
    movers = []
    while not state.is_terminal():
        movers.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
        assert len(movers) <= max_moves
    return movers


def seed_with_dealer(g, dealer: int) -> int:
    for seed in range(1000):
        if g.new_deal(seed=seed).to_dict()["dealer"] == dealer:
            return seed
    raise AssertionError("no seed found")


# =============================================================================================
# 2.1 Deal
# =============================================================================================

def test_sc_deal_1_first_dealer_is_random():
    """SC-DEAL-1: the first dealer is drawn at random (from the seed's stream): every seat deals
    for some seed, and the draw is exactly the documented one."""
    for n in (2, 4):
        g = game(num_players=n)
        dealers = [g.new_deal(seed=s).to_dict()["dealer"] for s in range(60)]
        assert set(dealers) == set(range(n))
        assert dealers == [reference_deal(g.rules, s)["dealer"] for s in range(60)]
        matches = [g.new_match(seed=s).to_dict()["dealer"] for s in range(60)]
        assert matches == dealers


@pytest.mark.parametrize("num_players", [2, 4])
def test_sc_deal_2_three_cards_each_four_on_table(num_players):
    """SC-DEAL-2: shuffle, 3 cards to each player, 4 face up on the table; the rest is the
    stock. The cards are exactly those the reference engine deals from the seed."""
    g = game(num_players=num_players)
    for seed in range(25):
        d = g.new_deal(seed=seed).to_dict()
        assert len(d["table"]) == 4
        assert [len(h) for h in d["hands"]] == [3] * num_players
        assert len(d["stock"]) == 40 - 4 - 3 * num_players
        assert d == reference_deal(g.rules, seed), seed
        assert d["piles"] == [[], []] and d["scopas"] == [0, 0]
        assert d["last_capturer"] is None and d["phase"] == "play" and d["deal_number"] == 1
        assert all_cards_once(d)


def test_sc_deal_3_three_kings_on_table_redeal():
    """SC-DEAL-3: 3 or 4 kings among the 4 initial table cards cancel the deal; the same dealer
    deals again, nothing is scored. With the option off the same seed keeps that table."""
    from cardsim.games.scopa.kernels import is_void_deal

    seed = find_redeal_seed()
    on = game().new_deal(seed=seed).to_dict()
    off = game(redeal_kings_on_table="off").new_deal(seed=seed).to_dict()
    assert on["redeals"] >= 1 and kings(on["table"]) < 3
    assert off["redeals"] == 0 and kings(off["table"]) >= 3
    assert on["dealer"] == off["dealer"]                      # same dealer
    assert on["scores"] == [0, 0] and on["deal_number"] == 1  # nothing scored
    assert on["piles"] == [[], []] and on["scopas"] == [0, 0]
    assert on == reference_deal(game().rules, seed)

    params_on = game().rules.kernel_params()
    params_off = game(redeal_kings_on_table="off").rules.kernel_params()

    def mask(spec):
        return np.uint64(sum(1 << idx(c) for c in spec.split()))

    assert is_void_deal(mask("Kco Kcu Ksw 5ba"), params_on)
    assert is_void_deal(mask("Kco Kcu Ksw Kba"), params_on)
    assert not is_void_deal(mask("Kco Kcu 5sw 5ba"), params_on)
    assert not is_void_deal(mask("Kco Kcu Ksw 5ba"), params_off)


def test_sc_deal_3_only_initial_table_checked():
    """SC-DEAL-3: kings that reach the table later (discards) never cancel the deal."""
    pos = position(hands=[["Kba", "2co"], ["3co", "4co"]], table="Kco Kcu Ksw", to_move=0,
                   stock=18)
    s = load(pos)
    assert_legal(s, "2co", "Kba>Kco", "Kba>Kcu", "Kba>Ksw")
    play(s, "2co")
    d = s.to_dict()
    assert d["phase"] == "play" and d["redeals"] == 0
    assert d["table"] == srt("2co Kco Kcu Ksw") and d["to_move"] == 1


def test_sc_deal_4_dealers_opponent_moves_first_then_alternate():
    """SC-DEAL-4: with 2 players the dealer's opponent moves first; players then alternate."""
    for seed in range(6):
        s = game().new_deal(seed=seed)
        dealer = s.to_dict()["dealer"]
        assert s.current_player() == 1 - dealer
        movers = play_out(s)
        assert movers == [1 - dealer, dealer] * 18


def test_sc_deal_5_refill_three_each_first_player_first():
    """SC-DEAL-5: when every hand is empty and the stock is not, each player gets 3 more cards
    from the front of the stock, the first player of the deal first; none go to the table."""
    stock = "Aco 2cu 3sw 4ba 5co 6cu"
    pos = position(hands=[[], ["Kco"]], table="2sw", to_move=1, dealer=1, stock=stock)
    s = load(pos)
    play(s, "Kco")
    d = s.to_dict()
    assert d["hands"] == [srt("Aco 2cu 3sw"), srt("4ba 5co 6cu")]
    assert d["stock"] == [] and d["table"] == srt("2sw Kco") and d["to_move"] == 0
    # dealer 0: seat 1 is the first player and receives the first three cards
    pos = position(hands=[["Kco"], []], table="2sw", to_move=0, dealer=0, stock=stock)
    s = load(pos)
    play(s, "Kco")
    d = s.to_dict()
    assert d["hands"] == [srt("4ba 5co 6cu"), srt("Aco 2cu 3sw")] and d["to_move"] == 1


@pytest.mark.parametrize("num_players,refills", [(2, 5), (4, 2)])
def test_sc_deal_5_number_of_refills(num_players, refills):
    """SC-DEAL-5: 2 players get 6 hands of 3 (5 refills), 2x2 gets 3 hands (2 refills);
    36 cards are played in a deal."""
    s = game(num_players=num_players).new_deal(seed=3)
    seen_refills = 0
    moves = 0
    while not s.is_terminal():
        before = s.to_dict()
        s.apply_action(s.legal_actions()[0])
        moves += 1
        after = s.to_dict()
        if len(after["stock"]) < len(before["stock"]):
            seen_refills += 1
            assert len(before["stock"]) - len(after["stock"]) == 3 * num_players
            assert [len(h) for h in after["hands"]] == [3] * num_players
            assert after["stock"] == before["stock"][3 * num_players:]
            for k in range(num_players):        # the first player of the deal first
                seat = (before["dealer"] + 1 + k) % num_players
                assert after["hands"][seat] == srt(before["stock"][3 * k:3 * k + 3])
    assert seen_refills == refills and moves == 36


@pytest.mark.parametrize("num_players,dealer", [(2, 0), (2, 1), (4, 1), (4, 3)])
def test_sc_deal_6_deal_passes_to_next_player(num_players, dealer):
    """SC-DEAL-6: the next deal of a match is dealt by the next player in playing order, from
    the state's own chance stream (as the reference engine deals it)."""
    side = dealer & 1
    final = [["Kba", "Jba"], ["Kba", "Jba"]]
    final[side] = complement("Kba Jba")          # the dealer's side captures last
    pos = last_move_position(final, capturer=side, play="Kcu", take="Kco", dealer=dealer,
                             num_players=num_players, mode="match", scores=[0, 0],
                             rng=RNG_WORDS)
    s = load(pos, num_players=num_players)
    play(s, "Kcu>Kco")
    d = s.to_dict()
    assert d["phase"] == "play" and d["deal_number"] == 2
    assert d["dealer"] == (dealer + 1) % num_players
    assert d["to_move"] == (dealer + 2) % num_players == s.current_player()
    assert d == reference_after(game(num_players=num_players).rules, pos, "Kcu>Kco")
    assert d["rng"] != RNG_WORDS                  # the stream was used for the shuffle
    assert d["piles"] == [[], []] and d["scopas"] == [0, 0] and d["last_capturer"] is None
    assert d["scores"] == ([4, 0] if side == 0 else [0, 4])


# =============================================================================================
# 2.2 Moves and captures
# =============================================================================================

def test_sc_capt_1_any_card_from_hand():
    """SC-CAPT-1: the player may play any card of his hand (here none can capture)."""
    pos = position(hands=[["Aco", "5cu", "Ksw"], 3], table="Cba", to_move=0, stock=12)
    s = load(pos)
    assert_legal(s, "Aco", "5cu", "Ksw")
    play(s, "5cu")
    d = s.to_dict()
    assert d["hands"][0] == ["Aco", "Ksw"] and d["table"] == ["5cu", "Cba"]


def test_sc_capt_2_equal_card_capture_exactly_one_of_choice():
    """SC-CAPT-2: with equal cards on the table the player captures exactly one, his choice."""
    pos = position(hands=[["5sw"], 1], table="5co 5cu Ksw", to_move=0, stock=12)
    s = load(pos)
    assert_legal(s, "5sw>5co", "5sw>5cu")
    for taken, stays in (("5co", "5cu"), ("5cu", "5co")):
        t = load(pos)
        play(t, f"5sw>{taken}")
        d = t.to_dict()
        assert d["piles"][0] == srt(pos["piles"][0] + ["5sw", taken])
        assert d["piles"][1] == pos["piles"][1]
        assert d["table"] == srt([stays, "Ksw"])


def test_sc_capt_3_equal_card_beats_sum():
    """SC-CAPT-3: an equal card on the table excludes every sum."""
    pos = position(hands=[["4sw"], 1], table="4co 2cu 2sw Aba 3ba", to_move=0, stock=12)
    s = load(pos)
    assert_legal(s, "4sw>4co")     # 2cu+2sw and Aba+3ba are not options


def test_sc_capt_4_any_sum_set_suits_distinguish():
    """SC-CAPT-4: with no equal card, every set of 2+ cards summing to the value is an option;
    sets differing only in suit are different options."""
    pos = position(hands=[["5ba"], 1], table="2co 2cu 3sw Kba", to_move=0, stock=12)
    s = load(pos)
    assert_legal(s, "5ba>2co+3sw", "5ba>2cu+3sw")
    play(s, "5ba>2cu+3sw")
    d = s.to_dict()
    assert d["table"] == ["2co", "Kba"]
    assert d["piles"][0] == srt(pos["piles"][0] + ["5ba", "2cu", "3sw"])


def test_sc_capt_5_capture_is_compulsory():
    """SC-CAPT-5: a card with a capture option may not be left on the table."""
    pos = position(hands=[["5ba", "Kcu"], 2], table="2co 3sw", to_move=0, stock=6)
    s = load(pos)
    assert_legal(s, "5ba>2co+3sw", "Kcu")
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply_action(action_id("5ba"))
    assert s.to_dict() == before


def test_sc_capt_6_no_option_card_stays_on_table():
    """SC-CAPT-6: with no option the card is a discard: it stays face up on the table."""
    pos = position(hands=[["2sw"], 1], table="6co 5cu", to_move=0, stock=12,
                   last_capturer=1)
    s = load(pos)
    assert_legal(s, "2sw")
    play(s, "2sw")
    d = s.to_dict()
    assert d["table"] == ["6co", "5cu", "2sw"]
    assert d["piles"] == pos["piles"] and d["scopas"] == [0, 0] and d["last_capturer"] == 1


def test_sc_capt_7_captured_cards_to_capturers_pile():
    """SC-CAPT-7: captured and capturing cards go to the capturer's pile (2 players)."""
    # dealer 1, to_move 1: seat 0 has played this round and holds one card fewer
    pos = position(hands=[1, ["6cu", "Aba"]], table="6sw 2co", to_move=1, dealer=1, stock=6)
    s = load(pos)
    assert_legal(s, "6cu>6sw", "Aba")
    play(s, "6cu>6sw")
    d = s.to_dict()
    assert d["piles"][1] == srt(pos["piles"][1] + ["6cu", "6sw"])
    assert d["piles"][0] == pos["piles"][0]
    assert d["last_capturer"] == 1


def test_sc_capt_7_team_pile_in_two_by_two():
    """SC-CAPT-7, SC-TEAM-3: in 2x2 the cards go to the team's pile (seat 2 -> side 0)."""
    pos = position(hands=[1, 1, ["3cu", "Jco"], ["Aco", "Kba"]], table="3ba 7sw", to_move=2,
                   dealer=3, stock=12)
    s = load(pos, num_players=4)
    assert_legal(s, "3cu>3ba", "Jco")
    play(s, "3cu>3ba")
    d = s.to_dict()
    assert d["piles"][0] == srt(pos["piles"][0] + ["3cu", "3ba"])
    assert d["piles"][1] == pos["piles"][1]
    assert d["last_capturer"] == 0 and d["to_move"] == 3
    play(s, "Aco")                       # no ace, no sum of 1 -> discard
    assert s.to_dict()["table"] == ["Aco", "7sw"]


def test_sc_capt_8_kings_and_sums_never_exceed_value():
    """SC-CAPT-8: legal actions are (card, capture set) pairs; a king on the table is only taken
    by a king; no set sums above the played card; ids are card << 40 | mask, sorted."""
    pos = position(hands=[["Ksw", "Jcu", "2ba"], 3], table="Kco 5cu 3sw 4ba", to_move=0,
                   stock=6)
    s = load(pos)
    assert_legal(s, "Jcu>5cu+3sw", "Ksw>Kco", "2ba")
    expected = [idx("Jcu") << 40 | 1 << idx("5cu") | 1 << idx("3sw"),
                idx("Ksw") << 40 | 1 << idx("Kco"), idx("2ba") << 40]
    assert s.legal_actions() == expected
    for a in s.legal_actions():
        assert s.action_to_dict(a) == {
            idx("Jcu") << 40 | 1 << idx("5cu") | 1 << idx("3sw"): {"play": ["Jcu"],
                                                                  "capture": ["5cu", "3sw"]},
            idx("Ksw") << 40 | 1 << idx("Kco"): {"play": ["Ksw"], "capture": ["Kco"]},
            idx("2ba") << 40: {"play": ["2ba"], "capture": []}}[a]
    # a played king with no king on the table takes a sum of 10; a 5 cannot take 3+4
    pos = position(hands=[["Kcu", "5sw"], 2], table="6ba 3co 4cu", to_move=0, stock=6)
    s = load(pos)
    assert_legal(s, "Kcu>4cu+6ba", "5sw")


# =============================================================================================
# 2.3 Scopa
# =============================================================================================

def test_sc_scopa_1_sweep_scores_any_number_per_deal():
    """SC-SCOPA-1: a capture that empties the table is a scopa (+1); several per deal count."""
    pos = position(hands=[["4co", "2co"], ["2sw", "Kcu"]], table="4cu", to_move=0, stock=6)
    s = load(pos)
    play(s, "4co>4cu")
    d = s.to_dict()
    assert d["scopas"] == [1, 0] and d["table"] == []
    play(s, "2sw")
    play(s, "2co>2sw")
    d = s.to_dict()
    assert d["scopas"] == [2, 0] and d["table"] == []
    assert s.score_breakdown()["scopas"] == [2, 0]
    assert d["scores"] == [0, 0]           # points are added only when the deal ends


def test_sc_scopa_2_next_player_plays_onto_empty_table():
    """SC-SCOPA-2: after a scopa the next player can only lay his card on the empty table."""
    pos = position(hands=[["Aco", "7ba", "Kcu"], ["4co", "2sw", "3sw"]], table="4cu",
                   to_move=1, dealer=0, stock=6)
    s = load(pos)
    play(s, "4co>4cu")
    assert s.to_dict()["scopas"] == [0, 1]
    assert_legal(s, "Aco", "Kcu", "7ba")
    play(s, "7ba")
    assert s.to_dict()["table"] == ["7ba"]


def test_sc_scopa_3_last_card_sweep_is_no_scopa():
    """SC-SCOPA-3: a sweep with the very last card of the deal scores no scopa; a sweep with
    an earlier card (stock already empty) still does."""
    # the last card: dealer 1 plays 6co onto [6ba]
    pos = position(hands=[[], ["6co"]], table="6ba", to_move=1, dealer=1, stock=0,
                   last_capturer=0)
    s = load(pos)
    play(s, "6co>6ba")
    d = s.to_dict()
    assert d["scopas"] == [0, 0] and d["phase"] == "deal_over"
    assert d["piles"][1] == srt(pos["piles"][1] + ["6co", "6ba"])
    # the second-to-last card: still a scopa
    pos = position(hands=[["6co"], ["Kba"]], table="6ba", to_move=0, stock=0)
    s = load(pos)
    play(s, "6co>6ba")
    assert s.to_dict()["scopas"] == [1, 0] and not s.is_terminal()
    play(s, "Kba")
    d = s.to_dict()
    assert d["scopas"] == [1, 0] and d["phase"] == "deal_over"
    assert d["piles"][0] == srt(pos["piles"][0] + ["6co", "6ba", "Kba"])   # left-over


def test_option_last_move_scopa_counts():
    """§3 last_move_scopa_counts=true (SC-SCOPA-3 off): the last-card sweep scores a scopa."""
    pos = position(hands=[[], ["6co"]], table="6ba", to_move=1, dealer=1, stock=0,
                   last_capturer=0)
    s = load(pos, last_move_scopa_counts=True)
    play(s, "6co>6ba")
    assert s.to_dict()["scopas"] == [0, 1]
    assert s.score_breakdown()["scopas"] == [0, 1]


# =============================================================================================
# 2.4 End of the deal
# =============================================================================================

def test_sc_end_1_deal_ends_when_stock_and_hands_empty():
    """SC-END-1: the deal ends once the stock is empty and every hand is played out."""
    pos = position(hands=[["3co"], ["Jsw"]], table="Kba", to_move=0, stock=0)
    s = load(pos)
    play(s, "3co")
    assert not s.is_terminal() and s.current_player() == 1
    assert s.to_dict()["phase"] == "play"
    play(s, "Jsw")
    d = s.to_dict()
    assert s.is_terminal() and s.current_player() == -1 and s.legal_actions() == []
    assert d["phase"] == "deal_over"
    assert d["hands"] == [[], []] and d["stock"] == []


def test_sc_end_2_leftover_to_last_capturer_no_scopa():
    """SC-END-2: cards left on the table after the last move go to the last capturer; it is
    never a scopa."""
    pos = position(hands=[["3cu"], []], table="Kco Jsw", to_move=0, dealer=0, stock=0,
                   last_capturer=0)
    s = load(pos)
    play(s, "3cu")
    d = s.to_dict()
    assert d["table"] == []
    assert d["piles"][0] == srt(pos["piles"][0] + ["3cu", "Kco", "Jsw"])
    assert d["piles"][1] == pos["piles"][1]
    assert d["scopas"] == [0, 0]


def test_option_leftover_to_last_capturer_false():
    """§3 leftover_to_last_capturer=false (SC-END-2 off): left-over cards go to nobody."""
    pos = position(hands=[["3cu"], []], table="Kco Jsw", to_move=0, dealer=0, stock=0,
                   last_capturer=0)
    s = load(pos, leftover_to_last_capturer=False)
    play(s, "3cu")
    d = s.to_dict()
    assert d["phase"] == "deal_over"
    assert d["piles"] == pos["piles"]
    assert not {"3cu", "Kco", "Jsw"} & set(d["piles"][0] + d["piles"][1])
    bd = s.score_breakdown()
    assert bd["card_count"] == [len(pos["piles"][0]), len(pos["piles"][1])]


def test_sc_end_3_no_capture_in_deal_leftover_to_nobody():
    """SC-END-3: with no capture in the whole deal, the left-over cards belong to nobody.

    Unreachable through legal play (the last card, played onto 39 table cards, always finds an
    equal card there), so the kernel that ends the deal is tested on its state vector.
    """
    from cardsim.games.scopa import kernels, layout

    params = game().rules.kernel_params()
    state = np.zeros(layout.STATE_LEN, dtype=np.uint64)
    state[layout.TABLE] = layout.FULL_DECK
    state[layout.NEXT] = 40
    state[layout.PHASE] = layout.PHASE_PLAY
    state[layout.MODE] = layout.MODE_DEAL
    state[layout.LAST_CAPTURER] = 0
    kernels.end_deal(state, params)
    assert state[layout.PILE] == 0 and state[layout.PILE + 1] == 0
    assert state[layout.TABLE] == layout.FULL_DECK
    assert state[layout.PHASE] == layout.PHASE_DEAL_OVER
    assert state[layout.SCORE] == 0 and state[layout.SCORE + 1] == 0


# =============================================================================================
# 2.5 Scoring
# =============================================================================================

COINS = "Aco 2co 3co 4co 5co 6co 7co Jco Cco Kco"
CUPS = "Acu 2cu 3cu 4cu 5cu 6cu 7cu Jcu Ccu Kcu"
SWORDS = "Asw 2sw 3sw 4sw 5sw 6sw 7sw Jsw Csw Ksw"
BATONS = "Aba 2ba 3ba 4ba 5ba 6ba 7ba Jba Cba Kba"


def finish(side_a, *, play_card, take, scopas=(0, 0), capturer=0, **options):
    """Play the last move of a deal whose final piles are ``side_a`` / the rest; return the
    finished state."""
    a = srt(side_a)
    pos = last_move_position([a, complement(a)], capturer=capturer, play=play_card, take=take,
                              scopas=scopas)
    s = load(pos, **options)
    play(s, f"{play_card}>{take}")
    assert s.is_terminal()
    return s


def breakdown(s, *keys):
    bd = s.score_breakdown()
    return {k: bd[k] for k in keys}


def test_sc_score_1_cards_majority():
    """SC-SCORE-1: 1 point for more cards; 20-20 gives no point."""
    # A: coins + cups + Asw (21), B: 19
    s = finish(COINS + " " + CUPS + " Asw", play_card="Kcu", take="Kco")
    assert_breakdown(s, {
        "cards": [1, 0], "coins": [1, 0], "settebello": [1, 0], "primiera": [1, 0],
        "scopas": [0, 0], "total": [4, 0], "card_count": [21, 19], "coin_count": [10, 0],
        "primiera_total": [58, 42], "match_scores": [4, 0]})
    assert s.returns() == [4.0, -4.0]
    s = finish(COINS + " " + CUPS, play_card="Kcu", take="Kco")
    assert breakdown(s, "cards", "card_count", "primiera", "primiera_total", "total") == {
        "cards": [0, 0], "card_count": [20, 20], "primiera": [0, 0],
        "primiera_total": [42, 42], "total": [2, 0]}


def test_sc_score_2_coins_majority():
    """SC-SCORE-2: 1 point for more coins; 5-5 gives no point."""
    a = "Aco 2co 3co 4co 5co 6co " + CUPS + " Asw 2sw 3sw 4sw"      # 6 coins, no 7co
    s = finish(a, play_card="2cu", take="2co")
    assert_breakdown(s, {
        "cards": [0, 0], "coins": [1, 0], "settebello": [0, 1], "primiera": [0, 1],
        "scopas": [0, 0], "total": [1, 2], "card_count": [20, 20], "coin_count": [6, 4],
        "primiera_total": [55, 63], "match_scores": [1, 2]})
    a = "Aco 2co 3co 4co 5co " + CUPS + " Asw 2sw 3sw 4sw Ksw"      # 5 coins
    s = finish(a, play_card="2cu", take="2co")
    assert breakdown(s, "coins", "coin_count", "primiera_total", "total") == {
        "coins": [0, 0], "coin_count": [5, 5], "primiera_total": [53, 63], "total": [0, 2]}


def test_sc_score_3_settebello():
    """SC-SCORE-3: 1 point to the side holding the seven of coins; never a tie."""
    a = "Aco 2co 3co 4co 5co " + CUPS + " Asw 2sw 3sw 4sw Ksw"
    s = finish(a, play_card="2cu", take="2co")
    assert s.score_breakdown()["settebello"] == [0, 1]
    a = a.replace("5co", "7co")
    s = finish(a, play_card="2cu", take="2co")
    assert s.score_breakdown()["settebello"] == [1, 0]


def test_sc_score_4_primiera_higher_total_tie_no_point():
    """SC-SCORE-4: 1 point for the higher primiera total; equal totals give none."""
    s = finish(COINS + " " + CUPS + " Asw", play_card="Kcu", take="Kco")
    assert breakdown(s, "primiera", "primiera_total") == {"primiera": [1, 0],
                                                          "primiera_total": [58, 42]}
    s = finish(COINS + " " + CUPS, play_card="Kcu", take="Kco")
    assert breakdown(s, "primiera", "primiera_total") == {"primiera": [0, 0],
                                                          "primiera_total": [42, 42]}


def test_sc_score_5_one_point_per_scopa():
    """SC-SCORE-5: each scopa is one point."""
    s = finish(COINS + " " + CUPS, play_card="Kcu", take="Kco", scopas=(2, 3))
    assert breakdown(s, "scopas", "total") == {"scopas": [2, 3], "total": [4, 3]}
    assert s.to_dict()["scores"] == [4, 3]
    assert s.returns() == [1.0, -1.0]


def sweep_then_end_position(scores, mode="match"):
    """Seat 0 sweeps [4cu] with 4co (a scopa), then seat 1 (dealer) lays Kba, the last card,
    which is left over to side 0. Final piles: A = coins + cups + Kba (21), B = the rest.
    Deal points: A 1+1+1+1 (52 vs 42) + 1 scopa = 5, B 0."""
    a = [c for c in (COINS + " " + CUPS).split() if c not in ("4co", "4cu")]
    b = complement(a + ["4co", "4cu", "Kba"])
    return position(hands=[["4co"], ["Kba"]], table="4cu", to_move=0, stock=0,
                    piles=[a, b], exact_piles=True, mode=mode, scores=scores, rng=RNG_WORDS)


def test_sc_score_6_at_most_four_plus_scopas_added_at_deal_end():
    """SC-SCORE-6: at most 4 points + scopas per deal; added to the match score only when the
    deal is over."""
    s = load(sweep_then_end_position([3, 4]))
    play(s, "4co>4cu")
    d = s.to_dict()
    assert d["scopas"] == [1, 0] and d["scores"] == [3, 4] and d["phase"] == "play"
    assert s.score_breakdown()["match_scores"] == [3, 4]
    play(s, "Kba")
    d = s.to_dict()
    assert d["scores"] == [8, 4]            # +5 = 4 + 1 scopa; target 11 not reached
    assert d["phase"] == "play" and d["deal_number"] == 2


# =============================================================================================
# 2.6 Primiera
# =============================================================================================

def test_sc_prim_1_best_card_per_suit_by_primiera_scale():
    """SC-PRIM-1: best card of each suit by the scale 7=21 6=18 A=16 5=15 4=14 3=13 2=12
    J/C/K=10, summed over the four suits (not the sum of all cards)."""
    a = "7co 6co Kcu Jcu Asw 5sw 2ba"        # 21 + 10 + 16 + 12 = 59
    b = "Aco 5co 4cu 6cu Ksw Csw 3ba 4ba"    # 16 + 18 + 10 + 14 = 58
    pos = position(hands=[3, 3], table=7, to_move=0, stock=12, piles=[a, b], exact_piles=True)
    s = load(pos)
    bd = s.score_breakdown()
    assert bd["primiera_total"] == [59, 58] and bd["primiera"] == [1, 0]


def test_sc_prim_2_missing_suit_counts_zero():
    """SC-PRIM-2: a suit with no captured card contributes 0; the side can still win."""
    a = "7co 7cu 7sw 6co"                    # 21 + 21 + 21 + 0 = 63, no batons
    b = "Aba 2co 2cu 2sw"                    # 12 + 12 + 12 + 16 = 52
    pos = position(hands=[3, 3], table=8, to_move=0, stock=18, piles=[a, b], exact_piles=True)
    bd = load(pos).score_breakdown()
    assert bd["primiera_total"] == [63, 52] and bd["primiera"] == [1, 0]
    bd = load(pos, primiera_missing_suit="forfeit").score_breakdown()
    assert bd["primiera_total"] == [None, 52] and bd["primiera"] == [0, 1]


def test_option_primiera_missing_suit_forfeit_both_missing():
    """§3 primiera_missing_suit=forfeit: when both sides miss a suit nobody wins primiera."""
    a = "7co 7cu 7sw 6co"
    b = "Aba 2co 2cu Kba"                    # no swords
    pos = position(hands=[3, 3], table=8, to_move=0, stock=18, piles=[a, b], exact_piles=True)
    bd = load(pos, primiera_missing_suit="forfeit").score_breakdown()
    assert bd["primiera_total"] == [None, None] and bd["primiera"] == [0, 0]
    bd = load(pos).score_breakdown()
    assert bd["primiera_total"] == [63, 40] and bd["primiera"] == [1, 0]


def test_sc_prim_3_primiera_values_are_not_match_points():
    """SC-PRIM-3: the primiera totals only decide one point; they are not added to scores."""
    a = "Aco 2co 3co 4co 7co Jco Cco Acu 2cu 3cu 6cu 7cu Jcu Ccu " \
        "Asw 2sw 3sw 4sw 6sw Aba 2ba 3ba 4ba"          # SC-EX-12's side A
    s = finish(a, play_card="2cu", take="2co")
    bd = s.score_breakdown()
    assert bd["primiera_total"] == [76, 75] and bd["primiera"] == [1, 0]
    assert bd["total"] == [4, 0] and s.to_dict()["scores"] == [4, 0]


# =============================================================================================
# 2.7 Match
# =============================================================================================

EX11_A = "Aco 2co 3co 4co 7co " + "3cu 4cu 5cu 6cu 7cu " + "Asw 2sw 3sw 4sw 6sw " \
    + "Aba 2ba 3ba 4ba 5ba"
# Final piles of SC-EX-11: every category but settebello ties; A gets 1 + its scopas.


def match_end(scores, scopas, **options):
    a = srt(EX11_A)
    pos = last_move_position([a, complement(a)], capturer=0, play="4cu", take="4co",
                             scopas=scopas, mode="match", scores=scores, rng=RNG_WORDS)
    s = load(pos, **options)
    play(s, "4cu>4co")
    return s


@pytest.mark.parametrize("target", [11, 21, 31, 41, 51, 61, 71, 81, 91, 101])
def test_sc_match_1_target_score_choices(target):
    """SC-MATCH-1: the target is one of 11, 21, ..., 101 (default 11); the match ends when a
    side reaches it."""
    assert game().rules.target_score == 11
    assert game(target_score=target).rules.target_score == target
    s = match_end([target - 2, 0], (1, 0), target_score=target)   # A +2 reaches the target
    assert s.to_dict()["phase"] == "match_over" and s.returns() == [1.0, -1.0]
    s = match_end([target - 3, 0], (1, 0), target_score=target)   # one short
    d = s.to_dict()
    assert d["phase"] == "play" and d["scores"] == [target - 1, 0] and d["deal_number"] == 2


def test_sc_match_1_bad_target_rejected():
    """SC-MATCH-1: any other target is refused."""
    with pytest.raises(OptionError, match="target_score"):
        cardsim.load_game("scopa", target_score=12)


def test_sc_match_2_no_winner_in_mid_deal():
    """SC-MATCH-2: the winner is decided only once the deal is scored: a scopa reaching the
    target mid-deal does not end the match."""
    s = load(sweep_then_end_position([10, 0]))
    play(s, "4co>4cu")
    d = s.to_dict()
    assert d["phase"] == "play" and d["scores"] == [10, 0] and s.current_player() == 1
    assert not s.is_terminal()
    play(s, "Kba")
    d = s.to_dict()
    assert d["phase"] == "match_over" and d["scores"] == [15, 0]
    assert s.returns() == [1.0, -1.0]


@pytest.mark.parametrize("before,scopas,after,winner", [
    ([9, 5], (1, 0), [11, 5], 0),     # only A reaches the target
    ([5, 9], (0, 2), [6, 11], 1),     # only B reaches it (A +1 settebello)
    ([9, 10], (2, 1), [12, 11], 0),   # both reach it, A higher
    ([10, 9], (0, 3), [11, 12], 1),   # both reach it, B higher
    ([9, 10], (1, 1), [11, 11], None),  # both reach it, equal: another deal
    ([5, 5], (1, 1), [7, 6], None),   # neither: another deal
])
def test_sc_match_3_winner_or_another_deal(before, scopas, after, winner):
    """SC-MATCH-3: one side at the target wins; both: the higher wins; equal: another deal
    (tie_at_target=extra_deal); neither: another deal."""
    s = match_end(before, scopas)
    d = s.to_dict()
    assert d["scores"] == after
    if winner is None:
        assert d["phase"] == "play" and d["deal_number"] == 2 and not s.is_terminal()
        assert d["dealer"] == 1 and s.current_player() == 0   # dealer 0 passes to seat 1
    else:
        assert d["phase"] == "match_over" and s.is_terminal()
        assert s.returns() == ([1.0, -1.0] if winner == 0 else [-1.0, 1.0])


def test_option_tie_at_target_only_extra_deal():
    """§3 tie_at_target: extra_deal is the only value (SC-MATCH-3)."""
    assert game().rules.tie_at_target == "extra_deal"
    assert game(tie_at_target="extra_deal").rules.tie_at_target == "extra_deal"
    with pytest.raises(OptionError, match="tie_at_target"):
        cardsim.load_game("scopa", tie_at_target="sudden_death")


def test_sc_match_3_tie_then_next_deal_decides():
    """SC-MATCH-3 "applied again after it": 11-11 goes on; the rule is checked after the next
    deal too (played out here to the end of the match)."""
    s = match_end([9, 10], (1, 1))
    assert s.to_dict()["scores"] == [11, 11]
    play_out(s)
    d = s.to_dict()
    assert d["phase"] == "match_over" and d["deal_number"] >= 2
    a, b = d["scores"]
    assert a != b and max(a, b) >= 11
    assert s.returns() == ([1.0, -1.0] if a > b else [-1.0, 1.0])


# =============================================================================================
# 2.8 Partnership mode (2x2)
# =============================================================================================

def test_sc_team_1_two_by_two_playable_end_to_end():
    """SC-TEAM-1: the 2x2 mode follows the seed's rules and is playable from the first deal to
    the end of the match, conserving the cards at every step."""
    g = game(num_players=4)
    for seed in (1, 2):
        s = g.new_match(seed=seed)
        moves = 0
        while not s.is_terminal():
            d = s.to_dict()
            assert all_cards_once(d) and len(d["hands"]) == 4
            assert s.current_player() == d["to_move"] in range(4)
            acts = s.legal_actions()
            s.apply_action(acts[0] if seed == 1 else acts[-1])
            moves += 1
            assert moves < 36 * 200
        d = s.to_dict()
        assert d["phase"] == "match_over" and moves % 36 == 0
        a, b = d["scores"]
        assert a != b and max(a, b) >= 11
        r = 1.0 if a > b else -1.0
        assert s.returns() == [r, -r, r, -r]


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_sc_team_2_order_counterclockwise_from_after_dealer(dealer):
    """SC-TEAM-2: seats in playing order; the player after the dealer starts; teams {0,2} and
    {1,3}."""
    g = game(num_players=4)
    s = g.new_deal(seed=seed_with_dealer(g, dealer))
    assert s.current_player() == (dealer + 1) % 4
    movers = play_out(s)
    assert movers == [(dealer + 1 + k) % 4 for k in range(36)]
    bd = s.score_breakdown()
    r = bd["total"][0] - bd["total"][1]
    assert s.returns() == [r, -r, r, -r]


def test_sc_team_3_team_captures_scopas_and_score():
    """SC-TEAM-3: captures, scopas and the last capture belong to the team (seat 2 -> side 0,
    seat 3 -> side 1); the 3-at-a-time refills are tested in test_sc_deal_5_number_of_refills."""
    pos = position(hands=[["2co", "Jba"], ["3cu", "Ksw"], ["5sw", "Cco"], ["4ba", "Csw"]],
                   table="5co", to_move=2, dealer=1, stock=12)
    s = load(pos, num_players=4)
    assert_legal(s, "5sw>5co", "Cco")
    play(s, "5sw>5co")                  # seat 2 sweeps: scopa for team {0, 2}
    d = s.to_dict()
    assert d["scopas"] == [1, 0] and d["last_capturer"] == 0
    assert d["piles"][0] == srt(pos["piles"][0] + ["5sw", "5co"])
    assert_legal(s, "4ba", "Csw")       # seat 3 onto the empty table
    play(s, "4ba")
    assert_legal(s, "2co", "Jba")       # seat 0: no 8, 4ba alone is no sum
    play(s, "Jba")
    assert_legal(s, "3cu", "Ksw")       # seat 1: 4 + 8 = 12, not 10
    play(s, "Ksw")
    assert_legal(s, "Cco")              # seat 2
    play(s, "Cco")
    assert_legal(s, "Csw>Cco")          # seat 3 takes the knight seat 2 laid
    play(s, "Csw>Cco")
    d = s.to_dict()
    assert d["piles"][1] == srt(pos["piles"][1] + ["Csw", "Cco"])
    assert d["piles"][0] == srt(pos["piles"][0] + ["5sw", "5co"])
    assert d["last_capturer"] == 1 and d["scopas"] == [1, 0]
    assert d["table"] == srt("4ba Jba Ksw")
    assert s.score_breakdown()["scopas"] == [1, 0]


def test_sc_team_4_partner_hand_hidden_and_resampled():
    """SC-TEAM-4: a player does not see his partner's hand: the observation holds only his own
    cards (and the public ones), and sample_world redistributes the partner's hand too."""
    hands = [["Aco", "2co", "3co"], ["4co", "5co", "6co"], ["7cu", "Jcu", "Ccu"],
             ["Kcu", "Asw", "2sw"]]
    pos = position(hands=hands, table=4, to_move=0, dealer=3, stock=12)
    s = load(pos, num_players=4)
    before = s.to_dict()
    obs = s.observation(0)
    assert obs["player"] == 0 and obs["hand"] == hands[0]
    assert obs["hand_sizes"] == [3, 3, 3, 3] and obs["stock_size"] == 12
    assert obs["table"] == pos["table"] and obs["piles"] == pos["piles"]
    text = json.dumps(obs)
    hidden = hands[1] + hands[2] + hands[3] + pos["stock"]
    assert [c for c in hidden if f'"{c}"' in text] == []
    obs2 = s.observation(2)
    assert obs2["hand"] == hands[2]
    assert [c for c in hands[0] if f'"{c}"' in json.dumps(obs2)] == []

    unseen = srt(hidden)
    partner_hands = set()
    for seed in range(20):
        w = s.sample_world(0, seed).to_dict()
        assert w["hands"][0] == hands[0]
        for key in ("table", "piles", "scopas", "to_move", "dealer", "scores",
                    "last_capturer", "phase", "mode", "deal_number"):
            assert w[key] == before[key], key
        assert [len(h) for h in w["hands"]] == [3, 3, 3, 3] and len(w["stock"]) == 12
        assert srt(w["hands"][1] + w["hands"][2] + w["hands"][3] + w["stock"]) == unseen
        assert w["rng"] != before["rng"]          # later deals cannot leak either
        partner_hands.add(tuple(w["hands"][2]))
    assert len(partner_hands) > 1 and partner_hands != {tuple(hands[2])}
    assert s.to_dict() == before


def test_sc_team_5_last_capture_and_last_move_are_table_wide():
    """SC-TEAM-5: the team that captured last takes the left-over cards; the 36th card (seat
    3's last, dealer 3) is the last move: a sweep with it is no scopa, a sweep with the 35th
    card is."""
    four = {"num_players": 4}
    # (a) seat 3 lays the last card; team {0, 2} captured last and takes the table
    pos = position(hands=[[], [], [], ["3cu"]], table="Kco Jsw", to_move=3, dealer=3, stock=0,
                   last_capturer=0)
    s = load(pos, **four)
    play(s, "3cu")
    d = s.to_dict()
    assert d["phase"] == "deal_over" and d["scopas"] == [0, 0]
    assert d["piles"][0] == srt(pos["piles"][0] + ["3cu", "Kco", "Jsw"])
    assert d["piles"][1] == pos["piles"][1]
    # (b) seat 2 sweeps with the 35th card: a scopa; seat 3's last card is left over to team 0
    pos = position(hands=[[], [], ["5cu"], ["Kba"]], table="5co", to_move=2, dealer=3, stock=0,
                   last_capturer=1)
    s = load(pos, **four)
    play(s, "5cu>5co")
    assert s.to_dict()["scopas"] == [1, 0] and s.current_player() == 3
    play(s, "Kba")
    d = s.to_dict()
    assert d["phase"] == "deal_over" and d["scopas"] == [1, 0]
    assert d["piles"][0] == srt(pos["piles"][0] + ["5cu", "5co", "Kba"])
    # (c) seat 3 sweeps with the 36th card: no scopa
    pos = position(hands=[[], [], [], ["5cu"]], table="5co", to_move=3, dealer=3, stock=0,
                   last_capturer=0)
    s = load(pos, **four)
    play(s, "5cu>5co")
    d = s.to_dict()
    assert d["phase"] == "deal_over" and d["scopas"] == [0, 0] and d["last_capturer"] == 1
    assert d["piles"][1] == srt(pos["piles"][1] + ["5cu", "5co"])


# =============================================================================================
# 3. Options not covered above
# =============================================================================================

def test_option_num_players():
    """§3 num_players: 2 (default) or 4 (2x2); nothing else."""
    assert game().rules.num_players == 2
    assert len(game().new_deal(seed=5).to_dict()["hands"]) == 2
    d = game(num_players=4).new_deal(seed=5).to_dict()
    assert [len(h) for h in d["hands"]] == [3, 3, 3, 3] and len(d["stock"]) == 24
    with pytest.raises(OptionError, match="num_players"):
        cardsim.load_game("scopa", num_players=3)


def test_option_equal_card_priority_false():
    """§3 equal_card_priority=false (SC-CAPT-3 off): the equal card or any sum, player's
    choice; capturing stays compulsory."""
    pos = position(hands=[["7sw"], 1], table="7cu 3ba 4sw", to_move=0, stock=12)
    assert_legal(load(pos), "7sw>7cu")
    s = load(pos, equal_card_priority=False)
    assert_legal(s, "7sw>7cu", "7sw>4sw+3ba")
    play(s, "7sw>4sw+3ba")
    d = s.to_dict()
    assert d["table"] == ["7cu"]
    assert d["piles"][0] == srt(pos["piles"][0] + ["7sw", "4sw", "3ba"])
    pos = position(hands=[["5sw"], 1], table="5co 5cu 2sw 3ba", to_move=0, stock=12)
    s = load(pos, equal_card_priority=False)
    assert_legal(s, "5sw>5co", "5sw>5cu", "5sw>2sw+3ba")
    with pytest.raises(IllegalActionError):
        s.apply_action(action_id("5sw"))


def test_option_redeal_kings_on_table_off():
    """§3 redeal_kings_on_table=off (SC-DEAL-3 off): 3+ kings on the initial table stay and
    the deal is played normally."""
    seed = find_redeal_seed()
    s = game(redeal_kings_on_table="off").new_deal(seed=seed)
    d = s.to_dict()
    assert kings(d["table"]) >= 3 and d["redeals"] == 0
    assert d == reference_deal(game(redeal_kings_on_table="off").rules, seed)
    assert len(play_out(s)) == 36


def test_option_four_player_deal_nine_at_once():
    """§3 four_player_deal=nine_at_once: 9 cards each (4 + 36 = 40), no refill; ignored with
    2 players."""
    g = game(num_players=4, four_player_deal="nine_at_once")
    for seed in range(5):
        s = g.new_deal(seed=seed)
        d = s.to_dict()
        assert [len(h) for h in d["hands"]] == [9, 9, 9, 9] and d["stock"] == []
        assert d == reference_deal(g.rules, seed)
        dealer = d["dealer"]
        sizes = []
        while not s.is_terminal():
            sizes.append(sum(len(h) for h in s.to_dict()["hands"]))
            s.apply_action(s.legal_actions()[0])
        assert sizes == list(range(36, 0, -1))          # one card fewer per move, no refill
        assert s.to_dict()["phase"] == "deal_over" and dealer == d["dealer"]
    two = game(four_player_deal="nine_at_once")
    assert two.rules.hand_size == 3
    assert [len(h) for h in two.new_deal(seed=1).to_dict()["hands"]] == [3, 3]


def test_sc_team_4_sampled_world_forgets_the_true_deal_order():
    """SC-TEAM-4, rules §5: a sampled world keeps no trace of the true hands: the dealt part of
    the deal order (which lists every player's cards) is overwritten, the stock part is the
    sampled stock."""
    from cardsim.games.scopa import kernels, layout
    from cardsim.games.scopa.layout import DECK as SCOPA
    state = game(num_players=4).new_deal(seed=11)
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    world = state.sample_world(2, seed=3)
    dealt = int(world.vec[layout.NEXT])
    assert dealt > 0
    assert all(kernels.order_card(world.vec, i) == 0xFF for i in range(dealt))
    assert [kernels.order_card(world.vec, i) for i in range(dealt, 40)] == \
        [SCOPA.index(c) for c in world.to_dict()["stock"]]
    assert any(kernels.order_card(state.vec, i) != 0xFF for i in range(dealt))

"""One test (or more) per rule ID of rules/mushka.md §2, and per option of §3.

Every expectation is worked out by hand from the rules file and the action encoding documented
in ``cardsim/games/mushka/layout.py``: exact legal-action lists (ids, strings and dicts), hands, discards,
stock, records, phases and returns. Positions are written in card notation with
``positions.position`` (the cards that matter; the rest spread so that the position is legal)
and actions go through ``action_from_dict``. What a seed deals is compared with the rules'
dealing restated in ``positions.oracle_deal`` / ``oracle_next_deal``.

Seats 0..3 are P1..P4 of the rules' examples; unless a test says otherwise the dealer is the
last seat (P4), so P1 decides first and leads first. ``Qh`` as the turned card makes hearts trump.
"""
from __future__ import annotations

import pytest

import cardsim
from cardsim.errors import IllegalActionError, OptionError
from tests.games.mushka.positions import (
    ALL52,
    DEFAULTS,
    RNG_WORDS,
    action_id,
    all_cards,
    assert_legal,
    deck_cards,
    exchange_position,
    exchanges,
    find_seed,
    holder_of,
    legal_strings,
    match_returns,
    oracle_deal,
    oracle_next_deal,
    play,
    play_cards,
    plays,
    position,
    srt,
)
from tests.helpers import game_loader

HEARTS = "Qh"      # turned card: hearts trump
SPADES = "Qs"      # turned card: spades trump
CLUBS_32 = srt("7c 8c 9c Tc Jc Qc Kc Ac")
HEARTS_32 = srt("7h 8h 9h Th Jh Qh Kh Ah")


game = game_loader("mushka")


def load(pos):
    """The position under the rules its dict names."""
    opts = {k: v for k, v in pos["rules"].items() if v != DEFAULTS[k] and k != "num_players"}
    return game(num_players=pos["rules"]["num_players"], **opts).from_dict(pos)


def assert_illegal(state, text):
    before = state.to_dict()
    legal = state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply_action(action_id(text))
    assert state.to_dict() == before and state.legal_actions() == legal


def assert_over(state, *, records, returns, phase="deal_over", winners=(), stopper=None,
                void=False):
    d = state.to_dict()
    assert d["phase"] == phase and d["to_move"] is None
    assert d["records"] == records
    assert d["winners"] == sorted(winners) and d["stopper"] == stopper and d["void"] == void
    assert d["stop_offer"] is None
    assert state.is_terminal() and state.current_player() == -1 and state.legal_actions() == []
    assert state.returns() == pytest.approx(returns)


def assert_zero_returns(state):
    assert not state.is_terminal()
    assert state.returns() == [0.0] * len(state.to_dict()["records"])


def stand_all(state):
    """Every remaining seat of the exchange stands."""
    while state.to_dict()["phase"] == "exchange":
        play(state, "stand")
    return state


# =============================================================================================
# 2.1 Deal
# =============================================================================================

@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_mu_deal_1_first_dealer_by_lot(n):
    """MU-DEAL-1: the first dealer is drawn by lot from the seed's stream (``below(n)``):
    every seat deals for some seed; a match starts with the same draw."""
    g = game(num_players=n)
    seeds = range(60)
    dealers = [g.new_deal(seed=s).to_dict()["dealer"] for s in seeds]
    assert dealers == [oracle_deal(s, n)["dealer"] for s in seeds]
    assert set(dealers) == set(range(n))
    assert [g.new_match(seed=s).to_dict()["dealer"] for s in range(20)] == dealers[:20]


def test_mu_deal_1_deal_passes_left_after_a_void_deal():
    """MU-DEAL-1: the deal passes to the left after every deal, a void deal included: all four
    pass (dealer P4 last), the match deals again with P1 dealing from the stream words, the
    records unchanged."""
    pos = exchange_position([None, None, None, "7c 8c 9d Td Js"], trump=HEARTS,
                            decisions=["pass", "pass", "pass", None],
                            records=[7, 30, 12, 25], mode="match", deal_number=2)
    s = load(pos)
    assert s.current_player() == 3
    play(s, "pass")
    d = s.to_dict()
    exp = oracle_next_deal(RNG_WORDS, 0)
    assert d["mode"] == "match" and d["phase"] == "exchange" and d["deal_number"] == 3
    assert d["dealer"] == 0 and d["to_move"] == 1 == s.current_player()
    assert d["records"] == [7, 30, 12, 25] and d["start_records"] == [7, 30, 12, 25]
    assert d["hands"] == exp["hands"] and d["stock"] == exp["stock"]
    assert d["trump_card"] == exp["trump_card"] and d["rng"] == exp["rng"]
    assert d["decisions"] == [None] * 4 and d["discards"] == [[]] * 4
    assert not s.is_terminal()


def test_mu_deal_1_deal_passes_left_after_a_played_deal():
    """MU-DEAL-1: after a deal played out, the next deal of the match is dealt by the seat on
    the dealer's left (dealer 2 -> 3)."""
    pos = position(["7c", "8c", "Ac", "9c"], trump=HEARTS, dealer=2, leader=0,
                   tricks_won=[1, 1, 1, 1], mode="match")
    s = load(pos)
    play_cards(s, "7c", "8c", "Ac", "9c")
    d = s.to_dict()
    exp = oracle_next_deal(RNG_WORDS, 3)
    assert d["phase"] == "exchange" and d["deal_number"] == 2 and d["dealer"] == 3
    assert d["to_move"] == 0 and d["hands"] == exp["hands"]
    assert d["records"] == [24, 24, 23, 24]


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_mu_deal_2_five_cards_each_one_at_a_time_from_dealers_left(n):
    """MU-DEAL-2: five cards each, dealt one at a time from the dealer's left: card i of the
    shuffled pack goes to seat (dealer + 1 + i) % n, exactly as the engine deals."""
    g = game(num_players=n)
    for seed in range(12):
        d = g.new_deal(seed=seed).to_dict()
        exp = oracle_deal(seed, n)
        assert d["dealer"] == exp["dealer"], seed
        assert d["hands"] == exp["hands"], seed
        assert [len(h) for h in d["hands"]] == [5] * n
        assert d["stock"] == exp["stock"] and d["trump_card"] == exp["trump_card"], seed
        assert d["rng"] == exp["rng"], seed
        assert d["phase"] == "exchange" and d["mode"] == "deal" and d["deal_number"] == 1
        assert d["to_move"] == (exp["dealer"] + 1) % n
        assert d["records"] == [25] * n and d["start_records"] == [25] * n
        assert d["decisions"] == [None] * n and d["discards"] == [[]] * n
        assert d["active"] == [] and d["ace_holder"] is None and d["leader"] is None
        assert d["trick"] == [] and d["tricks_won"] == [0] * n and d["tricks_played"] == 0
        assert d["played"] == [[]] * n and d["stop_offer"] is None and d["void"] is False
        assert d["stopper"] is None and d["winners"] == [] and d["trump_taken"] is False
        assert d["ace_bonus_taken"] is False and d["lone_tricks_left"] == 0
        assert sorted(all_cards(d), key=ALL52.index) == deck_cards(32 if n <= 4 else 52)


def test_mu_deal_2_new_deal_with_records():
    """MU-DEAL-2 / engine: ``new_deal(seed, records=...)`` deals the same cards with the
    deal's records starting from the given values."""
    g = game()
    d = g.new_deal(seed=7, records=[4, 25, 31, 12]).to_dict()
    plain = g.new_deal(seed=7).to_dict()
    assert d["records"] == [4, 25, 31, 12] and d["start_records"] == [4, 25, 31, 12]
    assert d["hands"] == plain["hands"] and d["stock"] == plain["stock"]


def test_mu_deal_3_turned_card_is_not_in_stock_nor_hands():
    """MU-DEAL-3: the card after the hands is turned up; it is in no hand and not in the
    stock, and nobody takes it (trump_taken false)."""
    for seed in range(20):
        d = game().new_deal(seed=seed).to_dict()
        exp = oracle_deal(seed)
        assert d["trump_card"] == exp["order"][20]
        assert d["trump_card"] not in d["stock"]
        assert all(d["trump_card"] not in h for h in d["hands"])
        assert d["trump_taken"] is False


@pytest.mark.parametrize("trump,legal", [
    ("Qh", ["7h"]), ("Qd", ["7d"]), ("Qs", ["8s", "Js", "Ks"]),
])
def test_mu_deal_3_turned_card_sets_trump(trump, legal):
    """MU-DEAL-3: the turned card's suit is trump: P2, void in clubs, must trump a club lead
    with a card of that suit (7h for Qh, 7d for Qd, any spade for Qs)."""
    pos = position([None, "7h 7d 8s Js Ks", None, None], trump=trump, leader=0, trick=["9c"])
    s = load(pos)
    assert s.current_player() == 1
    assert_legal(s, *plays(*legal))


def test_mu_deal_3_option_dealer_takes_trump_card():
    """MU-DEAL-3, option dealer_takes_trump_card: the dealer adds the turned card to his hand
    and discards one card face down (not the taken card, not As); then the exchange starts on
    his left; in the exchange he may not discard the taken card either."""
    seed = find_seed(lambda d: holder_of(d) != d["dealer"] and d["trump_card"] != "As")
    exp = oracle_deal(seed)
    dealer = exp["dealer"]
    s = game(dealer_takes_trump_card=True).new_deal(seed=seed)
    d = s.to_dict()
    six = srt(exp["hands"][dealer] + [exp["trump_card"]])
    assert d["phase"] == "discard" and d["to_move"] == dealer == s.current_player()
    assert d["trump_taken"] is True and d["hands"][dealer] == six
    assert d["stock"] == exp["stock"]
    assert_legal(s, *["discard " + c for c in six if c != exp["trump_card"]])
    assert_illegal(s, "discard " + exp["trump_card"])
    out = [c for c in six if c != exp["trump_card"]][0]
    play(s, "discard " + out)
    d = s.to_dict()
    assert d["phase"] == "exchange" and d["to_move"] == (dealer + 1) % 4
    assert d["discards"][dealer] == [out] and d["hands"][dealer] == [c for c in six if c != out]
    assert d["stock"] == exp["stock"] and d["trump_taken"] is True
    for _ in range(3):
        play(s, "stand")
    assert s.current_player() == dealer
    hand = s.to_dict()["hands"][dealer]
    assert_legal(s, *exchanges(hand, 5, keep=("As", exp["trump_card"])), "stand", "pass")


def test_mu_deal_3_dealer_takes_trump_card_as_of_spades_kept():
    """MU-DEAL-3 with dealer_takes_trump_card: the dealer may not discard As either (MU-EXCH-4),
    unless ace_of_spades_discardable."""
    pos = position([None, None, None, "As 7c 8c 9d Td Qh"], trump=HEARTS, phase="discard",
                   trump_taken=True, dealer_takes_trump_card=True)
    s = load(pos)
    assert_legal(s, "discard 7c", "discard 8c", "discard 9d", "discard Td")
    pos = position([None, None, None, "As 7c 8c 9d Td Qh"], trump=HEARTS, phase="discard",
                   trump_taken=True, dealer_takes_trump_card=True,
                   ace_of_spades_discardable=True)
    s = load(pos)
    assert_legal(s, "discard As", "discard 7c", "discard 8c", "discard 9d", "discard Td")


@pytest.mark.parametrize("n,deck,size", [
    (3, "auto", 16), (4, "auto", 11), (5, "auto", 26), (6, "auto", 21), (7, "auto", 16),
    (4, "36", 15), (7, "36", 0), (3, "52", 36), (6, "32", 1),
])
def test_mu_deal_4_stock_size(n, deck, size):
    """MU-DEAL-4 (options num_players, deck): the stock holds deck - 5n - 1 cards, face down,
    in the engine's order (top first)."""
    g = game(num_players=n, deck=deck)
    for seed in range(5):
        d = g.new_deal(seed=seed).to_dict()
        exp = oracle_deal(seed, n, deck)
        assert len(d["stock"]) == size and d["stock"] == exp["stock"]
        assert len(d["hands"]) == n and d["hands"] == exp["hands"]
        assert sorted(all_cards(d), key=ALL52.index) == deck_cards(int(
            deck if deck != "auto" else (32 if n <= 4 else 52)))


def test_mu_deal_4_stock_is_used_only_for_the_exchange():
    """MU-DEAL-4: the stock is only drawn from in the exchange: after everyone stands it stays
    as dealt through the whole play."""
    seed = 3
    exp = oracle_deal(seed)
    s = stand_all(game().new_deal(seed=seed))
    while not s.is_terminal():
        assert s.to_dict()["stock"] == exp["stock"]
        s.apply_action(s.legal_actions()[0])
    assert s.to_dict()["stock"] == exp["stock"]


def test_option_deck_too_small_is_refused():
    """Option deck (§3): 32 cards cannot deal 5 cards to 7 players plus the turned card."""
    with pytest.raises(OptionError):
        cardsim.load_game("mushka", num_players=7, deck="32")


# =============================================================================================
# 2.2 Exchange and passing
# =============================================================================================

def test_mu_exch_1_in_turn_from_dealers_left_to_dealer():
    """MU-EXCH-1: the seats decide one at a time from the dealer's left, the dealer last; then
    the play starts (5 players, 52 cards)."""
    g = game(num_players=5)
    for seed in (0, 1, 2):
        exp = oracle_deal(seed, 5)
        dealer = exp["dealer"]
        s = g.new_deal(seed=seed)
        order = []
        while s.to_dict()["phase"] == "exchange":
            order.append(s.current_player())
            play(s, "stand")
        assert order == [(dealer + 1 + j) % 5 for j in range(5)]
        d = s.to_dict()
        assert d["phase"] == "play" and d["decisions"] == ["stand"] * 5
        assert d["active"] == [0, 1, 2, 3, 4] and d["leader"] == (dealer + 1) % 5
        assert d["ace_holder"] == holder_of(exp)


def test_mu_exch_2_exchange_stand_or_pass():
    """MU-EXCH-2: P1 (no As, stock of 11) may exchange any 1..5 of his cards (31 sets),
    stand or pass; an exchange draws the stock's top k cards at once."""
    pos = exchange_position(["7c 8c 9d Td Js", None, None, None], trump=HEARTS,
                            stock=["Ac", "Kh", "7d"])
    s = load(pos)
    assert s.current_player() == 0
    texts = exchanges("7c 8c 9d Td Js", 5)
    assert len(texts) == 31
    assert_legal(s, *texts, "stand", "pass")
    assert s.action_to_string(action_id("exchange 7c+9d")) == "exchange 7c+9d"
    before = s.to_dict()
    play(s, "exchange 7c+9d")
    d = s.to_dict()
    assert d["hands"][0] == srt("8c Td Js Ac Kh")
    assert d["discards"][0] == ["7c", "9d"]
    assert d["stock"] == before["stock"][2:] and d["stock"][0] == "7d"
    assert d["decisions"] == [2, None, None, None]
    assert d["phase"] == "exchange" and d["to_move"] == 1
    assert_zero_returns(s)


def test_mu_exch_2_stand_and_pass_keep_the_hand():
    """MU-EXCH-2: "stand" keeps the cards; "pass" drops out (decisions record both)."""
    pos = exchange_position(["7c 8c 9d Td Js", "8s 9s Ts 7d 8d", None, None], trump=HEARTS)
    s = load(pos)
    before = s.to_dict()
    play(s, "stand", "pass")
    d = s.to_dict()
    assert d["decisions"] == ["stand", "pass", None, None]
    assert d["hands"] == before["hands"] and d["stock"] == before["stock"]
    assert d["discards"] == [[]] * 4 and d["to_move"] == 2


def test_mu_exch_3_ace_holder_may_not_pass():
    """MU-EXCH-3: a player holding As is not offered "pass" (15 exchange sets without As, and
    stand); a pass by him is refused."""
    pos = exchange_position(["As 7c 8c 9d Td", None, None, None], trump=HEARTS)
    s = load(pos)
    texts = exchanges("As 7c 8c 9d Td", 5)
    assert len(texts) == 15
    assert_legal(s, *texts, "stand")
    assert_illegal(s, "pass")


def test_mu_exch_3_a_pass_shows_no_ace():
    """MU-EXCH-3 / rules §5: every pass is a public sign that the passer has no As
    (``excluded`` gains As)."""
    pos = exchange_position(["7c 8c 9d Td Js", None, None, None], trump=HEARTS)
    s = load(pos)
    play(s, "pass")
    assert s.to_dict()["excluded"][0] == ["As"]


def test_mu_exch_4_ace_of_spades_not_discardable():
    """MU-EXCH-4: As is in no exchange set; an exchange naming it is refused."""
    pos = exchange_position(["As 7c 8c 9d Td", None, None, None], trump=HEARTS)
    s = load(pos)
    assert all("As" not in t for t in legal_strings(s))
    assert_illegal(s, "exchange As")
    assert_illegal(s, "exchange As+7c")


def test_mu_exch_4_option_ace_of_spades_discardable():
    """MU-EXCH-4, option ace_of_spades_discardable: every set of his cards may be exchanged,
    As included (31 sets; still no pass while he holds it). Discarded, As is dead and nobody is
    its holder (MU-ACE-5)."""
    pos = exchange_position(["As 7c 8c 9d Td", None, None, None], trump=HEARTS,
                            stock=["Ac", "Kh"], ace_of_spades_discardable=True)
    s = load(pos)
    texts = exchanges("As 7c 8c 9d Td", 5, keep=())
    assert len(texts) == 31
    assert_legal(s, *texts, "stand")
    play(s, "exchange As+7c")
    d = s.to_dict()
    assert d["discards"][0] == ["As", "7c"] and d["hands"][0] == srt("8c 9d Td Ac Kh")
    stand_all(s)
    d = s.to_dict()
    assert d["phase"] == "play" and d["ace_holder"] is None


def test_mu_exch_5_k_limited_by_the_stock():
    """MU-EXCH-5 (MU-EX-16 by position): after P1 exchanged 5 and P2 4, the stock holds 2:
    P3 may exchange 1 or 2 cards (15 sets), stand or pass; after he takes the last 2, P4
    can only stand or pass."""
    pos = exchange_position(["As 7s 8s 9s Ts", None, "7c 8c 9d Td Js", "Qc Kc Ac Qd Kd"],
                            trump=HEARTS, decisions=[5, 4, None, None], stock=["7d", "Jh"])
    s = load(pos)
    assert len(s.to_dict()["stock"]) == 2 and s.current_player() == 2
    texts = exchanges("7c 8c 9d Td Js", 2)
    assert len(texts) == 15
    assert_legal(s, *texts, "stand", "pass")
    assert_illegal(s, "exchange 7c+8c+9d")
    play(s, "exchange 7c+8c")
    d = s.to_dict()
    assert d["stock"] == [] and d["hands"][2] == srt("9d Td Js 7d Jh")
    assert s.current_player() == 3
    assert_legal(s, "stand", "pass")


def test_mu_exch_5_empty_stock_holder_can_only_stand():
    """MU-EXCH-5 with MU-EXCH-3: with an empty stock the holder of As can only stand."""
    pos = exchange_position([None, None, "7c 8c 9d Td Js", "As Kc Ac Qd Kd"], trump=HEARTS,
                            decisions=[5, 4, 2, None])
    s = load(pos)
    assert s.to_dict()["stock"] == []
    assert_legal(s, "stand")


def test_mu_exch_6_discards_are_dead():
    """MU-EXCH-6: discarded cards go to the discarder's discards and never back to the stock:
    P2's exchange draws the next stock cards, not P1's discards, which stay dead through the
    deal."""
    pos = exchange_position(["7c 8c 9d Td Js", "8s 9s Ts 7d 8d", None, None], trump=HEARTS,
                            stock=["Ac", "Kh", "Kd", "Ad", "Jh"])
    s = load(pos)
    play(s, "exchange 7c+9d", "exchange 8s+9s+Ts")
    d = s.to_dict()
    assert d["hands"][1] == srt("7d 8d Kd Ad Jh")
    assert d["discards"] == [["7c", "9d"], ["8s", "9s", "Ts"], [], []]
    assert len(d["stock"]) == 11 - 5
    assert not {"7c", "9d", "8s", "9s", "Ts"} & set(d["stock"])
    stand_all(s)
    while not s.is_terminal():
        assert s.to_dict()["discards"][:2] == [["7c", "9d"], ["8s", "9s", "Ts"]]
        s.apply_action(s.legal_actions()[0])
    assert s.to_dict()["discards"][:2] == [["7c", "9d"], ["8s", "9s", "Ts"]]


def test_mu_pass_1_passed_player_sits_out_hand_kept():
    """MU-PASS-1: P1 passes: his hand is set aside (it stays his), he is not active and never
    to move; the play goes round P2, P3, P4 only."""
    pos = exchange_position(["7c 8c 9d Td Js", "Ac Kc Qc Jc Ad", "7s 8s 9s Ts Ks",
                             "7d 8d Qd Kd Qs"], trump=HEARTS)
    s = load(pos)
    play(s, "pass", "stand", "stand", "stand")
    d = s.to_dict()
    assert d["phase"] == "play" and d["active"] == [1, 2, 3]
    assert d["hands"][0] == srt("7c 8c 9d Td Js") and d["decisions"][0] == "pass"
    assert d["leader"] == 1 and s.current_player() == 1
    movers = []
    while not s.is_terminal():
        movers.append(s.current_player())
        s.apply_action(s.legal_actions()[0])
    assert 0 not in movers and len(movers) == 15
    d = s.to_dict()
    assert d["hands"][0] == srt("7c 8c 9d Td Js") and d["played"][0] == []
    assert d["tricks_won"][0] == 0 and d["records"][0] == 25 and s.returns()[0] == 0


def test_mu_pass_1_passed_player_not_remised():
    """MU-PASS-1: a passed player (record 17) takes no trick and is not remised; P4, active
    without a trick, is (+5). Last trick: P2 leads Kc and wins."""
    pos = position([None, "Kc", "7c", "8c"], trump=HEARTS,
                   decisions=["pass", "stand", "stand", "stand"], leader=1,
                   tricks_won=[0, 2, 2, 0], records=[17, 23, 23, 25])
    s = load(pos)
    assert s.to_dict()["start_records"] == [17, 25, 25, 25]
    play_cards(s, "Kc", "7c", "8c")
    assert s.to_dict()["tricks_won"] == [0, 3, 2, 0]
    assert_over(s, records=[17, 22, 23, 30], returns=[0, 3, 2, -5])


def test_mu_pass_2_dealer_may_pass_after_all_others_void_deal():
    """MU-PASS-2: the dealer, last, may pass when everyone else has passed (he may also
    exchange or stand); all passed: the deal is void, nothing scored."""
    pos = exchange_position([None, None, None, "7c 8c 9d Td Js"], trump=HEARTS,
                            decisions=["pass", "pass", "pass", None], records=[3, 40, 17, 25])
    s = load(pos)
    assert_legal(s, *exchanges("7c 8c 9d Td Js", 5), "stand", "pass")
    play(s, "pass")
    assert_over(s, records=[3, 40, 17, 25], returns=[0, 0, 0, 0], void=True)
    d = s.to_dict()
    assert d["tricks_won"] == [0] * 4 and d["decisions"] == ["pass"] * 4


def test_mu_pass_2_void_deal_from_a_seed():
    """MU-PASS-2: a dealt deal in which nobody holds As, everyone passes: void, zeros."""
    seed = find_seed(lambda d: holder_of(d) is None)
    s = game().new_deal(seed=seed)
    for _ in range(4):
        play(s, "pass")
    assert_over(s, records=[25] * 4, returns=[0, 0, 0, 0], void=True)


def test_mu_pass_3_lone_player_credited_five_tricks():
    """MU-PASS-3: P1, P2, P3 pass, P4 stands: no play, he is credited all 5 tricks (25 -> 20)."""
    pos = exchange_position([None, None, None, "7c 8c 9d Td Js"], trump=HEARTS,
                            decisions=["pass", "pass", "pass", None])
    s = load(pos)
    play(s, "stand")
    assert_over(s, records=[25, 25, 25, 20], returns=[0, 0, 0, 5])
    d = s.to_dict()
    assert d["tricks_won"] == [0, 0, 0, 5] and d["tricks_played"] == 5
    assert d["active"] == [3] and d["played"] == [[]] * 4


@pytest.mark.parametrize("trump,record", [(HEARTS, 15), (SPADES, 10)])
def test_mu_pass_3_lone_holder_gets_the_ace_bonus(trump, record):
    """MU-PASS-3 with MU-SCORE-3: the lone player holding As also writes off the ace bonus:
    25 - 5 - 5 = 15 (25 - 5 - 10 = 10 with spades trump)."""
    pos = exchange_position([None, None, None, "As 7c 8c 9d Td"], trump=trump,
                            decisions=["pass", "pass", "pass", None])
    s = load(pos)
    play(s, "stand")
    assert_over(s, records=[25, 25, 25, record], returns=[0, 0, 0, 25 - record])
    d = s.to_dict()
    assert d["ace_holder"] == 3 and d["ace_bonus_taken"] is True


def test_mu_pass_3_lone_holder_bonus_at_end_of_deal():
    """MU-PASS-3 with ace_bonus_timing=end_of_deal: the lone holder's bonus comes after the 5
    credited tricks (15 as with first_trick); from 7 it reaches 0 only there, and with
    stop_mode=declared he is offered the stop {"at": "bonus"}."""
    s = load(exchange_position([None, None, None, "As 7c 8c 9d Td"], trump=HEARTS,
                               decisions=["pass", "pass", "pass", None],
                               ace_bonus_timing="end_of_deal"))
    play(s, "stand")
    assert_over(s, records=[25, 25, 25, 15], returns=[0, 0, 0, 10])
    s = load(exchange_position([None, None, None, "As 7c 8c 9d Td"], trump=HEARTS,
                               decisions=["pass", "pass", "pass", None], records=[25, 25, 25, 7],
                               ace_bonus_timing="end_of_deal", stop_mode="declared"))
    play(s, "stand")
    d = s.to_dict()
    assert d["phase"] == "stop" and d["stop_offer"] == {"seat": 3, "at": "bonus"}
    assert d["records"] == [25, 25, 25, 0] and d["tricks_won"] == [0, 0, 0, 5]
    play(s, "stop")
    assert_over(s, records=[25, 25, 25, 0], returns=[0, 0, 0, 7], winners=[3], stopper=3)


def test_mu_pass_3_lone_tricks_credited_one_at_a_time_and_stop():
    """MU-PASS-3 with MU-STOP-1: the lone player's tricks come one at a time, each checked
    against MU-STOP-1: record 3 reaches 0 at the third credited trick and he wins."""
    # dealer 0 (P1 here): seats 1, 2, 3 passed, the dealer decides last
    s = load(exchange_position(["7c 8c 9d Td Js", None, None, None], trump=HEARTS,
                               decisions=[None, "pass", "pass", "pass"], dealer=0,
                               records=[3, 25, 25, 25]))
    assert s.current_player() == 0
    play(s, "stand")
    assert_over(s, records=[0, 25, 25, 25], returns=[3, 0, 0, 0], winners=[0], stopper=0)
    d = s.to_dict()
    assert d["tricks_won"] == [3, 0, 0, 0] and d["tricks_played"] == 3


def test_mu_pass_3_lone_tricks_declared_offer_and_overshoot():
    """MU-PASS-3 with MU-STOP-3/4 (stop_mode=declared): the lone player (record 2) is offered
    the stop after his second credited trick; he plays on, and the third credited trick
    restarts him at 24, then 23, 22."""
    s = load(exchange_position([None, None, None, "7c 8c 9d Td Js"], trump=HEARTS,
                               decisions=["pass", "pass", "pass", None],
                               records=[25, 25, 25, 2], stop_mode="declared"))
    play(s, "stand")
    d = s.to_dict()
    assert d["phase"] == "stop" and d["stop_offer"] == {"seat": 3, "at": "play"}
    assert d["records"][3] == 0 and d["tricks_won"][3] == 2 and d["lone_tricks_left"] == 3
    assert_legal(s, "stop", "play_on")
    play(s, "play_on")
    assert_over(s, records=[25, 25, 25, 22], returns=[0, 0, 0, -20])
    assert s.to_dict()["tricks_won"] == [0, 0, 0, 5]


def test_mu_pass_3_option_lone_player_redeal():
    """MU-PASS-3, option lone_player=redeal: one player left voids the deal (P1 stands, the
    others pass, the dealer too)."""
    s = load(exchange_position(["7c 8c 9d Td Js", None, None, None], trump=HEARTS,
                               lone_player="redeal"))
    play(s, "stand", "pass", "pass", "pass")
    assert_over(s, records=[25] * 4, returns=[0, 0, 0, 0], void=True)
    assert s.to_dict()["tricks_won"] == [0] * 4
    s = load(exchange_position(["7c 8c 9d Td Js", None, None, None], trump=HEARTS))
    play(s, "stand", "pass", "pass", "pass")
    assert_over(s, records=[20, 25, 25, 25], returns=[5, 0, 0, 0])


# =============================================================================================
# 2.3 Play
# =============================================================================================

def test_mu_play_1_only_active_players_clockwise():
    """MU-PLAY-1: only the players who did not pass play, clockwise: P2 passed, so P1's lead is
    answered by P3 then P4, and the trick is complete with three cards."""
    pos = position(["7c 8c 9c Tc Jc", None, "8d 9d Td Jd Qd", "9s Ts Js Qs Ks"],
                   trump=HEARTS, decisions=["stand", "pass", "stand", "stand"])
    s = load(pos)
    assert s.to_dict()["active"] == [0, 2, 3]
    assert s.current_player() == 0
    play(s, "play 7c")
    assert s.current_player() == 2
    play(s, "play 8d")
    assert s.current_player() == 3
    play(s, "play 9s")
    d = s.to_dict()
    assert d["trick"] == [] and d["tricks_played"] == 1 and d["tricks_won"] == [1, 0, 0, 0]
    assert d["leader"] == 0 and s.current_player() == 0
    assert [len(h) for h in d["hands"]] == [4, 5, 4, 4]


def test_mu_play_1_five_tricks_each_with_five_cards():
    """MU-PLAY-1: every active player holds 5 cards, so the deal has exactly 5 tricks."""
    s = stand_all(game().new_deal(seed=11))
    tricks = 0
    while not s.is_terminal():
        before = s.to_dict()["tricks_played"]
        s.apply_action(s.legal_actions()[0])
        d = s.to_dict()
        if d["tricks_played"] > before:
            tricks += 1
            if d["stopper"] is None and not s.is_terminal():
                assert [len(h) for h in d["hands"]] == [5 - tricks] * 4
    d = s.to_dict()
    if d["stopper"] is None:
        assert tricks == 5 and sum(d["tricks_won"]) == 5 and d["hands"] == [[]] * 4


@pytest.mark.parametrize("decisions,dealer,leader", [
    (["stand", "stand", "stand", "stand"], 3, 0),
    (["pass", "stand", "stand", "stand"], 3, 1),
    (["pass", "pass", "stand", "stand"], 3, 2),
    (["stand", "stand", "stand", "stand"], 1, 2),
    (["stand", "stand", "pass", "stand"], 1, 3),
])
def test_mu_play_2_first_lead(decisions, dealer, leader):
    """MU-PLAY-2: the first lead is the dealer's left, or the first active seat clockwise from
    there when he passed."""
    hands = ["7c 8c 9d Td Js", "8s 9s Ts 7d 8d", "Ac Kc Qc Jc Ad", "9c Tc Kd Qd Jd"]
    s = load(exchange_position(hands, trump=HEARTS, dealer=dealer))
    for _ in range(4):
        play(s, decisions[s.current_player()])
    d = s.to_dict()
    assert d["phase"] == "play" and d["leader"] == leader and s.current_player() == leader
    assert d["active"] == [i for i in range(4) if decisions[i] != "pass"]


def test_mu_play_2_winner_leads_next():
    """MU-PLAY-2: afterwards the winner of each trick leads: P3 takes P1's lead with Ac and
    leads the second trick."""
    pos = position(["7c 8d 9d Td Jd", "8c 7s 8s 9s Ts", "Ac Qd Kd Ad 7d", "9c Js Qs Ks Tc"],
                   trump=HEARTS)
    s = load(pos)
    play_cards(s, "7c", "8c", "Ac", "9c")
    d = s.to_dict()
    assert d["leader"] == 2 and s.current_player() == 2 and d["tricks_won"] == [0, 0, 1, 0]


def test_mu_play_3_one_card_is_played():
    """MU-PLAY-3: each action plays exactly one card: the leader may lead any one of his five
    (five single-card actions); the card leaves his hand for the trick."""
    pos = position(["7c 8d 9d Td Jd", None, None, None], trump=HEARTS)
    s = load(pos)
    assert_legal(s, *plays("7c", "8d", "9d", "Td", "Jd"))
    assert all(bin(a & ((1 << 52) - 1)).count("1") == 1 and a >> 52 == 0
               for a in s.legal_actions())
    play(s, "play 9d")
    d = s.to_dict()
    assert d["hands"][0] == srt("7c 8d Td Jd") and d["trick"] == [[0, "9d"]]
    assert d["played"][0] == ["9d"] and d["leader"] == 0 and s.current_player() == 1


def test_mu_play_4_must_follow_suit_any_card_of_it():
    """MU-PLAY-4: P1 leads 9c; P2 (Kc 7c Ah Qd 8s) must play a club, either one (7c need not
    beat 9c); holding a trump does not matter."""
    s = load(position([None, "Kc 7c Ah Qd 8s", None, None], trump=HEARTS, leader=0,
                      trick=["9c"]))
    assert_legal(s, "play 7c", "play Kc")
    assert_illegal(s, "play Ah")
    play(s, "play 7c")
    assert s.current_player() == 2


def test_mu_play_4_follow_even_after_a_trump():
    """MU-PLAY-4: after P2 trumped the club lead, P3 with one club (Ac) must still play it,
    though it cannot win."""
    s = load(position([None, None, "Ac 8h 8d 9d Td", None], trump=HEARTS, leader=0,
                      trick=["9c", "Kh"]))
    assert_legal(s, "play Ac")


def test_mu_play_5_must_trump_any_trump_else_any_card():
    """MU-PLAY-5: void in the led suit, a player must trump (any trump, no overtrump duty);
    void in both, any card. P1 9c; P2 (7h Kh Ad Qs 8d) may play 7h or Kh; after Kh, P3's only
    trump 8h (under Kh) is his only card; P4 (no club, no heart) may play anything."""
    pos = position(["9c 7c 8c Tc Jc", "7h Kh Ad Qs 8d", "8h Ks 9d Jd Td",
                    "Js Ts 7d Qd Kd"], trump=HEARTS)
    s = load(pos)
    play(s, "play 9c")
    assert_legal(s, "play 7h", "play Kh")
    assert_illegal(s, "play Ad")
    play(s, "play Kh")
    assert_legal(s, "play 8h")
    play(s, "play 8h")
    assert_legal(s, *plays("Ts", "Js", "7d", "Qd", "Kd"))
    play(s, "play Kd")
    d = s.to_dict()
    assert d["tricks_won"] == [0, 1, 0, 0] and d["leader"] == 1
    assert d["records"] == [25, 24, 25, 25]


def test_mu_play_5_voids_shown_are_public():
    """MU-PLAY-5 / rules §5 (the position's ``excluded``): not following the club lead shows no
    club; not trumping either shows no trump; P2's trick won without the ace bonus shows no As."""
    pos = position(["9c 7c 8c Tc Jc", "7h Kh Ad Qs 8d", "8h Ks 9d Jd Td",
                    "Js Ts 7d Qd Kd"], trump=HEARTS)
    s = load(pos)
    play_cards(s, "9c", "Kh", "8h", "Kd")
    ex = s.to_dict()["excluded"]
    assert ex[0] == []
    assert ex[1] == srt(CLUBS_32 + ["As"])
    assert ex[2] == CLUBS_32
    assert ex[3] == srt(CLUBS_32 + HEARTS_32)


def test_mu_play_6_trick_winner():
    """MU-PLAY-6: without a trump the highest card of the led suit wins (Kc; the Ad thrown on
    it does not count); with trumps the highest trump (9h over 7h)."""
    pos = position(["9c 7s 8s 9s Ts", "Kc 7d 8d 9d Td", "Ad Jd Qd Kd Js", "7c Qs Ks Jc Qc"],
                   trump=HEARTS)
    s = load(pos)
    play_cards(s, "9c", "Kc", "Ad", "7c")
    d = s.to_dict()
    assert d["tricks_won"] == [0, 1, 0, 0] and d["records"] == [25, 24, 25, 25]
    assert d["leader"] == 1
    pos = position(["9c 7s 8s 9s Ts", "Kc 7d 8d 9d Td", "7h Jd Qd Kd Js", "9h Qs Ks Ad As"],
                   trump=HEARTS)
    s = load(pos)
    play_cards(s, "9c", "Kc", "7h", "9h")
    d = s.to_dict()
    assert d["tricks_won"] == [0, 0, 0, 1] and d["leader"] == 3
    assert d["records"] == [25, 25, 25, 19]          # P4 holds As: -1 and the bonus


def test_mu_play_7_illegal_card_refused():
    """MU-PLAY-7: a revoke cannot happen: the engine refuses a card that is not legal (P2 with
    clubs playing a trump on a club lead), and the state is unchanged."""
    s = load(position([None, "Kc 7c Ah Qd 8s", None, None], trump=HEARTS, leader=0,
                      trick=["9c"]))
    assert_illegal(s, "play Ah")
    assert_illegal(s, "play Qd")
    assert_illegal(s, "play 9c")          # not in his hand


# =============================================================================================
# 2.4 The ace of spades
# =============================================================================================

def test_mu_ace_1_spades_trump_as_is_the_highest_trump():
    """MU-ACE-1: spades trump: As is simply the highest trump. P1 leads Ah (plain); P2, void
    in hearts, must trump with any spade; P3's only spade As must be played and wins over
    P2's 7s; as holder he writes off 1 + 10."""
    pos = position(["Ah 7c 8c 9c Tc", "As 7s Kd Qd 8d", "8h 9h 7d 9d Td", "Ts Js Ks Jc Qc"],
                   trump=SPADES)
    # P2 holds As and 7s: both are trumps; the ace is legal as an ordinary (highest) trump
    s = load(pos)
    play(s, "play Ah")
    assert_legal(s, "play 7s", "play As")
    play(s, "play 7s")
    play(s, "play 8h")
    assert_legal(s, "play Ts", "play Js", "play Ks")
    play(s, "play Ks")
    d = s.to_dict()
    assert d["tricks_won"] == [0, 0, 0, 1]
    pos = position(["Ah 7c 8c 9c Tc", "7s 8s Kd Qd 8d", "As Jd 7d 9d Td", "9h Js Ks Jc Qc"],
                   trump=SPADES)
    s = load(pos)
    play_cards(s, "Ah", "7s")
    assert_legal(s, "play As")
    play_cards(s, "As", "9h")
    d = s.to_dict()
    assert d["tricks_won"] == [0, 0, 1, 0] and d["ace_holder"] == 2
    assert d["records"] == [25, 25, 14, 25]


def test_mu_ace_1_spades_trump_no_special_power():
    """MU-ACE-1: with spades trump MU-ACE-2 does not apply: a lead of Ks (trump) must be
    followed with spades, As among them, and As wins only as the highest spade."""
    pos = position(["Ks 7c 8c 9c Tc", "As 7s Kd Qd 8d", None, None], trump=SPADES)
    s = load(pos)
    play(s, "play Ks")
    assert_legal(s, "play 7s", "play As")


def test_mu_ace_2_as_may_beat_a_led_trump_ace():
    """MU-ACE-2: hearts trump, P1 leads Ah: P2 (As 7h 9h Kd 8c) may follow with a heart or
    play As even though he holds trumps; As wins the trick over later trumps, and P2 writes off
    1 + 5."""
    pos = position(["Ah 7c 9c Tc Jc", "As 7h 9h Kd 8c", "Th 8d 9d Td Jd", "Kh 7s 8s 9s Ts"],
                   trump=HEARTS)
    s = load(pos)
    play(s, "play Ah")
    assert_legal(s, "play As", "play 7h", "play 9h")
    play(s, "play As")
    assert_legal(s, "play Th")
    play_cards(s, "Th", "Kh")
    d = s.to_dict()
    assert d["tricks_won"] == [0, 1, 0, 0] and d["leader"] == 1
    assert d["records"] == [25, 19, 25, 25] and d["ace_bonus_taken"] is True


def test_mu_ace_2_play_proves_no_void():
    """MU-ACE-2 (the position's ``excluded``): As played onto a led trump ace shows nothing about
    the player's trumps (he may hold hearts)."""
    pos = position(["Ah 7c 9c Tc Jc", "As 7h 9h Kd 8c", "Th 8d 9d Td Jd", "Kh 7s 8s 9s Ts"],
                   trump=HEARTS)
    s = load(pos)
    play_cards(s, "Ah", "As")
    assert s.to_dict()["excluded"] == [[], [], [], []]


def test_mu_ace_2_holder_later_in_the_trick():
    """MU-ACE-2: the ace of spades' power depends on the lead, not on the seat: P3 plays As
    to P1's Ah after P2 followed with 7h, and wins."""
    pos = position(["Ah 7c 9c Tc Jc", "7h 8h 9h Kd 8c", "As Th 8d 9d Td", "Kh 7s 8s 9s Ts"],
                   trump=HEARTS)
    s = load(pos)
    play_cards(s, "Ah", "7h")
    assert_legal(s, "play As", "play Th")
    play_cards(s, "As", "Kh")
    assert s.to_dict()["tricks_won"] == [0, 0, 1, 0]


def test_mu_ace_3_trump_ace_not_led_no_power():
    """MU-ACE-3: P1 leads 9h, P2 plays Ah: P3 with a heart must follow (As not legal); void
    in hearts he may play As, and Ah wins."""
    s = load(position([None, None, "As 7h Kd Qd 8c", None], trump=HEARTS, leader=0,
                      trick=["9h", "Ah"]))
    assert_legal(s, "play 7h")
    pos = position(["9h 7c 9c Tc Jc", "Ah Kc 8d 9d Td", "As Kd Qd Jd 8c", "8h 7s 8s 9s Ts"],
                   trump=HEARTS)
    s = load(pos)
    play_cards(s, "9h", "Ah")
    assert_legal(s, *plays("As", "8c", "Jd", "Qd", "Kd"))
    play_cards(s, "As", "8h")
    d = s.to_dict()
    assert d["tricks_won"] == [0, 1, 0, 0] and d["records"] == [25, 24, 25, 25]


def test_mu_ace_3_as_never_beats_another_trump():
    """MU-ACE-3: As does not beat any trump but a led ace: P1 leads 7c, P2 (void in clubs and
    hearts) plays As, P3 trumps with 7h and wins."""
    pos = position(["7c 8c 9c Tc Jc", "As Kd Qd Jd 8d", "7h 8h 9d Td 7d", "Qc Kc 7s 8s 9s"],
                   trump=HEARTS)
    s = load(pos)
    play(s, "play 7c")
    assert_legal(s, *plays("As", "8d", "Jd", "Qd", "Kd"))
    play(s, "play As")
    assert_legal(s, "play 7h", "play 8h")
    play_cards(s, "7h", "Qc")
    d = s.to_dict()
    assert d["tricks_won"] == [0, 0, 1, 0] and d["records"] == [25, 25, 24, 25]


def test_mu_ace_4_as_is_an_ordinary_spade_otherwise():
    """MU-ACE-4: on a spade lead As must follow like any spade and wins as the highest spade;
    on a club lead a holder void in clubs with a trump must trump (As not legal)."""
    pos = position(["9s 7c 9c Tc Jc", "As 7s Kd Qd 8d", "8s Jd 7d 9d Td", "Ts 8c Qc Kc Ac"],
                   trump=HEARTS)
    s = load(pos)
    play(s, "play 9s")
    assert_legal(s, "play 7s", "play As")
    play_cards(s, "As", "8s", "Ts")
    d = s.to_dict()
    assert d["tricks_won"] == [0, 1, 0, 0] and d["records"] == [25, 19, 25, 25]
    s = load(position([None, None, "As 7h Kd Qd 8d", None], trump=HEARTS, leader=0,
                      trick=["9c", "Tc"]))
    assert_legal(s, "play 7h")


def test_mu_ace_5_holder_is_who_has_it_after_the_exchange():
    """MU-ACE-5: As drawn in the exchange makes its drawer the holder."""
    s = load(exchange_position(["7c 8c 9d Td Js", None, None, None], trump=HEARTS,
                               stock=["Kh", "As"]))
    play(s, "exchange 7c+8c")
    assert s.to_dict()["hands"][0] == srt("9d Td Js Kh As")
    stand_all(s)
    d = s.to_dict()
    assert d["phase"] == "play" and d["ace_holder"] == 0


@pytest.mark.parametrize("where", ["stock", "turned"])
def test_mu_ace_5_no_holder(where):
    """MU-ACE-5: As still in the stock, or the turned card: nobody is the holder; the first
    trick then costs its winner 1 only."""
    if where == "stock":
        pos = exchange_position(["7c 8c 9d Td Js", "Kc 7s 8s 9s Ts", "Ac 7d 8d Qd Kd",
                                 "Qc Jc 9c Ad Jd"], trump=HEARTS)
    else:
        pos = exchange_position(["7c 8c 9d Td Js", "Kc 7s 8s 9s Ts", "Ac 7d 8d Qd Kd",
                                 "Qc Jc 9c Ad Jd"], trump="As")
    s = stand_all(load(pos))
    d = s.to_dict()
    assert d["ace_holder"] is None
    play_cards(s, "7c", "Kc", "Ac", "9c")
    d = s.to_dict()
    assert d["records"] == [25, 25, 24, 25] and d["ace_bonus_taken"] is False


def test_mu_ace_5_discarded_ace_no_holder():
    """MU-ACE-5 with MU-EXCH-4 (ace_of_spades_discardable): As discarded by P1 is dead; P2
    drawing later does not make anybody the holder."""
    pos = exchange_position(["As 7c 8c 9d Td", None, None, None], trump=HEARTS,
                            ace_of_spades_discardable=True)
    s = load(pos)
    play(s, "exchange As")
    stand_all(s)
    assert s.to_dict()["ace_holder"] is None


# =============================================================================================
# 2.5 Scoring
# =============================================================================================

def first_trick_position(trump=HEARTS, **kw):
    """P2 (holder of As) wins P1's 7c lead with Kc; then leads 7s and wins again."""
    return position(["7c 8d 9d Td Jd", "Kc As 7s 8s 9s", "8c Qd Kd Ad 7d", "9c Ac Jc Qc Tc"],
                    trump=trump, **kw)


def test_mu_score_1_trick_written_off_at_once():
    """MU-SCORE-1: each trick won costs its winner 1 the moment it is won (mid-deal), not at
    the end; the returns stay zero until the end."""
    pos = position(["7c 8d 9d Td Jd", "8c 7s 8s 9s Ts", "Kc Qd Kd Ad 7d", "9c Js Qs Ks Tc"],
                   trump=HEARTS)
    s = load(pos)
    play_cards(s, "7c", "8c", "Kc")
    assert s.to_dict()["records"] == [25] * 4
    play(s, "play 9c")
    d = s.to_dict()
    assert d["records"] == [25, 25, 24, 25] and d["tricks_won"] == [0, 0, 1, 0]
    assert d["phase"] == "play"
    assert_zero_returns(s)


def test_mu_score_2_remise_at_end_of_deal():
    """MU-SCORE-2: an active player without a trick adds 5 at the end of the deal (P4: 25 ->
    30), not before the last trick."""
    pos = position(["Kc", "7c", "8c", "9c"], trump=HEARTS, leader=0, tricks_won=[2, 1, 1, 0])
    s = load(pos)
    play_cards(s, "Kc", "7c", "8c")
    assert s.to_dict()["records"] == [23, 24, 24, 25]
    play(s, "play 9c")
    assert_over(s, records=[22, 24, 24, 30], returns=[3, 1, 1, -5])


@pytest.mark.parametrize("trump,bonus", [(HEARTS, 5), (SPADES, 10)])
def test_mu_score_3_ace_bonus_at_first_trick(trump, bonus):
    """MU-SCORE-3 (ace_bonus_timing=first_trick): the holder writes off 5 (10 with spades
    trump) right after the -1 of his first trick, once: 25 - 1 - 5 = 19, then 18."""
    s = load(first_trick_position(trump))
    play_cards(s, "7c", "Kc", "8c", "9c")
    d = s.to_dict()
    assert d["records"] == [25, 24 - bonus, 25, 25] and d["ace_bonus_taken"] is True
    assert d["ace_holder"] == 1
    if trump == HEARTS:
        play_cards(s, "7s", "7d", "Tc", "8d")
        d = s.to_dict()
        assert d["tricks_won"] == [0, 2, 0, 0] and d["records"] == [25, 18, 25, 25]


def test_mu_score_3_option_bonus_at_end_of_deal():
    """MU-SCORE-3, option ace_bonus_timing=end_of_deal: the first trick costs the holder 1
    only; the bonus comes at the end of the deal, if he took a trick (P2: 24 -> 19)."""
    s = load(first_trick_position(ace_bonus_timing="end_of_deal"))
    play_cards(s, "7c", "Kc", "8c", "9c")
    d = s.to_dict()
    assert d["records"] == [25, 24, 25, 25] and d["ace_bonus_taken"] is False
    pos = position(["Kc", "7c", "8c", "9c"], trump=HEARTS, leader=0, tricks_won=[2, 1, 1, 0],
                   played=[None, ["As", "7s", "8s", "9s"], None, None],
                   ace_bonus_timing="end_of_deal")
    s = load(pos)
    d = s.to_dict()
    assert d["records"] == [23, 24, 24, 25] and d["ace_holder"] == 1
    assert d["ace_bonus_taken"] is False
    play_cards(s, "Kc", "7c", "8c", "9c")
    assert_over(s, records=[22, 19, 24, 30], returns=[3, 6, 1, -5])
    assert s.to_dict()["ace_bonus_taken"] is True


def test_mu_score_3_end_of_deal_bonus_needs_a_trick():
    """MU-SCORE-3/4 with end_of_deal: a holder without a trick gets no bonus but +10."""
    pos = position(["Kc", "7c", "8c", "9c"], trump=HEARTS, leader=0, tricks_won=[2, 0, 2, 0],
                   played=[None, ["As", "7s", "8s", "9s"], None, None],
                   ace_bonus_timing="end_of_deal")
    s = load(pos)
    play_cards(s, "Kc", "7c", "8c", "9c")
    assert_over(s, records=[22, 35, 23, 30], returns=[3, -10, 2, -5])


@pytest.mark.parametrize("timing", ["first_trick", "end_of_deal"])
def test_mu_score_4_holder_without_trick_adds_ten(timing):
    """MU-SCORE-4: the holder of As who took no trick adds 10 (5 remise + 5 for the ace): P2
    plays As on the last trick (void in clubs) and loses it: 25 -> 35."""
    pos = position(["Kc", "As", "7c", "8c"], trump=HEARTS, leader=0, tricks_won=[2, 0, 1, 1],
                   ace_bonus_timing=timing)
    s = load(pos)
    assert s.to_dict()["ace_holder"] == 1
    play_cards(s, "Kc", "As", "7c", "8c")
    assert_over(s, records=[22, 35, 24, 24], returns=[3, -10, 1, 1])


def test_mu_score_5_record_never_below_zero():
    """MU-SCORE-5: the ace bonus larger than the record clamps it at 0 (record 3: 3 - 1 = 2,
    bonus 5 -> 0, not -3), and the holder stops and wins."""
    s = load(first_trick_position(records=[25, 3, 25, 25]))
    play_cards(s, "7c", "Kc", "8c", "9c")
    assert_over(s, records=[25, 0, 25, 25], returns=[0, 3, 0, 0], winners=[1], stopper=1)


def test_mu_score_5_remise_has_no_upper_limit():
    """MU-SCORE-5: remise has no upper limit: records 48 and 60 go to 53 and 70 (holder)."""
    pos = position(["Kc", "As", "7c", "8c"], trump=HEARTS, leader=0, tricks_won=[2, 0, 2, 0],
                   records=[22, 60, 23, 48], start_records=[24, 60, 25, 48])
    s = load(pos)
    play_cards(s, "Kc", "As", "7c", "8c")
    assert_over(s, records=[21, 70, 23, 53], returns=[3, -10, 2, -5])


def test_mu_score_6_passed_players_keep_their_records():
    """MU-SCORE-6: the players who passed keep their records (P1 17, P3 30), the actives are
    scored; a void deal changes no record (MU-PASS-2)."""
    pos = position([None, "Kc", None, "8c"], trump=HEARTS,
                   decisions=["pass", "stand", "pass", "stand"], leader=1,
                   tricks_won=[0, 3, 0, 1], records=[17, 22, 30, 24])
    s = load(pos)
    play_cards(s, "Kc", "8c")
    assert_over(s, records=[17, 21, 30, 24], returns=[0, 4, 0, 1])
    pos = exchange_position([None, None, None, "7c 8c 9d Td Js"], trump=HEARTS,
                            decisions=["pass", "pass", "pass", None], records=[17, 1, 30, 4])
    s = load(pos)
    play(s, "pass")
    assert_over(s, records=[17, 1, 30, 4], returns=[0, 0, 0, 0], void=True)


# =============================================================================================
# 2.6 Stopping
# =============================================================================================

def stop_position(**kw):
    """Trick 2, P2 (holder, bonus taken: 19) leads 7c; P3 (record 1) wins it with Ac."""
    return position(["9c Jc Qc Kc", "7c As 7s 8s", "Ac 8d 9d Td", "8c Jd Qd Kd"],
                    trump=HEARTS, leader=1, tricks_won=[0, 1, 0, 0],
                    records=[25, 19, 1, 25], **kw)


def test_mu_stop_1_trick_to_zero_stops_at_once():
    """MU-STOP-1: P3's trick brings his record to 0: the game stops at once and he wins;
    write-offs made stand (P2's trick and ace bonus), nobody is remised (P1, P4)."""
    s = load(stop_position())
    assert s.to_dict()["start_records"] == [25, 25, 1, 25]
    play_cards(s, "7c", "Ac", "8c", "9c")
    assert_over(s, records=[25, 19, 0, 25], returns=[0, 6, 1, 0], winners=[2], stopper=2)
    d = s.to_dict()
    assert d["tricks_won"] == [0, 1, 1, 0] and d["tricks_played"] == 2


def test_mu_stop_2_clamp_for_the_ace_with_spades_trump():
    """MU-STOP-2: spades trump, holder P2 at 2 wins his first trick with As (his only trump):
    2 - 1 = 1 < bonus 10: record 0, not penalised, he stops and wins."""
    pos = position(["7c 8d 9d Td Jd", "As 7h 8h 9h Th", "8c Qd Kd Ad 7d", "9c Ac Jc Qc Tc"],
                   trump=SPADES, records=[25, 2, 25, 25])
    s = load(pos)
    play(s, "play 7c")
    assert_legal(s, "play As")
    play_cards(s, "As", "8c", "9c")
    assert_over(s, records=[25, 0, 25, 25], returns=[0, 2, 0, 0], winners=[1], stopper=1)
    assert s.to_dict()["ace_bonus_taken"] is True


def overshoot_position(**kw):
    """stop_mode=declared: P3 reached 0 (start 3, 3 tricks) and played on; he leads Ac."""
    return position(["8c 8d", "9c 9d", "Ac Kd", "7c 7d"], trump=HEARTS, leader=2,
                    tricks_won=[0, 0, 3, 0], records=[25, 25, 0, 25],
                    start_records=[25, 25, 3, 25], stop_mode="declared", **kw)


@pytest.mark.parametrize("reset,after", [("start_minus_excess", 24), ("start", 25)])
def test_mu_stop_3_overshoot_reset(reset, after):
    """MU-STOP-3 (option overshoot_reset): a player at 0 who did not stop and wins another
    trick restarts at 24 (25 with overshoot_reset=start); no stop is offered there; his next
    trick costs 1 as usual."""
    s = load(overshoot_position(overshoot_reset=reset))
    play_cards(s, "Ac", "7c", "8c", "9c")
    d = s.to_dict()
    assert d["records"] == [25, 25, after, 25] and d["phase"] == "play"
    assert d["stop_offer"] is None and s.current_player() == 2
    play_cards(s, "Kd", "7d", "8d", "9d")
    assert_over(s, records=[30, 30, after - 1, 30],
                returns=[-5, -5, 3 - (after - 1), -5])


def test_mu_stop_3_overshoot_with_start_points_30():
    """MU-STOP-3 with option start_points=30: the restart is start_points - 1 = 29."""
    s = load(overshoot_position(start_points=30))
    play_cards(s, "Ac", "7c", "8c", "9c")
    assert s.to_dict()["records"][2] == 29


def last_trick_stop(**kw):
    """Last trick: P3 (start 2, one trick: record 1) takes P1's 7c lead with Ac."""
    kw.setdefault("records", [23, 24, 1, 25])
    return position(["7c", "8c", "Ac", "9c"], trump=HEARTS, leader=0, tricks_won=[2, 1, 1, 0],
                    stop_mode="declared", **kw)


def test_mu_stop_4_declared_offer_after_the_trick_stop():
    """MU-STOP-4: with stop_mode=declared, the trick bringing P3 to 0 offers him "stop" or
    "play_on"; stopping wins at once, nothing more is scored (P4 not remised)."""
    s = load(last_trick_stop())
    play_cards(s, "7c", "8c", "Ac", "9c")
    d = s.to_dict()
    assert d["phase"] == "stop" and d["stop_offer"] == {"seat": 2, "at": "play"}
    assert d["to_move"] == 2 == s.current_player() and d["records"] == [23, 24, 0, 25]
    assert_legal(s, "stop", "play_on")
    play(s, "stop")
    assert_over(s, records=[23, 24, 0, 25], returns=[2, 1, 2, 0], winners=[2], stopper=2)


@pytest.mark.parametrize("last", ["stop", "play_on"])
def test_mu_stop_4_declared_offer_again_at_the_end(last):
    """MU-STOP-4: having played on, P3 is offered the stop again at the end of the deal,
    after the remises (P4 +5); stopping there wins, playing on ends the deal without a
    winner."""
    s = load(last_trick_stop())
    play_cards(s, "7c", "8c", "Ac", "9c")
    play(s, "play_on")
    d = s.to_dict()
    assert d["phase"] == "stop" and d["stop_offer"] == {"seat": 2, "at": "end"}
    assert d["records"] == [23, 24, 0, 30] and s.current_player() == 2
    assert_legal(s, "stop", "play_on")
    play(s, last)
    if last == "stop":
        assert_over(s, records=[23, 24, 0, 30], returns=[2, 1, 2, -5], winners=[2],
                    stopper=2)
    else:
        assert_over(s, records=[23, 24, 0, 30], returns=[2, 1, 2, -5])


@pytest.mark.parametrize("dealer,order", [(3, [0, 2]), (1, [2, 0])])
def test_mu_stop_4_end_offers_from_dealers_left(dealer, order):
    """MU-STOP-4 (the engine: offers at the end in order from the dealer's left, dealer last):
    P1 (at 0 since an earlier trick) and P3 (0 now) are both offered the stop at the end."""
    pos = position(["7c", "8c", "Ac", "9c"], trump=HEARTS, leader=0, dealer=dealer,
                   tricks_won=[2, 1, 1, 0], records=[0, 24, 1, 25],
                   start_records=[2, 25, 2, 25], stop_mode="declared")
    s = load(pos)
    play_cards(s, "7c", "8c", "Ac", "9c")
    assert s.to_dict()["stop_offer"] == {"seat": 2, "at": "play"}
    play(s, "play_on")
    seen = []
    while s.to_dict()["phase"] == "stop":
        d = s.to_dict()
        assert d["stop_offer"]["at"] == "end"
        seen.append(d["stop_offer"]["seat"])
        play(s, "play_on")
    assert seen == order
    assert_over(s, records=[0, 24, 0, 30], returns=[2, 1, 2, -5])


def test_mu_stop_4_bonus_offer_with_end_of_deal_timing():
    """MU-STOP-4 with ace_bonus_timing=end_of_deal: the end-of-deal bonus bringing the holder
    to 0 offers the stop {"at": "bonus"}; playing on, the remises follow and he is offered
    again at the end."""
    pos = position(["Kc", "7c", "8c", "9c"], trump=HEARTS, leader=0, tricks_won=[2, 1, 1, 0],
                   played=[None, ["As", "7s", "8s", "9s"], None, None],
                   records=[23, 4, 24, 25], start_records=[25, 5, 25, 25],
                   ace_bonus_timing="end_of_deal", stop_mode="declared")
    s = load(pos)
    play_cards(s, "Kc", "7c", "8c", "9c")
    d = s.to_dict()
    assert d["phase"] == "stop" and d["stop_offer"] == {"seat": 1, "at": "bonus"}
    assert d["records"] == [22, 0, 24, 25] and d["ace_bonus_taken"] is True
    play(s, "play_on")
    d = s.to_dict()
    assert d["stop_offer"] == {"seat": 1, "at": "end"} and d["records"] == [22, 0, 24, 30]
    play(s, "stop")
    assert_over(s, records=[22, 0, 24, 30], returns=[3, 5, 1, -5], winners=[1], stopper=1)


def test_mu_stop_1_automatic_end_of_deal_bonus_stops():
    """MU-STOP-1 with ace_bonus_timing=end_of_deal (automatic): the end bonus bringing the
    holder to 0 stops the game before the remises (P4 not remised)."""
    pos = position(["Kc", "7c", "8c", "9c"], trump=HEARTS, leader=0, tricks_won=[2, 1, 1, 0],
                   played=[None, ["As", "7s", "8s", "9s"], None, None],
                   records=[23, 4, 24, 25], start_records=[25, 5, 25, 25],
                   ace_bonus_timing="end_of_deal")
    s = load(pos)
    play_cards(s, "Kc", "7c", "8c", "9c")
    assert_over(s, records=[22, 0, 24, 25], returns=[3, 5, 1, 0], winners=[1], stopper=1)


# =============================================================================================
# 2.7 End of the game
# =============================================================================================

def test_mu_match_1_match_ends_when_a_player_stops():
    """MU-MATCH-1: in a match, P3 reaching 0 ends the match at once; he is the winner
    (returns: +1 to him, -1/3 to each other)."""
    s = load(stop_position(mode="match"))
    play_cards(s, "7c", "Ac", "8c", "9c")
    assert_over(s, phase="match_over", records=[25, 19, 0, 25],
                returns=match_returns(4, [2]), winners=[2], stopper=2)
    assert s.returns() == pytest.approx([-1 / 3, -1 / 3, 1.0, -1 / 3])


def test_mu_match_2_deals_continue_records_carry_over():
    """MU-MATCH-2: without a stop the match deals again: dealer on the left, records carried
    over (they are the new start records), the cards from the stream words."""
    pos = position(["Kc", "7c", "8c", "9c"], trump=HEARTS, leader=0, tricks_won=[2, 1, 1, 0],
                   mode="match", deal_number=3)
    s = load(pos)
    play_cards(s, "Kc", "7c", "8c", "9c")
    d = s.to_dict()
    exp = oracle_next_deal(RNG_WORDS, 0)
    assert d["phase"] == "exchange" and d["mode"] == "match" and d["deal_number"] == 4
    assert d["records"] == [22, 24, 24, 30] and d["start_records"] == [22, 24, 24, 30]
    assert d["dealer"] == 0 and d["to_move"] == 1
    assert d["hands"] == exp["hands"] and d["stock"] == exp["stock"]
    assert d["trump_card"] == exp["trump_card"] and d["rng"] == exp["rng"]
    assert d["tricks_won"] == [0] * 4 and d["played"] == [[]] * 4 and d["trick"] == []
    assert d["active"] == [] and d["ace_holder"] is None and d["ace_bonus_taken"] is False
    assert d["excluded"] == [[]] * 4 and d["decisions"] == [None] * 4
    assert_zero_returns(s)


@pytest.mark.parametrize("records,winners", [
    ([23, 24, 24, 25], [0]),       # after the trick: 22, 24, 24, 30
    ([23, 22, 24, 25], [0, 1]),    # after the trick: 22, 22, 24, 30 (shared)
])
def test_mu_match_2_option_max_deals(records, winners):
    """MU-MATCH-2, option max_deals: after deal max_deals ends without a stop, the match is
    over and the lowest record wins (ties share the losers' total)."""
    pos = position(["Kc", "7c", "8c", "9c"], trump=HEARTS, leader=0, tricks_won=[2, 1, 1, 0],
                   records=records, mode="match", deal_number=10, max_deals=10)
    s = load(pos)
    play_cards(s, "Kc", "7c", "8c", "9c")
    final = [records[0] - 1, records[1], records[2], records[3] + 5]
    assert_over(s, phase="match_over", records=final, returns=match_returns(4, winners),
                winners=winners)
    assert sum(s.returns()) == pytest.approx(0)


def test_mu_match_2_void_deal_counts_for_max_deals():
    """MU-MATCH-2 with MU-PASS-2: a void deal is a deal: when deal max_deals is void the match
    ends, the lowest record winning."""
    pos = exchange_position([None, None, None, "7c 8c 9d Td Js"], trump=HEARTS,
                            decisions=["pass", "pass", "pass", None], records=[20, 21, 20, 23],
                            mode="match", deal_number=10, max_deals=10)
    s = load(pos)
    play(s, "pass")
    assert_over(s, phase="match_over", records=[20, 21, 20, 23],
                returns=match_returns(4, [0, 2]), winners=[0, 2], void=True)


def test_mu_match_2_no_max_deals_before_the_limit():
    """MU-MATCH-2: with max_deals=10 deal 9 is followed by deal 10."""
    pos = position(["Kc", "7c", "8c", "9c"], trump=HEARTS, leader=0, tricks_won=[2, 1, 1, 0],
                   mode="match", deal_number=9, max_deals=10)
    s = load(pos)
    play_cards(s, "Kc", "7c", "8c", "9c")
    d = s.to_dict()
    assert d["phase"] == "exchange" and d["deal_number"] == 10 and not s.is_terminal()


def test_mu_match_2_new_match_plays_to_a_winner():
    """MU-MATCH-1/2: a match from a seed, played to its end with max_deals=10: one stopper at
    0, or after 10 deals the lowest records; returns sum to 0."""
    g = game(max_deals=10)
    for seed in range(3):
        s = g.new_match(seed=seed)
        d0 = s.to_dict()
        assert d0["mode"] == "match" and d0["records"] == [25] * 4
        assert d0["dealer"] == oracle_deal(seed)["dealer"]
        steps = 0
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[(steps * 7919) % len(legal)])
            steps += 1
        d = s.to_dict()
        assert d["phase"] == "match_over" and d["winners"]
        if d["stopper"] is not None:
            assert d["winners"] == [d["stopper"]] and d["records"][d["stopper"]] == 0
        else:
            assert d["deal_number"] == 10
            low = min(d["records"])
            assert d["winners"] == [i for i, r in enumerate(d["records"]) if r == low]
        assert s.returns() == pytest.approx(match_returns(4, d["winners"]))


# =============================================================================================
# 3. Options that change the legal cards
# =============================================================================================

def test_option_must_overtrump():
    """Option must_overtrump (MU-PLAY-5): void in clubs after P2 trumped with Th, P3 may play
    any trump by default (7h, Kh), only a higher one (Kh) with must_overtrump; with no higher
    trump any trump stays legal; with no trump in the trick, any trump."""
    hand = "7h Kh Ad Qs 8d"
    s = load(position([None, None, hand, None], trump=HEARTS, leader=0, trick=["9c", "Th"]))
    assert_legal(s, "play 7h", "play Kh")
    s = load(position([None, None, hand, None], trump=HEARTS, leader=0, trick=["9c", "Th"],
                      must_overtrump=True))
    assert_legal(s, "play Kh")
    s = load(position([None, None, "7h 8h Ad Qs 8d", None], trump=HEARTS, leader=0,
                      trick=["9c", "Th"], must_overtrump=True))
    assert_legal(s, "play 7h", "play 8h")
    s = load(position([None, None, hand, None], trump=HEARTS, leader=0, trick=["9c", "Tc"],
                      must_overtrump=True))
    assert_legal(s, "play 7h", "play Kh")


def test_option_must_overtrump_shows_no_higher_trump():
    """Option must_overtrump (the position's ``excluded``): a trump under the trick's best shows no
    trump above that best."""
    pos = position(["9c 7c 8c Tc Jc", "Th Qs Ks Ad 8d", "7h 8h 9d Td Jd", "Js Ts 7d Qd Kd"],
                   trump=HEARTS, must_overtrump=True)
    s = load(pos)
    play_cards(s, "9c", "Th", "7h")
    ex = s.to_dict()["excluded"][2]
    assert ex == srt(CLUBS_32 + ["Jh", "Qh", "Kh", "Ah"])


def test_option_must_head_trick_shows_no_higher_card():
    """Option must_head_trick (the position's ``excluded``): P2 follows P1's 9c with 7c, only legal
    card: he has no club above 9c (Tc Jc Qc Kc Ac excluded)."""
    pos = position(["9c 7s 8s 9s Ts", "7c Kd 7d 8d 9d", "Ac Jd Qd Kh Js", "8c Qs Ks Ad Td"],
                   trump=HEARTS, must_head_trick=True)
    s = load(pos)
    play(s, "play 9c")
    assert_legal(s, "play 7c")
    play(s, "play 7c")
    assert_legal(s, "play Ac")
    play_cards(s, "Ac", "8c")
    ex = s.to_dict()["excluded"]
    assert ex[1] == srt("Tc Jc Qc Kc Ac") and ex[2] == ["As"] and ex[3] == []


def test_option_must_head_trick():
    """Option must_head_trick (MU-PLAY-4): following suit, a higher card than the trick's best
    of the suit when he has one (Kc over 9c); none higher: any; after a trump in the trick
    (plain lead): any card of the suit."""
    s = load(position([None, "Kc 7c Ah Qd 8s", None, None], trump=HEARTS, leader=0,
                      trick=["9c"]))
    assert_legal(s, "play 7c", "play Kc")
    s = load(position([None, "Kc 7c Ah Qd 8s", None, None], trump=HEARTS, leader=0,
                      trick=["9c"], must_head_trick=True))
    assert_legal(s, "play Kc")
    s = load(position([None, None, "Kc 7c Ah Qd 8s", None], trump=HEARTS, leader=0,
                      trick=["9c", "Ac"], must_head_trick=True))
    assert_legal(s, "play 7c", "play Kc")
    s = load(position([None, None, "Kc 7c Ah Qd 8s", None], trump=HEARTS, leader=0,
                      trick=["9c", "8h"], must_head_trick=True))
    assert_legal(s, "play 7c", "play Kc")


def test_option_must_head_trick_trump_lead():
    """Option must_head_trick on a trump lead: above the best trump (Th over 9h); on the trump
    ace led, no heart is higher: any heart, and As by MU-ACE-2."""
    s = load(position([None, "Th 7h Ad Qd 8s", None, None], trump=HEARTS, leader=0,
                      trick=["9h"], must_head_trick=True))
    assert_legal(s, "play Th")
    s = load(position([None, "As 7h 9h Kd 8c", None, None], trump=HEARTS, leader=0,
                      trick=["Ah"], must_head_trick=True))
    assert_legal(s, "play As", "play 7h", "play 9h")


def test_option_start_points_30():
    """Option start_points=30: every record starts at 30."""
    for n in (3, 5):
        d = game(num_players=n, start_points=30).new_deal(seed=1).to_dict()
        assert d["records"] == [30] * n and d["start_records"] == [30] * n
    d = game(start_points=30).new_match(seed=1).to_dict()
    assert d["records"] == [30] * 4


def test_option_deck_36_holds_sixes():
    """Option deck=36: the sixes are dealt (6..A), 36 cards in all."""
    d = game(deck="36").new_deal(seed=2).to_dict()
    cs = all_cards(d)
    assert len(cs) == 36 and sorted(cs, key=ALL52.index) == deck_cards(36)
    assert {"6s", "6c", "6d", "6h"} <= set(cs) and "5s" not in cs
    d = game(num_players=5).new_deal(seed=2).to_dict()
    assert len(all_cards(d)) == 52


def test_option_remise_and_ace_bonus_values():
    """Options remise_points and ace_bonus allow only 5 (§3); other values are refused."""
    with pytest.raises(OptionError):
        cardsim.load_game("mushka", remise_points=10)
    with pytest.raises(OptionError):
        cardsim.load_game("mushka", ace_bonus=10)
    with pytest.raises(OptionError):
        cardsim.load_game("mushka", num_players=8)
    with pytest.raises(OptionError):
        cardsim.load_game("mushka", max_deals=0)     # any positive count is allowed (MU-MATCH-2)
    assert cardsim.load_game("mushka", max_deals=7).rules.max_deals == 7

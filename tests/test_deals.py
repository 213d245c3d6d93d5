"""cardsim.deals: deals conditioned on the initial cards are the game's deals that satisfy the
condition, drawn uniformly (chi-square against exact counts), reproducible from the seed (and
on any number of workers), with impossible conditions refused in one line."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chisquare

import cardsim
from cardsim.app.cli import main
from cardsim.deals import DealError, deal_where, parse_where
from cardsim.errors import CardsimError
from cardsim.experiments.rows import duplicate_rows, seeded
from cardsim.experiments.runner import RunConfig, run
from cardsim.experiments.spec import SpecError, parse_spec

N = 2000


def frequencies(game, where, seat: int, deals: int = N) -> dict[str, int]:
    counts: dict[str, int] = {}
    for seed in range(deals):
        for card in game.new_deal(seed, where=where).to_dict()["hands"][seat]:
            counts[card] = counts.get(card, 0) + 1
    return counts


def uniform_over(counts: dict[str, int], free: list[str], per_deal: int, deals: int = N):
    """Chi-square p-value of the counts of ``free`` cards against ``per_deal`` cards a deal
    spread evenly over them (no other card may appear)."""
    assert set(counts) <= set(free)
    observed = np.array([counts.get(c, 0) for c in free], dtype=float)
    assert observed.sum() == per_deal * deals
    return chisquare(observed, np.full(len(free), per_deal * deals / len(free))).pvalue


def test_scopa_hold_seven_of_coins_is_uniform_over_the_other_cards():
    """Seat 0 holds 7co; its other two cards are uniform over the 39 others (the kings' redeal,
    SC-DEAL-3, is off so that the exact counts are even)."""
    game = cardsim.load_game("scopa", redeal_kings_on_table="off")
    counts = frequencies(game, {"hold": {0: ["7co"]}}, 0)
    assert counts.pop("7co") == N
    free = [c for c in game.definition.deck.cards if c != "7co"]
    assert uniform_over(counts, free, 2) > 0.001


def test_scopa_count_of_coins_is_uniform_within_and_outside_the_set():
    """Exactly two coins in seat 0's hand: each coin is there in 2/10 of the deals and each
    other card in 1/30 (SC-DEAL-3's redeal off, as above)."""
    game = cardsim.load_game("scopa", redeal_kings_on_table="off")
    counts = frequencies(game, {"count": [{"seat": 0, "cards": "coins", "min": 2, "max": 2}]}, 0)
    cards = game.definition.deck.cards
    observed = np.array([counts.get(c, 0) for c in cards], dtype=float)
    expected = np.array([2 * N / 10 if c.endswith("co") else N / 30 for c in cards])
    assert observed.sum() == expected.sum() == 3 * N
    assert chisquare(observed, expected).pvalue > 0.001


def test_bura_turned_card_leaves_the_hands_uniform():
    """The turned card is As; seat 1's three cards are uniform over the other 35 (the
    combination redeal, BU-DEAL-5, off)."""
    game = cardsim.load_game("bura", initial_combo_redeal=False)
    for seed in range(20):
        assert game.new_deal(seed, where={"turned": "As"}).to_dict()["trump_card"] == "As"
    counts = frequencies(game, {"turned": "As"}, 1)
    free = [c for c in game.definition.deck.cards if c != "As"]
    assert uniform_over(counts, free, 3) > 0.001


def test_mushka_turned_ace_of_spades_and_hold():
    """Mushka (4 players, 32 cards): the turned card is Ah and seat 2 holds As; seat 2's
    other four cards are uniform over the 30 others."""
    game = cardsim.load_game("mushka")
    where = {"turned": "Ah", "count": [{"seat": 2, "cards": "ace_of_spades", "min": 1}]}
    counts = frequencies(game, where, 2, deals=1000)
    assert counts.pop("As") == 1000
    deck = [c for c in game.definition.deck.cards if c[0] not in "23456"]
    free = [c for c in deck if c not in ("As", "Ah")]
    assert uniform_over(counts, free, 4, deals=1000) > 0.001


def test_counts_hold_in_every_game():
    bura = cardsim.load_game("bura", initial_combo_redeal=False)
    for seed in range(30):
        d = bura.new_deal(seed, where={"count": [{"seat": 0, "cards": "trumps", "min": 3}]})\
            .to_dict()
        assert all(c[-1] == d["trump_card"][-1] for c in d["hands"][0])
        assert d["phase"] == "deal_over"            # a bura wins at once (BU-COMBO-2)
    minchiate = cardsim.load_game("minchiate")
    for seed in range(30):
        hand = minchiate.new_deal(seed, where={"count": [
            {"seat": 1, "cards": "kings", "min": 3}, {"seat": 1, "cards": "trumps", "max": 8}]}
        ).to_dict()["hands"][1]
        assert sum(c.startswith("K") for c in hand) >= 3
        assert sum(c[0] == "T" for c in hand) <= 8
    scopa = cardsim.load_game("scopa")
    for seed in range(30):
        d = scopa.new_deal(seed, where={"table": ["7co"], "count": [
            {"seat": 0, "cards": "coins", "min": 2, "max": 2}]}).to_dict()
        assert "7co" in d["table"] and sum(c.endswith("co") for c in d["hands"][0]) == 2
        assert sum(c.startswith("K") for c in d["table"]) <= 2   # SC-DEAL-3 still applies


def test_same_seed_same_deal():
    game = cardsim.load_game("scopa")
    where = {"hold": {"0": ["7co", "Aco"]}}
    a, b = game.new_deal(11, where=where), game.new_deal(11, where=where)
    assert np.array_equal(a.vec, b.vec) and a.seed == 11
    seq = np.random.SeedSequence([4, 5])
    assert np.array_equal(game.new_deal(seq, where=where).vec,
                          game.new_deal(np.random.SeedSequence([4, 5]), where=where).vec)
    assert len({tuple(game.new_deal(s, where=where).vec) for s in range(10)}) == 10
    plain = game.new_deal(3)                  # a deal that satisfies it is the seed's own
    held = plain.to_dict()["hands"][0][:1]
    assert np.array_equal(game.new_deal(3, where={"hold": {0: held}}).vec, plain.vec)
    state = game.new_deal(11, where=where)    # a record replays from the conditioned start
    state.apply_action(state.legal_actions()[0])
    record = state.record().to_dict()          # and says how to draw it again
    assert record["seed"] == 11 and record["where"] == {"hold": {"0": ["Aco", "7co"]}}
    again = game.new_deal(record["seed"], where=record["where"])
    assert again.to_dict() == record["start"] == state.record().start
    from cardsim.records.replay import from_dict as read_record
    assert read_record(record).where == record["where"]
    with pytest.raises(CardsimError, match="where.hold.0: unknown scopa card 'Xco'"):
        read_record({**record, "where": {"hold": {"0": ["Xco"]}}})


@pytest.mark.parametrize("game,where,words", [
    ("scopa", {"hold": {0: ["7co"], 1: ["7co"]}}, "7co is asked in seat 0's hand and in seat 1"),
    ("scopa", {"hold": {0: ["7xx"]}}, "unknown scopa card '7xx'"),
    ("scopa", {"hold": {2: ["7co"]}}, "no such seat"),
    ("scopa", {"hold": {0: ["7co", "Aco", "2co", "3co"]}}, "asks 4 cards, a first hand holds 3"),
    ("scopa", {"count": [{"seat": 0, "cards": "trumps"}]}, "no such scopa set"),
    ("scopa", {"table": ["Kco", "Kcu", "Ksw"]}, "redealt (SC-DEAL-3)"),
    ("scopa", {"count": [{"seat": "table", "cards": "kings", "min": 3}]}, "redealt (SC-DEAL-3)"),
    ("scopa", {"count": [{"seat": "table", "cards": ["Kco", "Kcu", "Ksw", "Aco"], "min": 4}]},
     "redealt (SC-DEAL-3)"),                  # four of them there: three kings at least
    ("scopa", {"turned": "7co"}, "scopa turns no trump card"),
    ("scopa", {"count": [{"seat": 0, "cards": "coins", "min": 3, "max": 1}]}, "min=3 > max=1"),
    ("scopa", {"stock": []}, "unknown where key 'stock'"),
    ("bura", {"count": [{"seat": 0, "cards": "trumps", "min": 4}]}, "at least 4 of 9 cards"),
    ("bura", {"count": [{"seat": 0, "cards": "trumps", "min": 3}]}, "redealt (BU-DEAL-5)"),
    ("bura", {"turned": "As", "hold": {0: ["As"]}}, "As is asked in seat 0's hand and in the"),
    ("bura", {"table": ["As"]}, "bura has no opening table"),
    ("minchiate", {"count": [{"seat": 1, "cards": "trumps", "min": 20},
                             {"seat": 1, "cards": "kings", "min": 4}]}, "too rare to draw"),
    ("mushka", {"hold": {0: ["2s"]}}, "2s is not in play under these rules"),
])
def test_impossible_conditions_are_one_line_errors(game, where, words):
    with pytest.raises(DealError) as e:
        cardsim.load_game(game).new_deal(1, where=where)
    assert words in str(e.value) and "\n" not in str(e.value)
    assert isinstance(e.value, CardsimError)


def test_spec_deal_table_and_workers(tmp_path):
    base = {"game": "scopa", "agents": ["random", "random"], "seed": 2, "batch_size": 5,
            "size": {"deals": 10}, "deal": {"hold": {"0": ["7co"]}}}
    spec = parse_spec(base)
    assert spec.to_dict()["deal"] == {"hold": {"0": ["7co"]}}
    assert "deal" not in parse_spec({**base, "deal": {}}).to_dict()
    one = run(spec, RunConfig(str(tmp_path / "one"), jobs=1, progress=False)).rows()
    two = run(spec, RunConfig(str(tmp_path / "two"), jobs=2, progress=False)).rows()
    assert seeded(one).equals(seeded(two))
    rare = parse_spec({**base, "deal": {"hold": {"0": ["7co", "7cu", "7sw"]}}})  # constructed
    one = run(rare, RunConfig(str(tmp_path / "rare1"), jobs=1, progress=False)).rows()
    two = run(rare, RunConfig(str(tmp_path / "rare2"), jobs=2, progress=False)).rows()
    assert seeded(one).equals(seeded(two)) and len(one) == 20
    game = spec.load()
    for i in range(3):
        seq = np.random.SeedSequence([2, 0, i]).spawn(3)[0]
        assert "7co" in game.new_deal(seq, where=spec.deal).to_dict()["hands"][0]
    from cardsim.experiments.runner import deal_seed
    from cardsim.solvers.duplicate import play_duplicate
    # what the runner plays: the condition's
    direct = duplicate_rows(play_duplicate(game, ["random", "random"], range(10),
                                           seed=deal_seed(rare, 0), where=rare.deal))
    assert seeded(one).drop(columns=["matchup", "batch"]).reset_index(drop=True).equals(
        seeded(direct)[seeded(one).columns.drop(["matchup", "batch"])])
    with pytest.raises(SpecError, match="deal: impossible condition"):
        parse_spec({**base, "deal": {"hold": {"0": ["7co"], "1": ["7co"]}}})
    with pytest.raises(SpecError, match="unit = \"match\" takes none"):
        parse_spec({**base, "unit": "match"})


def test_cli_simulate_where(capsys):
    assert main(["simulate", "scopa", "--deals", "50", "--quiet",
                 "--where", '{"hold": {"0": ["7co"]}}']) == 0
    out = capsys.readouterr().out
    assert "50 deals where" in out and "settebello" in out
    assert main(["simulate", "scopa", "--where", '{"hold": {"0": ["Kzz"]}}']) == 2
    assert "unknown scopa card 'Kzz'" in capsys.readouterr().err


def test_parse_where_canonical_form():
    game = cardsim.load_game("bura")
    w = parse_where(game, {"hold": {1: ["Ah", "6s"]}, "count": [{"seat": 0, "cards": "tens"}]})
    assert w.canonical == {"hold": {"1": ["6s", "Ah"]},
                           "count": [{"seat": 0, "cards": "tens", "min": 0, "max": 4}]}


def test_cli_analyze_where_analyzes_the_opening_of_a_drawn_deal(capsys, tmp_path):
    """``cardsim analyze GAME --where JSON --deal-seed S``: the opening of the deal drawn under
    the condition (the same deal as the API's), analyzed for the seat that decides first;
    another seat, a position file as well, or bad JSON is one line."""
    game = cardsim.load_game("scopa")
    where = '{"hold": {"0": ["7co"]}}'
    for seed in range(20):                        # a deal whose first decision is seat 0's
        state = game.new_deal(seed=seed, where={"hold": {0: ["7co"]}})
        if state.current_player() == 0:
            break
    assert "7co" in state.observation(0)["hand"]
    args = ["analyze", "scopa", "--where", where, "--deal-seed", str(seed), "--worlds", "4"]
    assert main([*args, "--player", "0"]) == 0
    out = capsys.readouterr().out
    assert "player 0 to move" in out and "7co" in out
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert legal <= set(out.split())
    for argv, needle in (([*args, "--player", "1"], "first decision is seat 0's"),
                         (["analyze", "scopa", "x.json", "--where", where, "--player", "0"],
                          "give no position file"),
                         (["analyze", "scopa", "--where", "{", "--player", "0"], "not JSON"),
                         (["analyze", "scopa", "--where", "[" * 100_000, "--player", "0"],
                          "nested too deeply"),
                         (["analyze", "scopa", "--player", "0"], "give a position file")):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert needle in err and "\n" not in err


# --- constructed draws (rare conditions) ---------------------------------------------------

@pytest.mark.parametrize("name,options", [
    ("scopa", {}), ("scopa", {"num_players": 4}), ("bura", {}), ("bura", {"num_players": 3}),
    ("mushka", {}), ("mushka", {"dealer_takes_trump_card": True}), ("minchiate", {})])
def test_deal_cards_of_the_kernels_own_order_is_its_deal(name, options):
    """``deal_cards``, which deals a constructed order, is the second half of the kernel's
    deal: on a dealt state's own order it gives back the same state, word for word."""
    game = cardsim.load_game(name, **options)
    for seed in range(200):
        dealt = game.new_deal(seed).vec
        again = dealt.copy()
        assert game.spec.deal_cards(again, game.spec.params)
        assert np.array_equal(again, dealt), seed


def test_rare_hold_is_constructed_uniform_and_counts_no_redeal():
    """Seat 0 holds the three sevens other than 7de (1 deal in 10,000): drawn at once by
    construction; the opening table is uniform over the 37 other cards."""
    game = cardsim.load_game("scopa", redeal_kings_on_table="off")
    where = {"hold": {0: ["7co", "7cu", "7sw"]}}
    counts: dict[str, int] = {}
    for seed in range(1000):
        d = game.new_deal(seed, where=where).to_dict()
        assert sorted(d["hands"][0]) == ["7co", "7cu", "7sw"]
        for card in d["table"]:
            counts[card] = counts.get(card, 0) + 1
    free = [c for c in game.definition.deck.cards if c not in ("7co", "7cu", "7sw")]
    assert uniform_over(counts, free, 4, deals=1000) > 0.001
    assert np.array_equal(game.new_deal(7, where=where).vec, game.new_deal(7, where=where).vec)
    bura = cardsim.load_game("bura")   # a constructed deal counts no redeal (BU-DEAL-5: 2%)
    assert all(bura.new_deal(seed, where={"hold": {0: ["6s", "6h", "6d"]}}).to_dict()["redeals"]
               == 0 for seed in range(400))


def test_constructed_dealers_are_weighed_as_the_game_weighs_them():
    """Mushka with ``dealer_takes_trump_card``: the dealer's first hand has 6 cards, the
    others 5, so four given cards are in seat 0's hand 360 : 120 times as often when seat 0
    deals (perm(6, 4) : perm(5, 4)): seat 0 is the dealer in exactly half of such deals."""
    game = cardsim.load_game("mushka", dealer_takes_trump_card=True)
    where = {"hold": {0: ["As", "Ks", "Qs", "Js"]}}
    dealers = np.zeros(4)
    for seed in range(1000):
        dealers[int(deal_where(game, seed, where, method="construct")[game.definition.layout
                                                                          .DEALER])] += 1
    assert chisquare(dealers, [500, 500 / 3, 500 / 3, 500 / 3]).pvalue > 0.001


def test_constructed_turned_card_is_weighed_by_the_count():
    """Bura (combination redeal off): seat 0 holds As and at least two trumps. Exact law of
    the trump suit by enumeration of (seat 0's hand, turned card): spades (As a trump) need
    one more spade, another suit two of it. The constructed deals follow it."""
    game = cardsim.load_game("bura", initial_combo_redeal=False)
    deck = game.definition.deck.cards
    others = [c for c in deck if c != "As"]
    exact = dict.fromkeys("cdhs", 0)
    for i, a in enumerate(others):
        for b in others[i + 1:]:
            for t in others:
                if t not in (a, b) and sum(c[-1] == t[-1] for c in ("As", a, b)) >= 2:
                    exact[t[-1]] += 1
    where = {"hold": {0: ["As"]}, "count": [{"seat": 0, "cards": "trumps", "min": 2}]}
    seen = dict.fromkeys("cdhs", 0)
    for seed in range(2000):
        vec = deal_where(game, seed, where, method="construct")
        seen[deck[int(vec[game.definition.layout.TRUMP_CARD])][-1]] += 1
    total = sum(exact.values())
    assert chisquare([seen[s] for s in "cdhs"], [2000 * exact[s] / total for s in "cdhs"]
                     ).pvalue > 0.001


def test_minchiate_robbers_constructed_as_rejection_draws_them():
    """Minchiate, seat 0 with at least 13 trumps after the robbing (a robber's place is
    loose): the constructed deals and the rejected ones agree on the law of the dealer and
    of the number of trumps (two-sample chi-square); 21 trumps, beyond rejection, are drawn."""
    game = cardsim.load_game("minchiate")
    layout, trumps = game.definition.layout, cardsim.deals.named_sets(game)["trumps"]
    where = {"count": [{"seat": 0, "cards": "trumps", "min": 13}]}
    table = np.zeros((2, 4, 3))
    for m, method in enumerate(("construct", "reject")):
        for seed in range(600):
            vec = deal_where(game, seed, where, method=method)
            held = (game.definition.deck.from_words(vec[layout.HAND:layout.HAND + 2])
                    & trumps).bit_count()
            table[m, int(vec[layout.DEALER]), min(held - 13, 2)] += 1
    flat = table.reshape(2, -1)
    flat = flat[:, flat.sum(axis=0) > 0]
    from scipy.stats import chi2_contingency
    assert chi2_contingency(flat).pvalue > 0.001
    hand = game.new_deal(5, where={"count": [{"seat": 1, "cards": "trumps", "min": 21}]}
                         ).to_dict()["hands"][1]
    assert sum(c[0] == "T" for c in hand) >= 21


def test_method_is_checked_and_overlapping_places_are_not_constructed():
    game = cardsim.load_game("mushka", dealer_takes_trump_card=True)
    with pytest.raises(DealError, match="method='fast': expected one of auto, reject"):
        deal_where(game, 1, {"hold": {0: ["As"]}}, method="fast")
    overlap = {"turned": "Ah", "hold": {0: ["As"]}}     # seat 0's hand holds the turned card
    with pytest.raises(DealError, match="cannot be constructed: its places overlap"):
        deal_where(game, 1, overlap, method="construct")
    vec = deal_where(game, 1, overlap)                  # rejection draws it
    assert game.definition.deck.name(int(vec[game.definition.layout.TRUMP_CARD])) == "Ah"


@pytest.mark.parametrize("name", ["scopa", "bura", "mushka", "minchiate"])
def test_constructed_deals_are_valid_positions_played_to_the_end(name):
    """A constructed deal (a rare condition of ``cardsim bench``) is a position the game's
    validation accepts as it is (``from_dict(to_dict())`` gives it back) and plays to the end."""
    import random

    game = cardsim.load_game(name)
    where = game.definition.bench_where
    rnd = random.Random(0)
    for seed in range(5):
        state = game.new_deal(seed, where=where)
        assert parse_where(game, where).accepts(game, state.vec)
        assert game.from_dict(state.to_dict()).to_dict() == state.to_dict()
        while not state.is_terminal():
            state.apply_action(rnd.choice(state.legal_actions()))
        assert len(state.returns()) == game.num_players

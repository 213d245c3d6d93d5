"""cardsim.deals: deals conditioned on the initial cards are the game's deals that satisfy the
condition, drawn uniformly (chi-square against exact counts), reproducible from the seed (and
on any number of workers), with impossible conditions refused in one line."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chisquare

import cardsim
from cardsim.app.cli import main
from cardsim.deals import DealError, parse_where
from cardsim.errors import CardsimError
from experiments.rows import seeded
from experiments.runner import RunConfig, run
from experiments.spec import SpecError, parse_spec

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
    assert state.record() is not None


@pytest.mark.parametrize("game,where,words", [
    ("scopa", {"hold": {0: ["7co"], 1: ["7co"]}}, "7co is asked in seat 0's hand and in seat 1"),
    ("scopa", {"hold": {0: ["7xx"]}}, "unknown scopa card '7xx'"),
    ("scopa", {"hold": {2: ["7co"]}}, "no such seat"),
    ("scopa", {"hold": {0: ["7co", "Aco", "2co", "3co"]}}, "asks 4 cards, a first hand holds 3"),
    ("scopa", {"count": [{"seat": 0, "cards": "trumps"}]}, "no such scopa set"),
    ("scopa", {"table": ["Kco", "Kcu", "Ksw"]}, "redealt (SC-DEAL-3)"),
    ("scopa", {"turned": "7co"}, "scopa turns no trump card"),
    ("scopa", {"count": [{"seat": 0, "cards": "coins", "min": 3, "max": 1}]}, "min=3 > max=1"),
    ("scopa", {"stock": []}, "unknown where key 'stock'"),
    ("bura", {"count": [{"seat": 0, "cards": "trumps", "min": 4}]}, "at least 4 of 9 cards"),
    ("bura", {"count": [{"seat": 0, "cards": "trumps", "min": 3}]}, "redealt (BU-DEAL-5)"),
    ("bura", {"turned": "As", "hold": {0: ["As"]}}, "As is asked in seat 0's hand and in the"),
    ("bura", {"table": ["As"]}, "bura has no opening table"),
    ("minchiate", {"count": [{"seat": 1, "cards": "trumps", "min": 21}]}, "too rare to draw"),
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
    game = spec.load()
    for i in range(3):
        seq = np.random.SeedSequence([2, 0, i]).spawn(3)[0]
        assert "7co" in game.new_deal(seq).to_dict()["hands"][0]
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

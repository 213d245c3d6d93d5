"""Differential test: the compiled Bura engine against the plain-Python reference.

Both engines start from the same seed (so the same dealer, deal, redeals and trump card,
BU-DEAL-1..5), the same random choice is applied to both at every step, and after every step
the legal-action lists, ``to_dict`` positions, ``current_player`` and ``is_terminal`` must be
identical; at the end, ``returns`` too. The reference (:mod:`cardsim.games.bura.reference`) is
an independent plain-Python reading of ``rules/bura.md`` and of the engine's documented
position format (``cardsim/games/bura/notation.py``), including its two Stop rounds (small
Moscow before molodka, refusals shown); it is also checked to conserve the 36 cards after
every step. ``test_compiled_dict_has_the_position_keys`` checks the format itself.

Choices: when ``claim`` is legal it is taken with probability 0.05, otherwise one of the other
legal actions is taken uniformly (a uniform choice would claim at once and end most deals
before the first trick).

The normal suite plays 2,064 deals (688 for each of 2, 3 and 4 players), each under its own
random combination of every option (pairwise coverage of all option values is asserted), a few
whole matches for each match format and player count, deals aimed at the rare rules (Moscow,
small Moscow and molodka Stops, refused Stops, double bura, bura on one's own lead, initial
redeals, piles tied), and positions passed across through ``from_dict``.
``test_differential_many_deals`` (marked slow, skipped by default; run it with ``-m slow``)
plays 60,000 deals; the environment variable ``CARDSIM_DIFF_DEALS`` overrides that count.
The harness (the lockstep play, the comparisons) is :mod:`tests.differential`; this file holds
what is Bura's.
"""
from __future__ import annotations

import collections
import random

import pytest

from cardsim.games.bura.layout import DECK as BURA
from cardsim.games.bura.reference import CLAIM, KIND_NAMES, STOP, ReferenceBura, split_action
from cardsim.games.bura.reference_scoring import points
from cardsim.games.bura.rules import BuraRules
from tests.differential import Chooser as UniformChooser
from tests.differential import Differential, Log, deal_count

# Every option and its values (rules §3); num_players is chosen per test group.
OPTION_AXES = {
    "facedown_discards": ("always", "choice", "off"),
    "false_claim_penalty": ("double", "single"),
    "match_format": ("single_deal", "wins_to_n", "penalty_points"),
    "wins_target": (11, 21),
    "penalty_limit": (12,),
    "initial_combo_redeal": (True, False),
    "molodka_stop": (False, True),
    "moscow": ("off", "three_aces", "three_aces_with_trump"),
    "small_moscow": ("off", "three_sixes_with_trump", "three_tens_with_trump"),
    "double_bura": ("higher_top_card", "void_deal"),
    "next_deal_first_leader": ("last_trick_taker", "left_of_dealer"),
    "bura_timing": ("any_check_point", "own_lead"),
    "end_without_claim": ("most_points", "void"),
}
PLAYERS = (2, 3, 4)
GROUPS = 16                   # test groups per player count
DEALS_PER_GROUP = 43          # 3 x 16 x 43 = 2,064 deals in the normal suite
CLAIM_PROBABILITY = 0.05
SLOW_DEALS = deal_count(60_000)


def random_options(num_players: int, seed: int) -> dict:
    """A random combination of every option (one value per axis), from ``seed``; every 8th
    combination is the default rules, the most played ones."""
    if seed % 8 == 0:
        return {"num_players": num_players}
    r = random.Random(seed)
    return {"num_players": num_players, **{k: r.choice(v) for k, v in OPTION_AXES.items()}}


def deal_plan(num_players: int, group: int) -> list[tuple[dict, int]]:
    """(options, seed) of the deals of one test group."""
    base = 100_000 * num_players + 1_000 * group
    return [(random_options(num_players, base + k), base + k) for k in range(DEALS_PER_GROUP)]


def action_text(action: int) -> str:
    """``"beat 9d+Js"``, ``"claim"``: the engine's text form, for failure messages."""
    kind, _ = split_action(action)
    cards = BURA.names(action & (2**40 - 1))
    return KIND_NAMES[kind] + (" " + "+".join(cards) if cards else "")


class Bura(Differential):
    """Bura's engines: 36 cards; the returns agree to 1e-12 and sum to zero (BU-END-3)."""

    name = "bura"
    reference = ReferenceBura
    rules_type = BuraRules
    n_cards = 36

    def check_end(self, state, ref, where: str) -> None:
        assert state.returns() == pytest.approx(ref.returns(), abs=1e-12), \
            f"{where}: returns differ"
        assert sum(ref.returns()) == pytest.approx(0.0, abs=1e-12)  # zero-sum (BU-END-3)

    def action_text(self, action: int) -> str:
        return action_text(action)


DIFF = Bura()


def short(options: dict) -> str:
    """The non-default options, for failure messages."""
    return str({k: v for k, v in options.items()
                if k == "num_players" or v != getattr(BuraRules(), k)})


class Chooser(UniformChooser):
    """Bura's random player: a claim with probability 0.05 when one is legal, else uniformly
    among the others."""

    def __call__(self, legal: list[int]) -> int:
        claims = [a for a in legal if a >> 40 == CLAIM]
        others = [a for a in legal if a >> 40 != CLAIM]
        if claims and (not others or self.rnd.random() < CLAIM_PROBABILITY):
            return claims[0]
        return self.rnd.choice(others)


POSITION_KEYS = {"game", "rules", "mode", "phase", "dealer", "to_move", "leader", "trump_card",
                 "hands", "stock", "piles", "thrown_down", "trick", "result", "scores",
                 "deal_number", "redeals", "last_trick_taker", "tricks", "first_leader",
                 "stop_round", "revealed", "revealed_at", "history", "rng"}


def run_deal(options: dict, seed: int, log: Log | None = None) -> ReferenceBura:
    """One deal from ``seed`` in both engines, played to the end with seeded choices;
    returns the finished reference (``log`` collects the actions played)."""
    state, ref = DIFF.deal(options, seed)
    DIFF.play_both(ref, state, Chooser(seed), f"deal {short(options)} seed {seed}", watch=log)
    return ref


def run_match(options: dict, seed: int) -> ReferenceBura:
    """A whole match from ``seed`` in both engines; returns the finished reference."""
    state, ref = DIFF.match(options, seed)
    DIFF.play_both(ref, state, Chooser(seed), f"match {short(options)} seed {seed}")
    return ref


def bura_holders_at_end(ref: ReferenceBura) -> int:
    """How many hands of a finished deal hold three trumps (double bura detection)."""
    return sum(1 for h in ref.hands if ref.is_bura(h))


# --- the reference on its own -------------------------------------------------------------

def test_pack_holds_120_points():
    """Rules §1, BU-EX-15: 4 x (11 + 10 + 4 + 3 + 2) = 120 card points in the 36 cards."""
    assert sum(points(c) for c in range(36)) == 120
    assert [points(BURA.index(c)) for c in ("As", "Tc", "Kd", "Qh", "Js", "9c", "6d")] == \
        [11, 10, 4, 3, 2, 0, 0]


def test_reference_pairing_is_not_greedy():
    """BU-RESP-2/3, BU-EX-1..4: the reference's beating test tries every pairing."""
    def ref_with_trump(trump: str) -> ReferenceBura:
        ref = ReferenceBura(BuraRules())
        ref.trump_card = BURA.index(trump)
        return ref

    def beats(ref, xs, ys):
        return ref.set_beats(BURA.indices(xs), BURA.indices(ys))

    d = ref_with_trump("9d")
    assert [beats(d, [x], ["Qs"]) for x in ("Ks", "Ts", "6d", "Ah", "Js")] == \
        [True, True, True, False, False]                                   # BU-EX-1
    assert beats(d, "9d Js", "Qs 7s") and not beats(d, "As 8h", "Qs 7s")   # BU-EX-2
    assert beats(d, "Kd 8d", "9d Js") and not beats(d, "Kd 9s", "9d Js")   # BU-EX-3
    assert beats(d, "Kd 9s", "Qs 7s")
    c = ref_with_trump("6c")
    assert beats(c, "7c 6c Kh", "Ah Th 6h")                                # BU-EX-4
    assert beats(c, "Kh 6c 7c", "6h Th Ah")       # the order of the cards does not matter
    assert not beats(c, "7c Kh Qh", "Ah Th 6h")


def test_reference_rules_dict_lists_every_option():
    """The reference's position dict carries every option of BuraRules (dataclasses.asdict)
    and the 4 words of the chance stream; ``from_dict`` round-trips it."""
    rules = BuraRules(num_players=3, molodka_stop=True)
    ref = ReferenceBura.new_deal(rules, 3)
    d = ref.to_dict()
    assert DIFF.reference_dict_problems(d, rules) == []
    assert ReferenceBura.from_dict(rules, d).to_dict() == d
    copy = ref.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert ref.to_dict() == d  # the clone is independent


def test_option_combinations_cover_every_pair():
    """The normal suite's deals cover every pair of option values (num_players included)."""
    plans = [options for n in PLAYERS for g in range(GROUPS) for options, _ in deal_plan(n, g)]
    assert DIFF.missing_pairs(plans, {"num_players": PLAYERS, **OPTION_AXES}) == []


def test_compiled_dict_has_the_position_keys():
    """The compiled ``to_dict`` has exactly the engine's keys, at the top level, in the
    trick and in the result (the reference's dict is the engine's format)."""
    state, ref = DIFF.deal({"num_players": 3}, 11)
    chooser = Chooser(11)
    while ref.trick is None:
        action = chooser(ref.legal_actions())
        ref.apply_action(action)
        state.apply_action(action)
    got, expected = state.to_dict(), ref.to_dict()
    assert set(got) == set(expected) == POSITION_KEYS
    assert set(got["trick"]) == set(expected["trick"]) == {"leader", "k", "played", "top", "holder"}
    while not ref.is_terminal():
        action = chooser(ref.legal_actions())
        ref.apply_action(action)
        state.apply_action(action)
    assert set(state.to_dict()["result"]) == set(ref.to_dict()["result"]) == {"kind", "winners", "multiplier", "claim_points"}


# --- the normal suite ---------------------------------------------------------------------

@pytest.mark.parametrize("group", range(GROUPS))
@pytest.mark.parametrize("num_players", PLAYERS)
def test_random_deals_match_reference(num_players, group):
    """BU-DEAL-1..5, BU-LEAD-1..5, BU-RESP-1..7, BU-DRAW-1..3, BU-COMBO-1..9, BU-CLAIM-1..3,
    BU-END-1..5: 43 random deals per group, each under its own option combination, identical
    in both engines step by step (legal actions, positions) and in the final returns."""
    for options, seed in deal_plan(num_players, group):
        ref = run_deal(options, seed)
        assert ref.phase == "deal_over" and ref.result is not None


MATCH_SEEDS = {"single_deal": range(4), "wins_to_n": range(2), "penalty_points": range(3)}


@pytest.mark.parametrize("match_format", list(MATCH_SEEDS))
@pytest.mark.parametrize("num_players", PLAYERS)
def test_matches_match_reference(num_players, match_format):
    """BU-MATCH-1..3, BU-END-6, BU-LEAD-2, BU-DEAL-1: whole matches (later deals from the
    state's own stream, the winner deals next, the first leader of later deals, scores and
    the end of the match) agree in both engines, under random other options."""
    deals = []
    for seed in MATCH_SEEDS[match_format]:
        options = {**random_options(num_players, 7_000 + seed), "num_players": num_players,
                   "match_format": match_format}
        if seed == 0:  # one match with the default options of that format
            options = {"num_players": num_players, "match_format": match_format}
        ref = run_match(options, 5_000 + seed)
        assert ref.phase == "match_over"
        scores = ref.scores
        if match_format == "wins_to_n":
            best = max(scores)
            assert best >= ref.rules.wins_target
            assert sorted(scores)[-2] <= best - 2
        elif match_format == "penalty_points":
            assert max(scores) >= ref.rules.penalty_limit
        else:
            assert ref.result[0] != "void" and scores == [0] * num_players
        deals.append(ref.deal_number)
    if match_format != "single_deal":
        assert min(deals) > 1


# Rare rules: a name, seeds on which it happens, options that make it likely, the event.
TARGETED = [
    ("moscow win", [900098, 900307, 900426],
     {"moscow": "three_aces", "initial_combo_redeal": False, "num_players": 4},
     lambda ref, log: ref.result[0] == "moscow"),
    ("moscow with trump ace", [900098, 900307, 900509],
     {"moscow": "three_aces_with_trump", "initial_combo_redeal": False,
      "num_players": 4},
     lambda ref, log: ref.result[0] == "moscow"),
    ("molodka stop", [900001, 900004, 900005],
     {"molodka_stop": True, "num_players": 3},
     lambda ref, log: any(a >> 40 == STOP for a in log)),
    ("small moscow sixes stop", [900611, 900916, 901007],
     {"small_moscow": "three_sixes_with_trump", "num_players": 4,
      "initial_combo_redeal": False},
     lambda ref, log: any(a >> 40 == STOP for a in log)),
    ("small moscow tens stop", [900589, 900860, 901215],
     {"small_moscow": "three_tens_with_trump", "num_players": 4,
      "initial_combo_redeal": False, "molodka_stop": True},
     lambda ref, log: any(a >> 40 == STOP and BURA.names(a & (2**40 - 1))[0][0] == "T"
                          for a in log)),
    ("molodka stop refused", [900145, 900472, 900573],
     {"molodka_stop": True, "num_players": 2, "initial_combo_redeal": False},
     lambda ref, log: any(ref.revealed)),
    ("stop refused after the small moscow round", [900444, 900605, 900729],
     {"molodka_stop": True, "small_moscow": "three_sixes_with_trump", "num_players": 4,
      "initial_combo_redeal": False},
     lambda ref, log: any(ref.revealed)),
    ("double bura, higher top card", [902439, 909371, 914096],
     {"initial_combo_redeal": False, "num_players": 4},
     lambda ref, log: ref.result[0] == "bura" and bura_holders_at_end(ref) >= 2),
    ("double bura, void deal", [902439, 909371, 914096],
     {"initial_combo_redeal": False, "num_players": 4,
      "double_bura": "void_deal"},
     lambda ref, log: ref.result[0] == "void" and bura_holders_at_end(ref) >= 2),
    ("bura on own lead", [900004, 900010, 900030],
     {"bura_timing": "own_lead", "initial_combo_redeal": False,
      "num_players": 3},
     lambda ref, log: ref.result[0] == "bura" and bura_holders_at_end(ref) >= 1 and log),
    ("initial redeal", [900001, 900002, 900003],
     {"molodka_stop": True, "moscow": "three_aces",
      "small_moscow": "three_sixes_with_trump", "num_players": 4},
     lambda ref, log: ref.redeals > 0),
    ("redeal off: bura at the deal", [900152, 900154, 900170],
     {"initial_combo_redeal": False, "num_players": 2},
     lambda ref, log: ref.result[0] == "bura" and not log),
    ("all cards played", [900001, 900002, 900003],
     {"num_players": 2, "facedown_discards": "off"},
     lambda ref, log: ref.result[0] == "most_points"),
    ("tie of piles", [900089, 900393, 900590],
     {"num_players": 4},
     lambda ref, log: ref.result[0] == "void" and not ref.hands[0]),
]


@pytest.mark.parametrize("name,seeds,options,event", TARGETED, ids=[t[0] for t in TARGETED])
def test_rare_rules_match_reference(name, seeds, options, event):
    """BU-COMBO-1..7, BU-DEAL-5, BU-END-2: deals whose seed makes a rare rule happen (found
    with :func:`find_seeds`; the reference must still show the event on them), compared in
    both engines step by step."""
    for seed in seeds:
        log = Log()
        ref = run_deal(options, seed, log)
        assert event(ref, log.actions), (f"{name}: seed {seed} no longer shows the event; "
                                         f"re-run find_seeds")


def find_seeds(options: dict, event, count: int = 3, start: int = 900_000) -> list[int]:
    """The first ``count`` seeds from ``start`` whose reference deal, played with the suite's
    choices, shows ``event`` (how the seeds of TARGETED were found)."""
    rules, hits, seed = BuraRules(**options), [], start
    while len(hits) < count:
        ref, chooser, log = ReferenceBura.new_deal(rules, seed), Chooser(seed), []
        while not ref.is_terminal():
            action = chooser(ref.legal_actions())
            ref.apply_action(action)
            log.append(action)
        if event(ref, log):
            hits.append(seed)
        seed += 1
    return hits


def cross_from_dict(mid_trick: bool) -> int:
    """Play a random prefix in both engines, stop at a check-point decision (no trick on the
    table) or in the middle of a trick, pass each engine's ``to_dict`` to the other's
    ``from_dict`` and play on in both; returns how many positions crossed."""
    crossed = 0
    for k in range(24):
        n = PLAYERS[k % 3]
        options = random_options(n, 8_000 + k)
        if k % 4 == 1:
            options = {**options, "molodka_stop": True}
        seed = 8_000 + k
        chooser = Chooser(seed)
        for start in (DIFF.deal, DIFF.match):
            state, ref = start(options, seed)
            DIFF.play_both(ref, state, chooser, f"prefix {short(options)} seed {seed}",
                           max_steps=chooser.rnd.randrange(60))
            while not ref.is_terminal() and (ref.trick is not None) != mid_trick:
                DIFF.play_both(ref, state, chooser, f"prefix {short(options)} seed {seed}",
                               max_steps=1)
            if ref.is_terminal():
                continue
            # Reference position into the compiled engine, compiled position into the reference.
            state2, ref2 = DIFF.cross(ref, state, options, f"{short(options)} seed {seed}")
            DIFF.play_both(ref2, state2, Chooser(seed + 1),
                           f"from_dict {short(options)} seed {seed}")
            crossed += 1
    return crossed


def test_positions_cross_from_dict():
    """Position dicts at check-point decisions cross between the engines: each engine's
    ``from_dict`` accepts the other's ``to_dict`` mid-deal (and mid-match), and play
    continues identically."""
    assert cross_from_dict(mid_trick=False) >= 30


def test_mid_trick_positions_cross_from_dict():
    """The same in the middle of a trick (the engine's trick dict: leader, k, top, holder,
    up, down, answered)."""
    assert cross_from_dict(mid_trick=True) >= 30


# --- the large run ----------------------------------------------------------------------------

@pytest.mark.slow
def test_differential_many_deals():
    """All rules of the normal suite on 60,000 deals (override the count with
    ``CARDSIM_DIFF_DEALS``), each under its own random option combination, the player count
    cycling 2, 3, 4."""
    kinds: collections.Counter = collections.Counter()
    for i in range(SLOW_DEALS):
        seed = 10_000_000 + i
        ref = run_deal(random_options(PLAYERS[i % 3], seed), seed)
        kinds[ref.result[0]] += 1
    assert sum(kinds.values()) == SLOW_DEALS

"""Differential test: the compiled Mushka engine against the plain-Python reference.

Both engines start from the same seed (so the same first dealer, the same deals and turned cards,
MU-DEAL-1..4 and the engine's dealing procedure), the same random choice is applied to both at every
step, and after every step the legal-action lists, the ``to_dict`` positions (every key of the
position dict: hands, discards, stock order, decisions, active seats, ace holder, trick, tricks won,
records, the ``excluded`` inferences, stop offers, the chance stream...), ``current_player`` and
``is_terminal`` must be identical; at the end, ``returns`` too. The reference
(:mod:`cardsim.games.mushka.reference`) is an independent plain-Python reading of
``rules/mushka.md`` and of the engine's layout and notation; it is also checked to conserve the
deck's cards after every step (hands, discards, stock, the turned card unless taken, played cards).

Choices follow the engine's random player: in the exchange pass with probability 0.25 (0.6
in the "passing" deals, so that lone players and void deals occur), stand with 0.25, else
exchange a uniformly chosen legal set (a pass that is not legal, or an exchange with no legal
set, becomes a stand); at a stop offer stop with probability 0.5; elsewhere uniformly.

The normal suite plays 2,080 deals (416 for each of 3..7 players), each under its own random
combination of every option of rules §3 (pairwise coverage of all option values is asserted),
a quarter of them from records drawn from 1..8 (stops, clamps, overshoot resets) and a quarter
with the higher pass rate; 20 whole matches (``new_match``; with and without ``max_deals``,
with ``stop_mode=declared``; ended by a stop or by ``max_deals``); deals from given records near 0 whose rare events (void deals, lone
players, stops of each kind, declined stops, clamps, overshoot resets, MU-ACE-2 plays, the
dealer's discard, a short stock) are counted and asserted to have happened;
16 deals whose seeds make the ace of spades take a led trump ace (MU-ACE-2); and positions
passed across through ``from_dict`` in both directions (in the discard, the exchange, the play
and at stop offers, mid-deal and mid-match).
``test_differential_many_deals`` (marked slow, skipped by default; run it with ``-m slow``)
plays 90,000 deals; the environment variable ``CARDSIM_DIFF_DEALS`` overrides that count.
A few checks of the reference alone replay the rules' worked examples MU-EX-1..16. The harness
(the lockstep play, the comparisons) is :mod:`tests.differential`; this file holds what is
Mushka's.
"""
from __future__ import annotations

import collections
import dataclasses
import random

import pytest

from cardsim.games.mushka.layout import DECK as MUSHKA
from cardsim.games.mushka.reference import (
    ACE_OF_SPADES,
    DISCARD,
    EXCHANGE,
    PASS,
    PLAY,
    PLAY_ON,
    STAND,
    STOP,
    ReferenceMushka,
    action_id,
    action_text,
)
from cardsim.games.mushka.rules import MushkaRules
from tests.differential import Chooser as UniformChooser
from tests.differential import Differential, Watch, deal_count

# Every option and its values (rules §3); num_players is chosen per test group.
OPTION_AXES = {
    "deck": ("auto", "32", "36", "52"),
    "start_points": (25, 30),
    "remise_points": (5,),
    "ace_bonus": (5,),
    "ace_bonus_timing": ("first_trick", "end_of_deal"),
    "stop_mode": ("automatic", "declared"),
    "overshoot_reset": ("start_minus_excess", "start"),
    "must_overtrump": (False, True),
    "must_head_trick": (False, True),
    "ace_of_spades_discardable": (False, True),
    "dealer_takes_trump_card": (False, True),
    "lone_player": ("takes_all", "redeal"),
    "max_deals": (None, 10, 20, 50, 100, 200, 500, 1000),
}
PLAYERS = (3, 4, 5, 6, 7)
GROUPS = 8                    # test groups per player count
DEALS_PER_GROUP = 52          # 5 x 8 x 52 = 2,080 deals in the normal suite
PASS_PROBABILITY = 0.25       # the engine's random player
HIGH_PASS_PROBABILITY = 0.6   # "passing" deals: lone players and void deals
STAND_PROBABILITY = 0.25
STOP_PROBABILITY = 0.5
MATCH_STEP_LIMIT = 20_000      # a guard: the suite's matches end within a few hundred steps
CROSS_STEPS = 150             # steps played after a position crossed (a deal is at most 64)
SLOW_DEALS = deal_count(90_000)


def random_options(num_players: int, seed: int) -> dict:
    """A random combination of every option (one value per axis), from ``seed``; every 8th
    combination is the default rules, the most played ones. A 32-card deck is too small for 7
    players (an OptionError), so 7 players draw their deck among the others."""
    if seed % 8 == 0:
        return {"num_players": num_players}
    r = random.Random(seed)
    options = {"num_players": num_players, **{k: r.choice(v) for k, v in OPTION_AXES.items()}}
    if num_players == 7 and options["deck"] == "32":
        options["deck"] = r.choice(("auto", "36", "52"))
    return options


@dataclasses.dataclass(frozen=True)
class DealSpec:
    """One deal of the suite: options, seed, the starting records (None: ``start_points``)
    and the random player's pass probability."""

    options: dict
    seed: int
    records: tuple | None = None
    pass_probability: float = PASS_PROBABILITY


def deal_spec(num_players: int, seed: int) -> DealSpec:
    """The suite's deal for a seed: random options; a quarter from records drawn from 1..8,
    a quarter with the high pass rate."""
    options = random_options(num_players, seed)
    r = random.Random(seed * 7 + 3)
    records = None
    pass_probability = PASS_PROBABILITY
    if seed % 4 == 1:
        records = tuple(r.randint(1, 8) for _ in range(num_players))
    elif seed % 4 == 3:
        pass_probability = HIGH_PASS_PROBABILITY
    return DealSpec(options, seed, records, pass_probability)


def deal_plan(num_players: int, group: int) -> list[DealSpec]:
    """The deals of one test group."""
    base = 100_000 * num_players + 1_000 * group
    return [deal_spec(num_players, base + k) for k in range(DEALS_PER_GROUP)]


class Mushka(Differential):
    """Mushka's engines: the cards of the deck in play (32, 36 or 52); the returns agree to
    1e-12."""

    name = "mushka"
    reference = ReferenceMushka
    rules_type = MushkaRules

    def expected_cards(self, ref: ReferenceMushka) -> list[int]:
        """Every card of the deck exactly once across hands, discards, stock, the turned card
        (unless the dealer took it) and played cards."""
        return sorted(ref.deck)

    def check_end(self, state, ref: ReferenceMushka, where: str) -> None:
        assert state.returns() == pytest.approx(ref.returns(), abs=1e-12), \
            f"{where}: returns differ"

    def action_text(self, action: int) -> str:
        return action_text(action)


DIFF = Mushka()


def short(options: dict) -> str:
    """The non-default options, for failure messages."""
    return str({k: v for k, v in options.items()
                if k == "num_players" or v != getattr(MushkaRules(), k)})


class Chooser(UniformChooser):
    """The engine's random player (the same choice is applied to both engines)."""

    def __init__(self, seed: int, pass_probability: float = PASS_PROBABILITY) -> None:
        super().__init__(seed)
        self.pass_probability = pass_probability

    def __call__(self, legal: list[int]) -> int:
        """Exchange: pass / stand / a uniform legal set; stop offer: stop with 0.5; else
        uniform."""
        stand, pas = action_id(STAND), action_id(PASS)
        if stand in legal:
            u = self.rnd.random()
            sets = [a for a in legal if a >> 52 == EXCHANGE]
            if u < self.pass_probability:
                return pas if pas in legal else stand
            if u < self.pass_probability + STAND_PROBABILITY or not sets:
                return stand
            return self.rnd.choice(sets)
        if action_id(STOP) in legal:
            return action_id(STOP) if self.rnd.random() < STOP_PROBABILITY else action_id(PLAY_ON)
        return self.rnd.choice(legal)


POSITION_KEYS = {"game", "rules", "mode", "phase", "dealer", "to_move", "deal_number",
                 "trump_card", "trump_taken", "records", "start_records", "hands", "discards",
                 "decisions", "stock", "active", "ace_holder", "ace_bonus_taken", "leader",
                 "trick", "tricks_won", "tricks_played", "lone_tricks_left", "played",
                 "excluded", "stop_offer", "void", "stopper", "winners", "rng"}


def note_events(events: collections.Counter, before: dict, action: int, after: dict,
                rules: MushkaRules) -> None:
    """Count the rare events one step showed (positions before and after the step)."""
    kind = action >> 52
    same_deal = before["deal_number"] == after["deal_number"]
    if kind == DISCARD:
        events["dealer discard"] += 1
    if kind == STOP:
        events[f"stop declared at {before['stop_offer']['at']}"] += 1
    if kind == PLAY_ON:
        events[f"play on at {before['stop_offer']['at']}"] += 1
    if kind == STAND and before["phase"] == "exchange" and len(before["stock"]) < 5:
        events["short stock"] += 1
    if kind == PLAY and before["trick"]:
        led = MUSHKA.index(before["trick"][0][1])
        trump = MUSHKA.index(before["trump_card"]) // 13
        if (action & (2**52 - 1)) == 1 << ACE_OF_SPADES and trump != 0 and led == trump * 13 + 12:
            events["MU-ACE-2 play"] += 1
    if after["stopper"] is not None and before["stopper"] is None and kind != STOP:
        events["automatic stop"] += 1
    if same_deal:
        sp = rules.start_points
        for s, (r0, r1) in enumerate(zip(before["records"], after["records"])):
            if r0 == 0 and r1 in (sp - 1, sp) and after["tricks_won"][s] > before["tricks_won"][s]:
                events["overshoot reset"] += 1
        if after["ace_bonus_taken"] and not before["ace_bonus_taken"]:
            h = after["ace_holder"]
            gained = after["tricks_won"][h] - before["tricks_won"][h]
            bonus = rules.ace_bonus * (2 if MUSHKA.index(after["trump_card"]) // 13 == 0 else 1)
            if after["records"][h] == 0 and before["records"][h] - gained < bonus:
                events["clamp"] += 1
    if after["phase"] in ("deal_over", "match_over") or not same_deal:
        if not same_deal:
            events["next deal"] += 1
            return  # the finished deal's position is gone; counted in deal mode below
        if after["void"]:
            events["void deal (lone, redeal)" if after["active"] else "void deal (all passed)"] += 1
        elif len(after["active"]) == 1:
            events["lone player credited"] += 1
        if after["phase"] == "match_over" and after["stopper"] is None:
            events["max_deals end"] += 1


class Events(collections.Counter, Watch):
    """The rare events the steps played reached, counted (:func:`note_events`)."""

    def after_step(self, before: dict, action: int, after: dict, ref: ReferenceMushka) -> None:
        note_events(self, before, action, after, ref.rules)


def run_deal(spec: DealSpec, events: Events | None = None) -> ReferenceMushka:
    """One deal in both engines, played to the end with seeded choices; returns the finished
    reference (``events`` counts the rare events seen)."""
    setup = {} if spec.records is None else {"records": list(spec.records)}
    state, ref = DIFF.deal(spec.options, spec.seed, **setup)
    where = f"deal {short(spec.options)} seed {spec.seed} records {spec.records}"
    DIFF.play_both(ref, state, Chooser(spec.seed, spec.pass_probability), where, watch=events)
    return ref


def run_match(options: dict, seed: int, pass_probability: float = PASS_PROBABILITY,
              events: Events | None = None) -> ReferenceMushka:
    """A whole match from ``seed`` in both engines; returns the finished reference."""
    state, ref = DIFF.match(options, seed)
    where = f"match {short(options)} seed {seed}"
    DIFF.play_both(ref, state, Chooser(seed, pass_probability), where,
                   max_steps=MATCH_STEP_LIMIT, watch=events)
    assert ref.is_terminal(), f"{where}: no end after {MATCH_STEP_LIMIT} steps"
    return ref


def check_deal_scoring(ref: ReferenceMushka) -> None:
    """MU-SCORE-1..6 on a finished deal that was played out (no stop): each active seat's
    record change is −tricks, −bonus for the holder with a trick, +5 without a trick (+10 the
    holder), unless a record passed through 0 (declared mode); passers and void deals keep
    their records."""
    d = ref.to_dict()
    if d["stopper"] is not None or ref.rules.stop_mode == "declared":
        return
    bonus = ref.ace_bonus()
    for s in range(ref.n):
        change = d["start_records"][s] - d["records"][s]
        if d["void"] or s not in d["active"]:
            assert change == 0
            continue
        won = d["tricks_won"][s]
        if won == 0:
            expected = -5 - (5 if s == d["ace_holder"] else 0)
        else:
            expected = won + (bonus if s == d["ace_holder"] else 0)
        if expected > d["start_records"][s]:
            expected = d["start_records"][s]   # MU-STOP-2 clamp (it would have stopped)
        assert change == expected, (s, d)


# --- the reference on its own: the worked examples (rules §4) -----------------------------

def card(name: str) -> int:
    """A card index from its name."""
    return MUSHKA.index(name)


def table(hands: list[str], trump: str = "2h", dealer: int = 3, rules: MushkaRules | None = None,
          records: list[int] | None = None, trick: list[str] = ()) -> ReferenceMushka:
    """A 4-player play position (P1..P4 = seats 0..3, dealer P4, everyone active) with the given
    hands (space-separated card names; ``"?"`` = 5 unnamed low cards); the turned card is
    ``trump``; ``trick`` cards are played in turn from P1; the other cards are the stock."""
    rules = rules or MushkaRules(deck="52")
    g = ReferenceMushka(rules)
    g.dealer = dealer
    g.trump_card = card(trump)
    named = {card(c) for h in hands for c in h.split() if c != "?"} | {g.trump_card}
    spare = sorted(g.deck - named)
    for s, h in enumerate(hands):
        cards = [card(c) for c in h.split() if c != "?"]
        while len(cards) < 5:
            cards.append(spare.pop(0))
        g.hands[s] = set(cards)
    g.stock = spare
    g.decisions = ["stand"] * 4
    g.active = [0, 1, 2, 3]
    holders = [s for s in range(4) if ACE_OF_SPADES in g.hands[s]]
    g.ace_holder = holders[0] if holders else None
    if records is not None:
        g.records = list(records)
        g.start_records = list(records)
    g.start_play()
    for c in trick:
        g.apply_action(action_id(PLAY, [card(c)]))
    return g


def legal_names(g: ReferenceMushka) -> list[str]:
    """The legal cards of the seat to move, by name."""
    return sorted(action_text(a)[5:] for a in g.legal_actions())


def test_ex2_to_ex4_follow_and_trump():
    """MU-EX-2 (follow suit, no need to beat), MU-EX-3 (trump, no overtrump; the trump wins),
    MU-EX-4 (void in the suit and in trumps: any card)."""
    g = table(["9c", "Kc 7c Ah Qd 8s", "?", "?"], trick=["9c"])
    assert legal_names(g) == ["7c", "Kc"]                                    # MU-EX-2
    g = table(["9c", "Kh", "7h Ad Qs 8d Jd", "Tc Ad"], trick=["9c", "Kh"])
    assert legal_names(g) == ["7h"]                                          # MU-EX-3
    g.apply_action(action_id(PLAY, [card("7h")]))
    g.apply_action(action_id(PLAY, [card("Tc")]))
    assert g.tricks_won == [0, 1, 0, 0] and g.records[1] == 24 and g.leader == 1
    g = table(["9c", "Tc", "Jc", "Ad Qs 8d Jd Ts"], trick=["9c", "Tc", "Jc"])
    assert legal_names(g) == ["8d", "Ad", "Jd", "Qs", "Ts"]                  # MU-EX-4


def test_ex5_to_ex7_ace_of_spades():
    """MU-EX-5 (As beats a led trump ace), MU-EX-6 (trump ace not led: no power), MU-EX-7
    (As does not beat another trump)."""
    g = table(["Ah", "As 7h Kd Qd 8c", "Th", "8h"], trick=["Ah"])
    assert legal_names(g) == ["7h", "As"]                                    # MU-EX-5
    for c in ("As", "Th", "8h"):
        g.apply_action(action_id(PLAY, [card(c)]))
    assert g.tricks_won == [0, 1, 0, 0]
    g = table(["9h", "Ah", "As Kd Qd 8c 7c", "8h"], trick=["9h", "Ah"])
    assert "As" in legal_names(g)                                            # MU-EX-6
    for c in ("As", "8h"):
        g.apply_action(action_id(PLAY, [card(c)]))
    assert g.tricks_won == [0, 1, 0, 0]
    g = table(["Kh", "As Kd Qd 8c 7c", "7h", "9h"], trick=["Kh"])
    assert len(legal_names(g)) == 5                                          # MU-EX-7
    for c in ("As", "7h", "9h"):
        g.apply_action(action_id(PLAY, [card(c)]))
    assert g.tricks_won == [1, 0, 0, 0]


def test_ex1_ex8_to_ex13_scoring():
    """MU-EX-1 (3 tricks: 22), MU-EX-8 (remise 30), MU-EX-9 (bonus 18, 13 with spades
    trump), MU-EX-10 (holder without a trick 35), MU-EX-11 (clamp and stop), MU-EX-12
    (compulsory stop), MU-EX-13 (overshoot reset 24 / 25)."""
    g = table(["?", "As", "?", "?"])
    for s in (0, 0, 0, 1, 1):
        g.win_trick(s)
    g.end_of_deal()
    assert g.records == [22, 18, 30, 30]                   # MU-EX-1, -9, -8
    g = table(["?", "As", "?", "?"], trump="2s")
    for s in (0, 0, 0, 1, 1):
        g.win_trick(s)
    assert g.records[1] == 13                              # MU-EX-9, spades trump
    g = table(["?", "As", "?", "?"])
    for s in (0, 0, 2, 2, 3):
        g.win_trick(s)
    g.end_of_deal()
    assert g.records[1] == 35                              # MU-EX-10
    g = table(["?", "As", "?", "?"], records=[25, 4, 25, 25])
    g.win_trick(1)
    assert g.records[1] == 0 and g.stopper == 1 and g.is_terminal()          # MU-EX-11
    assert g.returns()[1] == 4.0
    g = table(["?", "?", "?", "?"], records=[25, 25, 1, 25])
    g.win_trick(2)
    assert g.records[2] == 0 and g.winners == [2] and g.phase == "deal_over"  # MU-EX-12
    for reset, expected in (("start_minus_excess", 24), ("start", 25)):
        rules = MushkaRules(deck="52", stop_mode="declared", overshoot_reset=reset)
        g = table(["?", "?", "?", "?"], rules=rules, records=[25, 25, 1, 25])
        g.win_trick(2)
        assert g.phase == "stop" and g.legal_actions() == [action_id(STOP), action_id(PLAY_ON)]
        g.apply_action(action_id(PLAY_ON))
        g.win_trick(2)
        assert g.records[2] == expected                    # MU-EX-13


def test_ex14_to_ex16_exchange():
    """MU-EX-14 (the holder may not pass; a passer's record stays), MU-EX-15 (lone player
    credited 5 tricks: 20, 15 with As), MU-EX-16 (exchange limited by the stock)."""
    rules = MushkaRules()
    for seed in range(200):
        g = ReferenceMushka.new_deal(rules, seed, records=[17] * 4)
        if g.dealer == 3 and ACE_OF_SPADES in g.hands[0]:
            break
    else:
        raise AssertionError("no seed in 0..199 dealt by seat 3 with As in hand 0")
    assert action_id(PASS) not in g.legal_actions()                         # MU-EX-14
    g.apply_action(action_id(STAND))
    g.apply_action(action_id(PASS))
    assert g.excluded[1] == {ACE_OF_SPADES}
    while not g.is_terminal():
        g.apply_action(g.legal_actions()[-1])
    assert g.records[1] == 17 and g.tricks_won[1] == 0 and 1 not in g.active
    for holder in (False, True):
        for seed in range(400):
            g = ReferenceMushka.new_deal(rules, seed)
            if (g.dealer == 3 and (ACE_OF_SPADES in g.hands[3]) == holder
                    and all(ACE_OF_SPADES not in g.hands[s] for s in range(3))):
                break
        else:
            raise AssertionError(f"no seed in 0..399 dealt by seat 3, As in its hand: {holder}")
        for _ in range(3):
            g.apply_action(action_id(PASS))
        g.apply_action(action_id(STAND))
        assert g.is_terminal() and g.tricks_won[3] == 5                      # MU-EX-15
        assert g.records[3] == (15 if holder else 20)
    for seed in range(400):
        g = ReferenceMushka.new_deal(rules, seed)
        if g.dealer == 3 and ACE_OF_SPADES not in g.hands[0] | g.hands[1]:
            break
    else:
        raise AssertionError("no seed in 0..399 dealt by seat 3 with As outside hands 0 and 1")
    assert len(g.stock) == 11
    for k, stock_after in ((5, 6), (4, 2)):
        seat = g.to_move
        sets = [a for a in g.legal_actions() if a >> 52 == EXCHANGE]
        g.apply_action(max(sets, key=lambda a: (bin(a & (2**52 - 1)).count("1") == k, a)))
        assert g.decisions[seat] == k and len(g.stock) == stock_after        # MU-EX-16
    sizes = {bin(a & (2**52 - 1)).count("1") for a in g.legal_actions() if a >> 52 == EXCHANGE}
    assert max(sizes) == 2
    g.apply_action(max(a for a in g.legal_actions() if a >> 52 == EXCHANGE
                       and bin(a & (2**52 - 1)).count("1") == 2))
    assert not any(a >> 52 == EXCHANGE for a in g.legal_actions())
    assert g.to_move == 3


def test_reference_round_trips_and_clones():
    """The reference's dict carries every option of MushkaRules and the 4 words of the chance
    stream; ``from_dict`` round-trips it; a clone is independent."""
    rules = MushkaRules(num_players=5, dealer_takes_trump_card=True)
    ref = ReferenceMushka.new_deal(rules, 3)
    d = ref.to_dict()
    assert DIFF.reference_dict_problems(d, rules) == []
    assert set(d) == POSITION_KEYS
    assert ReferenceMushka.from_dict(rules, d).to_dict() == d
    copy = ref.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert ref.to_dict() == d


# --- the normal suite ---------------------------------------------------------------------

def test_option_combinations_cover_every_pair():
    """The normal suite's deals cover every pair of option values (num_players included;
    7 players with 32 cards is not a legal combination)."""
    plans = [spec.options for n in PLAYERS for g in range(GROUPS) for spec in deal_plan(n, g)]
    axes = {"num_players": PLAYERS, **OPTION_AXES}
    assert DIFF.missing_pairs(plans, axes, impossible=[("num_players", 7, "deck", "32")]) == []


def test_compiled_dict_has_the_position_keys():
    """The compiled ``to_dict`` has exactly the engine's keys (the reference's dict is the
    engine's format)."""
    state, ref = DIFF.deal({"num_players": 4}, 11)
    assert set(state.to_dict()) == set(ref.to_dict()) == POSITION_KEYS


@pytest.mark.parametrize("group", range(GROUPS))
@pytest.mark.parametrize("num_players", PLAYERS)
def test_random_deals_match_reference(num_players, group):
    """MU-DEAL-1..4, MU-EXCH-1..6, MU-PASS-1..3, MU-PLAY-1..6, MU-ACE-1..5, MU-SCORE-1..6,
    MU-STOP-1..4: 52 random deals per group, each under its own option combination (a quarter
    from records near 0, a quarter with a high pass rate), identical in both engines step by
    step (legal actions, positions) and in the final returns; the reference's record changes
    follow the scoring rules."""
    for spec in deal_plan(num_players, group):
        ref = run_deal(spec)
        assert ref.phase == "deal_over"
        check_deal_scoring(ref)


def match_plan() -> list[tuple[dict, int, float]]:
    """(options, seed, pass probability) of the suite's matches: per player count a default
    match, one with ``max_deals=10``, one with ``stop_mode=declared``, one declared with
    ``max_deals=10``. Without ``max_deals``, 5 to 7 players pass more often: with the
    engine's pass rate so many players are remised that the records drift upwards and a
    match can last thousands of deals."""
    plan = []
    for n in PLAYERS:
        for k, extra in enumerate(({}, {"max_deals": 10}, {"stop_mode": "declared"},
                                   {"stop_mode": "declared", "max_deals": 10})):
            seed = 5_000 + 10 * n + k
            base = {"num_players": n} if k == 0 else random_options(n, seed)
            base = {**base, "max_deals": None} if "max_deals" not in extra else base
            options = {**base, **extra, "num_players": n}
            high = options.get("max_deals") is None and n >= 5
            plan.append((options, seed, HIGH_PASS_PROBABILITY if high else PASS_PROBABILITY))
    return plan


def match_id(options: dict, seed: int) -> str:
    """A short test id for a match."""
    return (f"{options['num_players']}p-{options.get('stop_mode', 'automatic')}-"
            f"max{options.get('max_deals')}-seed{seed}")


@pytest.mark.parametrize("options,seed,pass_probability", match_plan(),
                         ids=[match_id(m[0], m[1]) for m in match_plan()])
def test_matches_match_reference(options, seed, pass_probability):
    """MU-DEAL-1 (the deal passes to the left, void deals included), MU-MATCH-1/2 (the match
    ends at a stop, or after ``max_deals`` with the lowest records winning; records carry
    over): whole matches agree in both engines."""
    events = Events()
    ref = run_match(options, seed, pass_probability, events=events)
    assert ref.phase == "match_over" and ref.winners
    if ref.stopper is None:
        assert ref.deal_number == ref.rules.max_deals
        assert all(ref.records[w] == min(ref.records) for w in ref.winners)
    else:
        assert ref.records[ref.stopper] == 0
    assert ref.deal_number == events["next deal"] + 1


# Deals aimed at the rare rules: records near 0, passing, declared stops.
RARE_GROUPS = [
    ("automatic", {}, HIGH_PASS_PROBABILITY),
    ("declared", {"stop_mode": "declared"}, PASS_PROBABILITY),
    ("declared, bonus at the end", {"stop_mode": "declared", "ace_bonus_timing": "end_of_deal"},
     PASS_PROBABILITY),
    ("passing", {"stop_mode": "declared"}, HIGH_PASS_PROBABILITY),
]
RARE_EVENTS = ("void deal (all passed)", "void deal (lone, redeal)", "lone player credited",
               "automatic stop", "stop declared at play", "stop declared at bonus",
               "stop declared at end", "play on at play", "play on at bonus", "play on at end",
               "clamp", "overshoot reset", "MU-ACE-2 play", "dealer discard", "short stock")


def test_rare_rules_match_reference():
    """MU-PASS-2/3, MU-STOP-1..4, MU-SCORE-3/4, MU-ACE-2, MU-EXCH-5: 400 deals from records
    drawn from 1..8 (some groups with a high pass rate, some with declared stops), compared
    step by step; every rare event must actually have been reached."""
    events = Events()
    for k in range(400):
        seed = 600_000 + k
        name, extra, pass_probability = RARE_GROUPS[k % len(RARE_GROUPS)]
        n = PLAYERS[k // len(RARE_GROUPS) % len(PLAYERS)]
        options = {**random_options(n, seed + 1), **extra}
        r = random.Random(seed)
        records = tuple(r.randint(1, 8) for _ in range(n))
        if options.get("stop_mode") == "declared" and k % 3 == 0:
            records = tuple(r.choice((0, 0, 1, 2)) for _ in range(n))
        run_deal(DealSpec(options, seed, records, pass_probability), events)
    missing = [e for e in RARE_EVENTS if events[e] == 0]
    assert not missing, f"rare events never reached: {missing}; seen {dict(events)}"


def ace_of_spades_power_play(ref: ReferenceMushka, action: int) -> bool:
    """MU-ACE-2: ``action`` plays the ace of spades onto a trick led with the trump ace
    (spades not trump)."""
    return (action == action_id(PLAY, [ACE_OF_SPADES]) and bool(ref.trick)
            and ref.ace_of_spades_power())


def find_seeds(options: dict, event, count: int = 4, start: int = 900_000,
               pass_probability: float = PASS_PROBABILITY) -> list[int]:
    """The first ``count`` seeds from ``start`` whose reference deal, played with the suite's
    choices, shows ``event(ref, action)`` at some step (how the seeds of ACE_POWER_DEALS were
    found)."""
    rules, hits, seed = MushkaRules(**options), [], start
    while len(hits) < count:
        ref, chooser, seen = ReferenceMushka.new_deal(rules, seed), Chooser(seed), False
        chooser.pass_probability = pass_probability
        while not ref.is_terminal():
            action = chooser(ref.legal_actions())
            seen = seen or event(ref, action)
            ref.apply_action(action)
        if seen:
            hits.append(seed)
        seed += 1
    return hits


# Deals in which the ace of spades takes a led trump ace (MU-ACE-2), found with find_seeds.
ACE_POWER_DEALS = [
    ({"num_players": 4}, [900020, 900031, 900056, 900102]),
    ({"num_players": 3, "must_head_trick": True, "must_overtrump": True},
     [900004, 900043, 900092, 900136]),
    ({"num_players": 6, "ace_bonus_timing": "end_of_deal"}, [900043, 900083, 900510, 900728]),
    ({"num_players": 5, "stop_mode": "declared", "dealer_takes_trump_card": True},
     [900011, 900072, 900080, 900233]),
]


@pytest.mark.parametrize("options,seeds", ACE_POWER_DEALS,
                         ids=[short(o) for o, _ in ACE_POWER_DEALS])
def test_ace_of_spades_power_matches_reference(options, seeds):
    """MU-ACE-2/3, MU-PLAY-6: deals in which the ace of spades is played onto a led trump ace
    (legal even with trumps in hand; it wins the trick; it proves no void), compared in both
    engines step by step; the seeds must still show the play."""
    for seed in seeds:
        events = Events()
        run_deal(DealSpec(options, seed), events)
        assert events["MU-ACE-2 play"] == 1, f"seed {seed}: no MU-ACE-2 play; re-run find_seeds"


def cross_from_dict(phase_wanted: str) -> int:
    """Play a random prefix in both engines until the phase ``phase_wanted`` (or any phase
    for "any"), pass each engine's ``to_dict`` to the other's ``from_dict`` and play on in
    both (a deal to its end, a match for at most ``CROSS_STEPS`` more steps); returns how many
    positions crossed."""
    crossed = 0
    for k in range(40):
        n = PLAYERS[k % len(PLAYERS)]
        seed = 8_000 + k
        options = random_options(n, seed)
        if phase_wanted == "stop":
            options = {**options, "stop_mode": "declared"}
        if phase_wanted == "discard":
            options = {**options, "dealer_takes_trump_card": True}
        records = [random.Random(seed).randint(0 if phase_wanted == "stop" else 1, 8)
                   for _ in range(n)] if k % 2 else None
        chooser = Chooser(seed)
        for mode in ("deal", "match"):
            if mode == "deal":
                setup = {} if records is None else {"records": records}
                state, ref = DIFF.deal(options, seed, **setup)
            else:
                state, ref = DIFF.match(options, seed)
            where = f"prefix {mode} {short(options)} seed {seed}"
            DIFF.play_both(ref, state, chooser, where, max_steps=chooser.rnd.randrange(40))
            budget = CROSS_STEPS
            while not ref.is_terminal() and phase_wanted not in ("any", ref.phase) and budget:
                DIFF.play_both(ref, state, chooser, where, max_steps=1)
                budget -= 1
            if ref.is_terminal() or phase_wanted not in ("any", ref.phase):
                continue
            state2, ref2 = DIFF.cross(ref, state, options, where)
            DIFF.play_both(ref2, state2, Chooser(seed + 1), f"from_dict {mode} {short(options)} "
                           f"seed {seed}", max_steps=CROSS_STEPS)
            crossed += 1
    return crossed


@pytest.mark.parametrize("phase,minimum", [("any", 40), ("play", 40), ("exchange", 30),
                                           ("discard", 20), ("stop", 15)])
def test_positions_cross_from_dict(phase, minimum):
    """Position dicts cross between the engines: each engine's ``from_dict`` accepts the
    other's ``to_dict`` mid-deal and mid-match (in the discard, the exchange, the play and
    at a stop offer), and play continues identically."""
    assert cross_from_dict(phase) >= minimum


# --- the large run ----------------------------------------------------------------------------

@pytest.mark.slow
def test_differential_many_deals():
    """All rules of the normal suite on 90,000 deals (override the count with
    ``CARDSIM_DIFF_DEALS``), each under its own random option combination (a quarter from
    records near 0, a quarter with a high pass rate), the player count cycling 3..7."""
    events = Events()
    for i in range(SLOW_DEALS):
        seed = 10_000_000 + i
        ref = run_deal(deal_spec(PLAYERS[i % len(PLAYERS)], seed), events)
        check_deal_scoring(ref)
    if SLOW_DEALS >= 20_000:
        missing = [e for e in RARE_EVENTS if events[e] == 0]
        assert not missing, f"rare events never reached: {missing}"

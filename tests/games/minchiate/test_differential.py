"""Differential test: the compiled Minchiate engine against the plain-Python reference.

Both engines start from the same seed (so the same first dealer, the same shuffle, robbing, deal and
exposed cards: the engine's dealing procedure), the same random choice is applied to both at every
step, and after every step the legal-action lists, the ``to_dict`` positions (every key of the
position dict: hands, robbed and exposed cards, discards, the Fola, declarations, the trick, piles,
the ``excluded`` inferences, points per source, D, resti, the Matto settlement, the chance
stream...), ``current_player`` and ``is_terminal`` must be identical; at the end, ``returns`` too.
The reference (:mod:`cardsim.games.minchiate.reference`) is an independent plain-Python reading of
``rules/minchiate.md`` and of the engine's layout and notation; it is also checked to conserve the
97 cards after every step (hands, Fola, trick, piles).

Choices follow the engine's random player: uniform among discards and cards; in a
declaration each legal combination, ascending, is declared with probability p and the bonus
claimed with probability p, where p is drawn per deal from (1.0, 0.5, 0.0) so that full,
partial and empty declarations all occur.

The normal suite plays 1,040 random deals, each under its own random combination of every
option of rules §3 (pairwise coverage of all option values is asserted; every group of 130
deals must reach the King rule, the Matto led and followed, the debt paid, the bonus claimed,
declarations of both timings, the first discard class, a Matto never played and counting cards
left in the Fola), 12 whole matches (``new_match`` with ``deals`` 2, 3 and 5), deals where the
Matto is played under the King rule, and stacked positions for the paths random deals do not
reach: packs chosen by the test, dealt by the reference and passed to the compiled engine
through ``from_dict`` (the cutter robbing 13 cards; the MI-DISC-3 fallback classes 1..3; a team
without a trick, so the Matto given away and capot, for either team), and positions before the
last trick whose debtor holds no zero-value card but T29 or none at all (MI-MATTO-2); finally
positions are passed across through ``from_dict`` in both directions in every phase.
``test_differential_many_deals`` (marked slow, skipped by default; run it with ``-m slow``)
plays 10,000 random deals; the environment variable ``CARDSIM_DIFF_DEALS`` overrides that
count. A few checks of the reference alone replay worked examples of the rules. The harness
(the lockstep play, the comparisons) is :mod:`tests.differential`; this file holds what is
Minchiate's.
"""
from __future__ import annotations

import collections
import random

import pytest

from cardsim.games.minchiate.layout import DECK as MINCHIATE
from cardsim.games.minchiate.reference import (
    DECLARE,
    DISCARD,
    DONE,
    KINGS,
    MATTO,
    PLAY,
    T29,
    ReferenceGame,
    action_id,
    action_text,
    rob_eligible,
    value,
)
from cardsim.games.minchiate.rules import MinchiateRules
from tests.differential import Chooser as UniformChooser
from tests.differential import Differential, Watch, deal_count

# Every option and its values (rules §3).
OPTION_AXES = {
    "deals": (1, 2, 5, 20),
    "cutter_rob": ("auto", "off"),
    "dealer_rob": ("auto_all", "off"),
    "rob_cap": (13,),
    "expose_last_card": ("all_players", "none"),
    "discard_trumps": (True, False),
    "declaration_mode": ("choice", "all"),
    "declaration_timing": ("before_first_lead", "after_own_first_card"),
    "fola_visibility": ("open", "suit_counts", "hidden"),
    "decine_four": ("one_combination", "two_triples"),
    "matto_bonus_on_matto_combo": (False, True),
    "resto_points": (60,),
    "capot": ("off", "it_rules"),
}
GROUPS = 8
DEALS_PER_GROUP = 130          # 8 x 130 = 1,040 random deals in the normal suite
DECLARE_PROBABILITIES = (1.0, 0.5, 0.0)
CROSS_STEPS = 400              # more than a deal's moves (13 + 4 + 84 + declarations)
SLOW_DEALS = deal_count(10_000)

# Known mismatches of the compiled engine: option sets skipped until fixed (see the report).
SKIPPED: list[tuple[dict, str]] = []


def random_options(seed: int) -> dict:
    """A random combination of every option (one value per axis), from ``seed``; every 8th
    combination is the default rules."""
    if seed % 8 == 0:
        return {}
    r = random.Random(seed)
    return {k: r.choice(v) for k, v in OPTION_AXES.items()}


def skipped(options: dict) -> str | None:
    """The bug name when these options hit a known mismatch (None: run)."""
    for pattern, bug in SKIPPED:
        if all(options.get(k, getattr(MinchiateRules(), k)) == v for k, v in pattern.items()):
            return bug
    return None


class Minchiate(Differential):
    """Minchiate's engines: 97 cards; the dict's keys come in the same order too."""

    name = "minchiate"
    reference = ReferenceGame
    rules_type = MinchiateRules
    n_cards = 97
    key_order = True

    def action_text(self, action: int) -> str:
        return action_text(action)


DIFF = Minchiate()


def short(options: dict) -> str:
    """The non-default options, for failure messages."""
    return str({k: v for k, v in options.items() if v != getattr(MinchiateRules(), k)})


class Chooser(UniformChooser):
    """The engine's random player with declare probability ``p`` (the same choice is
    applied to both engines)."""

    def __init__(self, seed: int, p: float = 1.0) -> None:
        super().__init__(seed)
        self.p = p

    def __call__(self, legal: list[int]) -> int:
        if not any(a >> 8 == DONE for a in legal):
            return self.rnd.choice(legal)
        for a in legal:
            if a >> 8 == DECLARE and self.rnd.random() < self.p:
                return a
        if action_id(DONE, 1) in legal and self.rnd.random() < self.p:
            return action_id(DONE, 1)
        return action_id(DONE, 0)


def discard_class(ref: ReferenceGame, seat: int, card: int) -> int:
    """The MI-DISC-3 class (0..5) a legal discard came from."""
    for i, cls in enumerate(ref.discard_classes(ref.hands[seat])):
        if card in cls:
            return i
    raise AssertionError("not a discard")


def note_events(events: collections.Counter, ref: ReferenceGame, action: int) -> None:
    """Count the rare paths one step takes (``ref`` before the step)."""
    kind, v = action >> 8, action & 255
    seat = ref.to_move
    if kind == DISCARD:
        events[f"discard class {discard_class(ref, seat, v)}"] += 1
        if len(ref.cutter_robbed) == 13:
            events["cutter robbed 13"] += 1
    elif kind == DONE:
        if v:
            events["bonus claimed"] += 1
        if ref.declared[seat]:
            events["declared"] += 1
        if ref.rules.declaration_timing == "after_own_first_card":
            events["declared after first card"] += 1
    elif kind == PLAY:
        if not ref.trick and v == MATTO:
            events["Matto led"] += 1
        if ref.king_rule() and KINGS[ref.led_suit()] in ref.hands[seat]:
            events["King rule applies"] += 1
        if ref.trick and v == MATTO:
            events["Matto followed"] += 1


def note_end(events: collections.Counter, d: dict) -> None:
    """Count the rare paths of a finished deal's dict."""
    if d["paid_card"] is not None:
        events["Matto debt paid"] += 1
        if value(MINCHIATE.index(d["paid_card"])) > 0 or d["paid_card"] == "T29":
            events["paid a counting card or T29"] += 1
    if d["matto_given"]:
        events["Matto given away"] += 1
    if d["matto_team"] is None:
        events["Matto never played"] += 1
    if 0 in d["tricks_won"]:
        events["capot " + d["rules"]["capot"]] += 1
    if d["D"] == 0:
        events["D = 0 at the end"] += 1
    if min(d["resti"]) > 0:
        events["resti to both teams"] += 1
    if sum(d["points"]["pile"]) != 142:
        events["counting cards left in the Fola"] += 1


class Events(collections.Counter, Watch):
    """The rare paths the steps played took, counted (:func:`note_events`, :func:`note_end`;
    ``next deal`` for every deal a match went on to)."""

    def before_step(self, ref: ReferenceGame, action: int) -> None:
        note_events(self, ref, action)
        self.deal_before = ref.deal_number

    def after_step(self, before: dict, action: int, after: dict, ref: ReferenceGame) -> None:
        if ref.deal_number != self.deal_before:
            self["next deal"] += 1
        elif ref.is_terminal():
            note_end(self, after)


def run_deal(options: dict, seed: int, events: Events | None = None,
             p: float | None = None) -> ReferenceGame:
    """One deal in both engines, played to the end with seeded choices; returns the finished
    reference."""
    state, ref = DIFF.deal(options, seed)
    if p is None:
        p = DECLARE_PROBABILITIES[seed % len(DECLARE_PROBABILITIES)]
    where = f"deal {short(options)} seed {seed} p {p}"
    DIFF.play_both(ref, state, Chooser(seed, p), where, watch=events)
    return ref


def run_match(options: dict, seed: int, events: Events | None = None):
    """A whole match from ``seed`` in both engines; returns the finished reference."""
    state, ref = DIFF.match(options, seed)
    where = f"match {short(options)} seed {seed}"
    DIFF.play_both(ref, state, Chooser(seed, 0.5), where, watch=events)
    return ref


def check_deal(ref: ReferenceGame) -> None:
    """MI-MATTO-5, MI-END-1..2, MI-RESTO-3/4 on a finished deal (the reference alone): piles
    of 4 × tricks (84 cards in all), 142 card points split when the Fola holds no counting
    card, the card bonus, the final resti."""
    d = ref.to_dict()
    piles, won = d["piles"], d["tricks_won"]
    assert len(piles[0]) + len(piles[1]) == 84 and sum(won) == 21
    if not d["matto_given"]:
        assert [len(p) for p in piles] == [4 * w for w in won]
    fola_points = sum(value(MINCHIATE.index(c)) for c in d["fola"])
    assert sum(d["points"]["pile"]) + fola_points == 142
    assert d["points"]["beyond_42"] == [max(0, len(p) - 42) for p in piles]
    assert sum(d["points"]["last_trick"]) == 10
    assert -60 < d["D"] < 60
    net = d["resti"][0] - d["resti"][1]
    if d["rules"]["capot"] == "off" or 0 not in won:
        assert d["net"] == net
    assert len(d["fola"]) == 13


# --- the normal suite: random deals ---------------------------------------------------------

def deal_plan(group: int) -> list[tuple[dict, int]]:
    """(options, seed) of the deals of one test group."""
    base = 1_000 * group
    return [(random_options(base + k), base + k) for k in range(DEALS_PER_GROUP)]


def test_plan_covers_every_pair_of_option_values():
    """Pairwise coverage: every pair of values of two different options is played together
    in at least one deal of the normal suite (and every skipped option set is named)."""
    plans = [opts for g in range(GROUPS) for opts, _ in deal_plan(g)]
    missing = DIFF.missing_pairs([o for o in plans if not skipped(o)], OPTION_AXES)
    assert not missing, missing


RARE_DEAL_EVENTS = ("discard class 0", "bonus claimed", "declared", "declared after first card",
                    "Matto led", "Matto followed", "King rule applies", "Matto debt paid",
                    "Matto never played", "counting cards left in the Fola")
"""Paths every group of random deals must take (the rarer ones are forced by stacked
deals below)."""


@pytest.mark.parametrize("group", range(GROUPS))
def test_random_deals_match_reference(group):
    """Rules §2 on 130 random deals per group, each under its own option combination:
    identical in both engines step by step (legal actions, positions) and in the returns; the
    reference's finished deals satisfy the end-scoring invariants; the rare paths of random
    deals (the King rule, the Matto led and followed, the debt paid, the bonus claimed, a
    Matto left in the Fola...) are all reached."""
    events = Events()
    for options, seed in deal_plan(group):
        if skipped(options):
            continue
        ref = run_deal(options, seed, events)
        assert ref.phase == "deal_over"
        check_deal(ref)
    missing = [e for e in RARE_DEAL_EVENTS if events[e] == 0]
    assert not missing, f"rare paths never reached: {missing}; seen {dict(events)}"


MATCHES = [({**random_options(7_000 + n * 10 + k), "deals": n}, 7_000 + n * 10 + k)
           for n in (2, 3, 5) for k in range(4)]


@pytest.mark.parametrize("options,seed", MATCHES, ids=[f"deals{o['deals']}-seed{s}"
                                                       for o, s in MATCHES])
def test_matches_match_reference(options, seed):
    """MI-RESTO-4, ``deals``: whole matches (the deal passes to d + 1, the stream continues,
    net resti add up) agree in both engines."""
    options = {**options}
    bug = skipped(options)
    if bug:
        pytest.skip(bug)
    events = Events()
    ref = run_match(options, seed, events)
    assert ref.phase == "match_over"
    assert ref.deal_number == options["deals"] == events["next deal"] + 1
    assert ref.dealer == (ref.start_dealer + options["deals"] - 1) % 4


# --- stacked deals: the paths random deals (almost) never take ------------------------------

def card(name: str) -> int:
    """A card index from its name."""
    return MINCHIATE.index(name)


def stacked_pack(hands: dict[int, list[int]], bottom: list[int], fola: list[int] | None,
                 dealer: int, seed: int) -> list[int]:
    """A pack order (top first) that deals the named cards: ``hands[seat]`` cards go to that
    seat (its last card named is its exposed 21st card when it names 21), ``bottom`` lies at
    the bottom (the bottom card last in the list, robbed first), ``fola`` are the undealt cards
    above it; every other card fills the rest at random."""
    r = random.Random(seed)
    named = [c for cs in hands.values() for c in cs] + bottom + (fola or [])
    assert len(set(named)) == len(named)
    spare = [c for c in range(97) if c not in set(named)]
    r.shuffle(spare)
    k = 0
    while k < len(bottom) and k < 13 and rob_eligible(bottom[-1 - k]):
        k += 1
    pack: list[int | None] = [None] * 97
    for i, c in enumerate(reversed(bottom)):
        pack[96 - i] = c
    for i, c in enumerate(fola or []):
        pack[84 + i] = c
    for j in range(4):
        seat = (dealer + 1 + j) % 4
        want = list(hands.get(seat, []))
        slots = list(range(10 * j, 10 * j + 10)) + list(range(40 + 11 * j, 40 + 11 * j + 11))
        assert len(want) <= 21
        if len(want) == 21:
            for pos, c in zip(slots, want):
                pack[pos] = c
        else:
            for pos, c in zip(slots, want):       # the named cards first, the 21st random
                pack[pos] = c
    for i in range(97):
        if pack[i] is None:
            pack[i] = spare.pop()
    assert sorted(pack) == list(range(97)) and not spare
    return pack  # type: ignore[return-value]


def run_stacked(options: dict, pack: list[int], dealer: int, seed: int,
                events: Events | None = None, p: float = 1.0) -> ReferenceGame:
    """Deal ``pack`` in the reference, pass the position to the compiled engine through
    ``from_dict`` and play both to the end."""
    rules = MinchiateRules(**options)
    ref = ReferenceGame(rules, seed)
    ref.dealer = ref.start_dealer = dealer
    ref.deal_from_pack(pack)
    state = DIFF.load(**options).from_dict(ref.to_dict())
    where = f"stacked {short(options)} dealer {dealer} seed {seed}"
    DIFF.play_both(ref, state, Chooser(seed, p), where, watch=events)
    return ref


TRUMP_NAMES = [f"T{n}" for n in range(1, 41)]


def stacked_options(k: int) -> dict:
    """Option combinations for the stacked deals (cycled)."""
    return random_options(9_100 + k) if k % 3 else {}


def test_cutter_robs_thirteen():
    """MI-CUT-1/3: 13 eligible cards at the bottom: the cutter robs all 13 (no card seen),
    the Fola is empty until the discards, he discards 13."""
    events = Events()
    for k in range(12):
        r = random.Random(k)
        eligible = [c for c in range(97) if rob_eligible(c)]
        r.shuffle(eligible)
        options = {**stacked_options(k), "cutter_rob": "auto"}
        dealer = k % 4
        pack = stacked_pack({}, eligible[:13], None, dealer, k)
        ref = run_stacked(options, pack, dealer, 100 + k, events)
        assert len(ref.cutter_robbed) == 13 and ref.seen_bottom is None
        check_deal(ref)
    assert events["cutter robbed 13"] == 12 * 13


def test_discard_fallback_classes():
    """MI-DISC-3 and the engine's classes: a cutter with too few zero-value cards discards
    them, then (with ``discard_trumps=false``) his zero-value trumps, then T29, then
    3-point cards. (5- and 10-point discards cannot happen: they need more than 21 cards
    worth 5 or 10 in one hand of 21 + k, and there are only 21 such cards.)"""
    events = Events()
    counting = [c for c in range(97) if value(c) in (3, 5)] + [T29]
    tens = [card(n) for n in ("T36", "T37", "T38", "T39", "T40")]
    zero_trumps = [c for c in range(40) if value(c) == 0 and c != T29]
    for k in range(16):
        r = random.Random(k)
        dealer = k % 4
        cutter = (dealer + 3) % 4
        options = {**stacked_options(k), "cutter_rob": "auto", "discard_trumps": k % 2 == 0}
        # the cutter robs the five 10-point trumps and up to 3 more 5-point cards; he is
        # dealt T29, the 3-point cards, 5-point cards and (every 4th deal) 2 zero-value cards
        others = [c for c in counting if c != T29 and value(c) == 5]
        r.shuffle(others)
        extra = others[:k % 4]
        bottom = tens + extra
        rest = [c for c in counting if c not in extra]
        r.shuffle(rest)
        hand = [T29] + [c for c in rest if c != T29][:18]
        if k % 4 == 0:
            hand += r.sample(zero_trumps, 2)
        else:
            hand += r.sample([c for c in range(41, 97) if value(c) == 0], 1) + \
                r.sample(zero_trumps, 1)
        hand = hand[:21]
        seen = r.choice([c for c in range(41, 97) if value(c) == 0 and c not in hand])
        pack = stacked_pack({cutter: hand}, [seen] + bottom, None, dealer, k)
        ref = run_stacked(options, pack, dealer, 200 + k, events)
        check_deal(ref)
    missing = [c for c in ("discard class 1", "discard class 2", "discard class 3")
               if events[c] == 0]
    assert not missing, f"discard classes never used: {missing}; seen {dict(events)}"


def capot_pack(winner_team: int, matto_seat: int, dealer: int, seed: int) -> list[int]:
    """A pack where one seat of ``winner_team`` holds trumps 20..40 and the other team no
    trump at all: ``winner_team`` wins every trick whatever is played. The bottom card and
    the Fola are zero-value suit cards (no robbing)."""
    r = random.Random(seed)
    strong = winner_team                                # seat 0 (A) or 1 (B)
    partner = strong + 2
    high = [card(f"T{n}") for n in range(20, 41)]
    low = [card(f"T{n}") for n in range(1, 20)]
    suits = [c for c in range(41, 97)]
    r.shuffle(suits)
    zero_suits = [c for c in suits if value(c) == 0]
    fola = zero_suits[:13]
    rest = [c for c in suits if c not in fola]
    partner_hand = low + rest[:2]
    rest = rest[2:]
    losers = [(strong + 1) % 4, (strong + 3) % 4]
    loser_cards = rest + [MATTO]
    r.shuffle(loser_cards)
    if matto_seat == partner:                            # swap the Matto to the partner
        loser_cards.remove(MATTO)
        loser_cards.append(partner_hand.pop())
        partner_hand.append(MATTO)
    hands = {strong: high, partner: partner_hand,
             losers[0]: loser_cards[:21], losers[1]: loser_cards[21:42]}
    return stacked_pack(hands, [], fola, dealer, seed)


def test_team_without_a_trick():
    """MI-MATTO-3 (the Matto given away), MI-MATTO-5 (84 cards in one pile), MI-END-2, capot
    (``it_rules``: at least 14 resti, the loss doubled) for either team winning every trick,
    the Matto with the losers or with the winners."""
    events = Events()
    for k in range(16):
        winner_team = k % 2
        dealer = k // 2 % 4
        matto_seat = (winner_team + 1) % 4 if k // 8 == 0 else winner_team + 2
        options = {**stacked_options(k), "capot": ("off", "it_rules")[k // 4 % 2]}
        pack = capot_pack(winner_team, matto_seat, dealer, k)
        ref = run_stacked(options, pack, dealer, 300 + k, events)
        check_deal(ref)
        assert ref.tricks_won[1 - winner_team] == 0
        assert len(ref.piles[winner_team]) == 84
        sign = 1 if winner_team == 0 else -1
        if options["capot"] == "it_rules":
            assert sign * ref.net >= 14
    for e in ("Matto given away", "capot off", "capot it_rules"):
        assert events[e] > 0, (e, dict(events))


def matto_under_king_rule(ref: ReferenceGame, action: int) -> bool:
    """The Matto played while MI-KING-1 holds (it proves the King absent)."""
    return action == action_id(PLAY, MATTO) and ref.king_rule()


def find_deals(event, count: int, start: int) -> list[tuple[dict, int]]:
    """The first ``count`` (options, seed) from ``start`` whose reference deal, played with
    the suite's choices, shows ``event(ref, action)`` at some step."""
    hits, seed = [], start
    while len(hits) < count:
        options = random_options(seed)
        ref = ReferenceGame.new_deal(MinchiateRules(**options), seed)
        chooser = Chooser(seed, DECLARE_PROBABILITIES[seed % len(DECLARE_PROBABILITIES)])
        seen = False
        while not ref.is_terminal():
            action = chooser(ref.legal_actions())
            seen = seen or event(ref, action)
            ref.apply_action(action)
        if seen and not skipped(options):
            hits.append((options, seed))
        seed += 1
    return hits


def test_matto_under_the_king_rule():
    """MI-KING-1, MI-PLAY-4, rules §6: the Matto may not replace the King, so a Matto played
    while the King rule holds shows the King absent (``excluded``): deals where it happens,
    compared in both engines."""
    for options, seed in find_deals(matto_under_king_rule, 6, 60_000):
        run_deal(options, seed)


def debt_position(seed: int, keep_t29: bool) -> tuple[dict, ReferenceGame] | None:
    """A random deal played (reference) to the last trick's lead with a Matto debt; then the
    debtor's zero-value cards (T29 aside) are swapped with the creditor's counting cards (and
    T29 moved to the debtor when ``keep_t29``, else away), the dying points, D and resti
    recomputed: the debtor must pay T29 or a counting card (MI-MATTO-2, the engine's
    "lowest-valued card"). None when the deal does not allow it."""
    options = random_options(seed)
    rules = MinchiateRules(**options)
    ref = ReferenceGame.new_deal(rules, seed)
    chooser = Chooser(seed, 0.5)
    while not (ref.tricks_played == 20 and not ref.trick):
        ref.apply_action(chooser(ref.legal_actions()))
    mt = ref.matto_team
    if not ref.matto_debt or mt is None or ref.tricks_won[mt] == 0:
        return None
    mine, theirs = ref.piles[mt], ref.piles[1 - mt]
    out = [c for c in mine if c != MATTO and value(c) == 0 and (c != T29 or not keep_t29)]
    want = [c for c in theirs if c != MATTO and (value(c) > 0 or (c == T29 and keep_t29))]
    if keep_t29 and T29 in theirs:
        want.remove(T29)
        want.insert(0, T29)
    if len(want) < len(out) or (keep_t29 and T29 not in mine | theirs):
        return None
    for a, b in zip(out, want):
        mine.remove(a), theirs.remove(b), mine.add(b), theirs.add(a)
    old = list(ref.points["dying"])
    for t in (0, 1):
        others = ref.played[1 - t] | ref.played[3 - t]
        ref.points["dying"][t] = sum(value(c) for c in ref.piles[t] & others if c != MATTO)
    ref.D += (ref.points["dying"][0] - old[0]) - (ref.points["dying"][1] - old[1])
    ref.event({})                                     # the resto conversion of the new D
    return options, ref


def test_matto_debt_paid_with_t29_or_a_counting_card():
    """MI-MATTO-2 and the engine's payment rule: a debtor whose pile holds no zero-value
    card but T29 pays T29; without T29 its lowest-valued card (lowest index among equals).
    Positions before the last trick, crossed into the compiled engine with ``from_dict``
    (four of each kind where the creditor wins the last trick)."""
    paid = collections.Counter()
    seed = 70_000
    while min(paid[True], paid[False]) < 4:
        keep = paid[True] <= paid[False]
        found = debt_position(seed, keep)
        seed += 1
        if found is None or skipped(found[0]):
            continue
        options, ref = found
        state = DIFF.load(**options).from_dict(ref.to_dict())
        DIFF.play_both(ref, state, Chooser(seed),
                       f"debt position {short(options)} seed {seed - 1}")
        assert ref.paid_card is not None
        if ref.team(ref.last_winner) == ref.matto_team:
            continue                    # the last trick brought the debtor zero-value cards
        assert (ref.paid_card == T29) == keep, (ref.paid_card, keep)
        assert ref.paid_card == T29 or value(ref.paid_card) > 0
        paid[keep] += 1


# --- positions crossing between the engines ---------------------------------------------------

def test_positions_cross_from_dict():
    """Position dicts cross between the engines: each engine's ``from_dict`` accepts the
    other's ``to_dict`` in every phase (discard, declare, play; deals and matches) and play
    continues identically."""
    crossed = collections.Counter()
    for k in range(40):
        seed = 40_000 + k
        options = random_options(seed)
        if skipped(options):
            continue
        chooser = Chooser(seed, 0.5)
        mode = ("deal", "match")[k % 2]
        state, ref = (DIFF.deal if mode == "deal" else DIFF.match)(options, seed)
        where = f"cross {mode} {short(options)} seed {seed}"
        limit = chooser.rnd.choice((0, 1, 3, 6, 20, 60))
        DIFF.play_both(ref, state, chooser, where, max_steps=limit)
        if ref.is_terminal():
            continue
        state2, ref2 = DIFF.cross(ref, state, options, where)
        crossed[ref.phase] += 1
        crossed[(ref.phase, ref.rules.declaration_timing)] += 1
        DIFF.play_both(ref2, state2, Chooser(seed + 1, 0.5), f"{where} from_dict",
                       max_steps=CROSS_STEPS)
    assert crossed["play"] >= 8 and crossed["discard"] >= 4 and crossed["declare"] >= 3, crossed


# --- the reference alone: worked examples ------------------------------------------------------

def test_reference_worked_examples():
    """MI-EX-5/6 (declaration arithmetic), MI-EX-7/8 (trick winners), MI-EX-10 (King rule),
    MI-EX-1..3 (robbing), MI-EX-17 (final rounding)."""
    g = ReferenceGame(MinchiateRules())
    hand = {card(n) for n in "T28 T29 T30 T31 T33 T1 T2 T3 M Kco Kcu Ksw".split()}
    combos = g.combos_of(hand)
    assert g.combos_points(combos, False) == 46 and g.combos_points(combos, True) == 61
    hand = {card(n) for n in "T10 T20 T30 T40 M T1".split()}
    assert g.combos_points(g.combos_of(hand), True) == 50
    g2 = ReferenceGame(MinchiateRules(decine_four="two_triples"))
    assert g2.combos_points(g2.combos_of(hand), True) == 65
    for trick, winner in ((["3co", "10co", "Aco", "7co"], 2), (["3sw", "10sw", "Asw", "7sw"], 1),
                          (["3co", "Fco", "Aco", "T6"], 3), (["3co", "Fco", "Aco", "7co"], 1),
                          (["M", "4sw", "T2", "Ksw"], 2)):
        g.trick = [(s, card(c)) for s, c in enumerate(trick)]
        assert g.trick_winner() == winner, trick
    # MI-EX-10: the first cups trick, trumped: the King holder must play it.
    g.trick = [(1, card("5cu")), (2, card("T12"))]
    g.suits_led = set()
    g.hands[3] = {card("Kcu"), card("8cu"), MATTO}
    g.hands[0] = {card("Qcu"), card("2cu"), MATTO}
    assert g.playable(3) == {card("Kcu")}
    assert g.playable(0) == {card("Qcu"), card("2cu"), MATTO}
    g.suits_led = {1}
    assert g.playable(3) == {card("Kcu"), card("8cu"), MATTO}
    # MI-EX-1..3: robbing from the bottom.
    dealer = 0
    bottom = [card(n) for n in ("7sw", "T24", "Kcu", "T38")]   # T38 is the bottom card
    fola = [card(n) for n in ("T40", "T29", "Fco", "2ba", "3ba", "4ba", "5ba", "6ba", "7ba")]
    pack = stacked_pack({}, bottom, fola, dealer, 1)
    ref = ReferenceGame(MinchiateRules(expose_last_card="none"))
    ref.dealer = dealer
    ref.deal_from_pack(pack)
    assert ref.cutter_robbed == {card("T38"), card("Kcu"), card("T24")}
    assert ref.seen_bottom == card("7sw")
    assert ref.dealer_robbed == {card("T40"), card("T29")}
    assert ref.points["cutter_rob"] == [0, 15] and ref.points["dealer_rob"] == [10, 0]
    assert ref.D == -5 and ref.to_move == 3 and ref.to_discard == 3


# --- the large run ----------------------------------------------------------------------------

@pytest.mark.slow
def test_differential_many_deals():
    """All rules of the normal suite on 10,000 random deals (``CARDSIM_DIFF_DEALS``
    overrides the count), each under its own random option combination."""
    events = Events()
    for i in range(SLOW_DEALS):
        seed = 10_000_000 + i
        options = random_options(seed)
        if skipped(options):
            continue
        check_deal(run_deal(options, seed, events))
    if SLOW_DEALS >= 20_000:
        missing = [e for e in RARE_DEAL_EVENTS if events[e] == 0]
        assert not missing, f"rare paths never reached: {missing}"

"""Bad input gives the right error class, with a message that names the offending value.

- Every inconsistency ``from_dict`` rejects raises :class:`PositionError` with a one-line
  message naming the key (one case each); a bad card name is also a :class:`CardError`.
- Actions: ids that are not Minchiate actions, malformed action dicts and strings, illegal
  actions (the message lists the legal ones).

Round trips of good positions and actions are in ``test_notation.py``.
"""
from __future__ import annotations

import copy
import random

import pytest

from cardsim.errors import CardError, IllegalActionError, PositionError
from cardsim.games.minchiate import layout, notation, validation_scoring
from cardsim.games.minchiate.layout import DECK as MINCHIATE

from .positions import (
    BASE,
    DECL,
    DECLARE,
    DISC,
    DONE,
    PLAY,
    SEEN,
    aid,
    declare_position,
    discard_position,
    game,
    idx,
    move,
    play_position,
    random_state,
    rebuild,
    walk,
)

# --- from_dict errors --------------------------------------------------------------------------


_END: dict = {}


def END():
    """A finished deal (seed 0) whose Matto was caught: debt and paid card."""
    if "d" not in _END:
        for s, _ in walk(game(), 0):
            pass
        _END["d"] = s.to_dict()
    d = copy.deepcopy(_END["d"])
    assert d["matto_debt"] and d["paid_card"]
    return d


def bad(d, *fragments, g=None, error=PositionError):
    g = g or game()
    with pytest.raises(error) as e:
        g.from_dict(d)
    msg = str(e.value)
    assert "\n" not in msg
    for f in fragments:
        assert f in msg, (f, msg)


def mutate(base, **changes):
    d = base() if callable(base) else copy.deepcopy(base)
    for k, v in changes.items():
        d[k] = v(d) if callable(v) else v
    return d


def test_not_a_dict():
    bad([1, 2], "expected a dict")


def test_unknown_key():
    bad(mutate(BASE, extra=1), "unknown key 'extra'")


@pytest.mark.parametrize("key", ["rng", "excluded", "D", "fola"])
def test_missing_key(key):
    d = BASE()
    del d[key]
    bad(d, f"missing key {key!r}")


def test_wrong_game():
    bad(mutate(BASE, game="mushka"), "game='mushka'")


def test_rules_differ():
    bad(BASE(), "rules differ", g=game(capot="it_rules"))


# Each case: (id, base, mutation of the dict, fragment of the message).
CASES = [
    # types and ranges
    ("mode", BASE, lambda d: d.update(mode="game"), "mode='game'"),
    ("deal_number", BASE, lambda d: d.update(deal_number=0), "deal_number=0"),
    ("phase", BASE, lambda d: d.update(phase="bidding"), "phase='bidding'"),
    ("dealer_range", BASE, lambda d: d.update(dealer=4), "dealer=4"),
    ("cutter_type", BASE, lambda d: d.update(cutter="3"), "cutter='3'"),
    ("to_move_none", BASE, lambda d: d.update(to_move=None), "to_move=None"),
    ("hands_length", BASE, lambda d: d["hands"].pop(), "hands="),
    ("cards_not_list", BASE, lambda d: d.update(fola="T1"), "fola='T1'"),
    ("card_twice_in_list", BASE, lambda d: d["fola"].append(d["fola"][0]), "listed twice"),
    ("piles_length", BASE, lambda d: d.update(piles=[[]]), "piles="),
    ("exposed_length", BASE, lambda d: d["exposed"].pop(), "exposed="),
    ("to_discard_range", BASE, lambda d: d.update(to_discard=-1), "to_discard=-1"),
    ("fola_open_type", BASE, lambda d: d.update(fola_open=1), "fola_open=1"),
    ("declared_type", BASE, lambda d: d["declared"].__setitem__(0, "T1"), "declared[0]"),
    ("declared_not_combination", BASE,
     lambda d: d["declared"].__setitem__(0, [["T1", "T2"]]), "not a combination"),
    ("declared_order", DECL,
     lambda d: d["declared"].__setitem__(2, [["T1", "T2", "T3"], ["T1", "T2", "T3"]]),
     "ascending"),
    ("declared_done_type", BASE, lambda d: d["declared_done"].__setitem__(0, 1),
     "declared_done[0]=1"),
    ("leader_range", BASE, lambda d: d.update(leader=7), "leader=7"),
    ("trick_type", BASE, lambda d: d.update(trick="3co"), "trick='3co'"),
    ("trick_entry", BASE, lambda d: d["trick"].__setitem__(0, [1]), "trick[0]"),
    ("tricks_played_range", BASE, lambda d: d.update(tricks_played=22), "tricks_played=22"),
    ("tricks_won_length", BASE, lambda d: d.update(tricks_won=[5]), "tricks_won="),
    ("suits_led_name", BASE, lambda d: d.update(suits_led=["xx"]), "suits_led="),
    ("suits_led_order", BASE, lambda d: d.update(suits_led=["sw", "co"]), "order co, cu"),
    ("matto_team_name", BASE, lambda d: d.update(matto_team="C"), "matto_team='C'"),
    ("matto_debt_type", BASE, lambda d: d.update(matto_debt=None), "matto_debt=None"),
    ("points_sources", BASE, lambda d: d["points"].pop("dying"), "points="),
    ("points_negative", BASE, lambda d: d["points"].__setitem__("dying", [-1, 0]),
     "points['dying'][0]=-1"),
    ("D_range", BASE, lambda d: d.update(D=60), "D=60"),
    ("resti_negative", BASE, lambda d: d.update(resti=[-1, 0]), "resti[0]=-1"),
    ("net_type", BASE, lambda d: d.update(net="1"), "net='1'"),
    ("net_total_type", BASE, lambda d: d.update(net_total=None), "net_total=None"),
    ("start_dealer_range", BASE, lambda d: d.update(start_dealer=-1), "start_dealer=-1"),
    ("rng", BASE, lambda d: d.update(rng=[0, 0, 0, 0]), "rng="),
    # mode, deal number, dealers
    ("deal_number_in_deal", BASE, lambda d: d.update(deal_number=2), "deal_number=2"),
    ("match_over_in_deal", END, lambda d: d.update(phase="match_over"), "mode='deal'"),
    ("start_dealer_in_deal", BASE, lambda d: d.update(start_dealer=1), "start_dealer=1"),
    ("cutter", BASE, lambda d: d.update(cutter=1), "cutter=1"),
    # where the cards are
    ("card_in_two_places", BASE, lambda d: d["hands"][1].append(d["hands"][0][0]),
     "in both hands[0] and hands[1]"),
    ("missing_card", BASE, lambda d: d["fola"].pop(), "missing cards"),
    ("played_by_two", BASE, lambda d: d["played"][3].append(d["played"][0][0]),
     "another seat played"),
    ("played_not_in_piles", BASE, lambda d: d["played"][0].pop(), "in no seat's played list"),
    ("discard_not_in_fola", DISC, lambda d: d["fola"].remove("6cu") or d["hands"][0].append(
        "6cu"), "not in the fola"),
    ("discards_by_other", BASE, lambda d: d["discards"][1].append(d["fola"][0]),
     "only the cutter"),
    ("excluded_in_hand", BASE, lambda d: d["excluded"][0].append(d["hands"][0][0]),
     "which is in hands[0]"),
    ("excluded_without_play", DECL, lambda d: d["excluded"][1].append(d["hands"][2][0]),
     "has played no card"),
    ("cutter_robbed_off", BASE, lambda d: None, "cutter_rob=off"),
    ("cutter_robbed_not_eligible", BASE,
     lambda d: d["cutter_robbed"].__setitem__(0, _own_zero(d, 3)), "only counting cards"),
    ("cutter_robbed_not_his", BASE, lambda d: d["cutter_robbed"].append("T40"),
     "not the cutter's"),
    ("seen_bottom_missing", BASE, lambda d: d.update(seen_bottom=None), "seen_bottom=None"),
    ("seen_bottom_eligible", BASE, lambda d: d.update(seen_bottom="T40"), "eligible card"),
    ("seen_bottom_not_in_fola", BASE, lambda d: d.update(seen_bottom=_own_zero(d, 1)),
     "in the fola"),
    ("exposed_none_rule", BASE, lambda d: None, "expose_last_card=none"),
    ("exposed_missing", BASE, lambda d: d["exposed"].__setitem__(1, None), "exposed[1]=None"),
    ("exposed_not_own", BASE, lambda d: d["exposed"].__setitem__(1, d["hands"][2][0]),
     "is not seat 1's"),
    ("exposed_robbed", BASE, lambda d: d["exposed"].__setitem__(3, "T38"), "a robbed card"),
    ("dealer_robbed_off", BASE, lambda d: None, "dealer_rob=off"),
    ("dealer_robbed_not_eligible", BASE,
     lambda d: d["dealer_robbed"].__setitem__(0, _own_zero(d, 0)), "only counting cards"),
    ("dealer_robbed_not_his", BASE, lambda d: d["dealer_robbed"].append("T38"),
     "not the dealer's"),
    ("fola_eligible", BASE, lambda d: _swap(d, ("fola",), _base_fola(d)[0], ("hands", 1),
                                            _eligible_in(d["hands"][1])), "which the dealer robs"),
    ("fola_size", BASE, lambda d: d["dealer_robbed"].remove("T29"), "fola holds"),
    # discards
    ("cutter_discards_too_many", DISC, lambda d: [_discard(d, 3, _own_zero(d, 3, ("hands", 3)))
                                                  for _ in range(3)], "discards[3] holds 4"),
    ("dealer_before_cutter", DISC,
     lambda d: _discard(d, 0, _own_zero(d, 0, ("hands", 0))), "the dealer discards after"),
    ("discard_class", DISC, lambda d: _swap_discard(d, 3, "6cu", "T38"), "a cheaper discard"),
    ("discard_phase_done", BASE, lambda d: d.update(phase="discard"),
     "every discard is made"),
    ("discard_to_move", DISC, lambda d: d.update(to_move=0), "to_move=0"),
    ("to_discard", DISC, lambda d: d.update(to_discard=3), "to_discard=3"),
    ("discards_owed_in_play", DISC, lambda d: d.update(phase="play"), "discards still owed"),
    ("to_discard_outside", BASE, lambda d: d.update(to_discard=1), "to_discard=1"),
    # the flow
    ("over_before_21", BASE, lambda d: d.update(phase="deal_over", to_move=None),
     "tricks_played=5 in phase 'deal_over'"),
    ("play_after_21", END, lambda d: d.update(phase="play", to_move=0), "the deal is over"),
    ("played_before_start", DECL, lambda d: d.update(tricks_played=1, tricks_won=[1, 0]),
     "before play starts"),
    ("leader_before_start", DECL, lambda d: d.update(leader=1), "leader=1"),
    ("hand_size_before_start", DECL, lambda d: move(d, _plain(d, 0), ("hands", 0),
                                                     ("hands", 1)), "hands[0] holds 20"),
    ("leader_none", BASE, lambda d: d.update(leader=None), "leader=None"),
    ("first_leader", lambda: play_position(trick=[[1, "3co"]]),
     lambda d: d.update(leader=2), "the first trick is led by seat 1"),
    ("leader_not_winner", BASE, lambda d: d.update(last_winner=3), "last trick's winner"),
    ("trick_seats", BASE, lambda d: d["trick"].reverse(), "trick seats"),
    ("played_size", BASE, lambda d: move(d, _plain(d, 0, "played"), ("played", 0),
                                         ("played", 2)), "played[0] holds 4"),
    ("hand_size", BASE, lambda d: move(d, _plain(d, 0), ("hands", 0), ("hands", 3)),
     "hands[0] holds 15"),
    ("to_move_play", BASE, lambda d: d.update(to_move=0), "next in the trick"),
    ("last_winner_early", DECL, lambda d: d.update(last_winner=1), "last_winner=1"),
    ("last_winner_team", BASE, lambda d: d.update(tricks_won=[5, 0]), "won no trick"),
    ("declared_done", BASE, lambda d: d["declared_done"].__setitem__(2, False),
     "declared_done="),
    ("declare_turn", DECL, lambda d: d.update(to_move=3), "declared_done="),
    ("fola_open", BASE, lambda d: d.update(fola_open=False), "fola_open=False"),
    ("fola_open_early", DECL, lambda d: d.update(fola_open=True), "fola_open=True"),
    # declarations
    ("declared_early", DECL, lambda d: d["declared"].__setitem__(3, [["T1", "T2", "T3"]]),
     "not declared yet"),
    ("declared_not_his", DECL, lambda d: d["declared"].__setitem__(
        2, [["T1", "T2", "T3"], ["Kco", "Kcu", "Ksw"]]), "is not a combination of seat 2"),
    ("bonus_before_done", DECL, lambda d: d["bonus_claimed"].__setitem__(2, True),
     "claimed with 'done'"),
    ("bonus_without_matto", BASE, lambda d: d["bonus_claimed"].__setitem__(1, True),
     "expected the Matto"),
    # the current trick
    ("trick_not_played", BASE, lambda d: _swap_played(d, "T12", 2, 1), "must be in played[2]"),
    ("trick_illegal", BASE, lambda d: _give_suit(d, 2, "co"), "not a legal play"),
    ("trick_inference", BASE, lambda d: d["excluded"].__setitem__(2, []),
     "excluded[2] lacks"),
    # tricks and piles
    ("tricks_won_sum", BASE, lambda d: d.update(tricks_won=[2, 4]), "expected 5 tricks"),
    ("suits_led_count", DECL, lambda d: d.update(suits_led=["co"]), "suits after 0 tricks"),
    ("suits_led_no_card", lambda: play_position(tricks_played=1, suits_led=["co"]),
     lambda d: _suit_not_in_piles(d), "no card of it"),
    ("matto_team", BASE, lambda d: d.update(matto_team="A"), "matto_team='A'"),
    ("matto_debt_no_matto", BASE, lambda d: d.update(matto_debt=True), "matto_debt=True"),
    ("paid_before_end", BASE, lambda d: d.update(paid_card="2co"), "only at the end"),
    ("given_not_allowed", END, lambda d: d.update(matto_given=True, paid_card=None),
     "only a Matto team without tricks"),
    ("paid_missing", END, lambda d: d.update(paid_card=None), "paid_card=None"),
    ("paid_wrong_pile", END, lambda d: d.update(paid_card=_pile_of(d, mine=True)),
     "the creditor's"),
    ("paid_not_engine_choice", END, lambda d: _other_paid(d), "the engine pays"),
    ("paid_without_debt", END, lambda d: d.update(matto_debt=False), "without a Matto debt"),
    ("pile_size", BASE, lambda d: move(d, d["piles"][0][0], ("piles", 0), ("piles", 1)),
     "piles[0] holds"),
    # points, D, resti, net
    ("points_source", BASE, lambda d: d["points"]["exposed"].__setitem__(0, 99),
     "points['exposed']"),
    ("points_dying", BASE, lambda d: d["points"]["dying"].__setitem__(
        1, d["points"]["dying"][1] + 5), "points['dying']"),
    ("end_points_early", BASE, lambda d: d["points"]["last_trick"].__setitem__(0, 10),
     "points['last_trick']"),
    ("D_invariant", BASE, lambda d: d.update(D=d["D"] + 1 if d["D"] < 59 else 0),
     "the points differ"),
    ("replay_before_play", DECL, lambda d: _shift_resto(d), "the events so far give"),
    ("net_end", END, lambda d: d.update(net=d["net"] + 1), "net="),
    ("net_early", BASE, lambda d: d.update(net=0), "net=0"),
    ("net_total_deal", END, lambda d: d.update(net_total=d["net_total"] + 1), "net_total="),
]


def _own_zero(d, seat, where=None):
    """A zero-value suit card of the seat (hand, else played), not exposed."""
    pool = d[where[0]][where[1]] if where else d["hands"][seat] + d["played"][seat]
    return next(c for c in pool if layout.VALUE[idx(c)] == 0 and c[0] != "T" and c != "M"
                and c not in d["exposed"] and c not in d["fola"])


def _plain(d, seat, key="hands"):
    """A card of the seat's hand (or played cards) that is not shown (exposed or robbed)."""
    shown = set(d["exposed"]) | set(d["cutter_robbed"]) | set(d["dealer_robbed"]) | {"M"}
    return next(c for c in d[key][seat] if c not in shown)


def _eligible_in(cards):
    return next(c for c in cards if _eligible(c))


def _eligible(c):
    return layout.VALUE[idx(c)] > 0 or (c.startswith("T") and int(c[1:]) > 20)


def _base_fola(d):
    disc = {c for x in d["discards"] for c in x}
    return [c for c in d["fola"] if c not in disc and c != d["seen_bottom"]]


def _swap(d, a, ca, b, cb):
    """Swap card ``ca`` of list ``a`` with ``cb`` of list ``b`` (the exposures follow)."""
    move(d, ca, a, b)
    move(d, cb, b, a)
    if cb in d["exposed"]:
        d["exposed"][d["exposed"].index(cb)] = ca
    d["points"]["exposed"] = [sum(int(layout.VALUE[idx(c)]) for s, c in enumerate(d["exposed"])
                                  if s & 1 == t) for t in range(2)]


def _discard(d, seat, c):
    move(d, c, ("hands", seat), ("fola",))
    d["discards"][seat].append(c)
    d["discards"][seat].sort(key=MINCHIATE.index)


def _swap_discard(d, seat, old, new):
    """Replace discard ``old`` by ``new`` (``old`` back into the hand)."""
    d["discards"][seat].remove(old)
    d["discards"][seat].append(new)
    d["discards"][seat].sort(key=MINCHIATE.index)
    move(d, old, ("fola",), ("hands", seat))
    move(d, new, ("hands", seat), ("fola",))


def _swap_played(d, c, seat, other):
    """The trick card ``c`` of ``seat`` listed as played by ``other`` (who gives one of his
    played cards in exchange)."""
    x = _plain(d, other, "played")
    move(d, c, ("played", seat), ("played", other))
    move(d, x, ("played", other), ("played", seat))


def _give_suit(d, seat, suit):
    """Give ``seat`` a card of ``suit`` from the Fola's own part or another hand (for one of
    its plain cards), and drop the suit from its exclusions."""
    for src in [("fola",)] + [("hands", s) for s in range(4) if s != seat]:
        lst = d[src[0]] if len(src) == 1 else d[src[0]][src[1]]
        pool = _base_fola(d) if src == ("fola",) else [c for c in lst if c != _exp(d, src[1])]
        c = next((c for c in pool if c.endswith(suit) and not c.startswith("T")), None)
        if c is None:
            continue
        mine = next(x for x in d["hands"][seat] if x != d["exposed"][seat]
                    and not (src == ("fola",) and _eligible(x))
                    and (src == ("fola",) or x not in d["excluded"][src[1]]))
        move(d, c, src, ("hands", seat))
        move(d, mine, ("hands", seat), src)
        d["excluded"][seat] = [x for x in d["excluded"][seat] if not x.endswith(suit)
                               or x.startswith("T")]
        return
    raise AssertionError(f"no {suit} card to give")


def _exp(d, seat):
    return d["exposed"][seat]


def _suit_not_in_piles(d):
    piled = {c for p in d["piles"] for c in p}
    free = next(s for s in ("cu", "sw", "ba") if not any(c.endswith(s) and c[0] != "T"
                                                          for c in piled))
    d["suits_led"] = [free]


def _shift_resto(d):
    """The same T - D with one resto more on each side of the equation."""
    if d["D"] > 0:
        d.update(D=d["D"] - 60, resti=[1, 0])
    else:
        d.update(D=d["D"] + 60, resti=[0, 1])


def _pile_of(d, mine):
    mt = "AB".index(d["matto_team"])
    pile = d["piles"][mt if mine else 1 - mt]
    return next(c for c in pile if c != "M")


def _other_paid(d):
    """Swap the paid card for another zero-value card of the debtor's pile."""
    mt = "AB".index(d["matto_team"])
    paid = d["paid_card"]
    other = next(c for c in d["piles"][mt] if layout.VALUE[idx(c)] == 0 and c != "T29"
                 and idx(c) > idx(paid))
    d["piles"][mt].remove(other)
    d["piles"][mt].append(paid)
    d["piles"][1 - mt].remove(paid)
    d["piles"][1 - mt].append(other)
    for p in d["piles"]:
        p.sort(key=MINCHIATE.index)
    d["paid_card"] = other


RULES_FOR = {"cutter_robbed_off": {"cutter_rob": "off"},
             "exposed_none_rule": {"expose_last_card": "none"},
             "dealer_robbed_off": {"dealer_rob": "off"}}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_from_dict_rejects(case):
    name, base, change, fragment = case
    d = base()
    assert game().from_dict(copy.deepcopy(d)).to_dict() == d      # the base is valid
    change(d)
    options = RULES_FOR.get(name, {})
    d["rules"] = {**d["rules"], **options}
    bad(d, fragment, g=game(**options))


def GIVEN():
    """END rearranged so that the Matto's team won no trick: the Matto is given away
    (MI-MATTO-3); the points, D, resti and net recomputed as the end event does."""
    d = END()
    mt = "AB".index(d["matto_team"])
    ot = 1 - mt
    every = d["piles"][0] + d["piles"][1]
    d["piles"][ot] = sorted(every, key=MINCHIATE.index)
    d["piles"][mt] = []
    d["tricks_won"] = [0, 0]
    d["tricks_won"][ot] = 21
    d["leader"] = d["last_winner"] = ot
    d.update(matto_given=True, paid_card=None, matto_debt=True)
    pts = d["points"]
    by_mt = set(d["played"][mt]) | set(d["played"][mt + 2])
    pts["dying"] = [0, 0]
    pts["dying"][ot] = sum(int(layout.VALUE[idx(c)]) for c in by_mt if c != "M")
    for key in ("pile", "beyond_42", "pile_combinations", "last_trick"):
        pts[key] = [0, 0]
    mask = sum(1 << idx(c) for c in every)
    pts["pile"][ot], pts["beyond_42"][ot], pts["pile_combinations"][ot] = \
        validation_scoring.pile_points(mask, game().rules)
    pts["last_trick"][ot] = 10
    total = sum(a - b for a, b in pts.values())
    resti = [0, 0]
    D = validation_scoring.convert(total, resti, 60)
    r = validation_scoring.final_rounding(D, 60)
    resti[0 if r > 0 else 1] += abs(r)
    d.update(D=D, resti=resti, net=resti[0] - resti[1], net_total=resti[0] - resti[1])
    return d


def test_matto_given_away():
    g = game()
    d = GIVEN()
    assert rebuild(g, d).to_dict() == d
    bad(mutate(d, matto_given=False), "matto_given=False", g=g)
    bad(mutate(d, paid_card="2co"), "expected None when the Matto itself is given", g=g)
    mt = "AB".index(d["matto_team"])
    e = copy.deepcopy(d)
    move(e, "M", ("piles", 1 - mt), ("piles", mt))
    bad(e, "the Matto must be in", g=g)


def test_matto_in_the_other_pile():
    d = play_position(tricks=[[[2, "M"], [3, "4sw"], [0, "5sw"], [1, "Fsw"]]])
    assert d["matto_debt"] and "M" in d["piles"][0]
    assert rebuild(game(), d).to_dict() == d
    move(d, "M", ("piles", 0), ("piles", 1))
    d["matto_debt"] = False
    bad(d, "piles[1] holds the Matto of team A")


def test_bad_card_name_is_a_card_error():
    d = BASE()
    d["hands"][0][0] = "T41"
    bad(d, "hands[0]", "T41", error=CardError)
    with pytest.raises(PositionError):
        game().from_dict(d)


def test_cutter_robbed_beyond_the_cap():
    hand = [f"T{n}" for n in range(21, 35)] + ["2co", "3co", "4co", "5co", "6co", "7co", "8co"]
    d = discard_position({3: hand}, tricks_played=0)
    d["cutter_robbed"] = [f"T{n}" for n in range(21, 35)]
    bad(d, "at most 13")


def test_robbed_cards_beyond_the_fola():
    d = DISC()
    d["dealer_robbed"] = d["dealer_robbed"] + [c for c in d["hands"][0] if _eligible(c)
                                               and c not in d["dealer_robbed"]][:9]
    bad(d, "undealt cards")


def test_match_errors():
    g = game(deals=3)
    s = random_state(0, "play", match=True, deals=3)
    d = s.to_dict()
    assert rebuild(g, d).to_dict() == d
    bad(mutate(d, phase="deal_over", to_move=None), "mode='match'", g=g)
    bad(mutate(d, dealer=(d["dealer"] + 1) % 4, cutter=d["dealer"]), "start_dealer", g=g)
    bad(mutate(d, net_total=3), "net_total=3", g=g)
    bad(mutate(d, deal_number=4), "deal_number=4", g=g)


def test_match_over_too_early():
    g = game(deals=3)
    s = g.new_match(1)
    rnd = random.Random(0)
    while s.to_dict()["deal_number"] == 1:
        s.apply_action(g.definition.choose_random(s.legal_actions(), (1.0,), rnd))
    d = s.to_dict()
    bad(mutate(d, phase="match_over", to_move=None), "a match ends after deal 3", g=g)


def test_declaration_mode_all_errors():
    g = game(declaration_mode="all")
    d = play_position({1: "T1 T2 T3"}, rules=g.rules, tricks_played=2)
    assert rebuild(g, d).to_dict() == d
    bad(mutate(d, phase="declare"), "declaration_mode=all", g=g)
    e = copy.deepcopy(d)
    e["declared"][1] = []
    e["points"]["declarations"][1] -= 11
    bad(e, "every combination", g=g)
    d2 = play_position({1: "T1 T2 T3 M"}, rules=g.rules, tricks_played=2)
    assert d2["bonus_claimed"][1]
    e = copy.deepcopy(d2)
    e["bonus_claimed"][1] = False
    e["points"]["declarations"][1] -= 5
    bad(e, "whenever it can be", g=g)


def test_after_own_first_card_errors():
    g = game(declaration_timing="after_own_first_card")
    d = declare_position(rules=g.rules, trick=[[1, "T5"]])
    assert rebuild(g, d).to_dict() == d
    bad(mutate(d, to_move=2), "declares after his first card", g=g)
    e = copy.deepcopy(d)
    move(e, "T5", ("played", 1), ("hands", 1))
    e["trick"] = []
    bad(e, "the declarer's first card", g=g)


def test_resti_never_fall_below_the_replay():
    """The dealer (seat 1, B) robs 12 five-point cards: B makes a resto before play; then A
    takes 69 dying points and makes one: resti [1, 1]. [0, 0] keeps T - D but would undo the
    resto made before play."""
    g = game()
    robbed = "Kco Kcu Ksw Kba T30 T31 T32 T33 T34 T35 T1 T10"
    tricks = [
        [[2, "T36"], [3, "T20"], [0, "2co"], [1, "T30"]],
        [[2, "T37"], [3, "T28"], [0, "3co"], [1, "T31"]],
        [[2, "T38"], [3, "T5"], [0, "4co"], [1, "T32"]],
        [[2, "T39"], [3, "T4"], [0, "5co"], [1, "T33"]],
        [[2, "T40"], [3, "T3"], [0, "6co"], [1, "T34"]],
        [[2, "Aba"], [3, "7sw"], [0, "2ba"], [1, "Kco"]],
        [[0, "3ba"], [1, "Kcu"], [2, "4ba"], [3, "8sw"]],
        [[2, "5ba"], [3, "9sw"], [0, "6ba"], [1, "Ksw"]],
        [[0, "8ba"], [1, "T1"], [2, "T21"], [3, "10sw"]],
        [[2, "T22"], [3, "10ba"], [0, "9ba"], [1, "T10"]],
        [[2, "T23"], [3, "Csw"], [0, "Fba"], [1, "2sw"]],
    ]
    d = play_position({0: "Qco", 1: "Qba", 2: "Qcu", 3: "Qsw"}, dealer=1,
                      dealer_robbed=robbed, exposed=["Qco", "Qba", "Qcu", "Qsw"],
                      tricks=tricks)
    assert d["points"]["dealer_rob"] == [0, 60] and d["points"]["dying"] == [69, 0]
    assert (d["D"], d["resti"]) == (9, [1, 1])
    assert rebuild(g, d).to_dict() == d
    bad(mutate(d, resti=[0, 0]), "resti never decrease", g=g)


# --- actions ----------------------------------------------------------------------------------

@pytest.mark.parametrize("action", [-1, "play", 3.0, True, aid(PLAY, 97), aid(DECLARE, 82),
                                    aid(DONE, 2), aid(SEEN, 1), aid(5, 0)])
def test_bad_action_ids(action):
    with pytest.raises(IllegalActionError):
        notation.action_parts(action)


@pytest.mark.parametrize("d", [{"play": "T41"}, {"play": 3}, {"discard": ["6cu"]},
                               {"declare": ["T1", "T2"]}, {"declare": ["T1", "T1", "T2"]},
                               {"declare": "T1+T2+T3"}, {"done": False}, {"done": True,
                                                                          "bonus": 1},
                               {"play": "T1", "discard": "T2"}, {}, ["play", "T1"],
                               {"discard": None}])
def test_malformed_action_dicts(d):
    s = game().new_deal(0)
    with pytest.raises(IllegalActionError):
        s.action_from_dict(d)


def test_illegal_action_lists_the_legal_ones():
    s = rebuild(game(), DECL())
    with pytest.raises(IllegalActionError) as e:
        s.action_from_dict({"play": "T1"})
    assert "illegal action play T1" in str(e.value) and "done" in str(e.value)
    assert s.action_from_dict({"done": True, "bonus": True}) == aid(DONE, 1)


def test_action_from_string_errors():
    for text in ("pass", "play", "declare", "done now", 7):
        with pytest.raises(IllegalActionError):
            notation.action_from_string(text)

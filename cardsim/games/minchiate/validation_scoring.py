"""Minchiate positions checked (:mod:`.validation`): the points. What the piles, the
combinations in them and the last trick score at the end (MI-END-*), and the points, D and
resti the position's events must have given (MI-SCORE-*, MI-RESTO-*), each rule asked of the
reference engine (:mod:`.reference_scoring`); with the small helpers the other checks share.
"""
from __future__ import annotations

from typing import Any

from ...cards import bits_of
from ...protocol.positions import position_error
from . import layout as L
from . import reference_scoring
from .layout import DECK
from .reference_scoring import LAST_TRICK_POINTS, capot, combos_points, convert, final_rounding, payment_card

N = L.N_PLAYERS
TEAM_NAMES = ("A", "B")
SUIT_SHORTS = ("co", "cu", "sw", "ba")
M_BIT = 1 << L.MATTO
SUIT_BITS = tuple(DECK.from_words(L.SUIT_MASK[s]) for s in range(5))
"""SUIT_BITS[s]: the cards of suit s (4 = the trumps; the Matto is in none)."""
VALUES = tuple(reference_scoring.value(c) for c in range(L.N_CARDS))
"""Each card's value (rules §1.3, :func:`.reference_scoring.value`)."""


def err(msg: str):
    return position_error("minchiate", msg)


def names(mask: int) -> list[str]:
    """Card names of a mask, in index order."""
    return DECK.names(mask)


def popcount(mask: int) -> int:
    """Number of set bits."""
    return mask.bit_count()


def value(mask: int) -> int:
    """The values of a set of cards (rules §1.3)."""
    return sum(VALUES[c] for c in bits_of(mask))


def pile_points(pile: int, rules: Any) -> tuple[int, int, int]:
    """MI-END-1..3 of a final pile given as a mask (:func:`.reference_scoring.pile_points`)."""
    return reference_scoring.pile_points(set(bits_of(pile)), rules)


def team_of(seat: int) -> int:
    """Team A = 0 (seats 0, 2), B = 1 (seats 1, 3)."""
    return seat & 1


def declaring_order(dealer: int) -> list[int]:
    """MI-DECL-1: the seats from the dealer's right, the dealer last (also trick 1's order)."""
    return [(dealer + 1 + j) % N for j in range(N)]


def check_piles(p: dict, rules: Any) -> None:
    """Tricks won, pile sizes, the Matto's team, debt and settlement, suits led."""
    t, won, piles = p["tricks_played"], p["tricks_won"], p["piles"]
    if sum(won) != t:
        raise err(f"tricks_won={won}: expected {t} tricks in all (tricks_played={t})")
    suits_led = p["suits_led"]
    if popcount(suits_led) > t:
        raise err(f"suits_led lists {popcount(suits_led)} suits after {t} tricks: each trick "
                  "is led in at most one suit")
    for s in range(4):
        if suits_led >> s & 1 and not (piles[0] | piles[1]) & SUIT_BITS[s]:
            raise err(f"suits_led lists {SUIT_SHORTS[s]!r} but no card of it is in the piles")
    holder = next((s for s in range(N) if p["played"][s] & M_BIT), None)
    mt = None if holder is None else team_of(holder)
    if p["matto_team"] != mt:
        raise err(f"matto_team={_team(p['matto_team'])}: expected {_team(mt)}, "
                  + ("the team of the seat that played the Matto" if mt is not None else
                      "the Matto was not played"))
    debt, paid, given = p["matto_debt"], p["paid_card"], p["matto_given"]
    in_pile = bool((piles[0] | piles[1]) & M_BIT)
    if debt and not in_pile:
        raise err("matto_debt=True: the Matto is not in a pile (no completed trick of it)")
    settled = list(piles)
    if not p["over"]:
        if paid is not None or given:
            raise err("paid_card, matto_given: the Matto is settled only at the end")
    elif mt is not None and won[mt] == 0:
        if not given:
            raise err(f"matto_given=False: team {TEAM_NAMES[mt]} won no trick, so it gives "
                      "the Matto away (MI-MATTO-3)")
        if paid is not None:
            raise err("paid_card: expected None when the Matto itself is given (MI-MATTO-3)")
        if not piles[1 - mt] & M_BIT:
            raise err(f"matto_given=True: the Matto must be in piles[{1 - mt}]")
        settled = [0, 0]
        settled[mt] = M_BIT
        settled[1 - mt] = piles[1 - mt] & ~M_BIT
    elif given:
        raise err("matto_given=True: only a Matto team without tricks gives the Matto")
    elif debt:
        if paid is None:
            raise err("paid_card=None: the Matto's team owes a card, paid at the end "
                      "(MI-MATTO-2)")
        if not piles[1 - mt] >> paid & 1:
            raise err(f"paid_card={DECK.name(paid)!r} must be in piles[{1 - mt}], the "
                      "creditor's")
        before = piles[mt] | 1 << paid
        want = payment_card(set(bits_of(before)))
        if paid != want:
            raise err(f"paid_card={DECK.name(paid)!r}: the engine pays "
                      f"{DECK.name(want)!r} (lowest zero-value card but T29, MI-MATTO-2)")
        settled = [0, 0]
        settled[mt] = before
        settled[1 - mt] = piles[1 - mt] & ~(1 << paid)
    elif paid is not None:
        raise err(f"paid_card={DECK.name(paid)!r}: expected None without a Matto debt")
    p["unsettled"] = settled          # the piles before the end's settlement
    for team in range(2):
        if mt is not None and team != mt and settled[team] & M_BIT:
            raise err(f"piles[{team}] holds the Matto of team {TEAM_NAMES[mt]}: it stays "
                      "with its team (MI-MATTO-1)")
        extra = 0
        if debt:
            extra = 1 if team == mt else -1
        size = 4 * won[team] + extra
        if popcount(settled[team]) != size:
            raise err(f"piles[{team}] holds {popcount(piles[team])} cards: expected "
                      f"{_final_size(p, team, size)} after {won[team]} tricks won"
                      + (" and the Matto's debt" if debt else ""))


def _final_size(p: dict, team: int, size: int) -> int:
    if not p["over"] or p["matto_team"] is None:
        return size
    if p["matto_given"]:
        return 84 if team != p["matto_team"] else 0
    if p["matto_debt"]:
        return size + (-1 if team == p["matto_team"] else 1)
    return size


def _team(t: int | None) -> str:
    return "None" if t is None else repr(TEAM_NAMES[t])


def expected_points(p: dict, rules: Any) -> list[list[int]]:
    """[source][team]: what each source must hold from the cards of a parsed position."""
    pts = [[0, 0] for _ in L.SOURCES]
    dealer, cutter = p["dealer"], p["cutter"]
    pts[L.SRC_CUTTER_ROB][team_of(cutter)] = value(p["cutter_robbed"])
    for s in range(N):
        if p["exposed"][s] is not None:
            pts[L.SRC_EXPOSED][team_of(s)] += reference_scoring.value(p["exposed"][s])
    pts[L.SRC_DEALER_ROB][team_of(dealer)] = value(p["dealer_robbed"])
    for s in range(N):
        if p["declared_done"][s]:
            pts[L.SRC_DECLARED][team_of(s)] += combos_points(p["declared"][s], p["bonus_claimed"][s],
                                                           rules.matto_bonus_on_matto_combo)
    for team in range(2):
        others = p["played"][1 - team] | p["played"][3 - team]
        pts[L.SRC_DYING][team] = value(p["unsettled"][team] & others & ~M_BIT)
    if p["over"]:
        for team in range(2):
            pile, beyond, combos = pile_points(p["piles"][team], rules)
            pts[L.SRC_PILE][team] = pile
            pts[L.SRC_BEYOND_42][team] = beyond
            pts[L.SRC_PILE_COMBOS][team] = combos
        pts[L.SRC_LAST_TRICK][team_of(p["last_winner"])] = LAST_TRICK_POINTS
    return pts


def replay_before_play(p: dict, rules: Any) -> tuple[int, list[int]]:
    """(D, resti) after the events before the first trick's end (MI-SCORE-1): the cutter's
    robbing, the exposures, the dealer's robbing, each declarer in turn."""
    resto = rules.resto_points
    pts = expected_points(p, rules)
    d, resti = 0, [0, 0]
    events = [pts[L.SRC_CUTTER_ROB]]
    if rules.expose_last_card == "all_players":
        events.append(pts[L.SRC_EXPOSED])
    if rules.dealer_rob == "auto_all":
        events.append(pts[L.SRC_DEALER_ROB])
    for s in declaring_order(p["dealer"]):
        if p["declared_done"][s]:
            v = combos_points(p["declared"][s], p["bonus_claimed"][s],
                              rules.matto_bonus_on_matto_combo)
            events.append([v, 0] if team_of(s) == 0 else [0, v])
    for a, b in events:
        d = convert(d + a - b, resti, resto)
    return d, resti


def check_points(p: dict, rules: Any) -> None:
    """Each source from the cards; D and the resti (MI-RESTO-*); net and net_total."""
    want = expected_points(p, rules)
    for i, src in enumerate(L.SOURCES):
        if p["points"][i] != want[i]:
            raise err(f"points[{src!r}]={p['points'][i]}: expected {want[i]} from the cards")
    resto, d, resti = rules.resto_points, p["D"], p["resti"]
    total = sum(a - b for a, b in p["points"])
    rounding = final_rounding(d, resto) if p["over"] else 0
    if total - d != resto * (resti[0] - resti[1] - rounding):
        raise err(f"D={d}, resti={resti}: the points differ by {total} (A - B), which must "
                  f"equal D + {resto} x (resti A - resti B"
                  + (f" - {rounding} of the final rounding" if p["over"] else "") + ")")
    early_d, early_resti = replay_before_play(p, rules)
    if p["tricks_played"] == 0 and (d, resti) != (early_d, early_resti):
        raise err(f"D={d}, resti={resti}: the events so far give D={early_d}, "
                  f"resti={early_resti} (MI-SCORE-1, MI-RESTO-2)")
    if resti[0] < early_resti[0] or resti[1] < early_resti[1]:
        raise err(f"resti={resti}: the events before play already made {early_resti}, and "
                  "resti never decrease")
    if p["over"]:
        net = capot(resti[0] - resti[1], p["tricks_won"], rules)
        if p["net"] != net:
            raise err(f"net={p['net']}: expected {net} (resti A - resti B"
                      + (", capot=it_rules" if rules.capot == "it_rules" else "") + ")")
    elif p["net"] is not None:
        raise err(f"net={p['net']}: expected None before the deal's end")
    if p["mode"] == L.MODE_DEAL:
        want_total = p["net"] if p["over"] else 0
        if p["net_total"] != want_total:
            raise err(f"net_total={p['net_total']}: expected {want_total} in a single deal")
    elif p["deal_number"] == 1 and not p["over"] and p["net_total"] != 0:
        raise err(f"net_total={p['net_total']}: expected 0 during a match's first deal")

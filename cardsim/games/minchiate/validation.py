"""The checks that a Minchiate position dict is possible (:func:`.notation.from_dict` parses
the dict, :func:`check` validates it, then the codec builds the state vector).

The checks, each failure a one-line :class:`~cardsim.errors.PositionError` naming
the key (a bad card name also a :class:`~cardsim.errors.CardError`):

- types and ranges of every key; ``cutter`` = dealer + 3; the mode, deal number, start dealer
  and phase agree (``deal_over`` only in a deal, ``match_over`` only after deal ``deals``);
- each of the 97 cards exactly once in hands, Fola, piles and the trick; discards within the
  Fola; the trick's cards within ``played``, the piles' cards with the trick's = all played;
- the robbing (MI-CUT-1, MI-ROB-1): robbed cards eligible and the robber's (in his hand, his
  played cards or his discards), at most 13; ``seen_bottom`` present exactly when the cutter
  robbed fewer than 13 (``cutter_rob=auto``), a non-eligible card of the Fola; the Fola's
  undiscarded cards hold no eligible card after ``dealer_rob=auto_all``; the Fola holds
  13 − (robbed cards) + (discards) cards; one exposed card per seat exactly when
  ``expose_last_card=all_players``, held, played or discarded by its seat;
- the discards (MI-DISC-1..3): only the cutter (as many as he robbed) then the dealer (as many
  as he robbed) discard; a card above the cheapest discard class (T29, counting cards, or a
  zero-value trump with ``discard_trumps=false``) only when the seat's cards since then (hand
  and played) hold no cheaper class; ``to_discard`` is what the mover still owes;
- the phase fits the counts: hand sizes (21 + still to discard in phase discard, else
  21 − cards played), cards played per seat (tricks played, plus one in the current trick),
  declarations in turn (seats ``d+1, d+2, d+3, d`` before the first lead; after the own first
  card in trick 1 with ``after_own_first_card``), ``to_move``, ``leader`` (``d+1`` in trick 1,
  else the last trick's winner), ``fola_open`` (from the start of play, only with
  ``fola_visibility=open``);
- declarations (MI-DECL-*): each a combination of the seat's cards (hand + played: his 21
  cards after the discards), ascending, only by seats that declared or are declaring; with
  ``declaration_mode=all`` all of them and the bonus whenever it can be claimed; a bonus needs
  the Matto and a declared combination it applies to;
- the current trick: each card legal when it was played (its seat's hand then = hand now + that
  card, MI-PLAY-2..4, MI-KING-1) and its public inferences in ``excluded``; ``excluded`` never
  lists a card of the seat's hand, and only for a seat that played;
- tricks and piles (MI-MATTO-*): ``tricks_won`` add up to ``tricks_played``; ``last_winner``
  (None before the first trick) is of a team with a trick; each pile holds 4 × its tricks, the
  Matto's ±1 while a debt is open (``matto_debt``: the Matto lies in its team's pile after a
  trick the other team won); ``matto_team`` is the team of the seat that played the Matto; at
  the end the settlement: the Matto given (``matto_given``) when its team won nothing, else
  ``paid_card`` = the engine's choice (MI-MATTO-2) moved to the creditor; ``suits_led`` at
  most one plain suit per trick, each with a card in the piles;
- the points: every source follows from the cards (robbed, exposed, declared with the bonus,
  dying cards = counting cards a team took from the other team's players, the end sources from
  the final piles, zero before the end); the resti (MI-RESTO-*): −60 < D < 60, and with
  T = Σ points A − Σ points B, ``T − D = 60 × (resti A − resti B − R)`` where R is the final
  rounding (⌈D/60⌉ for D > 0, −⌈−D/60⌉ for D < 0, only once the deal is over, else 0) — the
  order of the events within play is not in the dict, so this is all the totals tell; before
  the first trick is complete every event is known (cutter, exposures, dealer, each declarer in
  turn) and D and the resti are replayed exactly; the resti never fall below that replay;
  ``net`` = resti A − resti B (with ``capot=it_rules`` the capot rule) once over, else None;
  ``net_total`` = ``net`` once over in a deal, 0 before (and in a match's first deal).

Every rule a check needs (the
combinations and their points, the discard classes, the legal plays and their inferences, the
Matto's payment, the resto conversion, the capot) is the reference engine's
(:mod:`.reference`, :mod:`.reference_scoring`) applied to the parsed position, whose card sets
are Python ints (bit = card index).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...cards import MINCHIATE, bits_of, mask_of
from ...positions import position_error
from . import layout as L
from . import reference_scoring
from .reference import discard_classes, inferences, playable
from .reference_scoring import (
    LAST_TRICK_POINTS,
    bonus_applies,
    capot,
    combos_of,
    combos_points,
    convert,
    final_rounding,
    payment_card,
)

N = L.N_PLAYERS
TEAM_NAMES = ("A", "B")
SUIT_SHORTS = ("co", "cu", "sw", "ba")
ALL = (1 << L.N_CARDS) - 1
M_BIT = 1 << L.MATTO
SUIT_BITS = tuple(MINCHIATE.from_words(L.SUIT_MASK[s]) for s in range(5))
"""SUIT_BITS[s]: the cards of suit s (4 = the trumps; the Matto is in none)."""
ELIGIBLE_BITS = MINCHIATE.from_words(L.ROB_ELIGIBLE)
COMBO_BITS = tuple(mask_of(cards) for cards in L.COMBO_CARDS)

__all__ = ["check", "convert", "declaring_order", "expected_points", "final_rounding",
           "pile_points", "replay_before_play", "shown_of", "team_of"]


def _err(msg: str):
    return position_error("minchiate", msg)


def names(mask: int) -> list[str]:
    """Card names of a mask, in index order."""
    return MINCHIATE.names(mask)


def popcount(mask: int) -> int:
    """Number of set bits."""
    return mask.bit_count()


VALUES = tuple(reference_scoring.value(c) for c in range(L.N_CARDS))
"""Each card's value (rules §1.3, :func:`.reference_scoring.value`)."""
DISCARD_CLASS = {trumps: tuple(next(i for i, k in enumerate(discard_classes({c}, trumps)) if k)
                               for c in range(L.N_CARDS)) for trumps in (False, True)}
"""DISCARD_CLASS[discard_trumps][card]: its class of :func:`.reference.discard_classes`."""


def value(mask: int) -> int:
    """The values of a set of cards (rules §1.3)."""
    return sum(VALUES[c] for c in bits_of(mask))


@lru_cache(maxsize=4096)
def _combos(held: int, two_triples: bool) -> list[int]:
    """MI-COMB-1/2 of a mask (:func:`.reference_scoring.combos_of`; a seat's hand and played
    cards stay the same through a deal's play, hence the cache)."""
    return combos_of(set(bits_of(held)), two_triples)


def pile_points(pile: int, rules: Any) -> tuple[int, int, int]:
    """MI-END-1..3 of a final pile given as a mask (:func:`.reference_scoring.pile_points`)."""
    return reference_scoring.pile_points(set(bits_of(pile)), rules)


def check(p: dict, rules: Any) -> None:
    """Every check of a parsed position, in order (the first failure raises)."""
    _check_header_values(p, rules)
    _check_cards(p, rules)
    _check_discards(p, rules)
    _check_flow(p, rules)
    _check_declarations(p, rules)
    _check_trick(p, rules)
    _check_piles(p, rules)
    _check_points(p, rules)


def team_of(seat: int) -> int:
    """Team A = 0 (seats 0, 2), B = 1 (seats 1, 3)."""
    return seat & 1


def declaring_order(dealer: int) -> list[int]:
    """MI-DECL-1: the seats from the dealer's right, the dealer last (also trick 1's order)."""
    return [(dealer + 1 + j) % N for j in range(N)]


def _show(mask: int) -> str:
    return "[" + ", ".join(names(mask)) + "]"


def shown_of(p: dict, seat: int) -> int:
    """The cards the seat showed this deal: robbed, exposed, declared, the claimed Matto."""
    out = 0
    if seat == p["cutter"]:
        out |= p["cutter_robbed"]
    if seat == p["dealer"]:
        out |= p["dealer_robbed"]
    if p["exposed"][seat] is not None:
        out |= 1 << p["exposed"][seat]
    for c in p["declared"][seat]:
        out |= COMBO_BITS[c]
    if p["bonus_claimed"][seat]:
        out |= M_BIT
    return out


def _check_header_values(p: dict, rules: Any) -> None:
    """Mode, deal number, dealers and the phase."""
    phase, mode = p["phase"], p["mode"]
    if mode == L.MODE_DEAL:
        if p["deal_number"] != 1:
            raise _err(f"deal_number={p['deal_number']}: expected 1 in mode 'deal'")
        if phase == L.PHASE_MATCH_OVER:
            raise _err("phase='match_over' with mode='deal': a single deal ends in 'deal_over'")
        if p["start_dealer"] != p["dealer"]:
            raise _err(f"start_dealer={p['start_dealer']}: expected the dealer {p['dealer']} "
                       "in mode 'deal'")
    else:
        if phase == L.PHASE_DEAL_OVER:
            raise _err("phase='deal_over' with mode='match': a match deals again after a deal, "
                       "or ends in 'match_over'")
        if phase == L.PHASE_MATCH_OVER and p["deal_number"] != rules.deals:
            raise _err(f"phase='match_over' at deal_number={p['deal_number']}: a match ends "
                       f"after deal {rules.deals} (deals={rules.deals})")
        want = (p["start_dealer"] + p["deal_number"] - 1) % N
        if p["dealer"] != want:
            raise _err(f"dealer={p['dealer']}: expected {want}, the deal passing to the right "
                       f"from start_dealer={p['start_dealer']} (deal {p['deal_number']})")
    cutter = (p["dealer"] + 3) % N
    if p["cutter"] != cutter:
        raise _err(f"cutter={p['cutter']}: expected {cutter}, the dealer's left (MI-CUT-1)")


def _check_cards(p: dict, rules: Any) -> None:
    """Each card once in hands, Fola, piles and trick; where the robbed, exposed, discarded and
    played cards are."""
    zones = [(f"hands[{s}]", p["hands"][s]) for s in range(N)]
    zones += [("fola", p["fola"]), ("piles[0]", p["piles"][0]), ("piles[1]", p["piles"][1]),
              ("trick", mask_of(c for _, c in p["trick"]))]
    seen = 0
    where: dict[int, str] = {}
    for zone, mask in zones:
        clash = seen & mask
        if clash:
            c = (clash & -clash).bit_length() - 1
            raise _err(f"card {MINCHIATE.name(c)!r} is in both {where[c]} and {zone}: each card "
                       "exists once")
        for c in bits_of(mask):
            where[c] = zone
        seen |= mask
    if seen != ALL:
        raise _err(f"missing cards {', '.join(names(ALL & ~seen))}: all 97 cards must be in "
                   "the hands, the fola, the piles or the trick")
    p["where"] = where
    dealer, cutter = p["dealer"], p["cutter"]
    own = [p["hands"][s] | p["played"][s] | p["discards"][s] for s in range(N)]
    p["own"] = own
    # played cards: in the piles or the current trick
    played_all = 0
    for s in range(N):
        if played_all & p["played"][s]:
            c = bits_of(played_all & p["played"][s])[0]
            raise _err(f"played[{s}] lists {MINCHIATE.name(c)!r}, which another seat played")
        played_all |= p["played"][s]
    in_play = p["piles"][0] | p["piles"][1] | mask_of(c for _, c in p["trick"])
    if played_all != in_play:
        diff = played_all ^ in_play
        c = bits_of(diff)[0]
        raise _err(f"played: {MINCHIATE.name(c)!r} is " + (
            f"played but in {where[c]}" if played_all >> c & 1 else
            f"in {where[c]} but in no seat's played list") + ": the piles and the trick hold "
            "exactly the played cards")
    for s in range(N):
        if p["hands"][s] & p["played"][s]:
            raise _err(f"played[{s}] and hands[{s}] share {_show(p['hands'][s] & p['played'][s])}")
        if p["discards"][s] & ~p["fola"]:
            raise _err(f"discards[{s}] lists {_show(p['discards'][s] & ~p['fola'])}, not in the "
                       "fola: discards go to the fola (MI-DISC-1)")
        if p["discards"][s] and s not in (cutter, dealer):
            raise _err(f"discards[{s}]: only the cutter ({cutter}) and the dealer ({dealer}) "
                       "discard (MI-DISC-1)")
        if p["excluded"][s] & p["hands"][s]:
            raise _err(f"excluded[{s}] lists {_show(p['excluded'][s] & p['hands'][s])}, which "
                       f"is in hands[{s}]")
        if p["excluded"][s] and not p["played"][s]:
            raise _err(f"excluded[{s}]: expected [] for a seat that has played no card (the "
                       "inferences come from plays)")
    # the cutter's robbing
    k = popcount(p["cutter_robbed"])
    p["k"] = k
    if rules.cutter_rob == "off" and k:
        raise _err("cutter_robbed: expected [] with cutter_rob=off")
    if p["cutter_robbed"] & ~ELIGIBLE_BITS:
        raise _err(f"cutter_robbed lists {_show(p['cutter_robbed'] & ~ELIGIBLE_BITS)}: only "
                   "counting cards and trumps above 20 are robbed (MI-CUT-1)")
    if k > rules.rob_cap:
        raise _err(f"cutter_robbed holds {k} cards: at most {rules.rob_cap} (MI-CUT-1)")
    if p["cutter_robbed"] & ~own[cutter]:
        raise _err(f"cutter_robbed lists {_show(p['cutter_robbed'] & ~own[cutter])}, not the "
                   f"cutter's: robbed cards are in hands[{cutter}], played[{cutter}] or "
                   f"discards[{cutter}]")
    sb = p["seen_bottom"]
    if rules.cutter_rob == "auto" and k < rules.rob_cap:
        if sb is None:
            raise _err(f"seen_bottom=None: the cutter robbed {k} < {rules.rob_cap} cards, so a "
                       "non-eligible bottom card stopped him (MI-CUT-1)")
        if ELIGIBLE_BITS >> sb & 1:
            raise _err(f"seen_bottom={MINCHIATE.name(sb)!r}: an eligible card would have been "
                       "robbed (MI-CUT-1)")
        if not p["fola"] >> sb & 1 or any(p["discards"][s] >> sb & 1 for s in range(N)):
            raise _err(f"seen_bottom={MINCHIATE.name(sb)!r} is in {where[sb]}: it stays at the "
                       "bottom of the pack, in the fola (not a discard)")
    elif sb is not None:
        raise _err(f"seen_bottom={MINCHIATE.name(sb)!r}: expected None "
                   + ("with cutter_rob=off" if rules.cutter_rob == "off"
                      else f"after {rules.rob_cap} robbed cards"))
    # the exposures
    exposed = p["exposed"]
    if rules.expose_last_card == "none":
        if any(c is not None for c in exposed):
            raise _err(f"exposed={[None if c is None else MINCHIATE.name(c) for c in exposed]}:"
                       " expected None for every seat with expose_last_card=none")
    else:
        for s in range(N):
            c = exposed[s]
            if c is None:
                raise _err(f"exposed[{s}]=None: every seat's 21st card is exposed "
                           "(expose_last_card=all_players)")
            if not own[s] >> c & 1:
                raise _err(f"exposed[{s}]={MINCHIATE.name(c)!r} is not seat {s}'s: it is in "
                           f"{where[c]}")
            robbed = p["cutter_robbed"] | p["dealer_robbed"]
            if robbed >> c & 1:
                raise _err(f"exposed[{s}]={MINCHIATE.name(c)!r} is a robbed card: the exposed "
                           "card is dealt")
    # the dealer's robbing
    m = popcount(p["dealer_robbed"])
    p["m"] = m
    if rules.dealer_rob == "off" and m:
        raise _err("dealer_robbed: expected [] with dealer_rob=off")
    if p["dealer_robbed"] & ~ELIGIBLE_BITS:
        raise _err(f"dealer_robbed lists {_show(p['dealer_robbed'] & ~ELIGIBLE_BITS)}: only "
                   "counting cards and trumps above 20 are robbed (MI-ROB-1)")
    if p["dealer_robbed"] & ~own[dealer]:
        raise _err(f"dealer_robbed lists {_show(p['dealer_robbed'] & ~own[dealer])}, not the "
                   f"dealer's: robbed cards are in hands[{dealer}], played[{dealer}] or "
                   f"discards[{dealer}]")
    discards = p["discards"][0] | p["discards"][1] | p["discards"][2] | p["discards"][3]
    base = p["fola"] & ~discards
    if rules.dealer_rob == "auto_all" and base & ELIGIBLE_BITS:
        raise _err(f"fola holds {_show(base & ELIGIBLE_BITS)}, which the dealer robs "
                   "(dealer_rob=auto_all, MI-ROB-1)")
    if L.FOLA_SIZE - k - m < 0:
        raise _err(f"cutter_robbed and dealer_robbed hold {k + m} cards: at most {L.FOLA_SIZE} "
                   "undealt cards can be robbed")
    if popcount(base) != L.FOLA_SIZE - k - m:
        raise _err(f"fola holds {popcount(base)} cards besides the discards: expected "
                   f"{L.FOLA_SIZE - k - m} (13 less {k} + {m} robbed cards)")
    p["fola_base"] = base


def _check_discards(p: dict, rules: Any) -> None:
    """MI-DISC-1..3: counts and classes of the discards; ``to_discard``."""
    cutter, dealer, k, m = p["cutter"], p["dealer"], p["k"], p["m"]
    dc, dd = popcount(p["discards"][cutter]), popcount(p["discards"][dealer])
    if dc > k:
        raise _err(f"discards[{cutter}] holds {dc} cards: the cutter discards as many as he "
                   f"robbed ({k})")
    if dd > m:
        raise _err(f"discards[{dealer}] holds {dd} cards: the dealer discards as many as he "
                   f"robbed ({m})")
    if dd and dc < k:
        raise _err(f"discards[{dealer}]: the dealer discards after the cutter, who still owes "
                   f"{k - dc}")
    p["discarding"] = dc < k or dd < m
    cls = DISCARD_CLASS[rules.discard_trumps]
    for s in (cutter, dealer):
        since = bits_of(p["hands"][s] | p["played"][s])
        for c in bits_of(p["discards"][s]):
            cheaper = [x for x in since if cls[x] < cls[c]]
            if cheaper:
                raise _err(f"discards[{s}] holds {MINCHIATE.name(c)!r} while the seat kept "
                           f"{MINCHIATE.name(cheaper[0])!r}, a cheaper discard (MI-DISC-2/3)")
    if p["phase"] == L.PHASE_DISCARD:
        if not p["discarding"]:
            raise _err("phase='discard' but every discard is made (MI-DISC-1)")
        mover, owed = (cutter, k - dc) if dc < k else (dealer, m - dd)
        if p["to_move"] != mover:
            raise _err(f"to_move={p['to_move']}: expected {mover}, the "
                       f"{'cutter' if mover == cutter else 'dealer'} who discards now")
        if p["to_discard"] != owed:
            raise _err(f"to_discard={p['to_discard']}: expected {owed}, the cards the mover "
                       "still discards")
    else:
        if p["discarding"]:
            raise _err(f"phase={L.PHASE_NAMES[p['phase']]!r} with discards still owed: the "
                       f"cutter {k - dc}, the dealer {m - dd} (MI-DISC-1)")
        if p["to_discard"]:
            raise _err(f"to_discard={p['to_discard']}: expected 0 outside phase 'discard'")


def _check_flow(p: dict, rules: Any) -> None:
    """Hand and played sizes, who declared, who moves, the leader, the Fola's opening."""
    phase, dealer, cutter, k, m = p["phase"], p["dealer"], p["cutter"], p["k"], p["m"]
    t, trick = p["tricks_played"], p["trick"]
    after = rules.declaration_timing == "after_own_first_card"
    started = phase != L.PHASE_DISCARD and not (phase == L.PHASE_DECLARE and not after)
    p["started"] = started
    order = declaring_order(dealer)
    done = p["declared_done"]
    if phase == L.PHASE_DECLARE and rules.declaration_mode == "all":
        raise _err("phase='declare' with declaration_mode=all: declarations are automatic")
    if p["over"] and t != L.TRICKS_PER_DEAL:
        raise _err(f"tricks_played={t} in phase {L.PHASE_NAMES[phase]!r}: a deal ends after "
                   f"{L.TRICKS_PER_DEAL} tricks")
    if phase == L.PHASE_PLAY and t == L.TRICKS_PER_DEAL:
        raise _err(f"tricks_played={t} in phase 'play': the deal is over")
    if not started:
        for key in ("trick", "played"):
            if any(p[key]):
                raise _err(f"{key}: expected nothing played before play starts")
        if t or any(p["tricks_won"]):
            raise _err("tricks_played, tricks_won: expected 0 before play starts")
        if p["leader"] is not None:
            raise _err(f"leader={p['leader']}: expected None before play starts")
        for s in range(N):
            size = L.HAND_SIZE
            if phase == L.PHASE_DISCARD and s == cutter:
                size += k - popcount(p["discards"][s])
            if phase == L.PHASE_DISCARD and s == dealer:
                size += m - popcount(p["discards"][s])
            if popcount(p["hands"][s]) != size:
                raise _err(f"hands[{s}] holds {popcount(p['hands'][s])} cards: expected {size} "
                           f"in phase {L.PHASE_NAMES[phase]!r}")
    else:
        seats = [s for s, _ in trick]
        if p["leader"] is None:
            raise _err("leader=None: expected the seat that leads the current trick")
        first = (dealer + 1) % N
        if t == 0 and p["leader"] != first:
            raise _err(f"leader={p['leader']}: the first trick is led by seat {first}, the "
                       "dealer's right (MI-PLAY-1)")
        if t and p["leader"] != p["last_winner"]:
            raise _err(f"leader={p['leader']}: expected the last trick's winner "
                       f"(last_winner={p['last_winner']})")
        ring = [(p["leader"] + i) % N for i in range(N)]
        full = N if phase == L.PHASE_DECLARE else N - 1     # the 4th card's declaration
        if len(seats) > full or seats != ring[:len(seats)]:
            raise _err(f"trick seats {seats}: expected the first seats of {ring}, in playing "
                       "order from the leader, and not all four (a full trick is taken) "
                       "unless the fourth declares")
        if p["over"] and trick:
            raise _err("trick: expected [] once the deal is over")
        if phase == L.PHASE_DECLARE and not trick:
            raise _err("trick: expected the declarer's first card in phase 'declare' "
                       "(declaration_timing=after_own_first_card)")
        for s in range(N):
            size = t + (1 if s in seats else 0)
            if popcount(p["played"][s]) != size:
                raise _err(f"played[{s}] holds {popcount(p['played'][s])} cards: expected "
                           f"{size} (tricks_played={t})")
            if popcount(p["hands"][s]) + size != L.HAND_SIZE:
                raise _err(f"hands[{s}] holds {popcount(p['hands'][s])} cards: expected "
                           f"{L.HAND_SIZE - size} ({size} played)")
        if phase == L.PHASE_PLAY and p["to_move"] != ring[len(seats)]:
            raise _err(f"to_move={p['to_move']}: expected seat {ring[len(seats)]}, next in the "
                       "trick")
        if phase == L.PHASE_DECLARE and p["to_move"] != seats[-1]:
            raise _err(f"to_move={p['to_move']}: expected seat {seats[-1]}, who declares after "
                       "his first card")
    if (p["last_winner"] is None) != (t == 0):
        raise _err(f"last_winner={p['last_winner']}: expected " + (
            "None before the first trick is complete" if t == 0 else "the winner of trick "
            f"{t}"))
    if p["last_winner"] is not None and not p["tricks_won"][team_of(p["last_winner"])]:
        raise _err(f"last_winner={p['last_winner']}: his team won no trick (tricks_won="
                   f"{p['tricks_won']})")
    # who declared
    if phase == L.PHASE_DISCARD:
        want = []
    elif not after:
        if phase == L.PHASE_DECLARE:
            j = order.index(p["to_move"])
            want = order[:j]
        else:
            want = order
    elif t == 0 and phase != L.PHASE_DISCARD:
        want = [s for s, _ in trick]
        if phase == L.PHASE_DECLARE:
            want = want[:-1]
    else:
        want = order
    got = [s for s in order if done[s]]
    if sorted(got) != sorted(want):
        raise _err(f"declared_done={done}: expected True for seats {sorted(want)} "
                   + ("(in turn from the dealer's right)" if not after else
                      "(each after his first card in trick 1)"))
    # the Fola's opening
    fola_open = started and rules.fola_visibility == "open"
    if p["fola_open"] != fola_open:
        raise _err(f"fola_open={p['fola_open']}: expected {fola_open} (opened before the first "
                   f"lead with fola_visibility=open; fola_visibility={rules.fola_visibility})")


def _check_declarations(p: dict, rules: Any) -> None:
    """MI-DECL-*: each declared combination is the seat's; who may have declared; the bonus."""
    for s in range(N):
        ids = p["declared"][s]
        held = p["hands"][s] | p["played"][s]
        mine = _combos(held, rules.decine_four == "two_triples")
        declaring = p["phase"] == L.PHASE_DECLARE and p["to_move"] == s
        if ids and not p["declared_done"][s] and not declaring:
            raise _err(f"declared[{s}]: expected [] for a seat that has not declared yet")
        for c in ids:
            if c not in mine:
                raise _err(f"declared[{s}]: {'+'.join(names(COMBO_BITS[c]))} is not a "
                           f"combination of seat {s}'s cards (hand and played, MI-COMB-1/2)")
        claimable = bool(held & M_BIT) and any(bonus_applies(c, rules.matto_bonus_on_matto_combo)
                                              for c in ids)
        if p["bonus_claimed"][s]:
            if not p["declared_done"][s]:
                raise _err(f"bonus_claimed[{s}]=True: the bonus is claimed with 'done'")
            if not claimable:
                raise _err(f"bonus_claimed[{s}]=True: expected the Matto and a declared "
                           "combination the bonus applies to (MI-COMB-4)")
        if rules.declaration_mode == "all" and p["declared_done"][s]:
            if ids != mine:
                raise _err(f"declared[{s}]: expected every combination of the seat "
                           f"({len(mine)}) with declaration_mode=all")
            if p["bonus_claimed"][s] != claimable:
                raise _err(f"bonus_claimed[{s}]={p['bonus_claimed'][s]}: the bonus is claimed "
                           "whenever it can be with declaration_mode=all")


def _check_trick(p: dict, rules: Any) -> None:
    """The current trick: each card legal when played, its inferences in ``excluded``."""
    before: list[tuple[int, int]] = []
    suits_led = {x for x in range(4) if p["suits_led"] >> x & 1}
    for s, c in p["trick"]:
        if not p["played"][s] >> c & 1:
            raise _err(f"trick: {MINCHIATE.name(c)!r} of seat {s} must be in played[{s}]")
        if c not in playable(set(bits_of(p["hands"][s])) | {c}, before, suits_led):
            raise _err(f"trick: {MINCHIATE.name(c)!r} of seat {s} was not a legal play with "
                       f"hands[{s}] (MI-PLAY-3/4, MI-KING-1)")
        inf = mask_of(inferences(c, before, suits_led))
        if inf & ~p["excluded"][s]:
            raise _err(f"excluded[{s}] lacks {_show(inf & ~p['excluded'][s])}, shown absent by "
                       f"{MINCHIATE.name(c)!r} in the current trick (rules §6)")
        before.append((s, c))


def _check_piles(p: dict, rules: Any) -> None:
    """Tricks won, pile sizes, the Matto's team, debt and settlement, suits led."""
    t, won, piles = p["tricks_played"], p["tricks_won"], p["piles"]
    if sum(won) != t:
        raise _err(f"tricks_won={won}: expected {t} tricks in all (tricks_played={t})")
    suits_led = p["suits_led"]
    if popcount(suits_led) > t:
        raise _err(f"suits_led lists {popcount(suits_led)} suits after {t} tricks: each trick "
                   "is led in at most one suit")
    for s in range(4):
        if suits_led >> s & 1 and not (piles[0] | piles[1]) & SUIT_BITS[s]:
            raise _err(f"suits_led lists {SUIT_SHORTS[s]!r} but no card of it is in the piles")
    holder = next((s for s in range(N) if p["played"][s] & M_BIT), None)
    mt = None if holder is None else team_of(holder)
    if p["matto_team"] != mt:
        raise _err(f"matto_team={_team(p['matto_team'])}: expected {_team(mt)}, "
                   + ("the team of the seat that played the Matto" if mt is not None else
                      "the Matto was not played"))
    debt, paid, given = p["matto_debt"], p["paid_card"], p["matto_given"]
    in_pile = bool((piles[0] | piles[1]) & M_BIT)
    if debt and not in_pile:
        raise _err("matto_debt=True: the Matto is not in a pile (no completed trick of it)")
    settled = list(piles)
    if not p["over"]:
        if paid is not None or given:
            raise _err("paid_card, matto_given: the Matto is settled only at the end")
    elif mt is not None and won[mt] == 0:
        if not given:
            raise _err(f"matto_given=False: team {TEAM_NAMES[mt]} won no trick, so it gives "
                       "the Matto away (MI-MATTO-3)")
        if paid is not None:
            raise _err("paid_card: expected None when the Matto itself is given (MI-MATTO-3)")
        if not piles[1 - mt] & M_BIT:
            raise _err(f"matto_given=True: the Matto must be in piles[{1 - mt}]")
        settled = [0, 0]
        settled[mt] = M_BIT
        settled[1 - mt] = piles[1 - mt] & ~M_BIT
    elif given:
        raise _err("matto_given=True: only a Matto team without tricks gives the Matto")
    elif debt:
        if paid is None:
            raise _err("paid_card=None: the Matto's team owes a card, paid at the end "
                       "(MI-MATTO-2)")
        if not piles[1 - mt] >> paid & 1:
            raise _err(f"paid_card={MINCHIATE.name(paid)!r} must be in piles[{1 - mt}], the "
                       "creditor's")
        before = piles[mt] | 1 << paid
        want = payment_card(set(bits_of(before)))
        if paid != want:
            raise _err(f"paid_card={MINCHIATE.name(paid)!r}: the engine pays "
                       f"{MINCHIATE.name(want)!r} (lowest zero-value card but T29, MI-MATTO-2)")
        settled = [0, 0]
        settled[mt] = before
        settled[1 - mt] = piles[1 - mt] & ~(1 << paid)
    elif paid is not None:
        raise _err(f"paid_card={MINCHIATE.name(paid)!r}: expected None without a Matto debt")
    p["unsettled"] = settled          # the piles before the end's settlement
    for team in range(2):
        if mt is not None and team != mt and settled[team] & M_BIT:
            raise _err(f"piles[{team}] holds the Matto of team {TEAM_NAMES[mt]}: it stays "
                       "with its team (MI-MATTO-1)")
        extra = 0
        if debt:
            extra = 1 if team == mt else -1
        size = 4 * won[team] + extra
        if popcount(settled[team]) != size:
            raise _err(f"piles[{team}] holds {popcount(piles[team])} cards: expected "
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


def _check_points(p: dict, rules: Any) -> None:
    """Each source from the cards; D and the resti (MI-RESTO-*); net and net_total."""
    want = expected_points(p, rules)
    for i, src in enumerate(L.SOURCES):
        if p["points"][i] != want[i]:
            raise _err(f"points[{src!r}]={p['points'][i]}: expected {want[i]} from the cards")
    resto, d, resti = rules.resto_points, p["D"], p["resti"]
    total = sum(a - b for a, b in p["points"])
    rounding = final_rounding(d, resto) if p["over"] else 0
    if total - d != resto * (resti[0] - resti[1] - rounding):
        raise _err(f"D={d}, resti={resti}: the points differ by {total} (A - B), which must "
                   f"equal D + {resto} x (resti A - resti B"
                   + (f" - {rounding} of the final rounding" if p["over"] else "") + ")")
    early_d, early_resti = replay_before_play(p, rules)
    if p["tricks_played"] == 0 and (d, resti) != (early_d, early_resti):
        raise _err(f"D={d}, resti={resti}: the events so far give D={early_d}, "
                   f"resti={early_resti} (MI-SCORE-1, MI-RESTO-2)")
    if resti[0] < early_resti[0] or resti[1] < early_resti[1]:
        raise _err(f"resti={resti}: the events before play already made {early_resti}, and "
                   "resti never decrease")
    if p["over"]:
        net = capot(resti[0] - resti[1], p["tricks_won"], rules)
        if p["net"] != net:
            raise _err(f"net={p['net']}: expected {net} (resti A - resti B"
                       + (", capot=it_rules" if rules.capot == "it_rules" else "") + ")")
    elif p["net"] is not None:
        raise _err(f"net={p['net']}: expected None before the deal's end")
    if p["mode"] == L.MODE_DEAL:
        want_total = p["net"] if p["over"] else 0
        if p["net_total"] != want_total:
            raise _err(f"net_total={p['net_total']}: expected {want_total} in a single deal")
    elif p["deal_number"] == 1 and not p["over"] and p["net_total"] != 0:
        raise _err(f"net_total={p['net_total']}: expected 0 during a match's first deal")

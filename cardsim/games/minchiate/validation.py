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

from ...cards import bits_of, mask_of
from ...protocol.positions import check_trick_counts
from . import layout as L
from .layout import DECK
from .reference import discard_classes, inferences, playable
from .reference_scoring import (
    bonus_applies,
    combos_of,
)
from .validation_scoring import (
    M_BIT,
    N,
    check_piles,
    check_points,
    declaring_order,
    err,
    names,
    popcount,
    team_of,
)

ALL = (1 << L.N_CARDS) - 1
ELIGIBLE_BITS = DECK.from_words(L.ROB_ELIGIBLE)
COMBO_BITS = tuple(mask_of(cards) for cards in L.COMBO_CARDS)


DISCARD_CLASS = {trumps: tuple(next(i for i, k in enumerate(discard_classes({c}, trumps)) if k)
                               for c in range(L.N_CARDS)) for trumps in (False, True)}
"""DISCARD_CLASS[discard_trumps][card]: its class of :func:`.reference.discard_classes`."""


@lru_cache(maxsize=4096)
def _combos(held: int, two_triples: bool) -> list[int]:
    """MI-COMB-1/2 of a mask (:func:`.reference_scoring.combos_of`; a seat's hand and played
    cards stay the same through a deal's play, hence the cache)."""
    return combos_of(set(bits_of(held)), two_triples)


def check(p: dict, rules: Any) -> None:
    """Every check of a parsed position, in order (the first failure raises)."""
    _check_header_values(p, rules)
    _check_cards(p, rules)
    _check_discards(p, rules)
    _check_flow(p, rules)
    _check_declarations(p, rules)
    _check_trick(p, rules)
    check_piles(p, rules)
    check_points(p, rules)


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
            raise err(f"deal_number={p['deal_number']}: expected 1 in mode 'deal'")
        if phase == L.PHASE_MATCH_OVER:
            raise err("phase='match_over' with mode='deal': a single deal ends in 'deal_over'")
        if p["start_dealer"] != p["dealer"]:
            raise err(f"start_dealer={p['start_dealer']}: expected the dealer {p['dealer']} "
                      "in mode 'deal'")
    else:
        if phase == L.PHASE_DEAL_OVER:
            raise err("phase='deal_over' with mode='match': a match deals again after a deal, "
                      "or ends in 'match_over'")
        if phase == L.PHASE_MATCH_OVER and p["deal_number"] != rules.deals:
            raise err(f"phase='match_over' at deal_number={p['deal_number']}: a match ends "
                      f"after deal {rules.deals} (deals={rules.deals})")
        want = (p["start_dealer"] + p["deal_number"] - 1) % N
        if p["dealer"] != want:
            raise err(f"dealer={p['dealer']}: expected {want}, the deal passing to the right "
                      f"from start_dealer={p['start_dealer']} (deal {p['deal_number']})")
    cutter = (p["dealer"] + 3) % N
    if p["cutter"] != cutter:
        raise err(f"cutter={p['cutter']}: expected {cutter}, the dealer's left (MI-CUT-1)")


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
            raise err(f"card {DECK.name(c)!r} is in both {where[c]} and {zone}: each card "
                      "exists once")
        for c in bits_of(mask):
            where[c] = zone
        seen |= mask
    if seen != ALL:
        raise err(f"missing cards {', '.join(names(ALL & ~seen))}: all 97 cards must be in "
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
            raise err(f"played[{s}] lists {DECK.name(c)!r}, which another seat played")
        played_all |= p["played"][s]
    in_play = p["piles"][0] | p["piles"][1] | mask_of(c for _, c in p["trick"])
    if played_all != in_play:
        diff = played_all ^ in_play
        c = bits_of(diff)[0]
        raise err(f"played: {DECK.name(c)!r} is " + (
            f"played but in {where[c]}" if played_all >> c & 1 else
            f"in {where[c]} but in no seat's played list") + ": the piles and the trick hold "
            "exactly the played cards")
    for s in range(N):
        if p["hands"][s] & p["played"][s]:
            raise err(f"played[{s}] and hands[{s}] share {_show(p['hands'][s] & p['played'][s])}")
        if p["discards"][s] & ~p["fola"]:
            raise err(f"discards[{s}] lists {_show(p['discards'][s] & ~p['fola'])}, not in the "
                      "fola: discards go to the fola (MI-DISC-1)")
        if p["discards"][s] and s not in (cutter, dealer):
            raise err(f"discards[{s}]: only the cutter ({cutter}) and the dealer ({dealer}) "
                      "discard (MI-DISC-1)")
        if p["excluded"][s] & p["hands"][s]:
            raise err(f"excluded[{s}] lists {_show(p['excluded'][s] & p['hands'][s])}, which "
                      f"is in hands[{s}]")
        if p["excluded"][s] and not p["played"][s]:
            raise err(f"excluded[{s}]: expected [] for a seat that has played no card (the "
                      "inferences come from plays)")
    # the cutter's robbing
    k = p["k"] = _check_robbed(p, own, "cutter", cutter, rules.cutter_rob, "MI-CUT-1",
                               rules.rob_cap)
    sb = p["seen_bottom"]
    if rules.cutter_rob == "auto" and k < rules.rob_cap:
        if sb is None:
            raise err(f"seen_bottom=None: the cutter robbed {k} < {rules.rob_cap} cards, so a "
                      "non-eligible bottom card stopped him (MI-CUT-1)")
        if ELIGIBLE_BITS >> sb & 1:
            raise err(f"seen_bottom={DECK.name(sb)!r}: an eligible card would have been "
                      "robbed (MI-CUT-1)")
        if not p["fola"] >> sb & 1 or any(p["discards"][s] >> sb & 1 for s in range(N)):
            raise err(f"seen_bottom={DECK.name(sb)!r} is in {where[sb]}: it stays at the "
                      "bottom of the pack, in the fola (not a discard)")
    elif sb is not None:
        raise err(f"seen_bottom={DECK.name(sb)!r}: expected None "
                  + ("with cutter_rob=off" if rules.cutter_rob == "off"
                      else f"after {rules.rob_cap} robbed cards"))
    # the exposures
    exposed = p["exposed"]
    if rules.expose_last_card == "none":
        if any(c is not None for c in exposed):
            raise err(f"exposed={[None if c is None else DECK.name(c) for c in exposed]}:"
                      " expected None for every seat with expose_last_card=none")
    else:
        for s in range(N):
            c = exposed[s]
            if c is None:
                raise err(f"exposed[{s}]=None: every seat's 21st card is exposed "
                          "(expose_last_card=all_players)")
            if not own[s] >> c & 1:
                raise err(f"exposed[{s}]={DECK.name(c)!r} is not seat {s}'s: it is in "
                          f"{where[c]}")
            robbed = p["cutter_robbed"] | p["dealer_robbed"]
            if robbed >> c & 1:
                raise err(f"exposed[{s}]={DECK.name(c)!r} is a robbed card: the exposed "
                          "card is dealt")
    # the dealer's robbing
    m = p["m"] = _check_robbed(p, own, "dealer", dealer, rules.dealer_rob, "MI-ROB-1")
    discards = p["discards"][0] | p["discards"][1] | p["discards"][2] | p["discards"][3]
    base = p["fola"] & ~discards
    if rules.dealer_rob == "auto_all" and base & ELIGIBLE_BITS:
        raise err(f"fola holds {_show(base & ELIGIBLE_BITS)}, which the dealer robs "
                  "(dealer_rob=auto_all, MI-ROB-1)")
    if L.FOLA_SIZE - k - m < 0:
        raise err(f"cutter_robbed and dealer_robbed hold {k + m} cards: at most {L.FOLA_SIZE} "
                  "undealt cards can be robbed")
    if popcount(base) != L.FOLA_SIZE - k - m:
        raise err(f"fola holds {popcount(base)} cards besides the discards: expected "
                  f"{L.FOLA_SIZE - k - m} (13 less {k} + {m} robbed cards)")
    p["fola_base"] = base


def _check_robbed(p: dict, own: list[int], who: str, seat: int, option: str, rule: str,
                  cap: int | None = None) -> int:
    """MI-CUT-1 (the cutter) or MI-ROB-1 (the dealer): the cards ``who`` robbed are counting
    cards or trumps above 20, his own, none with the option off, at most ``cap``; their
    number."""
    key = f"{who}_robbed"
    robbed = p[key]
    n = popcount(robbed)
    if option == "off" and n:
        raise err(f"{key}: expected [] with {who}_rob=off")
    if robbed & ~ELIGIBLE_BITS:
        raise err(f"{key} lists {_show(robbed & ~ELIGIBLE_BITS)}: only counting cards and "
                  f"trumps above 20 are robbed ({rule})")
    if cap is not None and n > cap:
        raise err(f"{key} holds {n} cards: at most {cap} ({rule})")
    if robbed & ~own[seat]:
        raise err(f"{key} lists {_show(robbed & ~own[seat])}, not the {who}'s: robbed cards "
                  f"are in hands[{seat}], played[{seat}] or discards[{seat}]")
    return n


def _check_discards(p: dict, rules: Any) -> None:
    """MI-DISC-1..3: counts and classes of the discards; ``to_discard``."""
    cutter, dealer, k, m = p["cutter"], p["dealer"], p["k"], p["m"]
    dc, dd = popcount(p["discards"][cutter]), popcount(p["discards"][dealer])
    if dc > k:
        raise err(f"discards[{cutter}] holds {dc} cards: the cutter discards as many as he "
                  f"robbed ({k})")
    if dd > m:
        raise err(f"discards[{dealer}] holds {dd} cards: the dealer discards as many as he "
                  f"robbed ({m})")
    if dd and dc < k:
        raise err(f"discards[{dealer}]: the dealer discards after the cutter, who still owes "
                  f"{k - dc}")
    p["discarding"] = dc < k or dd < m
    cls = DISCARD_CLASS[rules.discard_trumps]
    for s in (cutter, dealer):
        since = bits_of(p["hands"][s] | p["played"][s])
        for c in bits_of(p["discards"][s]):
            cheaper = [x for x in since if cls[x] < cls[c]]
            if cheaper:
                raise err(f"discards[{s}] holds {DECK.name(c)!r} while the seat kept "
                          f"{DECK.name(cheaper[0])!r}, a cheaper discard (MI-DISC-2/3)")
    if p["phase"] == L.PHASE_DISCARD:
        if not p["discarding"]:
            raise err("phase='discard' but every discard is made (MI-DISC-1)")
        mover, owed = (cutter, k - dc) if dc < k else (dealer, m - dd)
        if p["to_move"] != mover:
            raise err(f"to_move={p['to_move']}: expected {mover}, the "
                      f"{'cutter' if mover == cutter else 'dealer'} who discards now")
        if p["to_discard"] != owed:
            raise err(f"to_discard={p['to_discard']}: expected {owed}, the cards the mover "
                      "still discards")
    else:
        if p["discarding"]:
            raise err(f"phase={L.PHASE_NAMES[p['phase']]!r} with discards still owed: the "
                      f"cutter {k - dc}, the dealer {m - dd} (MI-DISC-1)")
        if p["to_discard"]:
            raise err(f"to_discard={p['to_discard']}: expected 0 outside phase 'discard'")


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
        raise err("phase='declare' with declaration_mode=all: declarations are automatic")
    if p["over"] and t != L.TRICKS_PER_DEAL:
        raise err(f"tricks_played={t} in phase {L.PHASE_NAMES[phase]!r}: a deal ends after "
                  f"{L.TRICKS_PER_DEAL} tricks")
    if phase == L.PHASE_PLAY and t == L.TRICKS_PER_DEAL:
        raise err(f"tricks_played={t} in phase 'play': the deal is over")
    if not started:
        for key in ("trick", "played"):
            if any(p[key]):
                raise err(f"{key}: expected nothing played before play starts")
        if t or any(p["tricks_won"]):
            raise err("tricks_played, tricks_won: expected 0 before play starts")
        if p["leader"] is not None:
            raise err(f"leader={p['leader']}: expected None before play starts")
        for s in range(N):
            size = L.HAND_SIZE
            if phase == L.PHASE_DISCARD and s == cutter:
                size += k - popcount(p["discards"][s])
            if phase == L.PHASE_DISCARD and s == dealer:
                size += m - popcount(p["discards"][s])
            if popcount(p["hands"][s]) != size:
                raise err(f"hands[{s}] holds {popcount(p['hands'][s])} cards: expected {size} "
                          f"in phase {L.PHASE_NAMES[phase]!r}")
    else:
        seats = [s for s, _ in trick]
        if p["leader"] is None:
            raise err("leader=None: expected the seat that leads the current trick")
        first = (dealer + 1) % N
        if t == 0 and p["leader"] != first:
            raise err(f"leader={p['leader']}: the first trick is led by seat {first}, the "
                      "dealer's right (MI-PLAY-1)")
        if t and p["leader"] != p["last_winner"]:
            raise err(f"leader={p['leader']}: expected the last trick's winner "
                      f"(last_winner={p['last_winner']})")
        ring = [(p["leader"] + i) % N for i in range(N)]
        full = N if phase == L.PHASE_DECLARE else N - 1     # the 4th card's declaration
        if len(seats) > full or seats != ring[:len(seats)]:
            raise err(f"trick seats {seats}: expected the first seats of {ring}, in playing "
                      "order from the leader, and not all four (a full trick is taken) "
                      "unless the fourth declares")
        if p["over"] and trick:
            raise err("trick: expected [] once the deal is over")
        if phase == L.PHASE_DECLARE and not trick:
            raise err("trick: expected the declarer's first card in phase 'declare' "
                      "(declaration_timing=after_own_first_card)")
        check_trick_counts(err, range(N), seats, t, L.HAND_SIZE,
                           lambda s: popcount(p["played"][s]), lambda s: popcount(p["hands"][s]))
        if phase == L.PHASE_PLAY and p["to_move"] != ring[len(seats)]:
            raise err(f"to_move={p['to_move']}: expected seat {ring[len(seats)]}, next in the "
                      "trick")
        if phase == L.PHASE_DECLARE and p["to_move"] != seats[-1]:
            raise err(f"to_move={p['to_move']}: expected seat {seats[-1]}, who declares after "
                      "his first card")
    if (p["last_winner"] is None) != (t == 0):
        raise err(f"last_winner={p['last_winner']}: expected " + (
            "None before the first trick is complete" if t == 0 else "the winner of trick "
            f"{t}"))
    if p["last_winner"] is not None and not p["tricks_won"][team_of(p["last_winner"])]:
        raise err(f"last_winner={p['last_winner']}: his team won no trick (tricks_won="
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
        raise err(f"declared_done={done}: expected True for seats {sorted(want)} "
                  + ("(in turn from the dealer's right)" if not after else
                      "(each after his first card in trick 1)"))
    # the Fola's opening
    fola_open = started and rules.fola_visibility == "open"
    if p["fola_open"] != fola_open:
        raise err(f"fola_open={p['fola_open']}: expected {fola_open} (opened before the first "
                  f"lead with fola_visibility=open; fola_visibility={rules.fola_visibility})")


def _check_declarations(p: dict, rules: Any) -> None:
    """MI-DECL-*: each declared combination is the seat's; who may have declared; the bonus."""
    for s in range(N):
        ids = p["declared"][s]
        held = p["hands"][s] | p["played"][s]
        mine = _combos(held, rules.decine_four == "two_triples")
        declaring = p["phase"] == L.PHASE_DECLARE and p["to_move"] == s
        if ids and not p["declared_done"][s] and not declaring:
            raise err(f"declared[{s}]: expected [] for a seat that has not declared yet")
        for c in ids:
            if c not in mine:
                raise err(f"declared[{s}]: {'+'.join(names(COMBO_BITS[c]))} is not a "
                          f"combination of seat {s}'s cards (hand and played, MI-COMB-1/2)")
        claimable = bool(held & M_BIT) and any(bonus_applies(c, rules.matto_bonus_on_matto_combo)
                                              for c in ids)
        if p["bonus_claimed"][s]:
            if not p["declared_done"][s]:
                raise err(f"bonus_claimed[{s}]=True: the bonus is claimed with 'done'")
            if not claimable:
                raise err(f"bonus_claimed[{s}]=True: expected the Matto and a declared "
                          "combination the bonus applies to (MI-COMB-4)")
        if rules.declaration_mode == "all" and p["declared_done"][s]:
            if ids != mine:
                raise err(f"declared[{s}]: expected every combination of the seat "
                          f"({len(mine)}) with declaration_mode=all")
            if p["bonus_claimed"][s] != claimable:
                raise err(f"bonus_claimed[{s}]={p['bonus_claimed'][s]}: the bonus is claimed "
                          "whenever it can be with declaration_mode=all")


def _check_trick(p: dict, rules: Any) -> None:
    """The current trick: each card legal when played, its inferences in ``excluded``."""
    before: list[tuple[int, int]] = []
    suits_led = {x for x in range(4) if p["suits_led"] >> x & 1}
    for s, c in p["trick"]:
        if not p["played"][s] >> c & 1:
            raise err(f"trick: {DECK.name(c)!r} of seat {s} must be in played[{s}]")
        if c not in playable(set(bits_of(p["hands"][s])) | {c}, before, suits_led):
            raise err(f"trick: {DECK.name(c)!r} of seat {s} was not a legal play with "
                      f"hands[{s}] (MI-PLAY-3/4, MI-KING-1)")
        inf = mask_of(inferences(c, before, suits_led))
        if inf & ~p["excluded"][s]:
            raise err(f"excluded[{s}] lacks {_show(inf & ~p['excluded'][s])}, shown absent by "
                      f"{DECK.name(c)!r} in the current trick (rules §6)")
        before.append((s, c))


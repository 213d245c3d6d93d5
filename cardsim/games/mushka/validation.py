"""The checks that a Mushka position dict describes a possible position (``from_dict`` of
:mod:`.notation` parses the dict into the values ``p`` these read, then calls
:func:`check_position`).

Each check raises a one-line :class:`~cardsim.errors.PositionError` naming the key and what was
expected. The rules that turn numbers into numbers (a trick written off, the ace bonus and its
clamp, the remise) are the reference engine's (:mod:`.reference_scoring`), not copies: a record
is checked by replaying the deal's write-offs with them (:func:`simulate_record`).
"""
from __future__ import annotations

from typing import Any

from ...protocol.positions import Fields, check_trick_counts
from . import layout as L
from .layout import DECK
from .reference import suit
from .reference_scoring import ace_bonus_points, record_after_bonus, record_after_trick, remise_points

STOP_AT_NAMES = ("play", "bonus", "end")

_err = Fields(DECK).error


def decision_value(word) -> Any:
    """A ``DECISION`` word as the dict's value: None, "pass", "stand" or k."""
    w = int(word)
    if w == L.DECIDED_NONE:
        return None
    if w == L.DECIDED_PASS:
        return "pass"
    if w == L.DECIDED_STAND:
        return "stand"
    return w - L.DECIDED_STAND


def simulate_record(start: int, tricks: int, bonus: int, bonus_at_first: bool,
                    remise: int, rules: Any) -> tuple[int, int]:
    """A seat's record after ``tricks`` won this deal from ``start`` (MU-SCORE-1, MU-STOP-3),
    the ace bonus ``bonus`` (0: none) written off after the first trick or after the last
    (clamped at 0, MU-STOP-2), then ``remise`` added. Returns (record, bonus written off)."""
    r, taken = start, 0
    for i in range(tricks):
        r = record_after_trick(r, rules)
        if bonus and i == 0 and bonus_at_first:
            taken = r - record_after_bonus(r, bonus)
            r -= taken
    if bonus and not bonus_at_first:
        taken = r - record_after_bonus(r, bonus)
        r -= taken
    return r + remise, taken


def nominal_bonus(trump_card: int, rules: Any) -> int:
    """MU-SCORE-3: 5, or 10 when spades are trump."""
    return ace_bonus_points(suit(trump_card) == L.SPADES, rules)


def remise_of(seat: int, tricks: int, holder: int | None, rules: Any) -> int:
    """MU-SCORE-2/4: what an active seat adds at the end of the deal."""
    return remise_points(tricks, seat == holder, rules)


def check_position(p: dict, rules: Any) -> None:
    """Every check of the module, in order; sets ``p["stop_at"]`` (where a stop came from)."""
    _check_cards(p, rules)
    _check_exchange(p, rules)
    _check_play(p, rules)
    _check_scores(p, rules)


def _check_cards(p: dict, rules: Any) -> None:
    """Every card of the deck exactly once over hands, discards, stock, played cards and the
    turned card (unless the dealer took it)."""
    n, deck = rules.num_players, rules.deck_mask
    zones: list[tuple[str, list[int]]] = []
    for key in ("hands", "discards", "played"):
        zones += [(f"{key}[{s}]", p[key][s]) for s in range(n)]
    zones.append(("stock", p["stock"]))
    if not p["taken"]:
        zones.append(("trump_card", [p["trump"]]))
    seen: dict[int, str] = {}
    for zone, cards in zones:
        for c in cards:
            if c in seen:
                raise _err(f"card {DECK.name(c)!r} is in both {seen[c]} and {zone}: each card "
                           "exists once")
            seen[c] = zone
    missing = [DECK.name(c) for c in range(L.N_CARDS) if deck >> c & 1 and c not in seen]
    if missing:
        raise _err(f"missing cards {', '.join(missing)}: every card of the {deck.bit_count()}-card "
                   "deck must be in hands, discards, stock, played or be the turned trump_card")
    if p["taken"]:
        where = seen[p["trump"]]
        if where not in (f"hands[{p['dealer']}]", f"played[{p['dealer']}]"):
            raise _err(f"trump_card {DECK.name(p['trump'])!r} is in {where}: the dealer took "
                       f"it, so it is in hands[{p['dealer']}] or played[{p['dealer']}]")
    for s in range(n):
        clash = set(p["excluded"][s]) & set(p["hands"][s])
        if clash:
            raise _err(f"excluded[{s}] lists {DECK.name(min(clash))!r}, which is in hands[{s}]")
        if L.ACE_OF_SPADES in p["discards"][s] and not rules.ace_of_spades_discardable:
            raise _err(f"discards[{s}] holds 'As', which may not be discarded "
                       "(ace_of_spades_discardable=false)")
        if p["taken"] and p["trump"] in p["discards"][s]:
            raise _err(f"discards[{s}] holds the taken trump card: it may not be discarded")


def _decision_order(p: dict, n: int) -> list[int]:
    return [(p["dealer"] + 1 + i) % n for i in range(n)]


def _check_exchange(p: dict, rules: Any) -> None:
    """The discard and the exchange: decisions in turn from the dealer's left, hand, discard
    and stock sizes, who is active, the ace holder, passes."""
    n, phase, dealer = rules.num_players, p["phase"], p["dealer"]
    order = _decision_order(p, n)
    decided = [s for s in order if p["decisions"][s] != L.DECIDED_NONE]
    j = len(decided)
    if decided != order[:j]:
        raise _err(f"decisions={_show_decisions(p)}: seats decide in turn from the dealer's left "
                   f"({', '.join(map(str, order))}), so the decided seats come first")
    if phase == L.PHASE_DISCARD:
        if not rules.dealer_takes_trump_card:
            raise _err("phase='discard' needs dealer_takes_trump_card=true")
        if j:
            raise _err(f"decisions={_show_decisions(p)}: expected no decision in phase 'discard'")
        if p["to_move"] != dealer:
            raise _err(f"to_move={p['to_move']}: the dealer {dealer} discards in phase 'discard'")
    elif phase == L.PHASE_EXCHANGE:
        if j == n:
            raise _err("decisions: every seat decided, but phase is 'exchange'")
        if p["to_move"] != order[j]:
            raise _err(f"to_move={p['to_move']}: expected seat {order[j]}, the next to decide in "
                       "the exchange")
    elif j < n:
        raise _err(f"decisions={_show_decisions(p)}: every seat decides before phase "
                   f"{L.PHASE_NAMES[phase]!r}")
    exchanged = 0
    for s in range(n):
        w = p["decisions"][s]
        k = w - L.DECIDED_STAND if w > L.DECIDED_STAND else 0
        exchanged += k
        extra = 1 if p["taken"] and s == dealer and phase != L.PHASE_DISCARD else 0
        if len(p["discards"][s]) != k + extra:
            why = f"exchanged {k}" if k else "no exchange"
            if extra:
                why += " and the discard for the taken trump card"
            raise _err(f"discards[{s}] holds {len(p['discards'][s])} cards: expected {k + extra}"
                       f" ({why})")
        if w == L.DECIDED_PASS and L.ACE_OF_SPADES in p["hands"][s]:
            raise _err(f"decisions[{s}]='pass' but hands[{s}] holds 'As': its holder may not "
                       "pass")
    stock = rules.deck_size - L.HAND_SIZE * n - 1 - exchanged
    if len(p["stock"]) != stock:
        raise _err(f"stock holds {len(p['stock'])} cards: expected {stock} (the deck less the "
                   f"hands, the turned card and the {exchanged} cards drawn in the exchange)")
    passed = [s for s in range(n) if p["decisions"][s] == L.DECIDED_PASS]
    if j < n:
        for key, empty in (("active", []), ("ace_holder", None), ("leader", None),
                           ("trick", []), ("stop_offer", None), ("stopper", None),
                           ("winners", [])):
            got = {"ace_holder": p["holder"], "stop_offer": p["offer"]}.get(key, p.get(key))
            if got != empty:
                raise _err(f"{key}: expected {empty!r} before the exchange is over")
        for key, value in (("ace_bonus_taken", p["bonus_taken"]), ("void", p["void"])):
            if value:
                raise _err(f"{key}=True before the exchange is over")
        for key, value in (("tricks_played", p["tricks_played"]),
                           ("lone_tricks_left", p["lone_left"])):
            if value:
                raise _err(f"{key}={value}: expected 0 before the exchange is over")
        for s in range(n):
            size = L.HAND_SIZE + (1 if phase == L.PHASE_DISCARD and s == dealer else 0)
            if len(p["hands"][s]) != size:
                raise _err(f"hands[{s}] holds {len(p['hands'][s])} cards: expected {size} in "
                           f"phase {L.PHASE_NAMES[phase]!r}")
            if p["played"][s] or p["tricks_won"][s]:
                raise _err(f"played[{s}] / tricks_won[{s}]: nothing is played before the "
                           "exchange is over")
        return
    active = [s for s in range(n) if s not in passed]
    if p["active"] != active:
        raise _err(f"active={p['active']}: expected {active}, the seats that did not pass")
    holder = next((s for s in active if L.ACE_OF_SPADES in p["hands"][s] + p["played"][s]), None)
    if p["holder"] != holder:
        raise _err(f"ace_holder={p['holder']}: expected {holder}, the active seat with 'As' "
                   "(MU-ACE-5)")
    void = len(active) == 0 or (len(active) == 1 and rules.lone_player == "redeal")
    if p["void"] != void:
        raise _err(f"void={p['void']}: expected {void} with {len(active)} active seats "
                   f"(lone_player={rules.lone_player})")
    if void and p["mode"] == L.MODE_MATCH and phase != L.PHASE_MATCH_OVER:
        raise _err("void=True in a match that is not over: a match deals again after a void "
                   "deal")
    if void and not p["over"]:
        raise _err(f"void=True in phase {L.PHASE_NAMES[phase]!r}: a void deal is over")


def _show_decisions(p: dict) -> str:
    return repr([decision_value(w) for w in p["decisions"]])


def _check_play(p: dict, rules: Any) -> None:
    """After the exchange: hand and played sizes, tricks, the current trick, the leader and
    whose turn it is, the stop offer."""
    n, phase = rules.num_players, p["phase"]
    if phase in (L.PHASE_DISCARD, L.PHASE_EXCHANGE):
        return
    active, t = p["active"], p["tricks_played"]
    playing = len(active) >= 2
    for s in range(n):
        if s not in active and (p["played"][s] or p["tricks_won"][s]):
            raise _err(f"played[{s}] / tricks_won[{s}]: seat {s} is not active and plays no card")
    if not playing:
        _check_no_play(p, rules, active, t)
    else:
        _check_tricks(p, rules, active, t)
    for s in range(n):
        if s not in active and len(p["hands"][s]) != L.HAND_SIZE:
            raise _err(f"hands[{s}] holds {len(p['hands'][s])} cards: a passed hand keeps "
                       f"{L.HAND_SIZE}")
    _check_stop_offer(p, rules, playing, t)


def _check_no_play(p: dict, rules: Any, active: list[int], t: int) -> None:
    """MU-PASS-2, MU-PASS-3: with fewer than two active seats nobody plays a card; a lone
    player is credited the 5 tricks one at a time, a void deal scores none."""
    n, phase = rules.num_players, p["phase"]
    lone = len(active) == 1 and not p["void"]
    if p["leader"] is not None:
        raise _err(f"leader={p['leader']}: expected None, there is no play with "
                   f"{len(active)} active seat(s)")
    if p["trick"]:
        raise _err("trick: expected [] when there is no play")
    for s in range(n):
        if len(p["hands"][s]) != L.HAND_SIZE or p["played"][s]:
            raise _err(f"hands[{s}] holds {len(p['hands'][s])} cards: expected {L.HAND_SIZE} "
                       "(nobody plays a card)")
    if lone:
        s = active[0]
        if p["tricks_won"][s] != t or t + p["lone_left"] != L.TRICKS_PER_DEAL:
            raise _err(f"tricks_played={t}, lone_tricks_left={p['lone_left']}, tricks_won["
                       f"{s}]={p['tricks_won'][s]}: the lone player is credited the 5 tricks "
                       "one at a time")
        if p["lone_left"] and not (phase == L.PHASE_STOP or p["stopper"] is not None):
            raise _err(f"lone_tricks_left={p['lone_left']}: the crediting only pauses at a "
                       "stop")
    elif t or p["lone_left"] or any(p["tricks_won"]):
        raise _err("tricks_played, lone_tricks_left, tricks_won: expected 0 in a void deal")


def _check_tricks(p: dict, rules: Any, active: list[int], t: int) -> None:
    """MU-PLAY-1, MU-PLAY-2: the tricks played so far, the leader, the current trick in
    playing order from the leader, the played and held cards of each active seat, and whose
    turn it is."""
    n, phase = rules.num_players, p["phase"]
    if p["lone_left"]:
        raise _err(f"lone_tricks_left={p['lone_left']}: expected 0 with {len(active)} "
                   "active seats")
    if sum(p["tricks_won"]) != t:
        raise _err(f"tricks_won={p['tricks_won']}: expected {t} tricks in all "
                   f"(tricks_played={t})")
    if p["leader"] is None or p["leader"] not in active:
        raise _err(f"leader={p['leader']}: expected an active seat ({active})")
    first = next(s for s in _decision_order(p, n) if s in active)
    if t == 0 and p["leader"] != first:
        raise _err(f"leader={p['leader']}: the first trick is led by seat {first}, the "
                   "first active seat from the dealer's left (MU-PLAY-2)")
    if phase == L.PHASE_PLAY and t == L.TRICKS_PER_DEAL:
        raise _err("tricks_played=5 in phase 'play': the deal is over")
    if phase != L.PHASE_PLAY and p["trick"]:
        raise _err(f"trick: expected [] in phase {L.PHASE_NAMES[phase]!r} (a trick lies on "
                   "the table only during play)")
    ring = [s for s in ((p["leader"] + i) % n for i in range(n)) if s in active]
    seats = [s for s, _ in p["trick"]]
    if len(seats) >= len(ring) or seats != ring[:len(seats)]:
        raise _err(f"trick seats {seats}: expected the first seats of {ring}, in playing "
                   "order from the leader, and not all of them (a full trick is taken)")
    for s, c in p["trick"]:
        if c not in p["played"][s]:
            raise _err(f"trick: {DECK.name(c)!r} of seat {s} must be in played[{s}]")
    check_trick_counts(_err, active, seats, t, L.HAND_SIZE,
                       lambda s: len(p["played"][s]), lambda s: len(p["hands"][s]))
    if phase == L.PHASE_PLAY:
        to_move = ring[len(seats)]
        if p["to_move"] != to_move:
            raise _err(f"to_move={p['to_move']}: expected seat {to_move}, next in the trick")


def _check_stop_offer(p: dict, rules: Any, playing: bool, t: int) -> None:
    """MU-STOP-4: a stop offer (phase 'stop', ``stop_mode=declared``) goes to a seat at 0, after
    a trick to its winner, after the 5th trick at the bonus or the end; none in other phases."""
    phase = p["phase"]
    complete = t == L.TRICKS_PER_DEAL
    offer = p["offer"]
    if phase == L.PHASE_STOP:
        if rules.stop_mode != "declared":
            raise _err("phase='stop' needs stop_mode=declared")
        if offer is None:
            raise _err("stop_offer: expected {'seat': s, 'at': ...} in phase 'stop'")
        seat, at = offer
        if p["to_move"] != seat:
            raise _err(f"to_move={p['to_move']}: expected the seat offered the stop ({seat})")
        if p["records"][seat] != 0:
            raise _err(f"stop_offer.seat={seat}: his record is {p['records'][seat]}, only a "
                       "record of 0 is offered the stop")
        if at == L.AT_PLAY and playing and p["leader"] != seat:
            raise _err(f"stop_offer={{'seat': {seat}, 'at': 'play'}}: the offer after a trick "
                       f"goes to its winner, the leader {p['leader']}")
        if at == L.AT_PLAY and playing and t == 0:
            raise _err("stop_offer at 'play' with tricks_played=0: the offer follows a trick")
        if at != L.AT_PLAY and not complete:
            raise _err(f"stop_offer at {STOP_AT_NAMES[at]!r}: expected after the 5th trick "
                       f"(tricks_played={t})")
        if at == L.AT_BONUS and (rules.ace_bonus_timing != "end_of_deal" or seat != p["holder"]
                               or not p["bonus_taken"]):
            raise _err("stop_offer at 'bonus': the ace holder, after writing off the ace bonus "
                       "at the end of the deal (ace_bonus_timing=end_of_deal)")
    elif offer is not None:
        raise _err(f"stop_offer: expected None in phase {L.PHASE_NAMES[phase]!r}")


def _check_scores(p: dict, rules: Any) -> None:
    """Records, the ace bonus, the stop and the winners."""
    n, phase = rules.num_players, p["phase"]
    automatic = rules.stop_mode == "automatic"
    active, holder = p["active"], p["holder"]
    complete = p["tricks_played"] == L.TRICKS_PER_DEAL
    if p["mode"] == L.MODE_MATCH and p["deal_number"] == 1:
        for s in range(n):
            if p["start_records"][s] != rules.start_points:
                raise _err(f"start_records[{s}]={p['start_records'][s]}: a match starts at "
                           f"start_points={rules.start_points}")
    if automatic:
        for s in range(n):
            if p["start_records"][s] == 0:
                raise _err(f"start_records[{s}]=0 with stop_mode=automatic: a record of 0 "
                           "ends the game")
    # the ace bonus
    won = p["tricks_won"][holder] if holder is not None else 0
    if p["bonus_taken"]:
        if holder is None or not won:
            raise _err("ace_bonus_taken=True: expected an ace_holder who won a trick")
        if rules.ace_bonus_timing == "end_of_deal" and not complete:
            raise _err("ace_bonus_taken=True before the end of the deal "
                       "(ace_bonus_timing=end_of_deal)")
    elif rules.ace_bonus_timing == "first_trick" and won:
        raise _err(f"ace_bonus_taken=False: the ace_holder {holder} won a trick, which writes "
                   "off the bonus (ace_bonus_timing=first_trick)")
    elif p["over"] and p["stopper"] is None and won:
        raise _err(f"ace_bonus_taken=False: the ace_holder {holder} won a trick and the deal "
                   "is over")
    # the stop and the winners
    stopper = p["stopper"]
    if stopper is not None:
        if not p["over"]:
            raise _err(f"stopper={stopper} in phase {L.PHASE_NAMES[phase]!r}: a stop ends the game")
        if p["records"][stopper] != 0:
            raise _err(f"stopper={stopper}: his record is {p['records'][stopper]}, a stop needs 0")
        if p["winners"] != [stopper]:
            raise _err(f"winners={p['winners']}: expected [{stopper}], the stopper")
    elif phase == L.PHASE_MATCH_OVER:
        if rules.max_deals is None or p["deal_number"] != rules.max_deals:
            raise _err("phase='match_over' without a stopper: only max_deals ends a match, "
                       f"after deal {rules.max_deals} (deal_number={p['deal_number']})")
        low = min(p["records"])
        best = [s for s in range(n) if p["records"][s] == low]
        if p["winners"] != best:
            raise _err(f"winners={p['winners']}: expected {best}, the lowest records")
    elif p["winners"]:
        raise _err(f"winners={p['winners']}: expected [] (nobody stopped)")
    if automatic:
        for s in range(n):
            if p["records"][s] == 0 and s != stopper:
                raise _err(f"records[{s}]=0 with stop_mode=automatic: that seat must have "
                           "stopped (and the game be over)")
    # the records: each follows from the start record, the tricks, the bonus and the remise
    ends = [False]
    if p["void"] or not active:
        pass
    elif phase == L.PHASE_STOP:
        ends = [p["offer"][1] == L.AT_END]
    elif p["over"] and stopper is None:
        ends = [True]
    elif p["over"] and complete and not automatic:
        ends = [False, True]      # a stop after the last trick, or at an offer of the end
    p["stop_at"] = L.AT_PLAY
    bonus = nominal_bonus(p["trump"], rules)
    first = rules.ace_bonus_timing == "first_trick"
    tried = []
    for remised in ends:
        expected = []
        for s in range(n):
            start, won_s = p["start_records"][s], p["tricks_won"][s]
            b = bonus if s == holder and p["bonus_taken"] else 0
            r = remise_of(s, won_s, holder, rules) if remised and s in active else 0
            expected.append(simulate_record(start, won_s, b, first, r, rules)[0])
        if expected == p["records"]:
            if remised and stopper is not None:
                p["stop_at"] = L.AT_END
            elif stopper is not None and p["bonus_taken"] and not first and stopper == holder \
                    and not automatic:
                p["stop_at"] = L.AT_BONUS
            return
        tried.append(expected)
    raise _err(f"records={p['records']}: expected {' or '.join(map(str, tried))} from "
               "start_records, tricks_won, the ace bonus and the remises")


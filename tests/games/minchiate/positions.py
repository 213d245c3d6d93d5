"""Helpers for the Minchiate tests: legal position dicts from the cards that matter, and
positions reached by random play.

:func:`position` (and its shorthands :func:`play_position`, :func:`declare_position`,
:func:`discard_position`) builds a dict that ``game.from_dict`` accepts (the position dict
of notation.py) from the cards a test names, filling every other key consistently:

- every card not named goes somewhere legal (the *filler*, drawn from a shuffled pool with
  ``filler_seed``): the Fola's own part takes 13 − (robbed cards) cards not eligible for robbing
  (so ``dealer_rob=auto_all`` has nothing left to rob) and one of them is the card that stopped
  the cutter (``seen_bottom``); the cutter's and the dealer's discards (when not named, and
  outside phase ``discard``) are zero-value suit cards; the hands the test does not name are
  filled up to their size, never with a card their seat is known not to hold (``excluded``,
  including what the current trick shows) — a named hand shorter than its size is topped up
  the same way; the completed tricks take the rest;
- the completed tricks (``tricks_played`` of them, default 0)
  are made of four cards, one per seat, won by team A for the first ``tricks_won[0]`` and by B
  for the others (default: the leader's team wins the odd one); the Matto, when in them, is put
  with a seat of the winning team (no debt); each suit of ``suits_led`` gets a card in the piles;
- the current ``trick`` ([[seat, card], ...] from the leader) adds its inferences to
  ``excluded`` (voids, no trumps, the King not played under MI-KING-1);
- ``exposed``: named, or each seat's highest-index card that it was not given by robbing;
  named exposed and declared cards must be among the cards the test names for that seat;
- declarations: every seat that has declared by the phase declared nothing (``declared``
  names them per seat otherwise; with ``declaration_mode=all`` every combination of the seat's
  cards, the bonus claimed when it can be);
- the points: the robbed, exposed and declared cards, the dying cards of the completed tricks;
  D and the resti replay the events before play (cutter, exposures, dealer, each declarer in
  turn) and add the tricks' points as one more event.

Card indices, values and combination values are the layout's tables (data, not the notation
code under test). Example::

    d = play_position({1: "5cu T12", 2: "Kcu 8cu M"}, trick=[[1, "9cu"], [2, "T3"]],
                      tricks_played=4)
    game.from_dict(d)

:func:`random_position` plays random moves with the engine until a phase (and, optionally, a
trick count) is reached. :func:`BASE`, :func:`DISC` and :func:`DECL` are built positions of
the three phases that ``test_notation.py`` plays from and ``test_errors.py`` breaks.
"""
from __future__ import annotations

import dataclasses
import json
import random
from typing import Any, Iterable, Mapping

from cardsim.games.minchiate import layout
from cardsim.games.minchiate.layout import DECK as MINCHIATE
from cardsim.games.minchiate.rules import MinchiateRules
from tests.helpers import game_loader

N = 4
RNG_WORDS = [11, 22, 33, 44]      # an explicit chance stream for built positions
SUIT_SHORTS = ["co", "cu", "sw", "ba"]
ALL97 = list(MINCHIATE.cards)
ELIGIBLE = {c for c in range(97) if layout.VALUE[c] > 0 or 20 <= c < 40}
MATTO = "M"


def idx(card: str) -> int:
    return MINCHIATE.index(card)


def cards(spec) -> list[str]:
    """A card list from a list or a space-separated string."""
    if spec is None:
        return []
    return spec.split() if isinstance(spec, str) else list(spec)


def srt(spec) -> list[str]:
    """Cards sorted by index, as ``to_dict`` lists them."""
    return sorted(cards(spec), key=idx)


def suit(card: str) -> int:
    """0..3 a plain suit, 4 trumps, 5 the Matto."""
    return int(layout.SUIT[idx(card)])


def value(spec) -> int:
    return sum(int(layout.VALUE[idx(c)]) for c in cards(spec))


def team(seat: int) -> int:
    return seat & 1


def suit_cards(s: int) -> set[str]:
    return {c for c in ALL97 if suit(c) == s}


KING = {s: "K" + SUIT_SHORTS[s] for s in range(4)}


def _rules(rules: Any) -> MinchiateRules:
    if rules is None:
        return MinchiateRules()
    if isinstance(rules, Mapping):
        return MinchiateRules(**rules)
    return rules


def _per_seat(spec, what: str) -> dict[int, list[str]]:
    """{seat: cards} from a dict or a per-seat list (None = not named)."""
    if spec is None:
        return {}
    if isinstance(spec, Mapping):
        return {int(s): cards(v) for s, v in spec.items() if v is not None}
    assert len(spec) == N, f"{what}: one entry per seat"
    return {s: cards(v) for s, v in enumerate(spec) if v is not None}


def trick_inferences(trick, suits_led: Iterable[str]) -> dict[int, set[str]]:
    """What the current trick shows absent from each hand (rules §6): a card not of the led
    suit -> the whole suit, and all trumps unless a trump; under MI-KING-1 any card but the
    King -> the King."""
    led_before = {SUIT_SHORTS.index(s) for s in suits_led}
    out: dict[int, set[str]] = {}
    led = None
    trumped = False
    for seat, card in trick:
        if led is not None:
            inf = out.setdefault(seat, set())
            if led < 4 and led not in led_before and trumped and card != KING[led]:
                inf.add(KING[led])
            if card != MATTO and suit(card) != led:
                inf |= suit_cards(led)
                if suit(card) != 4:
                    inf |= suit_cards(4)
        elif card != MATTO:
            led = suit(card)
        trumped = trumped or suit(card) == 4
    return out


def _combos(held: set[str], rules: MinchiateRules) -> list[int]:
    """The catalogue ids of a set's combinations (maximal runs; rules MI-COMB-1/2)."""
    ids = []
    mask = {idx(c) for c in held}
    for lo, hi in ((0, 4), (27, 39)):
        i = lo
        while i <= hi:
            if i in mask:
                j = i
                while j + 1 <= hi and j + 1 in mask:
                    j += 1
                if j - i >= 2:
                    ids.append(int(layout.RUN_ID[i, j]))
                i = j + 1
            else:
                i += 1
    has = [all(c in mask for c in layout.COMBO_CARDS[k]) for k in range(layout.N_COMBOS)]
    for k in (layout.MATTO_1_40, layout.PAPI_1_13_28):
        if has[k]:
            ids.append(k)
    if has[layout.DECINE_FOUR]:
        ids += ([layout.DECINE_LOW, layout.DECINE_HIGH] if rules.decine_four == "two_triples"
                else [layout.DECINE_FOUR])
    elif has[layout.DECINE_LOW]:
        ids.append(layout.DECINE_LOW)
    elif has[layout.DECINE_HIGH]:
        ids.append(layout.DECINE_HIGH)
    kings = [s for s in range(4) if idx(KING[s]) in mask]
    if len(kings) == 4:
        ids.append(layout.KINGS_FOUR)
    elif len(kings) == 3:
        ids.append(layout.KINGS_THREE + next(s for s in range(4) if s not in kings))
    return sorted(ids)


def combo_cards(k: int) -> list[str]:
    return [ALL97[c] for c in layout.COMBO_CARDS[k]]


def combo_id(spec) -> int:
    want = sorted(idx(c) for c in cards(spec))
    return next(k for k in range(layout.N_COMBOS) if sorted(layout.COMBO_CARDS[k]) == want)


def _bonus_ok(k: int, rules: MinchiateRules) -> bool:
    return not layout.COMBO_HAS_MATTO[k] or rules.matto_bonus_on_matto_combo


def declaration_value(ids: list[int], bonus: bool, rules: MinchiateRules) -> int:
    return sum(int(layout.COMBO_VALUE[k]) + (5 if bonus and _bonus_ok(k, rules) else 0)
               for k in ids)


def _convert(d: int, resti: list[int]) -> int:
    while d >= 60:
        resti[0] += 1
        d -= 60
    while d <= -60:
        resti[1] += 1
        d += 60
    return d


def position(hands=None, *, phase: str = "play", rules: Any = None, dealer: int = 0,
             trick=(), leader: int | None = None, tricks_played: int = 0,
             tricks_won: list[int] | None = None, suits_led: Iterable[str] = (),
             excluded=None, cutter_robbed=(), dealer_robbed=(), discards=None,
             exposed=None, declared=None, bonus_claimed=None, declarer: int | None = None,
             fola_own=None, tricks=None, filler_seed: int = 0) -> dict:
    """A legal position dict (module docstring). ``hands``: {seat: cards} or a per-seat list
    (None = filler), each topped up with filler to its size (21 − ``tricks_played``, less
    one for a card in ``trick``; name the whole hand, or use ``excluded``, to keep cards out);
    ``trick``: [[seat, card], ...] from the leader; ``excluded``: extra {seat: cards}; ``discards``: {seat: cards} (default: filler discards once made);
    ``declared``: {seat: [[cards], ...]}; ``bonus_claimed``: {seat: bool}; ``declarer``: the
    seat declaring in phase ``declare`` (before the first lead, default the dealer's right);
    ``fola_own``: the Fola's undiscarded cards (default filler); ``tricks``: the completed
    tricks, each [[seat, card] x 4] in playing order (not checked for legality: from_dict
    cannot see completed tricks), which then set ``tricks_played``, ``tricks_won``, the
    leader (the last winner), the suits led, the Matto's debt and the dying points."""
    rules = _rules(rules)
    after = rules.declaration_timing == "after_own_first_card"
    named_hands = _per_seat(hands, "hands")
    trick = [(int(s), c) for s, c in trick]
    suits_led = [s for s in SUIT_SHORTS if s in set(suits_led)]
    cutter = (dealer + 3) % N
    first = (dealer + 1) % N
    cutter_robbed, dealer_robbed = cards(cutter_robbed), cards(dealer_robbed)
    k, m = len(cutter_robbed), len(dealer_robbed)
    in_trick = {s for s, _ in trick}
    # the number of completed tricks
    given = [[(int(x), c) for x, c in tr] for tr in tricks] if tricks is not None else None
    debt = False
    if given is not None:
        tricks_played = len(given)
        results = [trick_result(tr) for tr in given]
        tricks_won = [sum(1 for w, _ in results if team(w) == x) for x in range(2)]
        if given and leader is None:
            leader = results[-1][0]
        led = {SUIT_SHORTS[ld] for _, ld in results if ld < 4}
        suits_led = [x for x in SUIT_SHORTS if x in led or x in suits_led]
        for tr, (w, _) in zip(given, results):
            debt = debt or any(c == MATTO and team(x) != team(w) for x, c in tr)
    t = tricks_played
    if leader is None:
        leader = first
    if tricks_won is None:
        tricks_won = [0, 0]
        tricks_won[team(leader)] = t - t // 2
        tricks_won[1 - team(leader)] = t // 2
    # discards
    named_discards = _per_seat(discards, "discards")
    if phase != "discard":
        named_discards.setdefault(cutter, None)
        named_discards.setdefault(dealer, None)
    taken: set[str] = set()
    for h in named_hands.values():
        taken |= set(h)
    taken |= {c for _, c in trick} | set(cutter_robbed) | set(dealer_robbed)
    for v in named_discards.values():
        taken |= set(v or [])
    taken |= set(cards(fola_own))
    taken |= {c for tr in (given or []) for _, c in tr}
    rnd = random.Random(filler_seed)
    pool = [c for c in ALL97 if c not in taken]
    rnd.shuffle(pool)

    def take(n: int, ok=lambda c: True) -> list[str]:
        got = [c for c in pool if ok(c)][:n]
        assert len(got) == n, f"not enough filler cards ({len(got)} of {n})"
        for c in got:
            pool.remove(c)
        return got

    # the Fola's own part, and the discards
    own_size = 13 - k - m
    fola_base = cards(fola_own) if fola_own is not None else take(
        own_size, lambda c: idx(c) not in ELIGIBLE and suit(c) < 4)
    assert len(fola_base) == own_size, f"fola_own: expected {own_size} cards"
    zero_suit = lambda c: layout.VALUE[idx(c)] == 0 and suit(c) < 4  # noqa: E731
    disc: dict[int, list[str]] = {s: [] for s in range(N)}
    for s, v in named_discards.items():
        owed = k if s == cutter else m
        disc[s] = v if v is not None else take(owed, zero_suit)
    fola = fola_base + disc[cutter] + disc[dealer]
    seen_bottom = None
    if rules.cutter_rob == "auto" and k < rules.rob_cap:
        seen_bottom = next(c for c in fola_base if idx(c) not in ELIGIBLE)
    # reserve a pile card for each suit led
    reserved = [take(1, lambda c, s=s: suit(c) == SUIT_SHORTS.index(s))[0] for s in suits_led
                if t > 0 and given is None]
    # exclusions (the current trick's inferences added)
    excl = {s: set(v) for s, v in _per_seat(excluded, "excluded").items()}
    for s, inf in trick_inferences(trick, suits_led).items():
        excl.setdefault(s, set()).update(inf)
    # hand sizes
    started = phase in ("play", "deal_over") or (phase == "declare" and after)
    size = {}
    for s in range(N):
        if started:
            size[s] = 21 - t - (1 if s in in_trick else 0)
        else:
            size[s] = 21
            if phase == "discard" and s == cutter:
                size[s] += k - len(disc[s])
            if phase == "discard" and s == dealer:
                size[s] += m - len(disc[s])
    hands_out: dict[int, list[str]] = {}
    robbed_of = {cutter: [c for c in cutter_robbed if c not in disc[cutter]],
                 dealer: [c for c in dealer_robbed if c not in disc[dealer]]}
    pile_extra: dict[int, list[str]] = {s: [] for s in range(N)}
    for s in range(N):
        robbed = [c for c in robbed_of.get(s, []) if c not in {x for _, x in trick}
                  and c not in {x for tr in (given or []) for _, x in tr}]
        hands_out[s] = list(named_hands.get(s, []))
        if s in named_hands and len(hands_out[s]) == size[s]:
            pile_extra[s] = [c for c in robbed if c not in hands_out[s]]
        else:
            hands_out[s] += [c for c in robbed if c not in hands_out[s]]
    for s in sorted(range(N), key=lambda s: -len(excl.get(s, ()))):
        need = size[s] - len(hands_out[s])
        assert need >= 0, f"hands[{s}]: {len(hands_out[s])} cards, more than its {size[s]}"
        hands_out[s] += take(need, lambda c, s=s: c not in excl.get(s, ()))
    for s in range(N):
        assert len(hands_out[s]) == size[s], (f"hands[{s}] holds {len(hands_out[s])} cards, "
                                              f"expected {size[s]}")
    # the completed tricks
    played: dict[int, list[str]] = {s: list(pile_extra[s]) for s in range(N)}
    rest = reserved + pool
    pool.clear()
    if given is not None:
        for tr in given:
            for x, c in tr:
                played[x].append(c)
    for s in range(N):
        while len(played[s]) < t:
            played[s].append(rest.pop(0))
    assert not rest, f"{len(rest)} cards left over: check the hand sizes"
    if given is not None:
        winners = [team(w) for w, _ in results]
    else:
        winners = [0] * tricks_won[0] + [1] * tricks_won[1]
    assert len(winners) == t, "tricks_won must add up to tricks_played"
    piles: list[list[str]] = [[], []]
    tricks = [[played[s][j] for s in range(N)] for j in range(t)]
    if given is not None:
        tricks = [[dict(tr)[s] for s in range(N)] for tr in given]
    # the Matto, when played in a completed trick, goes with a seat of the winning team
    for j, tr in enumerate(tricks if given is None else []):
        if MATTO in tr and team(tr.index(MATTO)) != winners[j]:
            s = tr.index(MATTO)
            s2 = next(x for x in ((s + 1) % N, (s + 3) % N) if tr[x] not in pile_extra[x])
            tr[s], tr[s2] = tr[s2], tr[s]
            played[s][j], played[s2][j] = tr[s], tr[s2]
    for j, tr in enumerate(tricks):
        for s, c in enumerate(tr):
            piles[team(s) if c == MATTO else winners[j]].append(c)
    # declarations
    order = [(dealer + 1 + i) % N for i in range(N)]
    if phase == "discard":
        done = []
    elif phase == "declare" and not after:
        declarer = first if declarer is None else declarer
        done = order[:order.index(declarer)]
    elif phase == "declare":
        done = [s for s, _ in trick][:-1]
    elif after and t == 0:
        done = [s for s, _ in trick]
    else:
        done = order
    decl_cards = _per_seat_combos(declared) if declared else {}
    decl_ids = {s: [combo_id(c) for c in decl_cards.get(s, [])] for s in range(N)}
    bonus = {s: bool((bonus_claimed or {}).get(s, False)) for s in range(N)}
    if rules.declaration_mode == "all":
        for s in done:
            held = set(hands_out[s]) | set(played[s]) | {c for x, c in trick if x == s}
            decl_ids[s] = _combos(held, rules)
            bonus[s] = MATTO in held and any(_bonus_ok(i, rules) for i in decl_ids[s])
    # exposed cards
    exp = [None] * N
    if rules.expose_last_card == "all_players":
        given = dict(enumerate(exposed)) if isinstance(exposed, (list, tuple)) else \
            dict(exposed or {})
        robbed_all = set(cutter_robbed) | set(dealer_robbed)
        for s in range(N):
            if given.get(s):
                exp[s] = given[s]
                continue
            own = set(hands_out[s]) | set(played[s]) | {c for x, c in trick if x == s} \
                | set(disc[s])
            exp[s] = max((c for c in own if c not in robbed_all), key=idx)
    # points, D, resti
    pts = {src: [0, 0] for src in layout.SOURCES}
    pts["cutter_rob"][team(cutter)] = value(cutter_robbed)
    for s in range(N):
        if exp[s]:
            pts["exposed"][team(s)] += value([exp[s]])
    pts["dealer_rob"][team(dealer)] = value(dealer_robbed)
    events = [list(pts["cutter_rob"])]
    if rules.expose_last_card == "all_players":
        events.append(list(pts["exposed"]))
    if rules.dealer_rob == "auto_all":
        events.append(list(pts["dealer_rob"]))
    for s in order:
        if s in done:
            v = declaration_value(decl_ids[s], bonus[s], rules)
            pts["declarations"][team(s)] += v
            events.append([v, 0] if team(s) == 0 else [0, v])
    for j, tr in enumerate(tricks):
        w = winners[j]
        pts["dying"][w] += sum(value([c]) for s, c in enumerate(tr)
                               if team(s) != w and c != MATTO)
    events.append(list(pts["dying"]))
    d, resti = 0, [0, 0]
    for a, b in events:
        d = _convert(d + a - b, resti)
    mt = None
    for s in range(N):
        if MATTO in played[s] or any(x == s and c == MATTO for x, c in trick):
            mt = "AB"[team(s)]
    for s, c in trick:
        played[s].append(c)
    if phase == "discard":
        to_move = cutter if len(disc[cutter]) < k else dealer
        to_discard = (k - len(disc[cutter])) if to_move == cutter else m - len(disc[dealer])
    elif phase == "declare":
        to_move, to_discard = (declarer if not after else trick[-1][0]), 0
    else:
        ring = [(leader + i) % N for i in range(N)]
        to_move, to_discard = ring[len(trick)], 0
    return {
        "game": "minchiate", "rules": dataclasses.asdict(rules), "mode": "deal",
        "deal_number": 1, "phase": phase, "dealer": dealer, "cutter": cutter,
        "to_move": to_move,
        "hands": [srt(hands_out[s]) for s in range(N)],
        "cutter_robbed": srt(cutter_robbed), "seen_bottom": seen_bottom, "exposed": exp,
        "dealer_robbed": srt(dealer_robbed),
        "discards": [srt(disc[s]) for s in range(N)], "to_discard": to_discard,
        "fola": srt(fola), "fola_open": started and rules.fola_visibility == "open",
        "declared": [[combo_cards(i) for i in decl_ids[s]] for s in range(N)],
        "declared_done": [s in done for s in range(N)],
        "bonus_claimed": [bonus[s] for s in range(N)],
        "leader": leader if started else None,
        "trick": [[s, c] for s, c in trick],
        "tricks_played": t, "tricks_won": list(tricks_won),
        "played": [srt(played[s]) for s in range(N)],
        "suits_led": suits_led,
        "excluded": [srt(excl.get(s, set())) for s in range(N)],
        "piles": [srt(piles[0]), srt(piles[1])],
        "matto_team": mt, "matto_debt": debt,
        "last_winner": leader if t else None,
        "points": pts, "D": d, "resti": resti, "paid_card": None, "matto_given": False,
        "net": None, "net_total": 0, "start_dealer": dealer, "rng": list(RNG_WORDS),
    }


def trick_result(trick) -> tuple[int, int]:
    """(winner seat, led suit) of a complete trick [[seat, card] x 4] (MI-PLAY-2, -5: the
    highest trump, else the highest card of the led suit; the Matto never wins)."""
    led = next((suit(c) for _, c in trick if c != MATTO), 5)
    best = None
    for s, c in trick:
        if c == MATTO:
            continue
        key = (1, idx(c)) if suit(c) == 4 else (0, int(layout.STRENGTH[idx(c)])) \
            if suit(c) == led else None
        if key is not None and (best is None or key > best[0]):
            best = (key, s)
    return best[1], led


def _per_seat_combos(spec) -> dict[int, list[list[str]]]:
    if isinstance(spec, Mapping):
        return {int(s): [cards(c) for c in v] for s, v in spec.items()}
    return {s: [cards(c) for c in v] for s, v in enumerate(spec) if v}


def play_position(hands=None, **kw) -> dict:
    """:func:`position` in phase ``play`` (the declarations made)."""
    return position(hands, phase="play", **kw)


def declare_position(hands=None, **kw) -> dict:
    """:func:`position` in phase ``declare`` (``declarer`` to declare, before the first lead;
    with ``after_own_first_card`` the last seat of ``trick``)."""
    return position(hands, phase="declare", **kw)


def discard_position(hands=None, **kw) -> dict:
    """:func:`position` in phase ``discard`` (``cutter_robbed``, ``dealer_robbed`` and the
    ``discards`` made so far)."""
    return position(hands, phase="discard", **kw)


# --- random play -------------------------------------------------------------------------------

game = game_loader("minchiate")


def walk(g, seed: int, match: bool = False, declare_probability: float = 0.6,
         limit: int = 10_000):
    """Every state of one random deal (or match) with the action taken from it (None at the
    end)."""
    rnd = random.Random(seed)
    s = g.new_match(seed) if match else g.new_deal(seed)
    for _ in range(limit):
        if s.is_terminal():
            yield s.clone(), None
            return
        a = g.definition.choose_random(s.legal_actions(), (declare_probability,), rnd)
        yield s.clone(), a
        s.apply_action(a)


def random_state(seed: int, phase: str, *, tricks_played: int | None = None,
                 match: bool = False, declare_probability: float = 0.6, tries: int = 200,
                 **options):
    """The first state of random play (seeds ``seed``, ``seed + 1``, ...) in ``phase`` (and
    with ``tricks_played`` tricks complete, when given)."""
    g = game(**options)
    for sd in range(seed, seed + tries):
        for s, _ in walk(g, sd, match, declare_probability):
            d = s.to_dict()
            if d["phase"] == phase and (tricks_played is None
                                        or d["tricks_played"] == tricks_played):
                return s
    raise AssertionError(f"no state in phase {phase!r} in seeds {seed}..{seed + tries - 1}")


def random_position(seed: int, phase: str, **kw) -> dict:
    """:func:`random_state` as a position dict."""
    return random_state(seed, phase, **kw).to_dict()


# --- named positions and actions --------------------------------------------------------------

# The engine's action kinds (kind << 8 | value), restated as an oracle.
PLAY, DISCARD, DECLARE, DONE, SEEN = range(5)


def aid(kind: int, value: int = 0) -> int:
    """The id of an action of ``kind`` (:data:`PLAY` ...) with ``value``: kind << 8 | value."""
    return kind << 8 | value


def rebuild(g, d):
    """``g.from_dict`` of ``d`` after a JSON round trip."""
    return g.from_dict(json.loads(json.dumps(d)))


def BASE():
    """Play, trick 6: seat 1 led 3co, seat 2 trumped; the cutter robbed 3, the dealer 2."""
    return play_position({0: "M"}, cutter_robbed="T38 Kcu T24", dealer_robbed="T40 T29",
                         trick=[[1, "3co"], [2, "T12"]], leader=1, tricks_played=5,
                         suits_led=["sw"])


def DISC():
    """Phase discard: the cutter (3) discarded one of his three."""
    return discard_position(cutter_robbed="T38 Kcu T24", dealer_robbed="T40 T29",
                            discards={3: "6cu"})


def DECL():
    """Phase declare: seat 2 declared 1-2-3 and is to move; seat 1 is done."""
    return declare_position({2: SEAT2}, declarer=2, declared={2: [["T1", "T2", "T3"]]})


SEAT2 = "T1 T2 T3 M 2co 3co 4co 5co 6co 7co 8co 9co 10co 2cu 3cu 4cu 5cu 6cu 7cu 8cu 9cu"


def move(d, card_name, src, dst):
    """Move a card between two lists of the dict (``("hands", 0)`` or ``("fola",)``)."""
    def lst(path):
        x = d
        for p in path:
            x = x[p]
        return x
    lst(src).remove(card_name)
    lst(dst).append(card_name)
    lst(dst).sort(key=MINCHIATE.index)
    return d

"""A Mushka player that follows the card sense of good players (rules/mushka.md).

:func:`choose` reads only what the player to move sees (rules §5): his own hand and his own
discards, the turned card (and whether the dealer took it), every card played this deal and
the current trick, the tricks won, the records, every exchange decision (who passed, who stood,
how many cards each exchanged), the stock's size, and the cards each seat is publicly known
not to hold (``EXCLUDED``: a pass proves no ace of spades, not following suit proves a void,
and so on). Never the other hands, the discards of others, the stock's cards, nor
``ACE_HOLDER``: that the ace of spades is still *live* (could be in an opponent's hand) is
decided from the cards seen and ``EXCLUDED`` alone.

The *unseen* cards are the deck's cards the player has not seen: the other hands (passed hands
too), the others' discards and the stock (and the dealer's taken turned card, counted as
unseen for simplicity). An opponent holding ``h`` cards is taken to hold each unseen card he is
not known to lack with chance ``h / unseen``, independently; from this come two estimates:

- the *hold chance* of a card: the chance that it wins the current trick, i.e. beats what was
  played so far and none of the players still to play beats it. A plain card is beaten by a
  higher card of its suit, or by a trump from a player void in the suit (MU-PLAY-4/5); a trump
  by a higher trump from a player who may play it; the trump ace *led* also by the ace of
  spades (MU-ACE-2) unless spades are trump. The ace of spades played on a led trump ace wins
  for sure.
- the *worth* of a card: the chance that, kept, it takes a trick later. The trump ace (and the
  ace of spades when spades are trump) is a sure trick, since every card is played and nothing
  beats it unless it is led into the ace of spades; any other trump the chance that no
  opponent holds a higher one, but at least ``TRUMP_FLOOR`` (it can trump a suit its holder
  lacks); a plain card ``PLAIN_DECAY`` times its hold chance when led now (voids appear as the
  deal goes on); the ace of spades, while the trump ace is live and spades are not trump,
  ``AS_KEEP`` more (it may beat a led trump ace, MU-ACE-2).

A deal's value is the record written off: +1 a trick, −5 a remise (MU-SCORE-2), and for the
holder of the ace of spades +5 (+10 with spades trump) at his first trick or −10 without a
trick (MU-SCORE-3/4). The *remise stake* is what the first trick is worth beyond +1: the
remise, plus for the holder the bonus and the extra 5.

The rules, rule by rule:

- **H1 Always stop at 0** (MU-STOP-1/4, ``stop_mode=declared``): stopping wins the game;
  playing on only risks the overshoot reset (MU-STOP-3).
- **H2 Pass a weak hand** (MU-EXCH-2/3, MU-PASS-1). The hand is valued as it will be after
  the exchange of H3: E = the kept cards' worths plus, per card drawn, the mean worth of the
  unseen cards; P0 = the chance of no trick (the product of one minus each worth). Pass when
  E − 5 · P0 < ``PASS_BELOW``: a pass costs nothing (the record stays) but gives up the
  tricks, so it is chosen when the expected tricks do not pay for the remise risk. In a match
  with a low record (≤ ``LOW_RECORD``) each trick counts ``LOW_RECORD_WEIGHT`` times, since a
  few tricks win the game. The opponents counted are the seats that have not passed (the seats
  still to decide count as playing), so the dealer whose opponents all passed always plays and
  takes the five tricks (MU-PASS-3). With the ace of spades one cannot pass (MU-EXCH-3): the
  pass is then not among the actions and the hand is played.
- **H3 Exchange the weak cards** (MU-EXCH-2/4/5). Discard every card worth less than a card
  drawn is worth on average (the mean worth of the unseen cards), the weakest first, at most
  as many as the stock holds (and 5): trumps and high cards are kept, low plain cards go, and
  a plain suit thrown away whole becomes a void to trump later. The ace of spades and the
  taken turned card cannot be discarded. Nothing weak: stand.
- **H4 The dealer's discard** (``dealer_takes_trump_card``): the card of least worth.
- **H5 Cash sure tricks first.** Leading, play a card whose hold chance is 1 (no unseen card
  can beat it): a plain one before a trump (plain masters can be trumped once voids appear;
  leading a master trump also draws the others' trumps). The trump ace is sure only when the
  ace of spades cannot answer it: spades are trump, or the ace of spades was played, is the
  leader's own, is the turned card, or is known to be in no opponent's hand (``EXCLUDED``: a
  pass, a first trick won without the bonus). So the trump ace is led only then; otherwise
  it is kept, since as a follower it beats every card.
- **H6 Lead a strong plain card.** Otherwise lead the plain card with the best hold chance
  when it is at least ``LEAD_TO_WIN`` (an ace, a king after its ace fell). The ace of spades
  is not led while the trump ace is live (kept to beat a led trump ace, MU-ACE-2).
- **H7 Else lead low.** Lead the lowest card of the shortest plain suit when holding trumps
  (a void to trump later), else the plain card of least worth; never a trump while a plain
  card remains; with trumps only, the trump of least worth.
- **H8 Follow to win cheaply.** Following, each legal card is scored by its hold chance (0 if
  it does not beat the trick so far) minus its worth (what playing it now gives up), and,
  while the player has no trick, minus the remise stake times the chance of ending without
  a trick (no trick now, and none from the rest of the hand). The best score is played. So
  the last player wins with his cheapest winning card; a master trump is not spent where a
  low trump holds the trick; a high card is played when it likely holds; the ace of spades
  beats a led trump ace; a trick that cannot be won gets the card of least worth. (Only a
  follower can be without a trick once the first trick is over, since the leader won the last
  trick: the remise risk is weighed here.)

Ties go to the lower card index, so the choice does not use ``rng`` and is a function of the
position.

Strength (tests/games/mushka/test_heuristic.py; ``cardsim.solvers.duplicate.play_duplicate``, one
heuristic against random players, every deal once per rotation of the seats, 2,000 deals):
its mean record written off per deal is +3.83 with 3 players, +3.16 with 4, +1.93 with 5,
+1.54 with 6 and +1.20 with 7, each ±0.09 or less (95%); a random player at the same tables
averages +0.8, 0.0, −0.7, −1.1 and −1.4. The thresholds were set on such duplicate deals
against random players and against a field of the heuristic itself: a ``TRUMP_FLOOR`` of 0.6
(rather than 0.3) gained about +0.6 per deal against random players at 4 and 6 players and a
little in the heuristic's field; a lower ``PASS_BELOW`` gains against random players (who
rarely pass and waste their high cards) and loses in the heuristic's field, so the neutral 0
is kept; ``PLAIN_DECAY``, ``AS_KEEP`` and ``LEAD_TO_WIN`` changed little.
"""
import numpy as np

from ...compiled.actions import find_kind, kind_of, value_of
from ...compiled.bits import ONE, ZERO, bit, lowest_index, popcount
from ...compiled.jit import helper, kernel
from . import layout as L
from .kernels import above, ace_beats_lead, led_card
from .rules import P_ACE_BONUS, P_ACE_DISCARDABLE, P_LOWEST_RANK, P_NUM_PLAYERS, P_REMISE
from .scoring import ace_bonus, suit_of

__all__ = ["choose", "PASS_BELOW", "LOW_RECORD", "LOW_RECORD_WEIGHT", "TRUMP_FLOOR",
           "PLAIN_DECAY", "AS_KEEP", "LEAD_TO_WIN", "SURE"]

PASS_BELOW = 0.0        # H2: pass when E - remise * P0 (tricks weighted) is below this
LOW_RECORD = 3          # H2: a match record this low makes tricks worth more
LOW_RECORD_WEIGHT = 3.0  # H2, H8: ... this many times
TRUMP_FLOOR = 0.6       # worth: a low trump can still trump a suit its holder lacks
PLAIN_DECAY = 0.8       # worth: a plain card kept is worth less than led now
AS_KEEP = 0.2           # worth: the ace of spades kept against a led trump ace (MU-ACE-2)
LEAD_TO_WIN = 0.4       # H6: the least hold chance of a plain lead meant to win
SURE = 0.999            # H5: a hold chance this high is a sure trick

_AS = np.uint64(1) << np.uint64(L.ACE_OF_SPADES)


# --- what the player to move sees -------------------------------------------------------------

@helper
def _trump(state):
    """MU-DEAL-3: the trump suit (the turned card's suit, public)."""
    return suit_of(np.int64(state[L.TRUMP_CARD]))


@helper
def _deck(params):
    """Rules §1: the cards of the deck in use (ranks from the lowest rank up, every suit)."""
    low = params[P_LOWEST_RANK]
    deck = ZERO
    for s in range(4):
        deck |= L.SUIT_MASK[s] & ~((bit(13 * s + low)) - ONE)
    return deck


@helper
def _unseen(state, params, me):
    """Rules §5: the deck's cards ``me`` has not seen: not in his hand or his discards, not
    played, not the turned card lying face up (a taken turned card stays unseen)."""
    seen = state[L.HAND + me] | state[L.DISCARDS + me]
    for seat in range(params[P_NUM_PLAYERS]):
        seen |= state[L.PLAYED + seat]
    if state[L.TRUMP_TAKEN] == ZERO:
        seen |= bit(np.int64(state[L.TRUMP_CARD]))
    return _deck(params) & ~seen


@helper
def _hand_size(state, seat):
    """Rules §5: how many cards ``seat`` holds (public): 5 before the play, then one less per
    trick played and one less once he played to the current trick."""
    if state[L.PHASE] != L.PHASE_PLAY:
        return L.HAND_SIZE
    size = L.HAND_SIZE - np.int64(state[L.TRICK_NUMBER])
    if state[L.TRICK_CARD + seat] != ZERO:
        size -= 1
    return size


@helper
def _opponents(state, params, me):
    """The opponents in the play: active seats with cards; during the exchange, every seat
    that has not passed (MU-PASS-1; the seats still to decide count as playing)."""
    out = ZERO
    for seat in range(params[P_NUM_PLAYERS]):
        if seat == me:
            continue
        if state[L.PHASE] == L.PHASE_PLAY:
            if state[L.ACTIVE] & bit(seat) and _hand_size(state, seat) > 0:
                out |= bit(seat)
        elif state[L.DECISION + seat] != L.DECIDED_PASS:
            out |= bit(seat)
    return out


@helper
def _later(state, params, me):
    """The active seats still to play to the current trick after ``me`` (MU-PLAY-1)."""
    n = params[P_NUM_PLAYERS]
    leader = np.int64(state[L.LEADER])
    out = ZERO
    seat = me + 1 if me + 1 < n else 0
    while seat != leader:
        if state[L.ACTIVE] & bit(seat):
            out |= bit(seat)
        seat = seat + 1 if seat + 1 < n else 0
    return out


@helper
def _live(state, params, card, unseen, opponents):
    """``card`` may be in an opponent's hand: unseen and not excluded for some opponent."""
    if not unseen & bit(card):
        return False
    for seat in range(params[P_NUM_PLAYERS]):
        if opponents & bit(seat) and not state[L.EXCLUDED + seat] & bit(card):
            return True
    return False


# --- chances ----------------------------------------------------------------------------------

@helper
def _miss(state, seat, n_unseen):
    """The chance that ``seat`` does not hold one given unseen card: 1 - hand / unseen."""
    if n_unseen <= 0:
        return 1.0
    return 1.0 - min(1.0, _hand_size(state, seat) / n_unseen)


@helper
def _hold(state, params, card, led, unseen, later, leading):
    """The hold chance of ``card`` (a trump, or a card of the led suit ``led``) that beats the
    trick so far: none of the seats in ``later`` beats it (module docstring). ``leading``:
    ``card`` is the lead (the trump ace led can meet the ace of spades, MU-ACE-2)."""
    t = _trump(state)
    n_unseen = popcount(unseen)
    higher = above(card)
    led_cards = L.SUIT_MASK[led]
    chance = 1.0
    for seat in range(params[P_NUM_PLAYERS]):
        if not later & bit(seat):
            continue
        miss = _miss(state, seat, n_unseen)
        avail = unseen & ~state[L.EXCLUDED + seat]
        none_higher = miss ** popcount(avail & higher)
        void = miss ** popcount(avail & led_cards)
        if suit_of(card) == t:
            hold = none_higher if led == t else 1.0 - void * (1.0 - none_higher)
            if leading and card == 13 * t + 12 and t != L.SPADES and avail & _AS:
                hold *= miss
        else:
            has_trump = 1.0 - miss ** popcount(avail & L.SUIT_MASK[t])
            hold = max(0.0, none_higher - void * has_trump)
        chance *= hold
    return chance


@helper
def _worth(state, params, card, unseen, opponents):
    """The worth of keeping ``card``: the chance it takes a trick later (module docstring)."""
    t = _trump(state)
    if suit_of(card) == t:
        if card % 13 == 12:
            return 1.0
        n_unseen = popcount(unseen)
        chance = 1.0
        for seat in range(params[P_NUM_PLAYERS]):
            if opponents & bit(seat):
                avail = unseen & ~state[L.EXCLUDED + seat]
                chance *= _miss(state, seat, n_unseen) ** popcount(avail & above(card))
        return max(TRUMP_FLOOR, chance)
    worth = PLAIN_DECAY * _hold(state, params, card, suit_of(card), unseen, opponents, True)
    if card == L.ACE_OF_SPADES and _live(state, params, 13 * t + 12, unseen, opponents):
        worth = min(1.0, worth + AS_KEEP)
    return worth


@helper
def _no_trick_chance(state, params, cards, unseen, opponents):
    """The chance that none of ``cards`` takes a trick: the product of 1 - worth."""
    chance = 1.0
    while cards:
        c = lowest_index(cards)
        cards &= cards - ONE
        chance *= 1.0 - _worth(state, params, c, unseen, opponents)
    return chance


@helper
def _trick_weight(state, params, me):
    """H2, H8: a trick counts ``LOW_RECORD_WEIGHT`` times in a match with a low record."""
    if state[L.MODE] == L.MODE_MATCH and np.int64(state[L.RECORD + me]) <= LOW_RECORD:
        return LOW_RECORD_WEIGHT
    return 1.0


@helper
def _remise_stake(state, params, me):
    """What the first trick is worth beyond +1: the remise, and for the ace's holder the
    bonus and the 5 more of MU-SCORE-4."""
    stake = float(params[P_REMISE])
    if (state[L.HAND + me] | state[L.PLAYED + me]) & _AS:
        stake += params[P_ACE_BONUS] + ace_bonus(state, params)
    return stake


# --- choosing ---------------------------------------------------------------------------------

@helper
def _find(actions, n_actions, kind, cards):
    """The index of the action of ``kind`` with the card mask ``cards``, or -1."""
    for i in range(n_actions):
        if kind_of(actions[i], L.KIND_SHIFT) == kind and value_of(actions[i], L.KIND_SHIFT) == cards:
            return i
    return -1


@helper
def _least_worth(state, params, cards, unseen, opponents):
    """The card of ``cards`` of least worth (ties: the lower index)."""
    best = -1
    low = 2.0
    while cards:
        c = lowest_index(cards)
        cards &= cards - ONE
        w = _worth(state, params, c, unseen, opponents)
        if w < low:
            best, low = c, w
    return best


@helper
def _choose_exchange(state, params, me, actions, n_actions):
    """H2, H3: pass, stand, or exchange the cards worth less than a drawn card."""
    hand = state[L.HAND + me]
    unseen = _unseen(state, params, me)
    opponents = _opponents(state, params, me)
    draw = 0.0
    rest = unseen
    while rest:
        c = lowest_index(rest)
        rest &= rest - ONE
        draw += _worth(state, params, c, unseen, opponents)
    if unseen:
        draw /= popcount(unseen)
    keep = ZERO
    if params[P_ACE_DISCARDABLE] == 0:
        keep |= _AS
    if state[L.TRUMP_TAKEN] != ZERO and me == np.int64(state[L.DEALER]):
        keep |= bit(np.int64(state[L.TRUMP_CARD]))
    limit = min(L.HAND_SIZE, popcount(state[L.STOCK]))
    discard = ZERO
    while popcount(discard) < limit:
        c = _least_worth(state, params, hand & ~keep & ~discard, unseen, opponents)
        if c < 0 or _worth(state, params, c, unseen, opponents) >= draw:
            break
        discard |= bit(c)
    k = popcount(discard)
    kept = hand & ~discard
    tricks = k * draw
    rest = kept
    while rest:
        c = lowest_index(rest)
        rest &= rest - ONE
        tricks += _worth(state, params, c, unseen, opponents)
    no_trick = (_no_trick_chance(state, params, kept, unseen, opponents)
                * (1.0 - draw) ** k)
    value = _trick_weight(state, params, me) * tricks - params[P_REMISE] * no_trick
    if value < PASS_BELOW:
        i = find_kind(actions, n_actions, L.PASS, L.KIND_SHIFT)
        if i >= 0:
            return i
    if discard:
        i = _find(actions, n_actions, L.EXCHANGE, discard)
        if i >= 0:
            return i
    return find_kind(actions, n_actions, L.STAND, L.KIND_SHIFT)


@helper
def _wins_so_far(state, params, card, lead):
    """MU-PLAY-6, MU-ACE-2: ``card`` would beat every card of the current trick."""
    t = _trump(state)
    if ace_beats_lead(state, lead):
        for seat in range(params[P_NUM_PLAYERS]):
            if state[L.TRICK_CARD + seat] == np.uint64(L.ACE_OF_SPADES + 1):
                return False
        return card == L.ACE_OF_SPADES
    led = suit_of(lead)
    best = -1
    for seat in range(params[P_NUM_PLAYERS]):
        c = np.int64(state[L.TRICK_CARD + seat]) - 1
        if c >= 0:
            s = suit_of(c)
            strength = c % 13 + (200 if s == t else (100 if s == led else 0))
            best = max(best, strength)
    s = suit_of(card)
    if s != t and s != led:
        return False
    return card % 13 + (200 if s == t else 100) > best


@helper
def _choose_follow(state, params, me, legal, lead):
    """H8: the legal card of best score: hold chance - worth - (no trick yet) remise stake
    times the chance of no trick at all."""
    hand = state[L.HAND + me]
    unseen = _unseen(state, params, me)
    opponents = _opponents(state, params, me)
    later = _later(state, params, me)
    led = suit_of(lead)
    weight = _trick_weight(state, params, me)
    stake = _remise_stake(state, params, me) if state[L.TRICKS_WON + me] == ZERO else 0.0
    # (the loop of _choose_lead's H6 over the cards, with the score of H8 in place of H6's)
    best = -1
    best_score = -1e18
    rest = legal
    while rest:
        c = lowest_index(rest)
        rest &= rest - ONE
        hold = 0.0
        if _wins_so_far(state, params, c, lead):
            if ace_beats_lead(state, lead):
                hold = 1.0                                   # MU-ACE-2: nothing beats it
            else:
                hold = _hold(state, params, c, led, unseen, later, False)
        score = weight * (hold - _worth(state, params, c, unseen, opponents))
        if stake > 0.0:
            score -= stake * (1.0 - hold) * _no_trick_chance(state, params, hand & ~bit(c),
                                                             unseen, opponents)
        if score > best_score + 1e-12:
            best, best_score = c, score
    return best


@helper
def _choose_lead(state, params, me):
    """H5, H6, H7: the card to lead."""
    hand = state[L.HAND + me]
    t = _trump(state)
    trumps = hand & L.SUIT_MASK[t]
    plain = hand & ~trumps
    unseen = _unseen(state, params, me)
    opponents = _opponents(state, params, me)
    # H5: sure tricks, plain before trumps (the trump ace only when the As cannot answer)
    for group in (plain, trumps):
        rest = group
        while rest:
            c = lowest_index(rest)
            rest &= rest - ONE
            if _hold(state, params, c, suit_of(c), unseen, opponents, True) >= SURE:
                return c
    # H6: the strongest plain lead; the As kept while the trump ace is live
    candidates = plain
    if t != L.SPADES and _live(state, params, 13 * t + 12, unseen, opponents):
        candidates &= ~_AS
    best = -1
    best_hold = -1.0
    rest = candidates
    while rest:
        c = lowest_index(rest)
        rest &= rest - ONE
        h = _hold(state, params, c, suit_of(c), unseen, opponents, True)
        if h > best_hold + 1e-12:
            best, best_hold = c, h
    if best >= 0 and best_hold >= LEAD_TO_WIN:
        return best
    # H7: lead low, from the shortest plain suit when holding trumps
    if candidates == ZERO:
        candidates = plain
    if candidates == ZERO:
        return _least_worth(state, params, trumps, unseen, opponents)
    if trumps == ZERO:
        return _least_worth(state, params, candidates, unseen, opponents)
    best = -1
    best_key = 1 << 30
    rest = candidates
    while rest:
        c = lowest_index(rest)
        rest &= rest - ONE
        key = 16 * popcount(hand & L.SUIT_MASK[suit_of(c)]) + c % 13
        if key < best_key:
            best, best_key = c, key
    return best


@kernel
def choose(state, params, actions, n_actions, rng):
    """H1-H8: the index into ``actions[:n_actions]`` (the legal actions of the player to move)
    of the heuristic's action. ``rng`` is not used: ties go to the lower card."""
    me = np.int64(state[L.TO_MOVE])
    phase = state[L.PHASE]
    i = -1
    if phase == L.PHASE_STOP:
        i = find_kind(actions, n_actions, L.STOP, L.KIND_SHIFT)  # H1
    elif phase == L.PHASE_EXCHANGE:
        i = _choose_exchange(state, params, me, actions, n_actions)   # H2, H3
    elif phase == L.PHASE_DISCARD:                                       # H4
        legal = ZERO
        for j in range(n_actions):
            legal |= value_of(actions[j], L.KIND_SHIFT)
        c = _least_worth(state, params, legal, _unseen(state, params, me),
                         _opponents(state, params, me))
        i = _find(actions, n_actions, L.DISCARD, bit(c))
    elif phase == L.PHASE_PLAY:
        lead = led_card(state)
        if lead < 0:
            c = _choose_lead(state, params, me)                        # H5, H6, H7
        else:
            legal = ZERO
            for j in range(n_actions):
                legal |= value_of(actions[j], L.KIND_SHIFT)
            c = _choose_follow(state, params, me, legal, lead)         # H8
        i = _find(actions, n_actions, L.PLAY, bit(c))
    return i if i >= 0 else 0

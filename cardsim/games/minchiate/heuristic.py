"""A Minchiate player that follows the card sense of good players (rules/minchiate.md).

:func:`choose` reads only what the player to move sees (rules §6): his own hand and his own
discards, every card played (``PLAYED``, the current trick), the cards shown in each hand
(``SHOWN``: robbed, exposed, declared cards and a Matto shown for its bonus), the cards each
seat is publicly known not to hold (``EXCLUDED``), the card that stopped the cutter's robbing
(``SEEN_BOTTOM``, it lies in the Fola), the Fola only once it is open (``FOLA_OPEN``), the
tricks won, the Matto's team, the trick number and the suits led. Never the other hands, the
deal order, the chance stream, nor a Fola that is still face down.

The *unseen* cards are the pack's cards the player has not seen: the other hands and (while
it is face down) the Fola. A card shown by another seat and not played is taken to be in that
seat's hand. Each other seat holds the rest of its hand (its size is public: 21 minus the
tricks played, one less once it played to the current trick) among the unseen cards it is not
known to lack and not known to be elsewhere, each with the same chance, independently. From
this come, as in the Mushka player:

- the *hold chance* of a card: the chance that it wins the current trick, i.e. beats what was
  played so far and none of the opponents still to play beats it. A plain card is beaten by a
  higher card of its suit, or by a trump from a player void in the suit (MI-PLAY-*); a trump
  by a higher trump from a player who holds one and may play it (the suit led is trumps, or he
  lacks the suit led). The Matto never wins. The partner still to play is not counted (he
  would only help);
- the *worth* of a card: the chance that, kept, it takes a trick later: a trump the chance
  that no opponent holds a higher one, at least ``TRUMP_FLOOR`` (a low trump still ruffs a
  suit its holder lacks); a plain card ``PLAIN_DECAY`` times its hold chance led now (voids
  appear as the deal goes on).

Points are counted as the team's difference D (MI-RESTO-1), since the resti are made from
it. A counting card of value v ends in the pile of the team that wins its trick (MI-END-1)
and, when the other team played it, also "dies" at once (MI-SCORE-2): a card of ours won by
the opponents swings 2v against us, won by us v for us; an opponent's card won by us 2v for
us, won by them v for them. A trick itself is worth ``TRICK_POINTS`` (the cards beyond 42,
MI-END-2), 10 more when it is the 21st (MI-END-4) and ``NO_TRICK_STAKE`` more while the team
has no trick (a team without a trick gives up the Matto, MI-MATTO-3, and the capot).

The rules, rule by rule:

- **H1 Discard the least useful cards** (MI-DISC-1..3). Of the legal discards, plain cards
  before trumps (trumps take tricks and ruff), from the shortest plain suit first (a suit
  thrown away whole becomes a void to ruff later), the weakest first; a zero-value trump only
  when no plain card may go, the lowest first; when the rules force a counting card, the least
  valuable, a low trump before a King. Discarded cards go to the Fola and count for nobody, so
  a counting card is never discarded while a zero-value card may go (the rules enforce this
  anyway).
- **H2 Declare everything and claim the Matto bonus** (MI-DECL-*, MI-COMB-4). Every
  combination is declared (the lowest id first, so all are) and the bonus claimed whenever it
  is legal: the points count at once and are not lost later, whatever happens to the cards.
  Hiding a combination gains only secrecy about a few cards — the opponents learn little from
  it that the play would not soon reveal, and a player who hides gives up a sure 11 to 90
  points (more than a resto) for it, so the heuristic never hides.
- **H3 Cash Kings early.** Leading, a King whose hold chance is at least ``CASH_KING`` is led
  (the highest hold first): it takes its 5 points home. Kept, it risks dying once voids appear,
  or being forced onto a ruffed first lead of its suit (MI-KING-1).
- **H4 Draw trumps when strong.** Leading with a master trump (no opponent can hold a higher
  one: hold chance at least ``SURE``) and at least ``DRAW_TRUMPS`` trumps, while an opponent
  may still hold trumps, lead the lowest master trump: the opponents must follow with trumps,
  their counting trumps die, and the long hand's remaining trumps become masters.
- **H5 Else lead low.** Lead a zero-value plain card: from a suit in which the partner is
  known void and may ruff first (it lets him take the trick with a trump); never, if another
  suit will do, from a suit in which an opponent is known void and may hold trumps (he would
  ruff, and a first lead of the suit ruffed forces the partner's King out, MI-KING-1); then
  from the shortest suit (to make a void), the weakest card. Without zero-value plain cards,
  the lowest zero-value trump; with only counting cards left, the one of best expected value
  (hold chance × its points against the swing of losing it), or the Matto when even that
  loses more than ``MATTO_LEAD_BELOW`` points (the Matto is never lost, MI-MATTO-1).
- **H6 Follow by expected points** (MI-SCORE-2, MI-END-*). Following, each legal card is
  scored: P × (what the team gains if it wins the trick) − (1 − P) × (what it loses if the
  opponents win), minus what the card is worth kept (``KEEP_POINTS`` × its worth, and its own
  points' expected fate: taken home with its worth's chance, else dying with chance
  ``DIE_SHARE``). P is the card's hold chance if it beats the trick so far, the partner's
  card's hold chance if the partner is winning and the card does not beat him, else 0. Each
  opponent still to play adds ``LATER_POINTS`` expected points to the trick. The best score is
  played (ties: the lower card). This gives, together:

  - *save counting cards*: when the trick is lost, a zero-value card goes, never a counting
    card that can be kept;
  - *die at home*: when the partner's card holds the trick, the counting card most at risk
    goes into it (it scores nothing now but counts at the end in the team's pile), a low
    counting trump (T1..T5, T10, T13, T20) first — they rarely take a trick themselves; a
    master trump is not given away, it takes tricks later;
  - *win cheaply*: opponents' counting cards in the trick are taken with the cheapest card
    that holds (a low trump when void rather than a master trump); a trick with nothing in it
    is not taken with a card that is worth more kept; the partner's holding card is not
    overtaken.
- **H7 The Matto** (MI-MATTO-*). Following, the Matto is scored like a card: it takes nothing
  and is never lost, so it saves the card it replaces; if the opponents win the trick it costs
  ``DEBT_POINTS`` (the card paid at the end), and playing it gives up the excuse, worth
  ``MATTO_KEEP`` points kept. So it is played when every other legal card would give away
  counting points (a forced counting trump under a higher one), not in a trick the partner
  wins or in a trick where a zero-value card would do. From the last ``MATTO_LATE`` tricks on,
  keeping it is worth ``−MATTO_PUSH``: it is then played into a trick where nothing better is
  to be done, so that the last tricks are fought with real cards (the last trick is worth 10,
  and a Matto kept to the end is a card that cannot win it). The Matto settlement looks at
  the whole deal (a team without a trick loses it whenever it was played, MI-MATTO-3), so
  playing it early cannot save it; the team's first trick is instead worth
  ``NO_TRICK_STAKE`` more (H6), twice when the team is known to hold the Matto.

Ties go to the lower card index, so the choice does not use ``rng`` and is a function of the
position.

Strength (tests/games/minchiate/test_heuristic.py; ``cardsim.solvers.duplicate.play_duplicate``,
agents heuristic/random/heuristic/random, each deal played in the four rotations of the
seats, so the same cards go to both teams): the heuristic team wins +2.21 net resti per deal
against random players, 95% interval [2.18, 2.24] on 2,000 deals (seed 7). How the
thresholds were set: the docstring of the test module.
"""
import numpy as np

from ...compiled.actions import kind_of, value_of
from ...compiled.bits import ONE, ZERO, lowest_index, popcount
from ...compiled.jit import helper, kernel
from . import layout as L
from .scoring import in_set, pop_lowest, set_of, set_size

__all__ = ["choose", "TRUMP_FLOOR", "PLAIN_DECAY", "SURE", "CASH_KING", "DRAW_TRUMPS",
           "KEEP_POINTS", "DIE_SHARE", "TRICK_POINTS", "NO_TRICK_STAKE", "LATER_POINTS",
           "DEBT_POINTS", "MATTO_KEEP", "MATTO_LATE", "MATTO_PUSH", "MATTO_LEAD_BELOW"]

TRUMP_FLOOR = 0.25      # worth: a low trump still ruffs a suit its holder lacks
PLAIN_DECAY = 0.8       # worth: a plain card kept is worth less than led now
SURE = 0.999            # H4: a hold chance this high is a sure trick
CASH_KING = 0.8         # H3: the least hold chance of a King led to cash it
DRAW_TRUMPS = 7         # H4: the fewest trumps (with a master) to draw trumps
KEEP_POINTS = 7.0       # H6: points of a later trick a card's worth stands for
DIE_SHARE = 0.5         # H6: the chance a kept counting card that takes no trick dies
TRICK_POINTS = 2.0      # H6: a trick's own worth (cards beyond 42)
NO_TRICK_STAKE = 5.0    # H6, H7: the team's first trick is worth this more
LATER_POINTS = 0.0      # H6: expected points each opponent still to play adds to the trick
DEBT_POINTS = 1.0       # H7: the card paid when the opponents win the Matto's trick
MATTO_KEEP = 3.0        # H7: the Matto kept as an excuse for later
MATTO_LATE = 2          # H7: in the last tricks ...
MATTO_PUSH = 2.0        # H7: ... keeping the Matto is worth this much less than nothing
MATTO_LEAD_BELOW = -6.0  # H5: lead the Matto when the best counting lead is worth less

_ALL0 = np.uint64((1 << 41) - 1)                 # trumps and the Matto
_ALL1 = np.uint64((1 << 56) - 1)                 # the suit cards
_TRUMPS0 = np.uint64((1 << 40) - 1)


def _above_table() -> np.ndarray:
    """ABOVE[c]: the two words of the cards that beat ``c`` within its suit (trumps: the
    higher trumps); nothing for the Matto."""
    out = np.zeros((97, 2), dtype=np.uint64)
    for c in range(97):
        if c == L.MATTO:
            continue
        m = [0, 0]
        for d in range(97):
            if d != L.MATTO and L.SUIT[d] == L.SUIT[c] and L.STRENGTH[d] > L.STRENGTH[c]:
                if d < L.WORD1_START:
                    m[0] |= 1 << d
                else:
                    m[1] |= 1 << (d - L.WORD1_START)
        out[c, 0], out[c, 1] = m
    return out


ABOVE = _above_table()


# --- what the player to move sees -------------------------------------------------------------

@helper
def _hand_size(state, seat):
    """Rules §6: how many cards ``seat`` holds once the discards are over (public)."""
    size = L.HAND_SIZE - np.int64(state[L.TRICK_NUMBER])
    if state[L.TRICK_CARD + seat] != ZERO:
        size -= 1
    return size


@helper
def _unseen(state, me):
    """The pack's cards ``me`` has not seen (module docstring)."""
    u0 = _ALL0 & ~state[L.HAND + 2 * me] & ~state[L.DISCARDS + 2 * me]
    u1 = _ALL1 & ~state[L.HAND + 2 * me + 1] & ~state[L.DISCARDS + 2 * me + 1]
    for s in range(4):
        u0 &= ~state[L.PLAYED + 2 * s]
        u1 &= ~state[L.PLAYED + 2 * s + 1]
        c = np.int64(state[L.TRICK_CARD + s]) - 1
        if c >= 0:
            b0, b1 = set_of(c)
            u0 &= ~b0
            u1 &= ~b1
    if state[L.FOLA_OPEN] != ZERO:
        u0 &= ~state[L.FOLA]
        u1 &= ~state[L.FOLA + 1]
    seen = np.int64(state[L.SEEN_BOTTOM]) - 1          # it lies in the Fola (MI-CUT-1)
    if seen >= 0:
        b0, b1 = set_of(seen)
        u0 &= ~b0
        u1 &= ~b1
    return u0, u1


@helper
def _shown(state, seat, u0, u1):
    """The unseen cards shown in ``seat``'s hand (two words), taken to be held there. While
    the Fola is face down a robbed zero-value card may have been discarded into it: it is not
    taken as held."""
    k0 = state[L.SHOWN + 2 * seat] & ~state[L.EXCLUDED + 2 * seat] & u0
    k1 = state[L.SHOWN + 2 * seat + 1] & ~state[L.EXCLUDED + 2 * seat + 1] & u1
    if state[L.FOLA_OPEN] == ZERO:
        k0 &= ~((state[L.CUTTER_ROBBED] | state[L.DEALER_ROBBED]) & ~L.COUNTING[0])
        k1 &= ~((state[L.CUTTER_ROBBED + 1] | state[L.DEALER_ROBBED + 1]) & ~L.COUNTING[1])
    return k0, k1


@helper
def _shown_unplayed(state, me, u0, u1):
    """The unseen cards shown in the other seats' hands (two words)."""
    k0 = ZERO
    k1 = ZERO
    for s in range(4):
        if s != me:
            a0, a1 = _shown(state, s, u0, u1)
            k0 |= a0
            k1 |= a1
    return k0, k1


@helper
def _model(state, seat, u0, u1, ka0, ka1):
    """Seat ``seat``'s cards as ``me`` sees them: the cards known held (shown, unplayed), the
    free cards he may hold, and the chance he holds each free card."""
    k0, k1 = _shown(state, seat, u0, u1)
    f0 = u0 & ~ka0 & ~state[L.EXCLUDED + 2 * seat]
    f1 = u1 & ~ka1 & ~state[L.EXCLUDED + 2 * seat + 1]
    rest = _hand_size(state, seat) - set_size(k0, k1)
    free = set_size(f0, f1)
    p = 0.0
    if rest > 0 and free > 0:
        p = min(1.0, rest / free)
    return k0, k1, f0, f1, p


@helper
def _none_of(k0, k1, f0, f1, p, x0, x1):
    """The chance that a seat (its model) holds none of the cards ``x``."""
    if (x0 & k0) != ZERO or (x1 & k1) != ZERO:
        return 0.0
    return (1.0 - p) ** set_size(x0 & f0, x1 & f1)


@helper
def _nobeat(state, seat, u0, u1, ka0, ka1, card, led):
    """The chance that ``seat`` cannot beat ``card`` (a trump, or a card of the led suit
    ``led``)."""
    k0, k1, f0, f1, p = _model(state, seat, u0, u1, ka0, ka1)
    nh = _none_of(k0, k1, f0, f1, p, ABOVE[card, 0], ABOVE[card, 1])
    if L.SUIT[card] == L.TRUMPS:
        if led == L.TRUMPS:
            return nh
        void = _none_of(k0, k1, f0, f1, p, L.SUIT_MASK[led, 0], L.SUIT_MASK[led, 1])
        return 1.0 - void * (1.0 - nh)
    void = _none_of(k0, k1, f0, f1, p, L.SUIT_MASK[led, 0], L.SUIT_MASK[led, 1])
    no_trump = _none_of(k0, k1, f0, f1, p, L.SUIT_MASK[L.TRUMPS, 0], L.SUIT_MASK[L.TRUMPS, 1])
    return max(0.0, nh - void * (1.0 - no_trump))


@helper
def _hold(state, me, u0, u1, ka0, ka1, card, led, later):
    """The hold chance of ``card`` against the opponents among the seats ``later`` (a bit
    per seat), given that it beats the trick so far."""
    if card == L.MATTO:
        return 0.0
    chance = 1.0
    for seat in range(4):
        if (later >> seat) & 1 and (seat & 1) != (me & 1):
            chance *= _nobeat(state, seat, u0, u1, ka0, ka1, card, led)
    return chance


@helper
def _opponents(me):
    return (1 << ((me + 1) & 3)) | (1 << ((me + 3) & 3))


@helper
def _worth(state, me, u0, u1, ka0, ka1, card):
    """The chance that ``card``, kept, takes a trick later (module docstring)."""
    if card == L.MATTO:
        return 0.0
    if L.SUIT[card] == L.TRUMPS:
        return max(TRUMP_FLOOR, _hold(state, me, u0, u1, ka0, ka1, card, L.TRUMPS,
                                      _opponents(me)))
    return PLAIN_DECAY * _hold(state, me, u0, u1, ka0, ka1, card, L.SUIT[card], _opponents(me))


@helper
def _later(state, me):
    """The seats still to play to the current trick after ``me`` (a bit per seat)."""
    leader = np.int64(state[L.LEADER])
    out = 0
    seat = (me + 1) & 3
    while seat != leader:
        out |= 1 << seat
        seat = (seat + 1) & 3
    return out


@helper
def _best_in_trick(state):
    """The card now winning the trick (-1 when only the Matto or nothing was played) and
    its seat (MI-PLAY-*)."""
    led = np.int64(state[L.LED_SUIT])
    best = -1
    best_seat = -1
    for s in range(4):
        c = np.int64(state[L.TRICK_CARD + s]) - 1
        if c < 0 or c == L.MATTO:
            continue
        if best < 0:
            if L.SUIT[c] == L.TRUMPS or L.SUIT[c] == led:
                best, best_seat = c, s
            continue
        if L.SUIT[c] == L.TRUMPS:
            if L.SUIT[best] != L.TRUMPS or c > best:
                best, best_seat = c, s
        elif L.SUIT[c] == led and L.SUIT[best] == led and L.STRENGTH[c] > L.STRENGTH[best]:
            best, best_seat = c, s
    return best, best_seat


@helper
def _beats(card, best, led):
    """``card`` beats the trick's best card ``best`` (-1: none yet) of led suit ``led``."""
    if card == L.MATTO:
        return False
    if best < 0:
        return True
    if L.SUIT[best] == L.TRUMPS:
        return L.SUIT[card] == L.TRUMPS and card > best
    if L.SUIT[card] == L.TRUMPS:
        return True
    return L.SUIT[card] == led and L.STRENGTH[card] > L.STRENGTH[best]


@helper
def _matto_ours(state, me):
    """The team of ``me`` is known (to ``me``) to hold the Matto."""
    if in_set(state[L.HAND + 2 * me], state[L.HAND + 2 * me + 1], L.MATTO):
        return True
    if np.int64(state[L.MATTO_TEAM]) == (me & 1) + 1:
        return True
    partner = (me + 2) & 3
    return (state[L.SHOWN + 2 * partner] >> np.uint64(L.MATTO)) & ONE != ZERO


@helper
def _trick_points(state, me):
    """H6: what taking the current trick is worth beyond its cards."""
    b = TRICK_POINTS
    if np.int64(state[L.TRICK_NUMBER]) == L.TRICKS_PER_DEAL - 1:
        b += L.LAST_TRICK_POINTS
    if state[L.TRICKS_WON + (me & 1)] == ZERO:
        b += NO_TRICK_STAKE
        if _matto_ours(state, me):
            b += NO_TRICK_STAKE
    return b


@helper
def _keep_value(state, me, u0, u1, ka0, ka1, card, tricks_after):
    """H6: what ``card`` is worth kept: its worth as later tricks, and its own points'
    expected fate (home with its worth's chance, else dying with ``DIE_SHARE``)."""
    if card == L.MATTO:
        return MATTO_KEEP if tricks_after > MATTO_LATE else -MATTO_PUSH
    if tricks_after == 0:
        return 0.0
    w = _worth(state, me, u0, u1, ka0, ka1, card)
    v = L.VALUE[card]
    return KEEP_POINTS * w + v * (w - (1.0 - w) * 2.0 * DIE_SHARE)


# --- choosing ---------------------------------------------------------------------------------

@helper
def _value_of(a):
    return np.int64(value_of(a, L.KIND_SHIFT))


@helper
def _find_card(actions, n_actions, kind, card):
    for i in range(n_actions):
        if kind_of(actions[i], L.KIND_SHIFT) == kind and _value_of(actions[i]) == card:
            return i
    return -1


@helper
def _discard_key(h0, h1, card):
    """H1: the lower, the sooner the card is discarded."""
    v = L.VALUE[card]
    s = L.SUIT[card]
    if s < L.TRUMPS:
        n_suit = set_size(h0 & L.SUIT_MASK[s, 0], h1 & L.SUIT_MASK[s, 1])
        return v * 10000 + n_suit * 20 + L.STRENGTH[card] + (200 if v > 0 else 0)
    if s == L.TRUMPS:
        return v * 10000 + 1000 + card
    return v * 10000 + 2000                           # the Matto (never discardable)


@helper
def _choose_discard(state, me, actions, n_actions):
    h0 = state[L.HAND + 2 * me]
    h1 = state[L.HAND + 2 * me + 1]
    best = 0
    best_key = 1 << 40
    for i in range(n_actions):
        if kind_of(actions[i], L.KIND_SHIFT) != L.DISCARD:
            continue
        key = _discard_key(h0, h1, _value_of(actions[i]))
        if key < best_key:
            best, best_key = i, key
    return best


@helper
def _choose_declare(actions, n_actions):
    """H2: declare the lowest combination left; then done, with the bonus when legal."""
    best = 0
    for i in range(n_actions):
        k = kind_of(actions[i], L.KIND_SHIFT)
        if k == L.DECLARE:
            return i
        if _value_of(actions[i]) >= _value_of(actions[best]) or kind_of(actions[best], L.KIND_SHIFT) != k:
            best = i
    return best


@helper
def _voids(state, seat, suit):
    """``seat`` is publicly known to lack suit ``suit``."""
    return ((L.SUIT_MASK[suit, 0] & ~state[L.EXCLUDED + 2 * seat]) == ZERO
            and (L.SUIT_MASK[suit, 1] & ~state[L.EXCLUDED + 2 * seat + 1]) == ZERO)


@helper
def _may_ruff(state, seat, suit, u0, u1):
    """``seat`` is known void in ``suit`` and may still hold a trump."""
    return _voids(state, seat, suit) and (
        u0 & _TRUMPS0 & ~state[L.EXCLUDED + 2 * seat]) != ZERO


@helper
def _choose_lead(state, me, h0, h1):
    """H3, H4, H5: the card to lead (also second after a Matto lead: the suit is still
    open)."""
    u0, u1 = _unseen(state, me)
    ka0, ka1 = _shown_unplayed(state, me, u0, u1)
    later = _later(state, me)
    opp = _opponents(me) & later
    partner = (me + 2) & 3
    trick_b = _trick_points(state, me)
    # H3: cash Kings
    best = -1
    best_hold = CASH_KING - 1e-12
    for s in range(4):
        k = L.WORD1_START + 14 * s + 13
        if in_set(h0, h1, k):
            h = _hold(state, me, u0, u1, ka0, ka1, k, s, opp)
            if h > best_hold + 1e-12:
                best, best_hold = k, h
    if best >= 0:
        return best
    # H4: draw trumps with a master trump and a long trump suit
    t0 = h0 & _TRUMPS0
    n_trumps = popcount(t0)
    opp_trumps = False
    for seat in range(4):
        if (opp >> seat) & 1 and (u0 & _TRUMPS0 & ~state[L.EXCLUDED + 2 * seat]) != ZERO:
            opp_trumps = True
    if n_trumps >= DRAW_TRUMPS and opp_trumps:
        rest = t0
        while rest != ZERO:
            c = lowest_index(rest)
            rest &= rest - ONE
            if _hold(state, me, u0, u1, ka0, ka1, c, L.TRUMPS, opp) >= SURE:
                return c
    # H5: lead low
    best = -1
    best_key = 1 << 40
    r0 = ZERO
    r1 = h1
    while r1 != ZERO:
        c, r0, r1 = pop_lowest(r0, r1)
        if L.VALUE[c] > 0:
            continue
        s = L.SUIT[c]
        key = 20 * set_size(h0 & L.SUIT_MASK[s, 0], h1 & L.SUIT_MASK[s, 1]) + L.STRENGTH[c]
        opp_ruff = False
        for seat in range(4):
            if (opp >> seat) & 1 and _may_ruff(state, seat, s, u0, u1):
                opp_ruff = True
        if opp_ruff:
            key += 10000
        elif (later >> partner) & 1 and _may_ruff(state, partner, s, u0, u1):
            key -= 1000
        if key < best_key:
            best, best_key = c, key
    if best >= 0:
        return best
    rest = t0
    while rest != ZERO:
        c = lowest_index(rest)
        rest &= rest - ONE
        if L.VALUE[c] == 0:
            return c
    # only counting cards (and perhaps the Matto): the best expected lead
    best = -1
    best_score = -1e18
    r0 = h0 & ~(ONE << np.uint64(L.MATTO))
    r1 = h1
    while r0 != ZERO or r1 != ZERO:
        c, r0, r1 = pop_lowest(r0, r1)
        v = L.VALUE[c]
        p = _hold(state, me, u0, u1, ka0, ka1, c, L.SUIT[c], opp)
        score = p * (v + trick_b) - (1.0 - p) * (2.0 * v + trick_b)
        if score > best_score + 1e-12:
            best, best_score = c, score
    if in_set(h0, h1, L.MATTO) and (best < 0 or best_score < MATTO_LEAD_BELOW):
        return L.MATTO
    return best


@helper
def _choose_follow(state, me, l0, l1):
    """H6, H7: the legal card (``l``) of best expected points."""
    u0, u1 = _unseen(state, me)
    ka0, ka1 = _shown_unplayed(state, me, u0, u1)
    led = np.int64(state[L.LED_SUIT])
    later = _later(state, me)
    n_later_opp = 0
    for seat in range(4):
        if (later >> seat) & 1 and (seat & 1) != (me & 1):
            n_later_opp += 1
    best_card, best_seat = _best_in_trick(state)
    ours = 0.0
    theirs = 0.0
    for s in range(4):
        c = np.int64(state[L.TRICK_CARD + s]) - 1
        if c < 0 or c == L.MATTO:
            continue
        if (s & 1) == (me & 1):
            ours += L.VALUE[c]
        else:
            theirs += L.VALUE[c]
    theirs_later = LATER_POINTS * n_later_opp
    b = _trick_points(state, me)
    win = ours + 2.0 * (theirs + theirs_later) + b
    lose = 2.0 * ours + theirs + theirs_later + b
    p_partner = 0.0
    if best_seat >= 0 and (best_seat & 1) == (me & 1):
        p_partner = _hold(state, me, u0, u1, ka0, ka1, best_card, led, later)
    tricks_after = L.TRICKS_PER_DEAL - 1 - np.int64(state[L.TRICK_NUMBER])
    best = -1
    best_score = -1e18
    r0 = l0
    r1 = l1
    while r0 != ZERO or r1 != ZERO:
        c, r0, r1 = pop_lowest(r0, r1)
        if c == L.MATTO:
            score = p_partner * win - (1.0 - p_partner) * (lose + DEBT_POINTS)
        else:
            v = L.VALUE[c]
            if _beats(c, best_card, led):
                p = _hold(state, me, u0, u1, ka0, ka1, c, led, later)
            else:
                p = p_partner
            score = p * (win + v) - (1.0 - p) * (lose + 2.0 * v)
        score -= _keep_value(state, me, u0, u1, ka0, ka1, c, tricks_after)
        if score > best_score + 1e-12:
            best, best_score = c, score
    return best


@kernel
def choose(state, params, actions, n_actions, rng):
    """H1-H7: the index into ``actions[:n_actions]`` (the legal actions of the player to move)
    of the heuristic's action. ``rng`` is not used: ties go to the lower card."""
    if n_actions <= 1:
        return 0
    me = np.int64(state[L.TO_MOVE])
    phase = state[L.PHASE]
    i = -1
    if phase == L.PHASE_DISCARD:
        i = _choose_discard(state, me, actions, n_actions)                    # H1
    elif phase == L.PHASE_DECLARE:
        i = _choose_declare(actions, n_actions)                               # H2
    elif phase == L.PHASE_PLAY:
        l0 = ZERO
        l1 = ZERO
        for j in range(n_actions):
            if kind_of(actions[j], L.KIND_SHIFT) == L.PLAY:
                b0, b1 = set_of(_value_of(actions[j]))
                l0 |= b0
                l1 |= b1
        if np.int64(state[L.LED_SUIT]) == L.NO_SUIT:
            c = _choose_lead(state, me, l0, l1)                               # H3, H4, H5
        else:
            c = _choose_follow(state, me, l0, l1)                             # H6, H7
        i = _find_card(actions, n_actions, L.PLAY, c)
    return i if i >= 0 else 0

"""Bura's play screen in words (``cardsim play``): the lines of a seat's observation, what a
move did, the final score, and the card notation for ``help``.

Every game package has this module with the same names (:func:`cardsim.records.render.game_screen`):
``NOTATION``, ``BREAKDOWN``, ``status``, ``events`` and ``final``.
"""
from __future__ import annotations

from ...records.render import wrap
from .layout import DECK, POINTS

NOTATION = """\
Cards: rank then suit. Suits: s spades, c clubs, d diamonds, h hearts; the suit
of the turned card is trump. Ranks, high to low, with their points: A ace 11,
T ten 10, K king 4, Q queen 3, J jack 2, 9 8 7 6 (0). 120 points in the pack.
Moves: lead Kd+Td leads one to three cards of one suit; beat 6c beats the led
card with 6c (several cards: beat 6c+Ah, each beating one led card); throw_down
7h gives up the trick, the card face down; claim (only before your lead)
says your tricks hold 31 points or more: true wins the deal, false loses it
double. Three trumps in hand (a bura) win the deal at once. ?? is a card
you cannot see."""

BREAKDOWN = {"points_up": "points face up", "points_down": "points face down",
             "points": "card points", "multiplier": "counted"}

SUITS = {"s": "spades", "c": "clubs", "d": "diamonds", "h": "hearts"}
RESULTS = {"claim_won": "a true claim", "claim_lost": "a false claim (it counts double)",
           "bura": "a bura: three trumps in hand", "moscow": "a Moscow: three aces in hand",
           "most_points": "the most card points when all cards are played",
           "void": "a void deal (no points)"}


def points(cards) -> int:
    """The card points of ``cards`` (A 11, T 10, K 4, Q 3, J 2)."""
    return int(sum(POINTS[DECK.index(c)] for c in cards))


def _taken(pile: dict) -> str:
    """A trick pile as the seat sees it: its known points and the face-down cards unseen."""
    if not isinstance(pile, dict):
        return "?"
    seen = list(pile.get("up") or []) + list(pile.get("down") or [])
    unknown = pile.get("down_unknown") or 0
    return f"{points(seen)}" + (f" (+{unknown} face down)" if unknown else "")


def _trick(trick, view) -> str:
    if not isinstance(trick, dict):
        return "trick: none"
    parts, down = [], trick.get("face_down") or []
    for p, cards in enumerate(trick.get("played") or []):
        hidden = down[p] if p < len(down) else 0
        if cards or hidden:
            parts.append(f"{view.who(p)} {' '.join(cards)}".rstrip()
                         + (f" +{hidden} face down" if hidden else ""))
    k = trick.get("k") or 1
    led = f"led by {view.who(trick['leader'])}, " if trick.get("leader") is not None else ""
    return f"trick ({led}{k} card{'s' if k != 1 else ''} each): " + "; ".join(parts)


def status(obs: dict, view) -> list[str]:
    """The trump, the trick, the hand, the score and what else the seat knows, in words."""
    trump = obs.get("trump_card")
    place = obs.get("trump_card_place") or {}
    where = "under the stock" if place.get("zone") == "stock" else (
        f"in {view.whose(place['seat'])} hand" if place.get("seat") is not None else "taken")
    lines = wrap(f"trump: {SUITS.get(str(trump)[-1:], '?')} (the turned card {trump}, {where})"
                 + f"; dealer {view.who(obs.get('dealer', 0))}") if trump else []
    lines += wrap(_trick(obs.get("trick"), view))
    lines += view.cards("your hand", obs.get("hand") or [], "(empty)")
    score = f"card points taken: {view.each([_taken(p) for p in obs.get('piles') or []])}"
    if obs.get("mode") == "match":
        score = f"match {view.each(obs.get('scores') or [])}; {score}"
    lines += wrap(f"score: {score}")
    others = ", ".join(f"{view.who(p)} {k}" for p, k in enumerate(obs.get("hand_sizes") or [])
                       if p != view.human)
    lines += wrap(f"cards in hand: {others}; stock {obs.get('stock_size', 0)}; tricks played "
                  f"{obs.get('tricks', 0)}")
    if obs.get("thrown_down"):
        lines += view.cards("your face-down cards", obs["thrown_down"])
    return lines


def events(before: dict, after: dict, seat: int, move: str, view) -> list[str]:
    """What the move did: the cards led, beaten or thrown face down, the trick's winner, a
    claim and its result (BU-CLAIM-2), a bura or other end of the deal (BU-END-1, BU-COMBO-2)."""
    verb, _, cards = move.partition(" ")
    cards = cards.replace("+", " ")
    words = {"lead": f"leads {cards}", "beat": f"beats with {cards}",
             "throw_down": f"throws {cards} face down", "claim": "claims 31 points or more"}
    out = [words.get(verb, move)]
    trick = before.get("trick")
    if isinstance(trick, dict) and after.get("trick") is None and verb in ("beat", "throw_down"):
        taker = after.get("last_trick_taker")
        if taker is not None and after.get("tricks", 0) > before.get("tricks", 0):
            out.append(f"{view.who(taker)} {'take' if taker == view.human else 'takes'} "
                       "the trick")
    result = after.get("result")
    if result and not before.get("result"):
        winners = ", ".join(view.who(p) for p in result.get("winners") or []) or "nobody"
        kind = result.get("kind")
        text = RESULTS.get(kind, str(kind).replace("_", " "))
        if kind in ("claim_won", "claim_lost"):
            text += f" with {result.get('claim_points', 0)} points"
        out.append(f"the deal is over: {text}; {winners} win{'' if 'you' in winners else 's'}")
    return out


def final(obs: dict, breakdown: dict, view) -> str:
    """The final score: the match's, or the deal's card points."""
    if obs.get("mode") == "match":
        return view.versus(obs.get("scores") or [])
    result = breakdown.get("result") or obs.get("result") or {}
    how = RESULTS.get(result.get("kind"), "")
    return f"{view.versus(breakdown.get('points') or [])} in card points" + (f", by {how}" if how else "")

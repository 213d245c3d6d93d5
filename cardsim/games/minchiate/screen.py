"""Minchiate's play screen in words (``cardsim play``): the lines of a seat's observation, what
a move did, the final score, and the card notation for ``help``.

Every game package has this module with the same names (:func:`cardsim.records.render.game_screen`):
``NOTATION``, ``BREAKDOWN``, ``status``, ``events`` and ``final``. The engine's running
difference ``D`` (MI-RESTO-1) is shown as how far a side is ahead towards its next resto; the
Matto's debt and the cutter's seat are bookkeeping the screen leaves out.
"""
from __future__ import annotations

from ...records.render import wrap

NOTATION = """\
Cards: T1..T40 are the trumps (T40 highest); M is the Matto (the fool: played
to excuse you from following, it never wins). Suit cards are rank then suit:
co coins, cu cups, sw swords, ba batons. Ranks: K king, Q queen, C knight, F
jack/maid, then 10..2 and A; in swords and batons 10 is high and A low, in
coins and cups A is high and 10 low.
Moves: discard 7sw puts a card into the fola (out of play); declare T1+T13+T28
shows a combination and scores it; done ends your declarations (done bonus
also claims the Matto's bonus); play Kcu plays a card to the trick.
Score: points are kept as one difference between the sides; every 60 points
ahead make a resto, and the side with more resti wins. Partners sit opposite:
you with seat 2, seat 1 with seat 3."""

BREAKDOWN = {"cutter_rob": "cutter's robbing", "exposed": "exposed cards",
             "dealer_rob": "dealer's robbing", "declarations": "declarations",
             "dying": "dying cards", "pile": "counting cards", "beyond_42": "cards beyond 42",
             "pile_combinations": "combinations in piles", "last_trick": "last trick",
             "total": "total", "tricks": "tricks", "resti": "resti"}
PHASES = {"discard": "discard", "declare": "declarations", "play": "play"}


def _ahead(obs: dict, view) -> str:
    """The running difference (MI-RESTO-1, team A less team B) from the viewer's side."""
    d = int(obs.get("D") or 0)
    if d == 0:
        return "the points are even"
    leader = 0 if d > 0 else 1
    return f"{view.short(leader, 2)} is {abs(d)} points ahead"


def status(obs: dict, view) -> list[str]:
    """The trick, the hand, the score and the public cards, in words."""
    trick = obs.get("trick") or []
    lines = wrap("trick: " + (", ".join(f"{view.who(p)} {c}" for p, c in trick) or "none"))
    lines += view.cards("your hand", obs.get("hand") or [], "(empty)")
    resti = obs.get("resti") or [0, 0]
    mine = view.side_of(2)
    lines += wrap(f"score: your side {resti[mine]} resti, the other side {resti[1 - mine]}; "
                  f"{_ahead(obs, view)}")
    lines += wrap(f"tricks won: {view.each(obs.get('tricks_won') or [0, 0])} (of 21)")
    phase = obs.get("phase")
    if phase == "discard" and obs.get("to_discard"):
        k = obs["to_discard"]
        lines += wrap(f"discard {k} more card{'s' if k != 1 else ''} into the fola")
    known = [f"robbed by the dealer {' '.join(obs['dealer_robbed'])}"] \
        if obs.get("dealer_robbed") else []
    if obs.get("cutter_robbed"):
        known.append(f"by the cutter {' '.join(obs['cutter_robbed'])}")
    exposed = [card for card in obs.get("exposed") or [] if card]   # none: expose_last_card
    if exposed:
        known.append(f"exposed {' '.join(exposed)}")
    if known and phase != "play":
        lines += wrap("; ".join(known))
    if obs.get("fola_open") and obs.get("fola"):
        lines += view.cards("out of play (the fola)", obs["fola"])
    declared = [f"{view.who(p)} {', '.join('+'.join(combo) for combo in combos)}"
                for p, combos in enumerate(obs.get("declared") or []) if combos]
    if declared:
        lines += wrap("declared: " + "; ".join(declared))
    return lines


def _points(obs: dict) -> list[int]:
    """Each side's points scored so far in the deal (every scoring event's)."""
    totals = [0, 0]
    for values in (obs.get("points") or {}).values():
        totals = [t + int(v) for t, v in zip(totals, values)]
    return totals


def events(before: dict, after: dict, seat: int, move: str, view) -> list[str]:
    """What the move did: the card discarded, declared or played; the trick's winner
    (MI-SCORE-1 events), the points each side scored by it and a resto made (MI-RESTO-2)."""
    verb, _, cards = move.partition(" ")
    cards = cards.replace("+", " ")
    words = {"discard": f"discards {cards}", "declare": f"declares {cards}",
             "done": "declares nothing more" + (" (claims the Matto bonus)" if cards else ""),
             "play": f"plays {cards}"}
    out = [words.get(verb, move)]
    if after.get("tricks_played", 0) > before.get("tricks_played", 0):
        winner = after.get("last_winner")
        trick = " ".join(c for _, c in before.get("trick") or []) + f" {cards}"
        if winner is not None:
            out.append(f"{view.who(winner)} {'win' if winner == view.human else 'wins'} the "
                       f"trick ({trick.strip()})")
    gained = [a - b for a, b in zip(_points(after), _points(before))]
    if any(gained):
        out.append("points: " + ", ".join(f"{view.short(s, 2)} +{g}" for s, g in
                                          enumerate(gained) if g))
    for side, (a, b) in enumerate(zip(before.get("resti") or [0, 0],
                                      after.get("resti") or [0, 0])):
        if b > a:
            out.append(f"{view.short(side, 2)} makes {b - a} resto{'s' if b - a != 1 else ''}")
    return out


def final(obs: dict, breakdown: dict, view) -> str:
    """The final score in resti."""
    return f"{view.versus(breakdown.get('resti') or obs.get('resti') or [0, 0])} in resti"

"""Scopa's play screen in words (``cardsim play``): the lines of a seat's observation, what a
move did, the final score, and the card notation for ``help``.

Every game package has this module with the same names (:func:`cardsim.records.render.game_screen`):
``NOTATION``, ``BREAKDOWN``, ``status``, ``events`` and ``final``. Seats and sides are named by
the :class:`cardsim.records.render.View` given.
"""
from __future__ import annotations

from ...records.render import wrap

NOTATION = """\
Cards: rank then suit. Suits: co coins, cu cups, sw swords, ba batons (coins
score). Ranks: A 2 3 4 5 6 7, J jack (8), C knight (9), K king (10); the number
is the capture value. 7co is the settebello.
Moves: 7co>3co+4cu plays 7co and takes 3co and 4cu; 7co>7cu takes 7cu; 5ba alone
lays the card on the table (only when it can take nothing). An equal card must
be taken before a sum. Taking every card on the table is a scopa (1 point);
the last to take gets the cards left on the table at the deal's end."""

BREAKDOWN = {"cards": "most cards", "coins": "most coins", "settebello": "settebello",
             "primiera": "primiera", "scopas": "scopas", "total": "total"}


def _sides(obs: dict) -> int:
    return len(obs.get("piles") or [0, 0])


def status(obs: dict, view) -> list[str]:
    """The table, the hand, the score and what else the seat knows, in words."""
    sides = _sides(obs)
    lines = view.cards("table", obs.get("table") or [], "(empty)")
    lines += view.cards("your hand", obs.get("hand") or [], "(empty)")
    piles = obs.get("piles") or []
    taken = [f"{_count(len(p), 'card')} ({_count(sum(c.endswith('co') for c in p), 'coin')}"
             + (", the settebello)" if "7co" in p else ")") for p in piles]
    scopas = f"scopas {view.each(obs.get('scopas') or [0] * sides)}"
    if obs.get("mode") == "match":
        lines += wrap(f"score: match {view.each(obs.get('scores') or [])}; this deal {scopas}")
    else:
        lines += wrap(f"score this deal: {scopas}")
    lines += wrap(f"taken: {view.each(taken)}")
    others = ", ".join(f"{view.who(p)} {k}" for p, k in enumerate(obs.get("hand_sizes") or [])
                       if p != view.human)
    last = obs.get("last_capturer")
    lines += wrap(f"cards in hand: {others}; stock {obs.get('stock_size', 0)}; dealer "
                  f"{view.who(obs.get('dealer', 0))}"
                  + (f"; last to take: {view.short(last, sides)}" if last is not None else ""))
    return lines


def _count(k: int, what: str) -> str:
    return f"{k} {what}{'s' if k != 1 else ''}"


def _parse(move: str) -> tuple[str, list[str]]:
    card, _, taken = move.partition(">")
    return card, [c for c in taken.split("+") if c]


def events(before: dict, after: dict, seat: int, move: str, view) -> list[str]:
    """What the move did, from the seat's observations before and after it: the cards taken
    (SC-CAPT-2..4), a scopa (SC-SCOPA-1), the cards left on the table going to the last side to
    take at the deal's end (SC-END-2)."""
    sides = _sides(before)
    card, taken = _parse(move)
    side = seat % sides
    words = [f"takes {' '.join(taken)} with {card}" if taken else f"lays {card} on the table"]
    if (after.get("scopas") or [0] * sides)[side] > (before.get("scopas") or [0] * sides)[side]:
        words.append("scopa! (the table swept: 1 point)")
    if after.get("phase") != "play":
        table = list(before.get("table") or [])
        left = [c for c in table if c not in taken] + ([] if taken else [card])
        last = after.get("last_capturer")
        if left and last is not None:
            words.append(f"the deal is over: {' '.join(left)} left on the table go to "
                         f"{view.short(last, sides)}, the last to take")
    return words


def final(obs: dict, breakdown: dict, view) -> str:
    """The final score: the match's, or the deal's points."""
    if obs.get("mode") == "match":
        return view.versus(obs.get("scores") or [])
    return view.versus(breakdown.get("total") or [])

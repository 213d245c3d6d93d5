"""Mushka's play screen in words (``cardsim play``): the lines of a seat's observation, what a
move did, the final score, and the card notation for ``help``.

Every game package has this module with the same names (:func:`cardsim.records.render.game_screen`):
``NOTATION``, ``BREAKDOWN``, ``status``, ``events`` and ``final``.
"""
from __future__ import annotations

from ...records.render import wrap

NOTATION = """\
Cards: rank then suit. Suits: s spades, c clubs, d diamonds, h hearts; the suit
of the turned card is trump. Ranks, high to low: A K Q J T (ten) 9 8 7 (and 6 5
4 3 2 in the 52-card deck). As, the ace of spades, is the special card: it
writes off a bonus and may not pass.
Moves: exchange 7c+Qh discards those cards face down and draws as many; stand
keeps your cards; pass sits the deal out; play Td plays a card to the trick.
Score: every record starts at 25; each trick won writes 1 off, a player in
the deal without a trick adds 5 (remise); the first to reach 0 wins. ?? is a
card you cannot see."""

BREAKDOWN = {"tricks": "tricks", "ace_bonus": "ace bonus", "remise": "remise",
             "record_change": "written off", "records": "records"}

SUITS = {"s": "spades", "c": "clubs", "d": "diamonds", "h": "hearts"}


def _decision(value) -> str:
    if value is None:
        return "to decide"
    return f"exchanged {value}" if isinstance(value, int) else {"stand": "stands",
                                                                 "pass": "passed"}.get(value, value)


def status(obs: dict, view) -> list[str]:
    """The trump, the trick, the hand, the records and what else the seat knows, in words."""
    trump = obs.get("trump_card")
    lines = wrap(f"trump: {SUITS.get(str(trump)[-1:], '?')} (the turned card {trump}"
                 + (", taken by the dealer" if obs.get("trump_taken") else "")
                 + f"); dealer {view.who(obs.get('dealer', 0))}") if trump else []
    trick = obs.get("trick") or []
    lines += wrap("trick: " + (", ".join(f"{view.who(p)} {c}" for p, c in trick) or "none"))
    lines += view.cards("your hand", obs.get("hand") or [], "(empty)")
    lines += wrap(f"score (records, the first at 0 wins): {view.each(obs.get('records') or [])}")
    if obs.get("phase") == "exchange" or not obs.get("active"):
        lines += wrap("exchange: " + ", ".join(f"{view.who(p)} {_decision(d)}" for p, d in
                                               enumerate(obs.get("decisions") or []))
                      + f"; stock {obs.get('stock_size', 0)}")
    else:
        won = obs.get("tricks_won") or []
        out = [view.who(p) for p in range(view.n) if p not in obs["active"]]
        lines += wrap("tricks this deal: " + ", ".join(f"{view.who(p)} {won[p]}"
                                                       for p in obs["active"] if p < len(won))
                      + (f" ({', '.join(out)} passed)" if out else ""))
    if obs.get("discards"):
        lines += view.cards("your discards", obs["discards"])
    return lines


def events(before: dict, after: dict, seat: int, move: str, view) -> list[str]:
    """What the move did: the exchange (MU-EXCH-2), the card played, the trick's winner and the
    record written off (MU-SCORE-1), the ace bonus (MU-SCORE-3), a stop at 0 (MU-STOP-1)."""
    verb, _, cards = move.partition(" ")
    cards = cards.replace("+", " ")
    words = {"exchange": f"exchanges {len(cards.split())} card"
                         + ("s" if len(cards.split()) != 1 else ""),
             "stand": "stands (keeps the cards)", "pass": "passes (sits the deal out)",
             "play": f"plays {cards}"}
    out = [words.get(verb, move)]
    won_before = before.get("tricks_won") or []
    won_after = after.get("tricks_won") or []
    records = after.get("records") or []
    for p, (a, b) in enumerate(zip(won_before, won_after)):
        if b > a:
            cards_in = " ".join(c for _, c in before.get("trick") or []) + (
                f" {cards}" if verb == "play" else "")
            out.append(f"{view.who(p)} {'win' if p == view.human else 'wins'} the trick "
                       f"({cards_in.strip()}): record now {records[p]}")
    if after.get("ace_bonus_taken") and not before.get("ace_bonus_taken"):
        holder = after.get("ace_holder")
        out.append(("the ace of spades' bonus is written off"
                    + (f" by {view.who(holder)}" if holder is not None else "")))
    if after.get("winners") and not before.get("winners"):
        out.append(f"{', '.join(view.who(p) for p in after['winners'])} reached 0 and won")
    return out


def final(obs: dict, breakdown: dict, view) -> str:
    """The final records (lower is better, 0 wins)."""
    return f"(records {view.each(obs.get('records') or breakdown.get('records') or [])})"

"""A finished deal's outcome as named columns: the names that the experiment store's rows
(:mod:`cardsim.experiments.rows`) and the games' match models
(:class:`cardsim.protocol.match.MatchModel`) share.

* ``return_<s>``: seat ``s``'s return;
* ``cat_<name>_<s>``: the game's scoring category ``name`` at seat ``s`` (:func:`seat_scores`),
  and ``end``: how the deal ended, where the game says (Bura);
* the game's deal facts, its notation module's ``deal_columns(vec, rules)`` where it has one
  (Bura: ``first_leader``, ``last_trick``), and ``dealer``.

:func:`outcome_row` builds them from a finished state (``cardsim analyze --match`` values its
play-outs so); the store builds them from duplicate play's results.
"""
from __future__ import annotations

RETURN = "return"
"""The stem of a seat's return column (:func:`at_seat`)."""
END = "end"
"""The column of how the deal ended."""


def at_seat(stem: str, s: int) -> str:
    """The column of ``stem`` at seat ``s``: ``<stem>_<s>``."""
    return f"{stem}_{s}"


def seat_columns(stem: str, n: int) -> list[str]:
    """The columns of ``stem`` at seats ``0 .. n-1``."""
    return [at_seat(stem, s) for s in range(n)]


def category(name: str) -> str:
    """The stem of scoring category ``name``'s columns: ``cat_<name>``."""
    return f"cat_{name}"


def seat_scores(state, n: int) -> dict:
    """The game's ``score_breakdown`` of ``state`` per seat, in its order: every list of numbers
    per seat (or per side: seat s belongs to side s % sides) as ``n`` floats under its name, and
    a result kind (a dict with a string ``kind``) as that string; other entries are left
    out."""
    out = {}
    for name, value in state.score_breakdown().items():
        if isinstance(value, list) and value and all(isinstance(v, (int, float)) and
                                                     not isinstance(v, bool) for v in value):
            if n % len(value) == 0:
                out[name] = [float(value[s % len(value)]) for s in range(n)]
        elif isinstance(value, dict) and isinstance(value.get("kind"), str):
            out[name] = value["kind"]
    return out


def score_columns(scores: dict) -> dict:
    """A game's scoring categories per seat and its end (:func:`seat_scores`) as columns:
    ``cat_<name>_<s>`` for each category, ``end`` for the kind of end."""
    out = {}
    for name, value in scores.items():
        if isinstance(value, str):
            out[END] = value
        else:
            for s, v in enumerate(value):
                out[at_seat(category(name), s)] = v
    return out


def deal_facts(state) -> dict:
    """The game's deal facts of ``state`` (its notation module's ``deal_columns``), else
    none."""
    facts = getattr(state.game.definition.codec, "deal_columns", None)
    return facts(state.vec, state.game.rules) if facts is not None else {}


def outcome_row(state, dealer: int) -> dict:
    """The finished deal ``state`` as the columns above (module docstring), ``dealer`` the
    deal's dealer."""
    n = state.game.num_players
    returns = {at_seat(RETURN, s): r for s, r in enumerate(state.returns())}
    return {**score_columns(seat_scores(state, n)), **returns, **deal_facts(state),
            "dealer": dealer}


MATCH_FACTS = ("match_deals", "match_lead_changes", "match_comeback", "match_decided")
"""The columns of a whole match's trajectory (:func:`match_facts`)."""


def match_facts(standings, returns) -> dict:
    """A whole match's trajectory as :data:`MATCH_FACTS`, from ``standings`` (each seat's
    standing at the match's start and after each deal, higher is better: the game's
    ``standing``) and the match's ``returns`` per seat. The *leaders* at a moment are the seats
    of the highest standing, none when all are level; the *winners* the seats of the highest
    return, none in a drawn match.

    - ``match_deals``: the deals played;
    - ``match_lead_changes``: how often the lead passed to seats that did not share the last
      lead (a level moment between is no change);
    - ``match_comeback``: after half the deals (rounded down), 1 when the match was won by
      seats that did not lead then, 0 when by a leader, -1 when nobody led then or nobody won;
    - ``match_decided``: the deals played before the winners led for good (they shared the
      lead after every later deal and at the end), -1 when nobody won.
    """
    def leaders(values) -> set:
        top = max(values)
        return set() if min(values) == top else {s for s, v in enumerate(values) if v == top}

    winners = leaders(list(returns))
    leads = [leaders(list(s)) for s in standings]
    deals = len(standings) - 1
    changes, last = 0, set()
    for lead in leads:
        if lead:
            changes += bool(last) and not (lead & last)
            last = lead
    mid = leads[deals // 2]
    comeback = -1 if not (mid and winners) else int(not (mid & winners))
    decided = -1
    if winners:
        decided = deals
        if leads[deals] & winners:
            while decided > 0 and leads[decided - 1] & winners:
                decided -= 1
    return {"match_deals": deals, "match_lead_changes": changes, "match_comeback": comeback,
            "match_decided": decided}

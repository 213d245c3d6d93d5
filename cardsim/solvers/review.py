"""Review of a played deal: every decision rated as the player saw it, mistakes
marked, luck told apart from skill — GNU Backgammon's analysis for card games.

**A decision** is a position where a reviewed player chose among two or more legal actions.
Each is valued like ``cardsim analyze`` (:func:`cardsim.solvers.analyze.evaluate_actions`): the
same ``worlds`` worlds, sampled from what the player had seen (the game's ``determinize``,
never the true hidden cards), every action played in each and the rest of the deal played out
by the evaluator (``agent``, the heuristic by default). The *best* action has the highest
mean return; the *loss* of the move played is the mean over the worlds of best − played,
paired world by world, with its 95% interval. With a match-equity table and a match position
the loss is also given in match-winning chance (``match_loss``).

**Marks.** A move whose loss reaches a threshold is an ``inaccuracy``, a ``mistake`` or a
``blunder`` (the highest reached), but only when the interval of its loss lies above 0: a
difference smaller than its interval is not called a mistake. The thresholds are in the
game's return units; by default 0.05, 0.1 and 0.2 times its reward scale (Scopa 0.2, 0.4 and
0.8 points; Bura 0.05, 0.1, 0.2 stakes; Mushka 0.25, 0.5, 1 points written off; Minchiate
0.1, 0.2, 0.4 resti): :func:`default_thresholds`.

**The expected result through the deal and luck.** At each decision ``k`` the player's
expected return is ``V_k`` (the best action's value) before the move and ``Q_k`` (the
played action's) after it. Before the deal it is ``E0``, the evaluator's mean return at that
seat over random deals (``baseline`` deals of the evaluator against itself, the same dealer
seat); after it, the result ``R``. Then exactly

    R - E0 = luck - loss,   luck = (V_1 - E0) + sum_k (V_{k+1} - Q_k) + (R - Q_last)

so a deal's result splits into what the player's choices cost (the sum of the losses) and
what moved the expected result between them: the cards he received (the first hand is
``V_1 - E0``) and what the others played, both valued from his own information (from one
side of the table the others' choices and the cards cannot be told apart without their
hands). Luck needs the result of a single deal: a record without one has none, and a
match's record has none either (its decisions are valued for the points of their deal,
the match's other deals aside, or with a table in match-winning chance). The total loss carries a 95%
interval (the decisions' intervals in quadrature), and luck the same widened by ``E0``'s.

The worlds of decision ``k`` come from the seed and the decision's move number
(:func:`decision_seed`), so the same record and seed give the same review, and a deal played
throughout by the review's own evaluator (:func:`evaluator_choice`) has zero loss.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from cardsim.compiled.rng import child_seed as decision_seed  # a decision's worlds' seed
from cardsim.errors import CardsimError
from cardsim.stats import fmt_interval, fmt_signed, mean_interval

from .agents import parse_agent
from .analyze import GAME_DEFAULT, AnalysisConfig, evaluate_actions

MARKS = ("inaccuracy", "mistake", "blunder")
"""The marks of a move, from the least to the worst."""
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders",
           "decision": "decisions"}


def count_of(n: int, word: str) -> str:
    """``1 blunder``, ``2 blunders``, ``0 inaccuracies`` (a word of :data:`PLURALS`)."""
    return f"{n} {word if n == 1 else PLURALS[word]}"
"""Each mark's plural: the totals' column of its count."""
SHARES = (0.05, 0.1, 0.2)
"""The default thresholds of the marks as shares of the game's reward scale."""
BASELINE = 2_000
"""Deals of the evaluator against itself that give ``E0`` (module docstring)."""


def default_thresholds(game) -> tuple[float, float, float]:
    """The marks' default thresholds in ``game``'s return units (module docstring)."""
    return tuple(round(share * game.spec.reward_scale, 6) for share in SHARES)


@dataclass(frozen=True)
class ReviewConfig:
    """What a review does: the seats reviewed (None: every seat of a full record, the player
    of a view record), the evaluator, worlds per decision, the seed, the marks' thresholds
    (None: :func:`default_thresholds`) and the deals of the baseline ``E0``."""

    players: tuple[int, ...] | None = None
    agent: str = "heuristic"
    worlds: int = 200
    seed: int = 0
    thresholds: tuple[float, float, float] | None = None
    baseline: int = BASELINE
    infer: float | None | str = GAME_DEFAULT
    """The worlds of each decision drawn by inference (:attr:`AnalysisConfig.infer`; by
    default the game's choice): from the moves of the record before it; a view record's
    positions carry no moves. None: uniform worlds."""


@dataclass
class Review:
    """A review (module docstring): ``decisions`` one row per reviewed decision, ``actions``
    one row per action of each decision (its value and interval), ``totals`` one row per
    reviewed seat, ``path`` the expected result through the deal per seat (``step``,
    ``move``, ``when`` before/after, ``value``). Totals carry the half-widths of the 95%
    intervals of the loss (``loss_half``: the decisions' in quadrature) and of luck
    (``luck_half``: with the baseline's)."""

    record: object
    config: ReviewConfig
    thresholds: tuple[float, float, float]
    decisions: pd.DataFrame
    actions: pd.DataFrame
    totals: pd.DataFrame
    path: pd.DataFrame
    positions: list = field(default_factory=list)

    def to_dict(self) -> dict:
        """The review as JSON-ready data (``cardsim review --json``)."""
        def rows(frame):
            return [{k: _plain(v) for k, v in r.items()} for r in frame.to_dict("records")]
        return {"game": self.record.game.name, "record": self.record.to_dict(),
                "agent": self.config.agent, "worlds": self.config.worlds,
                "seed": self.config.seed,
                "thresholds": dict(zip(MARKS, self.thresholds)),
                "decisions": rows(self.decisions), "actions": rows(self.actions),
                "totals": rows(self.totals), "path": rows(self.path)}


def _plain(v):
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return None if np.isnan(v) else float(v)
    return v


def mark_of(loss: float, low: float, thresholds) -> str:
    """The mark of a move's loss (module docstring): '' below the first threshold or when
    the loss's interval reaches 0."""
    if not low > 0:
        return ""
    mark = ""
    for name, t in zip(MARKS, thresholds):
        if loss >= t:
            mark = name
    return mark


def evaluator_choice(state, agent: str = "heuristic", worlds: int = 200, seed: int = 0,
                     move: int = 0) -> int:
    """The action the review's own evaluator would play at ``state`` as the decision at
    move number ``move`` (the best of its values in the same worlds)."""
    config = AnalysisConfig(player=state.current_player(), agent=agent, worlds=worlds,
                            seed=decision_seed(seed, move))
    v = evaluate_actions(state, config)
    return int(v.legal[int(np.argmax(v.out.mean(axis=1)))])


def baseline(game, start, seat: int, agent: str, deals: int,
             seed: int) -> tuple[float, float]:
    """``E0``: the evaluator's mean return at ``seat`` over ``deals`` random deals, the seat
    placed as in ``start`` against the dealer (module docstring), and the half-width of its
    95% interval."""
    from .duplicate import play_duplicate
    spec = game.spec
    n = spec.n_players
    dealer = int(start.vec[spec.dealer_word]) if spec.dealer_word >= 0 else 0
    games = play_duplicate(game, [agent] * n, deals, seed=(seed, 1), rotate=False)
    at = (games.dealer.clip(0) + seat - dealer) % n
    mean, low, _ = mean_interval(games.returns[np.arange(len(games)), at])
    return float(mean), float(mean - low)


def review(record, config: ReviewConfig = ReviewConfig(), equity: dict | None = None,
           progress=None) -> Review:
    """Review ``record`` (a :class:`cardsim.records.record.GameRecord`) as the module docstring
    says; ``equity`` (match state -> chance, as ``analyze --match`` reads it) adds the loss
    in match-winning chance; ``progress(k)`` is called after each decision."""
    game = record.game
    n = game.num_players
    if config.worlds < 2:
        raise CardsimError(f"worlds={config.worlds}: expected at least 2")
    players = config.players
    if record.is_view:
        if players is not None and tuple(players) != (record.player,):
            raise CardsimError(f"a view record holds player {record.player}'s decisions only")
        players = (record.player,)
    elif players is None:
        players = tuple(range(n))
    for p in players:
        if not 0 <= p < n:
            raise CardsimError(f"player {p} does not exist: expected a seat 0..{n - 1}")
    thresholds = config.thresholds or default_thresholds(game)
    if len(thresholds) != 3 or list(thresholds) != sorted(thresholds) or thresholds[0] <= 0:
        raise CardsimError(f"thresholds {thresholds}: expected three increasing positive "
                           "numbers (inaccuracy, mistake, blunder)")
    parse_agent(config.agent, game)
    decisions, actions, positions = [], [], []
    for move, (state, action, seat) in enumerate(record.decisions()):
        if seat not in players or len(state.legal_actions()) < 2:
            continue
        if record.is_view:
            move = len(decisions)
        values = evaluate_actions(state if equity is not None else deal_alone(state),
                                  AnalysisConfig(player=seat, agent=config.agent,
                                                 worlds=config.worlds,
                                                 seed=decision_seed(config.seed, move),
                                                 infer=config.infer), equity)
        row, rows = _decision(state, action, seat, move, values, thresholds)
        row["decision"] = len(decisions)
        for r in rows:
            r["decision"] = row["decision"]
        decisions.append(row)
        actions.extend(rows)
        positions.append(state.to_dict())
        if progress is not None:
            progress(len(decisions))
    decisions = pd.DataFrame(decisions, columns=DECISION_COLUMNS + (
        ["match_loss", "match_low", "match_high"] if equity is not None else []))
    actions = pd.DataFrame(actions)
    totals, path = _totals(record, config, decisions, players)
    return Review(record, config, tuple(thresholds), decisions, actions, totals, path,
                  positions)


def deal_alone(state):
    """A match position's deal as a lone deal, valued for its points (the game's match model's
    ``alone``; else the position with ``mode`` deal); any other position as it is."""
    d = state.to_dict()
    if d.get("mode") != "match":
        return state
    alone = {**d, "mode": "deal"}
    make = state.game.definition.match
    if make is not None:
        try:
            alone = make(state.game.rules).alone(d)
        except CardsimError:            # rules without a match model (Bura's single deal)
            pass
    return state.game.from_dict(alone)


DECISION_COLUMNS = ["decision", "move", "seat", "deal", "played", "best", "played_value",
                    "best_value", "loss", "loss_low", "loss_high", "mark", "actions"]


def move_loss(values, action: int) -> tuple[int, int, float, float, float]:
    """The best action's index in ``values`` (:func:`cardsim.solvers.analyze.evaluate_actions`), the
    played ``action``'s, and its loss, best - played paired over the worlds, with its 95%
    interval (module docstring); a tie with the best is the best, with no loss."""
    legal, out = values.legal, values.out
    means = out.mean(axis=1)
    played = int(np.flatnonzero(legal == action)[0])
    best = int(np.argmax(means))
    if means[played] >= means[best]:
        return played, played, 0.0, 0.0, 0.0
    loss, low, high = values.interval(out[best] - out[played])
    return best, played, float(loss), float(low), float(high)


def _decision(state, action: int, seat: int, move: int, values, thresholds):
    """One decision's row and its actions' rows."""
    legal, out = values.legal, values.out
    means = out.mean(axis=1)
    best, played, loss, low, high = move_loss(values, action)
    text = values.state.action_to_string
    deal = state.to_dict().get("deal_number")
    row = {"move": move, "seat": seat, "deal": deal if deal is not None else 1,
           "played": text(int(action)), "best": text(int(legal[best])),
           "played_value": float(means[played]), "best_value": float(means[best]),
           "loss": float(loss), "loss_low": float(low), "loss_high": float(high),
           "mark": mark_of(loss, low, thresholds), "actions": len(legal)}
    if values.match is not None:
        win = values.match.mean(axis=1)
        top = int(np.argmax(win))
        mloss, mlow, mhigh = values.match_interval(top, played)
        if top == played:
            mloss = mlow = mhigh = 0.0
        row.update(match_loss=float(mloss), match_low=float(mlow), match_high=float(mhigh))
    rows = []
    for i, a in enumerate(legal):
        mean, lo, hi = values.interval(out[i])
        rows.append({"action": text(int(a)), "value": float(mean), "low": float(lo),
                     "high": float(hi), "played": i == played, "best": i == best})
    return row, rows


def _totals(record, config: ReviewConfig, decisions: pd.DataFrame, players):
    """Per seat: decisions, loss in all and per decision, the marks, E0, the result, luck;
    and the expected result through the deal (module docstring)."""
    game = record.game
    start = None if record.is_view else game.from_dict(record.start)
    one_deal = start is not None and start.to_dict().get("mode") != "match"
    result = record.result if one_deal else None     # a match's result is not a deal's
    totals, path = [], []
    for seat in players:
        mine = decisions[decisions["seat"] == seat]
        row = {"seat": seat, "who": record.seats[seat], "decisions": len(mine),
               "loss": float(mine["loss"].sum()),
               "loss_per_decision": float(mine["loss"].mean()) if len(mine) else 0.0}
        half = float(np.sqrt((((mine["loss_high"] - mine["loss_low"]) / 2) ** 2).sum()))
        row["loss_half"] = half
        for mark in MARKS:
            row[PLURALS[mark]] = int((mine["mark"] == mark).sum())
        e0, e0_half = (baseline(game, start, seat, config.agent, config.baseline, config.seed)
                       if one_deal and config.baseline > 1 else (np.nan, np.nan))
        r = float(result[seat]) if result is not None else float("nan")
        row.update(expected_before=e0, result=r)
        if len(mine) and not np.isnan(e0) and not np.isnan(r):
            v, q = mine["best_value"].to_numpy(), mine["played_value"].to_numpy()
            row["luck"] = float((v[0] - e0) + (v[1:] - q[:-1]).sum() + (r - q[-1]))
            row["luck_half"] = float(np.hypot(half, e0_half))
        else:
            row["luck"] = row["luck_half"] = float("nan")
        totals.append(row)
        path.append({"seat": seat, "step": 0, "move": -1, "when": "before the deal",
                     "value": e0})
        for k, d in enumerate(mine.itertuples(index=False), 1):
            path.append({"seat": seat, "step": 2 * k - 1, "move": d.move, "when": "before",
                         "value": d.best_value})
            path.append({"seat": seat, "step": 2 * k, "move": d.move, "when": "after",
                         "value": d.played_value})
        path.append({"seat": seat, "step": 2 * len(mine) + 1, "move": -1, "when": "result",
                     "value": r})
    return pd.DataFrame(totals), pd.DataFrame(path)


def text(rv: Review) -> list[str]:
    """The review as lines for the terminal."""
    game = rv.record.game
    unit = game.definition.return_unit
    seats = [str(s) for s in rv.totals["seat"]]
    lines = [f"{game.name} review: {count_of(len(rv.decisions), 'decision')} of "
             f"{'seat' if len(seats) == 1 else 'seats'} {', '.join(seats)}, "
             f"{rv.config.worlds} worlds each "
             f"from the player's view, played out by {rv.config.agent}; losses in {unit} with "
             "95% intervals; marks at " + ", ".join(f"{m} {t:g}" for m, t in zip(
                 MARKS, rv.thresholds))]
    for d in rv.decisions.itertuples(index=False):
        flag = f"  {d.mark.upper()}" if d.mark else ""
        better = "" if d.played == d.best else f", best {d.best} ({fmt_signed(d.best_value)})"
        lines.append(f"  move {d.move + 1:>3} seat {d.seat}: {d.played} "
                     f"({fmt_signed(d.played_value)}){better}, loss "
                     f"{fmt_interval(d.loss, d.loss_low, d.loss_high, 2)}{flag}")
    for t in rv.totals.itertuples(index=False):
        lines.append(
            f"seat {t.seat} ({t.who}): {count_of(t.decisions, 'decision')}, loss {t.loss:.2f} "
            f"±{t.loss_half:.2f} ({t.loss_per_decision:.3f} a decision); " + ", ".join(
                count_of(getattr(t, PLURALS[m]), m) for m in MARKS)
            + (f"; expected before the deal {fmt_signed(t.expected_before)}, result "
               f"{t.result + 0.0:+g}, luck {fmt_signed(t.luck)} ±{t.luck_half:.2f} "
               "(result - expected = luck - loss)"
               if not np.isnan(t.luck) else "; luck: needs the result and the deal's start"))
    return lines

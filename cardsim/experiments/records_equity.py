"""Game equity from whole games, for a game decided by each seat's own record: who wins the
game from which records.

Such a game (its package's :class:`cardsim.protocol.match.RecordsModel`, ``records_match``: Mushka, 3 to
7 seats, each writing its own record down from ``start_points``; the first to reach exactly 0
wins, and ``max_deals`` ends an unfinished game with the lowest record winning) has no small
table of match states to solve by dynamic programming (:mod:`cardsim.experiments.equity`), so the
chances are counted over whole simulated games. Two requests:

- **Records query** (``records`` given, ``--records 3,12,20,25``): the records are listed
  from the first player to decide (the dealer's left, *position 0*, the mover) round to the
  dealer (position n-1). Game ``i`` is ``new_match`` from ``SeedSequence([seed, i])`` (its
  dealer drawn by lot, MU-DEAL-1) with the records set so that the seat at position ``p``
  holds ``records[p]``; agent A plays position 0 and agent B every other seat (one agent:
  all). Each position's chance to win is its share of the games won (a tie for the lowest
  record at ``max_deals`` is shared equally among the tied seats, so the chances add up to 1)
  with a 95% Wilson interval; ``max_deals`` counts the deals played from the given records.
- **Mover table** (no records): games from the start records (``start_points`` each); at the
  start of every deal the (mover's record, lowest record among the other seats) is noted with
  whether the mover went on to win the game. A cell's ``p_win`` is the fraction of its
  snapshots whose mover won, ``count`` its snapshots and ``games`` the games they came from;
  ``p_low``/``p_high`` are the 2.5% and 97.5% points of a bootstrap that resamples whole games
  (a game gives several correlated snapshots: Efron and Tibshirani 1993, percentile interval;
  ``boot`` resamples from the run's seed). Records above ``start_points + 10`` fall into one
  "or more" row and column (the value ``start_points + 10`` stands for it). With two different
  agents, agent A sits at seat ``i % n`` in game ``i`` (every position measured, since the deal
  passes round) and only the snapshots where A's seat is the mover count.

**Deal by deal, compiled.** The deal-start records are read between calls of the compiled game
loop (:func:`cardsim.solvers.agents.play_out`) with a move limit, never move by move from Python: every
deal lasts at least n moves, and the model's ``moves_left`` gives a lower bound ``r`` on the
moves left in the current deal, so a call of ``r + n - 1`` moves cannot step over a whole deal;
the state keeps the deal's start records all through it. In Mushka a game is thus played in
about 2.2 calls per deal (README, "Match equity"). The test suite checks the snapshots against
a move-by-move walk. The agents draw from ``SeedSequence([seed, i]).spawn(1)[0]``.

**The folder** (like an experiment's): ``manifest.json`` (kind ``equity``, method ``whole
games``: game, rules, agents, games, seed, records, cardsim version), ``games/b<batch>.parquet``
(one row per snapshot: ``game``, ``deal``, ``dealer``, per position ``p`` after that deal's
dealer ``agent_p`` (0 for A, 1 for B), ``record_p`` at the deal's start, ``final_p`` at the
game's end, ``win_p`` (the seat's share of the game's win), and ``deals`` and ``cut`` (the game
was ended by ``max_deals``)); a records query keeps the first deal only. Batch ``b`` holds games
``b * batch_size`` up to the next batch, each written atomically, so a killed run resumes
without repeating or losing a batch, and the rows do not depend on the batches or the number
of workers. The table is ``equity.parquet`` and ``equity.csv`` in tidy form: the state's
columns first (``position``, ``record``, ``agent`` / ``mover_record``, ``best_other``), then
``p_win``, ``p_low``, ``p_high``, then ``games`` (and the table's ``count``).
"""
from __future__ import annotations

import io
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from cardsim import __version__
from cardsim.errors import CardsimError
from cardsim.files import BATCH_BYTES, read_limited
from cardsim.game import load_game
from cardsim.protocol.options import rules_dict
from cardsim.stats import wilson_interval

from .equity import AGENTS, BOOT, claimed_folder, write_table
from .equity_folder import SCHEMA, EquityError, read_manifest
from .store import levels_of, write_synced

METHOD = "whole games"
"""The manifest's ``method`` of these folders (a Scopa or Minchiate folder has none)."""
GAMES = 20_000
"""Games of a request by default: a records query's chances within about ±0.006, the mover
table's cells of the early game within ±0.01 (README, "Match equity")."""
OVER = 10
"""Records above ``start_points + OVER`` share the table's last row and column."""
SHOWN = 100
"""The fewest snapshots of a cell printed in the grids (every cell is in the table)."""
GAMES_DIR = "games"


@dataclass(frozen=True)
class GameEquityConfig:
    """A request (module docstring); ``rules`` as options, ``records`` from the dealer's left
    round to the dealer, or None for the mover table."""

    game: str
    rules: dict = field(default_factory=dict)
    agents: tuple[str, str] = AGENTS
    games: int = GAMES
    seed: int = 0
    records: tuple[int, ...] | None = None
    boot: int = BOOT
    batch_size: int = 0            # games per batch (0: chosen from games)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["agents"] = list(self.agents)
        d["records"] = None if self.records is None else list(self.records)
        return d

    @property
    def batch(self) -> int:
        return self.batch_size or int(min(500, max(10, self.games // 40)))


def parse_records(text: str) -> tuple[int, ...]:
    """``--records 3,12,20,25``: integers separated by commas (:func:`check` checks them)."""
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise EquityError(f"--records {text!r}: expected whole numbers separated by commas, "
                          "from the dealer's left round to the dealer (3,12,20,25)") from None


def check(config: GameEquityConfig):
    """The request's game, or :class:`EquityError` (one line): a game decided by seat records
    (its ``records_match``), its match certain to end (Mushka: ``max_deals`` set), a records
    vector of one record per seat in the range ``new_deal(records=...)`` allows, two known
    agents."""
    from cardsim.solvers.agent_spec import parse_agent
    game = load_game(config.game, **config.rules)
    if game.definition.records_match is None:
        raise EquityError(f"{game.name}: whole-game equity is for games decided by seat "
                          "records")
    endless = game.definition.endless_match(game.rules)
    if endless:
        raise EquityError(f"{endless} (--option max_deals=N)")
    if config.records is not None:
        text = ",".join(str(r) for r in config.records)
        if len(config.records) != game.num_players:
            raise EquityError(f"--records {text}: expected {game.num_players} records "
                              "(num_players), from the dealer's left round to the dealer")
        try:
            game.new_deal(seed=0, records=list(config.records))
        except CardsimError as e:
            raise EquityError(f"--records {text}: {e}") from None
    for a in config.agents:
        parse_agent(a, game)
    if config.games < 1:
        raise EquityError(f"games {config.games}: expected at least 1")
    return game


# --- playing ------------------------------------------------------------------------------

def _seat_agents(config: GameEquityConfig, i: int, dealer: int, n: int) -> list[int]:
    """Agent index (0 A, 1 B) per seat of game ``i``: A at the mover's seat of a records query,
    at seat ``i % n`` in the mover table; one agent: all 0."""
    if config.agents[0] == config.agents[1]:
        return [0] * n
    a_seat = (dealer + 1) % n if config.records is not None else i % n
    return [0 if s == a_seat else 1 for s in range(n)]


def play_games(config_dict: dict, first: int, last: int, walk: bool = False) -> pd.DataFrame:
    """Games ``first`` to ``last - 1`` of the request (in any process): their rows (module
    docstring). ``walk`` reads the state after every move (the tests' check of the jumps)."""
    from cardsim.solvers.agents import NO_LINE, parse_agent, play_out, switches, workspace
    config = config_from_dict(config_dict)
    game = load_game(config.game, **config.rules)
    spec = game.spec
    n = spec.n_players
    model = game.definition.records_match(game.rules)
    agents = [parse_agent(a, game) for a in config.agents]
    ws = workspace(spec, agents)
    run = play_out[spec, switches(agents)]
    rows = []
    for i in range(first, last):
        seq = np.random.SeedSequence([config.seed, i])
        state = game.new_match(seed=seq)
        vec = state.vec
        _, dealer, _ = model.deal_start(vec, n)
        if config.records is not None:
            seats = [(dealer + 1 + p) % n for p in range(n)]
            by_seat = [0] * n
            for p, s in enumerate(seats):
                by_seat[s] = config.records[p]
            game.definition.deal_setup(vec, game.rules, records=by_seat)
        who = _seat_agents(config, i, dealer, n)
        kinds = np.array([agents[k].kind for k in who], dtype=np.int64)
        params = np.stack([agents[k].params for k in who])
        rng = seq.spawn(1)[0].generate_state(4, dtype=np.uint64)
        starts = [model.deal_start(vec, n)]
        if config.records is not None:
            run(spec.params, vec, kinds, params, rng, ws, spec.reward_scale, 0, NO_LINE)
        else:
            while not model.over(vec):
                limit = 1 if walk else model.moves_left(vec, spec.params) + n - 1
                run(spec.params, vec, kinds, params, rng, ws, spec.reward_scale, limit, NO_LINE)
                start = model.deal_start(vec, n)
                if start[0] != starts[-1][0]:
                    if start[0] != starts[-1][0] + 1:
                        raise RuntimeError(f"game {i}: deal {starts[-1][0] + 1} was stepped over")
                    starts.append(start)
        final, share, deals, cut = model.result(vec, n)
        end = [deals, cut]
        for deal, d, records in starts:
            order = [(d + 1 + p) % n for p in range(n)]
            rows.append([i, deal, d, *(who[s] for s in order), *(records[s] for s in order),
                         *(final[s] for s in order), *(share[s] for s in order), *end])
    columns = ["game", "deal", "dealer", *(f"{k}_{p}" for k in ("agent", "record", "final", "win")
                                          for p in range(n)), "deals", "cut"]
    return pd.DataFrame(rows, columns=columns).astype(
        {c: np.int64 for c in columns if not c.startswith(("win_", "cut"))})


def config_from_dict(d: dict) -> GameEquityConfig:
    d = dict(d)
    d["agents"] = tuple(d["agents"])
    d["records"] = None if d.get("records") is None else tuple(d["records"])
    return GameEquityConfig(**d)


# --- the tables ---------------------------------------------------------------------------

def positions(n: int) -> list[str]:
    """Each position's name, from the dealer's left round to the dealer."""
    names = ["mover (dealer's left)"] + [f"dealer's left + {p}" for p in range(1, n - 1)]
    return names + ["dealer"]


def chances(rows: pd.DataFrame, config: GameEquityConfig) -> pd.DataFrame:
    """A records query's table: each position's chance to win with its Wilson interval."""
    first = rows[rows["deal"] == 1]
    n = len(config.records)
    out = []
    for p in range(n):
        wins = float(first[f"win_{p}"].sum())
        p_win, low, high = wilson_interval(wins, len(first))
        agent = config.agents[0] if p == 0 else config.agents[1]
        out.append({"position": p, "record": config.records[p], "agent": agent,
                    "p_win": p_win, "p_low": low, "p_high": high, "games": len(first)})
    return pd.DataFrame(out)


def mover_table(rows: pd.DataFrame, config: GameEquityConfig, start_points: int) -> pd.DataFrame:
    """The mover table (module docstring) from the rows of every game of the request."""
    n = sum(1 for c in rows.columns if c.startswith("record_"))
    top = start_points + OVER
    mine = rows[rows["agent_0"] == 0]
    records = mine[[f"record_{p}" for p in range(1, n)]].to_numpy()
    mover = np.minimum(mine["record_0"].to_numpy(), top)
    best = np.minimum(records.min(axis=1), top)
    cell_keys, cell = np.unique(mover * (top + 1) + best, return_inverse=True)
    cell = cell.reshape(-1)
    won = mine["win_0"].to_numpy(float)
    game = mine["game"].to_numpy()
    count = np.bincount(cell, minlength=len(cell_keys)).astype(float)
    p_win = np.bincount(cell, weights=won, minlength=len(cell_keys)) / np.maximum(count, 1)
    rng = np.random.default_rng(np.random.SeedSequence([config.seed, 20]))
    boot = np.full((config.boot, len(cell_keys)), np.nan)
    for b in range(config.boot):
        w = rng.multinomial(config.games, np.full(config.games, 1 / config.games))[game]
        den = np.bincount(cell, weights=w, minlength=len(cell_keys))
        num = np.bincount(cell, weights=w * won, minlength=len(cell_keys))
        with np.errstate(invalid="ignore", divide="ignore"):
            boot[b] = np.where(den > 0, num / den, np.nan)
    with np.errstate(all="ignore"):
        low = np.nanpercentile(boot, 2.5, axis=0) if config.boot else p_win
        high = np.nanpercentile(boot, 97.5, axis=0) if config.boot else p_win
    games = pd.Series(game).groupby(cell).nunique().reindex(range(len(cell_keys)), fill_value=0)
    return pd.DataFrame({"mover_record": cell_keys // (top + 1), "best_other": cell_keys % (top + 1),
                         "p_win": p_win, "p_low": low, "p_high": high,
                         "games": games.to_numpy(), "count": count.astype(np.int64)})


def summary(rows: pd.DataFrame) -> dict:
    """What the games say besides the table: how many, how long, how often ``max_deals`` cut
    them short (with its Wilson interval) and how often a tie for the lowest record shared the
    win."""
    first = rows[rows["deal"] == 1]
    n = sum(1 for c in rows.columns if c.startswith("win_"))
    shared = (first[[f"win_{p}" for p in range(n)]] > 0).sum(axis=1) > 1
    return {"games": len(first), "deals_mean": float(first["deals"].mean()),
            "cut": wilson_interval(int(first["cut"].sum()), len(first)),
            "ties": int(shared.sum())}


def shown_count(table: pd.DataFrame) -> int:
    """The fewest snapshots of a cell the grids show: :data:`SHOWN`, or fewer when no cell of a
    small run has that many (then the most any cell has)."""
    return int(min(SHOWN, table["count"].max())) if len(table) else SHOWN


def mover_grid(table: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The mover table as grids — p_win and its interval's half-width, the mover's record
    down, the best other record across (ascending) — of the cells with at least
    :func:`shown_count` snapshots."""
    part = table[table["count"] >= shown_count(table)].assign(
        half=lambda t: (t["p_high"] - t["p_low"]) / 2)
    values = part.pivot(index="mover_record", columns="best_other", values="p_win").sort_index()
    half = part.pivot(index="mover_record", columns="best_other", values="half")
    return values, half.reindex_like(values)


def record_label(value: int, start_points: int) -> str:
    """A table record as text: the clipped top value is "N+"."""
    return f"{value}+" if value >= start_points + OVER else str(value)


# --- the folder ---------------------------------------------------------------------------

def manifest_of(config: GameEquityConfig, game) -> dict:
    """The folder's manifest (module docstring)."""
    return {"kind": "equity", "schema": SCHEMA, "method": METHOD, "cardsim": __version__,
            "config": config.to_dict(), "game": game.name, "rules": rules_dict(game.rules),
            "agents": list(config.agents), "games": config.games, "seed": config.seed,
            "records": config.to_dict()["records"],
            "levels": levels_of({"game": game.name, "agents": list(config.agents)}),
            "table": "positions" if config.records is not None else "mover",
            "states": ["position", "record", "agent"] if config.records is not None
            else ["mover_record", "best_other"]}


def _batch_path(out: Path, b: int) -> Path:
    return out / GAMES_DIR / f"b{b:06d}.parquet"


def _batch_rows(path: Path, first: int, last: int) -> pd.DataFrame | None:
    """A stored batch, or None when it is missing, damaged or holds other games."""
    try:
        rows = pd.read_parquet(io.BytesIO(read_limited(path, BATCH_BYTES, "a batch")))
    except Exception:  # pyarrow raises many kinds; every one is a batch to compute again
        return None
    games = set(rows["game"].tolist()) if "game" in rows else set()
    return rows if games == set(range(first, last)) else None


def read_games(folder, config: GameEquityConfig | None = None) -> pd.DataFrame:
    """Every stored game row of a folder, in game and deal order (:class:`EquityError` when a
    batch is missing or damaged)."""
    folder = Path(folder)
    config = config or config_from_dict(read_manifest(folder)["config"])
    frames = []
    for b, (first, last) in enumerate(_batches(config)):
        rows = _batch_rows(_batch_path(folder, b), first, last)
        if rows is None:
            raise EquityError(f"{_batch_path(folder, b)}: missing or damaged; run the same "
                              "`cardsim equity` again to compute it")
        frames.append(rows)
    return pd.concat(frames, ignore_index=True).sort_values(["game", "deal"],
                                                             ignore_index=True)


def _batches(config: GameEquityConfig) -> list[tuple[int, int]]:
    size = config.batch
    return [(lo, min(lo + size, config.games)) for lo in range(0, config.games, size)]


def _warm_up(config: GameEquityConfig) -> None:
    """Compile (or load) the game loop in this process before the workers start."""
    from .runner import warm_up
    from .spec import parse_spec
    n = load_game(config.game, **config.rules).num_players
    warm_up(parse_spec({"game": config.game, "rules": dict(config.rules),
                        "agents": list(config.agents), "matchups": [[0] + [1] * (n - 1)],
                        "batch_size": 1, "size": {"deals": 1}}))


def run_game_equity(config: GameEquityConfig, out, jobs: int = 1,
                    progress: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Compute (or resume) the request into the folder ``out`` (module docstring); returns its
    table and the games' rows. A folder of another request is refused."""
    from joblib import delayed
    from tqdm.auto import tqdm

    from cardsim.workers import parallel
    game = check(config)
    out = Path(out)
    manifest = manifest_of(config, game)
    with claimed_folder(out, manifest):
        (out / GAMES_DIR).mkdir(exist_ok=True)
        for leftover in (out / GAMES_DIR).glob("*.tmp"):
            leftover.unlink()
        batches = _batches(config)
        todo = [b for b, (lo, hi) in enumerate(batches)
                if _batch_rows(_batch_path(out, b), lo, hi) is None]
        if todo:
            _warm_up(config)
        bar = tqdm(total=len(batches), initial=len(batches) - len(todo), unit="batch",
                   disable=not progress, desc=f"{game.name} equity")
        d = config.to_dict()
        with parallel(jobs, return_as="generator_unordered") as pool:
            done = pool(delayed(_play_batch)(d, b, *batches[b]) for b in todo)
            for b, rows in done:
                write_synced(_batch_path(out, b), rows.to_parquet(index=False))
                bar.update(1)
        bar.close()
        rows = read_games(out, config)
        table = (chances(rows, config) if config.records is not None
                 else mover_table(rows, config,
                                  game.definition.records_match(game.rules).start_points))
        write_table(out, table)
    return table, rows


def _play_batch(config_dict: dict, b: int, first: int, last: int) -> tuple[int, pd.DataFrame]:
    return b, play_games(config_dict, first, last)


def is_game_equity(manifest: dict) -> bool:
    """Whether an equity folder's manifest is one of this module's."""
    return manifest.get("method") == METHOD


def describe(config: GameEquityConfig, n: int) -> str:
    """One sentence on who plays whom."""
    a, b = config.agents
    if a == b:
        return f"{a} at every seat"
    where = "the mover's seat" if config.records is not None else "one seat (rotated over games)"
    return f"{a} at {where}, {b} at the {n - 1} others"

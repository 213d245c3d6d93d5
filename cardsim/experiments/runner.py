"""The experiment runner: seeded batches on joblib, appended to the store, resumable.

Deal ``i`` of matchup ``m`` is dealt from ``SeedSequence([root, m, i])`` (with the spec's
``same_deals``, ``SeedSequence([root, 0, i])`` in every matchup: the first matchup's deals) and its agents draw
from streams spawned from it (:func:`cardsim.solvers.duplicate.play_duplicate`), so a deal's rows do
not depend on the batch size, the number of workers or the order in which batches finish:
results are bit-identical whatever the parallelism. Batch ``b`` of a matchup holds deals
``b * batch_size`` up to the next batch.

Stopping: a fixed number of deals, or — sequentially, per matchup — the first batch boundary
at which the first agent's 95% interval is narrow enough (``half_width``) or the SPRT reaches a
verdict; batches are checked in order, so the stopping point is the same on any number of
workers. Batches computed beyond it (one wave at most) stay in the store and are left out of
the tables (:func:`used_rows`).

A run is its folder's only writer (:meth:`Store.writer` holds the folder's lock); before it
computes anything it sets damaged batches aside (:meth:`Store.repair`), so that a damaged store
is repaired by running again: a batch computed again equals the lost one (its rows depend only
on its seeds; only the measured columns, :data:`cardsim.experiments.rows.MEASURED`, differ:
:func:`cardsim.experiments.rows.seeded` leaves them out).
"""
from __future__ import annotations

import logging
import sys
import time
from dataclasses import dataclass

import pandas as pd
from joblib import delayed
from tqdm.auto import tqdm

from cardsim.errors import CardsimError, EnvironmentFault
from cardsim.game import definition
from cardsim.stats import fmt_interval
from cardsim.workers import parallel

from .rows import batch_rows
from .spec import ExperimentSpec
from .store import Store, in_order


@dataclass(frozen=True)
class RunConfig:
    """Where to write, and where to compute: ``jobs`` local worker processes (joblib), or the
    Dask cluster whose scheduler is at ``dask`` (``tcp://host:8786``)."""

    out: str
    jobs: int = 1
    progress: bool = True
    dask: str | None = None


class _Workers:
    """Runs batches and yields their rows as they finish: joblib's local processes (each ending
    with this process: :func:`cardsim.workers.parallel`), or a ``dask.distributed`` cluster.
    Stopped early (Ctrl-C, SIGTERM), the pool is stopped and the finished batches are kept;
    a Dask scheduler lost on the way is an :class:`~cardsim.errors.EnvironmentFault`."""

    def __init__(self, config: RunConfig) -> None:
        self.config = config
        self.client = None
        self.parallel = None
        self.lost = False

    def __enter__(self) -> "_Workers":
        if self.config.dask:
            try:
                from distributed import Client
            except ImportError:
                raise CardsimError("--dask needs dask.distributed: pip install "
                                   "'cardsim[dask]'") from None
            try:
                self.client = Client(self.config.dask, timeout="10s")
            except (OSError, TimeoutError) as e:
                raise CardsimError(f"cannot reach the Dask scheduler at {self.config.dask}: "
                                   f"{e}") from None
        else:
            self.parallel = parallel(self.config.jobs, return_as="generator_unordered")
            self.parallel.__enter__()
        return self

    @property
    def width(self) -> int:
        """How many batches run at once."""
        if self.client is not None:
            try:
                return max(1, sum(self.client.nthreads().values()))
            except (OSError, TimeoutError) as e:
                raise self._lost(e) from None
        return self.config.jobs

    def map(self, spec: ExperimentSpec, wave: list[tuple[int, int]]):
        if self.client is None:
            yield from self.parallel(delayed(run_batch)(spec, m, b) for m, b in wave)
            return
        from concurrent.futures import CancelledError

        from distributed import as_completed
        failed = None
        try:
            futures = [self.client.submit(run_batch, spec, m, b, pure=False)
                       for m, b in wave]
            for future in as_completed(futures):
                if future.status == "error":
                    failed = future
                    break
                rows = future.result()
                yield rows
        except (OSError, TimeoutError, CancelledError) as e:
            raise self._lost(e) from None
        if failed is not None:
            failed.result()              # the batch's own exception, raised on a worker

    def _lost(self, e: BaseException) -> EnvironmentFault:
        """The fault of a lost scheduler, ``e`` what said so; the client is then closed quietly
        (:meth:`__exit__`)."""
        self.lost = True
        lines = str(e).splitlines()
        why = f"{type(e).__name__}: {lines[0]}" if lines else type(e).__name__
        return EnvironmentFault(f"lost the Dask scheduler at {self.config.dask} ({why}): the "
                                "batches finished so far are stored; run again to resume")

    def __exit__(self, *exc) -> None:
        if self.client is not None:
            log = logging.getLogger("distributed.client")
            level = log.level
            if self.lost:           # not the traceback of its attempt to reconnect, cut short
                log.setLevel(logging.CRITICAL)
            try:
                self.client.close()
            finally:
                log.setLevel(level)
        if self.parallel is not None:
            self.parallel.__exit__(*exc)


def n_batches(spec: ExperimentSpec) -> int:
    """Batches per matchup at most."""
    return -(-spec.limit // spec.batch_size)


def deal_seed(spec: ExperimentSpec, matchup: int) -> tuple[int, ...]:
    """The entropy prefix of a matchup's deals: its own, ``(seed, matchup)``, or with
    ``same_deals`` the first matchup's, ``(seed, 0)``, so that every matchup plays its cards."""
    return (spec.seed, 0 if spec.same_deals else matchup)


def run_batch(spec: ExperimentSpec, matchup: int, batch: int) -> pd.DataFrame:
    """Play one batch (in any process: ``spec`` is pickled whole, parsed once in the parent);
    its rows as the store keeps them (:func:`cardsim.experiments.rows.batch_rows`)."""
    from cardsim.solvers.duplicate import play_duplicate
    game = spec.load()
    seating = spec.matchups[matchup]
    first = batch * spec.batch_size
    deals = range(first, min(first + spec.batch_size, spec.limit))
    results = play_duplicate(game, [spec.agents[k] for k in seating], deals,
                             seed=deal_seed(spec, matchup), match=spec.unit == "match",
                             rotate=spec.duplicate, equity=match_values(spec, game),
                             setup=spec.setup, where=spec.deal or None)
    return batch_rows(results, matchup, batch, seating)


def match_values(spec: ExperimentSpec, game):
    """The match values of the spec's equity table when an agent plays ``value=match`` (its
    ``equity`` folder, or cardsim equity's default one: :func:`.equity_folder.table_values`;
    a missing table is refused, ``cardsim run`` computes a missing default one first), else
    None."""
    from cardsim.solvers.agent_spec import parse_agent
    if not any(parse_agent(a, game).for_the_match for a in spec.agents):
        return None
    from .equity_folder import table_values
    return table_values(game, spec.equity)


def warm_up(spec: ExperimentSpec) -> None:
    """Compile (or load) every kernel a batch needs in this process before the workers start,
    so that they find the compiled code in the cache instead of compiling it at once each."""
    from cardsim.solvers.agent_spec import least_budget
    from cardsim.solvers.agents import parse_agent, play, switches
    game = spec.load()
    kinds = [parse_agent(a, spec.game) for a in spec.agents]
    quick = [least_budget(a) for a in kinds]      # the same compiled loop, a tiny budget
    equity = match_values(spec, game)
    loops = {}                                     # one seating per compiled agent loop
    for seating in spec.matchups:
        loops.setdefault(tuple(switches([kinds[k] for k in seating]).items()), seating)
    for seating in loops.values():
        state = game.new_deal(seed=0)
        play(state, [quick[k] for k in seating], seed=0, equity=equity)
        state.score_breakdown()


def stop_batch(spec: ExperimentSpec, rows: pd.DataFrame, matchup: int) -> int | None:
    """The last batch a matchup needs, given its contiguous finished batches in ``rows``
    (None: not decided yet)."""
    if spec.deals is not None:
        return n_batches(spec) - 1
    from .sprt import sprt
    from .tables import half_width
    if not len(rows):
        return None
    mine = rows[rows["matchup"] == matchup]
    for b in range(n_batches(spec)):
        part = mine[mine["batch"] <= b]
        if not len(part) or part["batch"].max() < b:
            return None                               # batch b is not finished yet
        if b == n_batches(spec) - 1:
            return b
        if spec.half_width is not None:
            if half_width(part, list(spec.agents), matchup) <= spec.half_width:
                return b
        else:
            s = spec.sprt
            verdict = sprt(part, list(spec.agents), matchup, kind=s["kind"], lower=s["lower"],
                           upper=s["upper"], alpha=s["alpha"], beta=s["beta"],
                           zero_sum=definition(spec.game).zero_sum).verdict
            if verdict != "continue":
                return b
    return n_batches(spec) - 1


def used_rows(spec: ExperimentSpec, rows: pd.DataFrame) -> pd.DataFrame:
    """The rows the tables use: each matchup up to its stopping batch."""
    if not len(rows):
        return rows
    keep = []
    for m in range(len(spec.matchups)):
        last = stop_batch(spec, rows, m)
        mine = rows[rows["matchup"] == m]
        keep.append(mine if last is None else mine[mine["batch"] <= last])
    return pd.concat(keep, ignore_index=True) if keep else rows


def run(spec: ExperimentSpec, config: RunConfig) -> Store:
    """Run (or resume) ``spec`` into ``config.out``, as the folder's only writer (its lock is
    held until the run ends); damaged batches are first set aside and then computed again from
    their seeds (:meth:`Store.repair`). Returns the store."""
    with Store.writer(config.out, spec.to_dict()) as store:
        _repair(store)
        _run_batches(spec, config, store)
    return store


def _repair(store: Store) -> None:
    """Set the store's damaged batches aside and record its unrecorded whole ones, saying so."""
    moved, recorded = store.repair()
    for batch, where in moved:
        print(f"cardsim run: batch {batch.name} {batch.problem}: set aside as {where}.*; "
              "computing it again from its seed", file=sys.stderr)
    if recorded:
        print(f"cardsim run: {len(recorded)} batch(es) had no checksum (written by an older "
              "cardsim, or by a run stopped before recording it); each read whole and is now "
              "recorded", file=sys.stderr)


def _run_batches(spec: ExperimentSpec, config: RunConfig, store: Store) -> None:
    """Compute the batches the store lacks, writing each as it finishes."""
    done = store.done()
    total = len(spec.matchups) * n_batches(spec)
    bar = tqdm(total=total, initial=len(done), unit="batch", disable=not config.progress,
               desc=f"{spec.game} experiment")
    started, deals, shown = time.perf_counter(), 0, 0.0
    written = [store.rows()]         # the store read and checked once, then each batch written
    first = [written[0]]             # the first matchup's rows, for the running estimate
    with _Workers(config) as workers:
        while True:
            rows = in_order(written)   # no new read: a sequential run decides after every wave
            wave = []
            for m in range(len(spec.matchups)):
                last = stop_batch(spec, rows, m)
                upto = n_batches(spec) - 1 if last is None else last
                pending = [b for b in range(upto + 1) if (m, b) not in done]
                if last is None:
                    pending = pending[:workers.width]   # sequential: one wave at most
                wave += [(m, b) for b in pending]
            if not wave:
                break
            for batch_rows in workers.map(spec, wave):
                m, b = int(batch_rows["matchup"].iloc[0]), int(batch_rows["batch"].iloc[0])
                written.append(store.write_batch(m, b, batch_rows))
                done.add((m, b))
                deals += int(batch_rows["deal"].nunique())
                bar.update(1)
                if m == 0:
                    first.append(batch_rows)
                now = time.perf_counter()
                if config.progress and now - shown > 1.0:
                    shown = now
                    bar.set_postfix_str(_status(spec, first, deals / (now - started)))
            if spec.deals is not None:
                break
    bar.close()


def _status(spec: ExperimentSpec, first: list, rate: float) -> str:
    """The progress bar's note: deals per second and the running estimate of the first
    matchup (its first agent's mean return per deal, 95% interval)."""
    from .tables import first_agent_deals
    text = f"{rate:,.0f} deals/s"
    rows = pd.concat([f for f in first if len(f)], ignore_index=True) if any(
        len(f) for f in first) else pd.DataFrame()
    rows = rows[rows["matchup"] == 0] if len(rows) else rows
    try:
        values = first_agent_deals(rows, list(spec.agents), 0)
    except CardsimError:
        return text
    if len(values) >= 2:
        from cardsim.stats import mean_interval
        text += f", {spec.agents[spec.matchups[0][0]]}: {fmt_interval(*mean_interval(values))}"
    return text

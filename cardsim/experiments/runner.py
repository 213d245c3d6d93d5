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

Size: the batches a run lacks are generated as the workers take them (at most
:data:`IN_FLIGHT` handed out at a time), never listed, so a run of any number of deals up to
:data:`cardsim.simulate.MAX_DEALS` starts at once; a fixed-size run keeps no rows in memory
(the finished batches are known by their names, the progress note's estimate by running
sums), a sequential one the rows its stopping rule reads.

A run is its folder's only writer (:meth:`Store.writer` holds the folder's lock); before it
computes anything it sets damaged batches aside (:meth:`Store.repair`), so that a damaged store
is repaired by running again: a batch computed again equals the lost one (its rows depend only
on its seeds; only the measured columns, :data:`cardsim.experiments.rows.MEASURED`, differ:
:func:`cardsim.experiments.rows.seeded` leaves them out).
"""
from __future__ import annotations

import itertools
import logging
import math
import sys
import time
from dataclasses import dataclass
from typing import Iterable

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

    def map(self, spec: ExperimentSpec, wave: Iterable[tuple[int, int]]):
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


IN_FLIGHT = 4096
"""The most batches handed to the workers at a time: the batches still to compute are
generated as they are handed out, so that a run of any size starts at once."""


def _run_batches(spec: ExperimentSpec, config: RunConfig, store: Store) -> None:
    """Compute the batches the store lacks, writing each as it finishes. A fixed-size run
    keeps no rows (memory does not grow with its batches: the store's finished batches are
    known by name, the progress note's estimate by running sums); a sequential one keeps the
    rows its stopping rule reads."""
    done = store.done()
    total = len(spec.matchups) * n_batches(spec)
    sequential = spec.deals is None
    finished_before = not sequential and len(done) >= total      # no bar for no work
    bar = tqdm(total=total, initial=len(done), unit="batch", desc=f"{spec.game} experiment",
               disable=not config.progress or finished_before)
    started, deals, shown = time.perf_counter(), 0, 0.0
    estimate = _Estimate(spec)
    written = []                     # a sequential run's rows: the store's, then each batch's
    for batch in store.each():       # whole: the run repaired the store first
        if batch.problem:
            raise store.damage_error([batch])
        estimate.add(batch.rows)
        if sequential:
            written.append(batch.rows)
    fixed = ((m, b) for m in range(len(spec.matchups)) for b in range(n_batches(spec))
             if (m, b) not in done)      # generated as the workers take them
    with _Workers(config) as workers:
        while True:
            wave = iter(_sequential_wave(spec, in_order(written), done, workers.width)
                        if sequential else fixed)   # sequential: decided after every wave
            finished = 0
            for rows in workers.map(spec, itertools.islice(wave, IN_FLIGHT)):
                m, b = int(rows["matchup"].iloc[0]), int(rows["batch"].iloc[0])
                rows = store.write_batch(m, b, rows)
                finished += 1
                done.add((m, b))
                deals += int(rows["deal"].nunique())
                bar.update(1)
                estimate.add(rows)
                if sequential:
                    written.append(rows)
                now = time.perf_counter()
                if config.progress and now - shown > 1.0:
                    shown = now
                    bar.set_postfix_str(estimate.note(deals / (now - started)))
            if not finished:
                break
    bar.close()


def _sequential_wave(spec: ExperimentSpec, rows: pd.DataFrame, done: set,
                     width: int) -> list[tuple[int, int]]:
    """The next batches of a sequential run: per matchup, its batches up to its stopping batch
    (:func:`stop_batch`) once decided, else its next ``width`` unfinished ones (one wave at
    most beyond the stopping point), generated lazily over its batches."""
    wave = []
    for m in range(len(spec.matchups)):
        last = stop_batch(spec, rows, m)
        upto = n_batches(spec) - 1 if last is None else last
        pending = (b for b in range(upto + 1) if (m, b) not in done)
        wave += [(m, b) for b in (itertools.islice(pending, width) if last is None
                                  else pending)]
    return wave


class _Estimate:
    """The progress bar's note: deals per second and the running estimate of the first
    matchup (its first agent's mean return per deal, 95% interval), from running sums of the
    per-deal values, batch by batch (a deal's rotations are all in its batch)."""

    def __init__(self, spec: ExperimentSpec) -> None:
        self.spec = spec
        self.n, self.sum, self.squares = 0, 0.0, 0.0

    def add(self, rows: pd.DataFrame) -> None:
        """Add a batch's rows (a batch of another matchup adds nothing)."""
        from .tables import first_agent_deals
        if not len(rows) or int(rows["matchup"].iloc[0]) != 0:
            return
        try:
            values = first_agent_deals(rows, list(self.spec.agents), 0)
        except CardsimError:
            return
        self.n += len(values)
        self.sum += float(values.sum())
        self.squares += float((values * values).sum())

    def note(self, rate: float) -> str:
        """The note, with ``rate`` deals per second."""
        from cardsim.stats import t95
        text = f"{rate:,.0f} deals/s"
        if self.n >= 2:
            mean = self.sum / self.n
            spread = max(0.0, (self.squares - self.sum * mean) / (self.n - 1))
            half = t95(self.n) * math.sqrt(spread / self.n)
            agent = self.spec.agents[self.spec.matchups[0][0]]
            text += f", {agent}: {fmt_interval(mean, mean - half, mean + half)}"
        return text

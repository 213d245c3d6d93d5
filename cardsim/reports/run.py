"""A finished (or interrupted) experiment, read back from its store alone."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from cardsim.errors import CardsimError
from cardsim.experiments.runner import used_rows
from cardsim.experiments.spec import ExperimentSpec, spec_from_dict
from cardsim.experiments.store import Store


class ReportError(CardsimError):
    """A run folder that cannot be reported on (no store, no finished batch, a spec this
    version cannot read)."""


@dataclass(frozen=True)
class Run:
    """An experiment's store: its manifest, its parsed spec and the rows the tables use (each
    matchup up to its stopping batch, :func:`cardsim.experiments.runner.used_rows`)."""

    path: Path
    manifest: dict
    spec: ExperimentSpec
    rows: pd.DataFrame
    stored_games: int

    @property
    def agents(self) -> list[str]:
        """The spec's agent strings, indexed by the rows' ``seat_<s>`` values."""
        return list(self.spec.agents)

    @property
    def name(self) -> str:
        """The run folder's name."""
        return self.path.resolve().name


def load_run(path) -> Run:
    """Open the store at ``path`` (the folder ``cardsim run`` wrote) for reading."""
    store = Store.open(path)
    manifest = store.manifest()
    try:
        spec = spec_from_dict(manifest.get("spec"))
    except CardsimError as e:      # SpecError, or an unknown game, option or agent
        raise ReportError(f"{store.path}/manifest.json holds a spec this cardsim cannot read "
                          f"({e}); report it with the cardsim version that ran it, "
                          f"{manifest.get('package_version', 'unknown')}") from None
    rows = store.rows()
    if not len(rows):
        raise ReportError(f"{store.path} holds no finished batch yet: run (or resume) the "
                          "experiment with `cardsim run SPEC --out "
                          f"{store.path}` first")
    return Run(path=store.path, manifest=manifest, spec=spec, rows=used_rows(spec, rows),
               stored_games=len(rows))

"""cardsim.experiments.rows, the rows' format: the rows built from duplicate play follow it (columns,
order, dtypes), every table reads them, and rows of version 1 read without thinking times."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim.experiments.rows import (
    ADDED,
    COLUMNS,
    DECISIONS,
    END,
    OPTIONS,
    READS,
    RETURN,
    SCHEMA_VERSION,
    SEAT,
    SEATED,
    THINK,
    at_seat,
    batch_rows,
    category,
    category_names,
    duplicate_rows,
    score_columns,
    seat_columns,
    seeded,
    thinking_recorded,
)
from cardsim.experiments.tables import report_tables
from cardsim.solvers.duplicate import play_duplicate

AGENTS = ["random", "heuristic", "ismcts:iterations=20"]


@pytest.fixture(scope="module")
def bura():
    """Batch 1 of matchup 2, seating (2, 1): the spec's agents 2 and 1, 3 Bura deals."""
    game = cardsim.load_game("bura")
    results = play_duplicate(game, [AGENTS[2], AGENTS[1]], range(3, 6), seed=(5, 2))
    return results, batch_rows(results, 2, 1, (2, 1))


def test_a_batch_has_the_formats_columns_in_order_with_their_dtypes(bura):
    results, rows = bura
    n = 2
    fixed = list(COLUMNS) + [at_seat(stem, s) for s in range(n) for stem in (SEAT, RETURN)]
    fixed += seat_columns(DECISIONS, n) + seat_columns(OPTIONS, n) + seat_columns(THINK, n)
    assert list(rows.columns[:len(fixed)]) == fixed
    for column, dtype in COLUMNS.items():
        assert rows[column].dtype == dtype, column
    for stem, dtype in SEATED.items():
        assert all(rows[c].dtype == dtype for c in seat_columns(stem, n)), stem
    names = category_names(rows)
    assert names == [name for name, v in results.scores[0].items() if not isinstance(v, str)]
    assert all(rows[at_seat(category(name), s)].dtype == "float64" for name in names
               for s in range(n))
    assert pd.api.types.is_string_dtype(rows[END])
    assert set(rows[END]) <= {"claim_won", "claim_lost", "bura", "moscow", "most_points", "void"}
    rest = [at_seat(category(name), s) for name in names for s in range(n)]
    assert sorted(rows.columns[len(fixed):]) == sorted(rest + [END, "first_leader",
                                                               "last_trick"])
    assert (rows["matchup"] == 2).all() and (rows["batch"] == 1).all()
    assert rows["deal"].tolist() == [3, 3, 4, 4, 5, 5]


def test_a_batch_records_the_spec_agents_at_each_seat(bura):
    """``seat_<s>`` holds the spec's agent index (the seating's), rotation by rotation."""
    results, rows = bura
    assert (rows["seat_0"] == np.where(rows["rotation"] == 0, 2, 1)).all()
    assert (rows["seat_1"] == np.where(rows["rotation"] == 0, 1, 2)).all()
    plain = duplicate_rows(results)
    assert (plain["seat_0"] == rows["rotation"]).all()
    assert plain.equals(rows.drop(columns=["matchup", "batch"]).assign(
        seat_0=plain["seat_0"], seat_1=plain["seat_1"]))
    timed = rows["seat_0"] == 2                        # the search is timed, the heuristic not
    assert (rows.loc[timed, "think_0"] > 0).all() and rows.loc[~timed, "think_0"].isna().all()


def test_every_table_reads_the_rows(bura):
    """The tables of a store read every column they need from rows built by the format."""
    _, rows = bura
    tables = report_tables(rows, AGENTS)
    for name in ("matchups", "seats", "dealer", "categories", "ends", "thinking"):
        assert len(tables[name]), name
    assert set(tables["categories"]["category"]) == set(category_names(rows))
    assert tables["thinking"].set_index("agent").loc[2, "ms_per_decision"] > 0


def test_score_columns_follow_the_games_order():
    scores = {"points": [3.0, 1.0], "result": "bura", "scores": [1.0, 0.0]}
    assert list(score_columns(scores).items()) == [
        ("cat_points_0", 3.0), ("cat_points_1", 1.0), ("end", "bura"), ("cat_scores_0", 1.0),
        ("cat_scores_1", 0.0)]


def test_rows_of_version_1_read_without_thinking_times(bura):
    """Version 2 added ``decisions_<s>`` and ``think_<s>``: rows without them (a store of
    version 1) read, and say that they do not record the thinking time."""
    _, rows = bura
    assert SCHEMA_VERSION == max(READS) and 1 in READS and set(ADDED.values()) == {2, 3}
    assert thinking_recorded(rows)
    old = rows.drop(columns=[c for stem in ADDED for c in seat_columns(stem, 2)])
    assert not thinking_recorded(old) and not thinking_recorded(pd.DataFrame())
    tables = report_tables(old, AGENTS)
    assert tables["thinking"].empty and "schema version 1" in tables["thinking"].attrs["note"]
    assert len(tables["matchups"]) == 2
    assert list(seeded(old).columns) == [c for c in old.columns if c != "seconds"]

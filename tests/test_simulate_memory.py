"""``cardsim simulate`` in constant memory: deals are played and summarised chunk by chunk, so
memory does not grow with ``--deals``, nothing is allocated for the deals up front, and a
number of deals beyond the int64 deal counts is a one-line error."""
from __future__ import annotations

import tracemalloc

import pytest

from cardsim import load_game
from cardsim import simulate as sim
from cardsim.app.cli import main
from cardsim.errors import CardsimError


def peak_bytes(game: str, deals: int) -> int:
    """Peak traced memory of ``simulate`` (numpy's arrays included)."""
    config = sim.SimulationConfig(game=game, deals=deals, seed=1)
    sim.simulate(sim.SimulationConfig(game=game, deals=1, seed=1))   # compiled and imported
    tracemalloc.start()
    try:
        sim.simulate(config)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("game", ["scopa", "mushka"])
def test_peak_memory_does_not_grow_with_the_deals(game):
    """Six chunks and one deal take no more memory than two chunks (the whole record array of
    the six would be three times the two's)."""
    small, large = peak_bytes(game, 2 * sim.CHUNK), peak_bytes(game, 6 * sim.CHUNK + 1)
    assert large < 1.1 * small + 1e6, (small, large)


def test_huge_runs_allocate_nothing_up_front():
    """Two billion deals: the first chunk comes at once, with a chunk's memory."""
    chunks = sim.row_chunks(load_game("scopa"), 2_000_000_000, seed=1)
    tracemalloc.start()
    try:
        first = next(chunks)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        chunks.close()
    assert len(first) == sim.CHUNK
    assert peak < 20 * sim.CHUNK * len(first.columns) * 8


def test_deals_beyond_int64_are_refused():
    """2**63 - 1 deals is the most a config accepts; one more is a CardsimError."""
    assert sim.SimulationConfig(game="scopa", deals=sim.MAX_DEALS, seed=0).deals == 2**63 - 1
    with pytest.raises(CardsimError, match="at most 9,223,372,036,854,775,807"):
        sim.SimulationConfig(game="scopa", deals=2**63, seed=0)
    with pytest.raises(CardsimError, match="at most"):
        next(sim.row_chunks(load_game("scopa"), 2**63, seed=0))


def test_cli_refuses_too_many_deals_in_one_line(capsys):
    """``cardsim simulate scopa --deals 9223372036854775808``: exit 2, one line, no traceback."""
    assert main(["simulate", "scopa", "--deals", str(2**63), "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("cardsim: error: deals=9223372036854775808: at most ")
    assert len(err.strip().splitlines()) == 1

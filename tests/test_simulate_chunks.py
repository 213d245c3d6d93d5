"""``cardsim simulate``'s tables, built chunk by chunk, equal the whole-array computation.

Every game's summary adds chunks of records to exact sums (:class:`cardsim.stats.Sums`) and
builds its tables at the end. The oracle here is the whole-array computation the summaries
made before (numpy on every deal's record at once), kept as small reference functions: for
each game, a few seeds and chunk sizes (one that does not divide the deals, one that cuts
Mushka's games), the chunked tables equal the reference's, string for string, notes included.
Means and shares are exact sums divided by n, so they agree bit for bit; the intervals'
standard deviations come from exact integer sums of squares and agree to the last printed digit.
"""
from __future__ import annotations

import dataclasses
import importlib

import numpy as np
import pandas as pd
import pytest

from cardsim import simulate as sim
from cardsim.stats import Sums, fmt_interval, mean_interval, t95, wilson_interval

DEALS = 6_000
GAMES = ("scopa", "bura", "mushka", "minchiate")


# --- the reference: the whole-array tables ---------------------------------------------------

def mean(values, digits=3, at_least=0):
    values = np.asarray(values, dtype=float)
    return fmt_interval(*mean_interval(values), digits=digits) if len(values) > at_least else "-"


def share(hits, n):
    return fmt_interval(*wilson_interval(int(np.sum(hits)), n)) if n else "-"


def table(rows, index, note=None):
    t = pd.DataFrame(rows).set_index(index)
    if note:
        t.attrs["note"] = note
    return t


def col(r, name):
    return r[name].to_numpy()


def bit(masks, seats):
    return (masks >> seats) & 1 == 1


def scopa_reference(r, rules):
    from cardsim.games.scopa.layout import CATEGORIES
    n = len(r)
    pts = np.stack([np.stack([col(r, f"side{s}_{c}") for c in CATEGORIES], 1) for s in (0, 1)])
    tot = pts.sum(axis=2)
    label = ["seats 0+2", "seats 1+3"] if rules.num_players == 4 else ["seat 0", "seat 1"]
    rows = []
    for k, cat in enumerate((*CATEGORIES, "total")):
        for s in (0, 1):
            own = tot[s] if cat == "total" else pts[s][:, k]
            won = own > tot[1 - s] if cat == "total" else own > 0 if cat == "scopas" else own
            rows.append({"category": cat, "side": label[s], "mean points [95% CI]": mean(own),
                         "share won [95% CI]": share(won, n)})
    by_side = table(rows, ["category", "side"], (
        "share won: deals in which the side took the category's point; for scopas, P(at least "
        "one scopa); for total, deals with more points than the other side"))
    d, i = col(r, "dealer") & 1, np.arange(n)
    dp, op = tot[d, i], tot[1 - d, i]
    sc = pts[:, :, CATEGORIES.index("scopas")]
    role = table({"role": ["dealer's side", "other side"], "mean points": [mean(dp), mean(op)],
                  "P(>=1 scopa)": [share(sc[d, i] > 0, n), share(sc[1 - d, i] > 0, n)],
                  "share of deals won": [share(dp > op, n), share(op > dp, n)]}, "role")
    adv = table({"figure": ["dealer advantage (points per deal)", "tied deals",
                            "redeals per deal", "moves per deal"],
                 "estimate [95% CI]": [mean(dp - op), share(dp == op, n), mean(col(r, "redeals")),
                                       f"{r['moves'].mean():.1f}"]}, "figure")
    return {"points by category and side": by_side, "dealer's side against the other": role,
            "dealer advantage": adv}


def bura_reference(r, rules):
    from cardsim.games.bura.layout import RESULT_CLAIM_LOST, RESULT_CLAIM_WON, RESULT_NAMES
    from cardsim.games.bura.summary import ENDINGS
    n, result = len(r), col(r, "result")
    endings = table([{"ending": text, "share of deals [95% CI]":
                      share(result == RESULT_NAMES.index(kind), n)}
                     for kind, text in ENDINGS.items()], "ending",
                    f"{int(r['tricks'].mean() * 10) / 10} tricks and {r['moves'].mean():.1f} "
                    f"moves per deal on average, {r['redeals'].mean():.3f} redeals per deal")
    rows = []
    for kind, text in ((RESULT_CLAIM_WON, "true claims"), (RESULT_CLAIM_LOST, "false claims")):
        pts = col(r, "claim_points")[result == kind]
        rows.append({"claims": text, "count": len(pts), "pile points [95% CI]":
                     mean(pts, digits=1) if len(pts) else "-"})
    decided = result != RESULT_NAMES.index("void")
    seats = {"first leader": col(r, "first_leader"), "dealer": col(r, "dealer")}
    seats |= {f"seat {s}": np.full(n, s) for s in range(rules.num_players)}
    adv = table([{"who": who, "share of decided deals won [95% CI]":
                  share(bit(col(r, "winners"), seat)[decided], int(decided.sum()))}
                 for who, seat in seats.items()], "who",
                f"a share above {1 / rules.num_players:.3f} (1 / players) is an advantage; a "
                "false claim makes every other player a winner")
    return {"how deals end": endings, "points at the claim": table(rows, "claims"),
            "leader's and dealer's advantage": adv}


def ratio(num, den):
    total = den.sum()
    if total < 2:
        return "-"
    q = num.sum() / total
    half = t95(len(num)) * ((num - q * den) / den.mean()).std(ddof=1) / np.sqrt(len(num))
    return fmt_interval(q, q - half, q + half, digits=2)


def mushka_reference(r, rules):
    n, deals, i = rules.num_players, len(r), np.arange(len(r))
    dealer = col(r, "dealer")
    played = (col(r, "void") == 0) & (col(r, "lone") == 0)
    tricks = r[[f"tricks_{s}" for s in range(n)]].to_numpy()
    change = r[[f"change_{s}" for s in range(n)]].to_numpy()
    rows = []
    for place in range(1, n + 1):
        seat = (dealer + place) % n
        plays = bit(col(r, "active"), seat) & played
        rows.append({"place after the dealer": place if place < n else f"{n} (dealer)",
                     "plays [95% CI]": share(plays, deals),
                     "tricks per played deal [95% CI]": mean(tricks[i, seat][plays], at_least=1),
                     "remise rate when playing [95% CI]":
                     share(bit(col(r, "remised"), seat)[plays], int(plays.sum())),
                     "record written off per deal [95% CI]": mean(change[i, seat], at_least=1)})
    places = table(rows, "place after the dealer", (
        "played deals: two or more players stayed in; 5 tricks per played deal are shared "
        "among those who play; written off = start record - end record (higher is better); "
        f"{r['moves'].mean():.1f} moves per deal on average"))
    decisions = deals * n
    passes, stands = (sum(int(bit(col(r, k), s).sum()) for s in range(n))
                      for k in ("passes", "stands"))
    exchange = table([
        {"what": "decisions: pass", "value [95% CI]": share(passes, decisions)},
        {"what": "decisions: stand", "value [95% CI]": share(stands, decisions)},
        {"what": "decisions: exchange", "value [95% CI]": share(r["exchanges"].sum(), decisions)},
        {"what": "cards per exchange", "value [95% CI]":
         ratio(col(r, "cards_exchanged"), col(r, "exchanges"))},
        {"what": "void deals (everyone passed)", "value [95% CI]": share(col(r, "void") == 1, deals)},
        {"what": "lone player takes all 5", "value [95% CI]": share(col(r, "lone") > 0, deals)},
    ], "what")
    holder = col(r, "ace_holder")
    held, stops = holder > 0, col(r, "stopper") > 0
    remised = bit(col(r, "remised"), np.maximum(holder - 1, 0)) & held
    ace = table([
        {"what": "deals with an active ace holder", "value [95% CI]": share(held, deals)},
        {"what": "  ace bonus written off", "value [95% CI]":
         share(col(r, "ace_bonus")[held] == 1, int(held.sum()))},
        {"what": "  holder remised (+10)", "value [95% CI]": share(remised[held], int(held.sum()))},
        {"what": "games stopped at 0 by the ace holder", "value [95% CI]":
         share((col(r, "stopper") == holder)[stops], int(stops.sum()))},
    ], "what")
    over, first = col(r, "match_over") == 1, col(r, "deal_number") == 1
    first_dealer = dealer[first][(np.cumsum(first) - 1)[over]]
    ends = r.loc[over]
    rows = [{"what": "complete games", "value [95% CI]": str(int(over.sum()))},
            {"what": "deals per game", "value [95% CI]": mean(col(ends, "deal_number"), 2, 1)},
            {"what": "games ended by a stop at 0", "value [95% CI]":
             share(col(ends, "stopper") > 0, len(ends))}]
    for place in range(1, n + 1):
        name = f"place {place} after the first dealer" if place < n else "the first dealer"
        rows.append({"what": f"wins: {name}", "value [95% CI]":
                     share(bit(col(ends, "winners"), (first_dealer + place) % n), len(ends))})
    games = table(rows, "what", f"a win share above {1 / n:.3f} (1 / players) is an advantage; "
                  "the game cut off by the end of the run is not counted")
    return {"tricks and records by place": places, "the exchange": exchange,
            "the ace of spades": ace, "whole games": games}


def minchiate_reference(r, rules):
    from cardsim.games.minchiate.layout import COMBO_KINDS, SOURCES
    from cardsim.games.minchiate.summary import HISTOGRAM_CAP as CAP
    n, net = len(r), col(r, "net")

    def m(values, digits=3):
        return mean(values, digits, at_least=1)
    net_t = table([
        {"figure": "net resti (A - B) per deal", "value [95% CI]": m(net)},
        {"figure": "|net resti| per deal", "value [95% CI]": m(np.abs(net))},
        {"figure": "team A wins (net > 0)", "value [95% CI]": share(net > 0, n)},
        {"figure": "draws (net = 0)", "value [95% CI]": share(net == 0, n)},
        {"figure": "team B wins (net < 0)", "value [95% CI]": share(net < 0, n)},
        {"figure": "resti of team A", "value [95% CI]": m(col(r, "resti_a"))},
        {"figure": "resti of team B", "value [95% CI]": m(col(r, "resti_b"))},
        {"figure": "tricks of team A", "value [95% CI]": m(col(r, "tricks_a"), 2)},
        {"figure": "a team without a trick (Matto given)", "value [95% CI]":
         share(col(r, "matto_given") > 0, n)}], "figure",
        "team A = seats 0 and 2; both teams usually make resti in a deal, the net is their "
        "difference")
    lo, hi, rows = int(net.min()), int(net.max()), []
    for v in range(max(lo, -CAP), min(hi, CAP) + 1):
        label, hits = ((f"<= {v}", net <= v) if v == -CAP and lo < v else
                       (f">= {v}", net >= v) if v == CAP and hi > v else (str(v), net == v))
        rows.append({"net resti": label, "deals": int(hits.sum()), "share [95% CI]": share(hits, n)})
    hist = table(rows, "net resti")
    rows, total_a, total_b = [], 0, 0
    for s in (*SOURCES, "total"):
        a, b = (total_a, total_b) if s == "total" else (col(r, f"{s}_a"), col(r, f"{s}_b"))
        total_a, total_b = total_a + a, total_b + b
        rows.append({"source": s, "team A [95% CI]": m(a, 2), "team B [95% CI]": m(b, 2),
                     "A - B [95% CI]": m(a - b, 2)})
    sources = table(rows, "source", "points per deal; dying cards score at once and again in "
                    "the pile at the end (MI-END-5)")
    rows = []
    for k in (*COMBO_KINDS, "bonus_claims"):
        x = col(r, "bonus_claims" if k == "bonus_claims" else f"declared_{k}")
        rows.append({"kind": "Matto bonus claimed" if k == "bonus_claims" else k,
                     "per deal [95% CI]": m(x), "deals with one or more [95% CI]": share(x > 0, n)})
    declared = table(rows, "kind", "declarations by the four seats together, per deal")
    rows = []
    for name, seat in (("cutter's team (leads first)", (col(r, "dealer") + 3) % 4),
                       ("dealer's team", col(r, "dealer"))):
        view = np.where(seat % 2 == 0, net, -net)
        rows.append({"side": name, "advantage: net resti [95% CI]": m(view),
                     "wins [95% CI]": share(view > 0, n), "losses [95% CI]": share(view < 0, n)})
    sides = table(rows, "side", "net resti per deal from that side's view (> 0: an advantage); "
                  "the cutter is the dealer's left (seat dealer + 3), never the dealer's "
                  "partner, so the two rows mirror each other")
    return {"net resti": net_t, "net resti histogram": hist, "points by source and team": sources,
            "combinations declared": declared, "the cutter's and the dealer's side": sides}


REFERENCE = {"scopa": scopa_reference, "bura": bura_reference, "mushka": mushka_reference,
             "minchiate": minchiate_reference}


# --- the tests -----------------------------------------------------------------------------

def summary(game):
    return importlib.import_module(f"cardsim.games.{game}.summary").summarize


def chunked(game, records, rules, size):
    sums = Sums()
    for start in range(0, len(records), size):
        summary(game).add(sums, records.iloc[start:start + size], rules)
    return summary(game).tables(sums, rules)


def assert_same_tables(got, expected):
    assert list(got) == list(expected)
    for title, t in expected.items():
        pd.testing.assert_frame_equal(got[title], t, obj=title)
        assert got[title].attrs == t.attrs, title


@pytest.fixture(scope="module", params=[(g, seed) for g in GAMES for seed in (1, 2)],
                ids=lambda p: f"{p[0]}-seed{p[1]}")
def deals(request):
    game, seed = request.param
    options = {"num_players": "5"} if game == "mushka" and seed == 2 else {}
    rules, records = sim.play_random_deals(game, DEALS, seed, options)
    return game, seed, options, rules, records


@pytest.mark.parametrize("size", [DEALS, 2_500, 997])
def test_chunked_tables_equal_the_whole_array_reference(deals, size):
    """Chunks of 6000 (one), 2500 (which does not divide 6000) and 997 deals (cutting Mushka's
    games across chunks) give the reference's tables, string for string."""
    game, _, _, rules, records = deals
    assert_same_tables(chunked(game, records, rules, size), REFERENCE[game](records, rules))


def test_simulate_summarises_the_same_deals_in_constant_memory(deals):
    """``simulate`` (which drops each chunk) gives the tables of the whole record array;
    records are kept only when asked."""
    game, seed, options, rules, records = deals
    config = sim.SimulationConfig(game=game, deals=DEALS, seed=seed, options=options)
    result = sim.simulate(config)
    assert result.rows is None
    assert_same_tables(result.tables, summary(game)(records, rules))
    kept = sim.simulate(dataclasses.replace(config, keep_rows=True))
    pd.testing.assert_frame_equal(kept.rows, records)
    assert_same_tables(kept.tables, result.tables)


@pytest.mark.parametrize("game", ["scopa", "bura", "minchiate", "mushka"])
def test_results_do_not_depend_on_the_engine_chunk(game, monkeypatch):
    """One chance stream runs through all chunks, and a game under way goes on into the next
    (Mushka plays whole games): the compiled loop called on 1,234 deals at a time, or on 7,
    plays the same deals as on 20,000, and ``simulate`` gives the same tables."""
    whole = sim.play_random_deals(game, 5_000, 3)[1]
    tables = sim.simulate(sim.SimulationConfig(game=game, deals=5_000, seed=3)).tables
    if game == "mushka":             # games cross the chunks' borders
        over = whole["match_over"].to_numpy()
        assert 0 < over.sum() and not over[1233] and not over[6]
    for size in (1_234, 7):
        monkeypatch.setattr(sim, "CHUNK", size)
        pd.testing.assert_frame_equal(sim.play_random_deals(game, 5_000, 3)[1], whole)
        assert_same_tables(sim.simulate(sim.SimulationConfig(game=game, deals=5_000,
                                                             seed=3)).tables, tables)


def test_sums_mean_interval_matches_numpy():
    """The mean is numpy's, bit for bit; the interval's bounds agree to 1e-12 (the standard
    deviation is the exact one, numpy's two-pass figure is rounded)."""
    rng = np.random.default_rng(5)
    for values in (rng.integers(-40, 40, 10_001), rng.integers(0, 2, 333), np.array([7]),
                   np.array([3, 3, 3])):
        sums = Sums()
        for part in np.array_split(values, 7):
            sums.add("x", part)
        got, expected = sums.mean_interval("x"), mean_interval(values)
        assert got[0] == expected[0]
        np.testing.assert_allclose(got[1:], expected[1:], rtol=1e-12, atol=1e-12)
        assert sums.moments("x") == (len(values), int(values.sum()), int((values ** 2).sum()))


def test_sums_stay_exact_beyond_int64_squares():
    """Values whose squares would overflow an int64 chunk sum are summed as Python ints."""
    values = np.array([3_000_000_000, -3_000_000_000, 5], dtype=np.int64)
    sums = Sums()
    sums.add("x", values)
    sums.count("y", np.array([2, -1, 2]))
    assert sums.moments("x") == (3, 5, 2 * 3_000_000_000 ** 2 + 25)
    assert sums.counts("y") == {-1: 1, 2: 2} and sums.total("y") == 3

"""Regenerate the example experiment stores that the report tests read (no test plays games).

Run from the project's root: ``python tests/data/make_stores.py [NAME ...]`` (default: all). The stores are small on
purpose (a few hundred games each) and checked in; rebuilding them with another cardsim
version may change their rows, and the report tests assert on whatever rows they hold.

- ``scopa_budget``: ISMCTS at 10 and 40 iterations and the random player, each against the
  heuristic, stopped per matchup by an SPRT on the margin (strength against search budget,
  categories, seats, dealer, move times).
- ``scopa_variant``: two of the same matchups under a rules variant (for ``cardsim compare``).
- ``scopa_matches``: whole 2x2 matches (unit = match, partnerships, four seats).
- ``bura_ends``: the heuristic against the random player under non-default rules (how deals
  end, points at the claim).
- ``future_schema``: a manifest written by a newer store schema, which reports must refuse.
"""
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from cardsim.experiments.runner import RunConfig, run  # noqa: E402
from cardsim.experiments.spec import parse_spec  # noqa: E402

SPECS = {
    "scopa_budget": {
        "question": "Does ISMCTS beat the heuristic at Scopa with 10 or 40 iterations per "
                    "move, and the random player not?",
        "game": "scopa",
        "agents": ["heuristic", "random", "ismcts:iterations=10", "ismcts:iterations=40"],
        "matchups": [[1, 0], [2, 0], [3, 0]],
        "seed": 5, "batch_size": 10,
        "size": {"sprt": {"kind": "margin", "lower": 0.0, "upper": 1.0},
                 "max_deals": 40}},
    "scopa_variant": {
        "question": "The same players when a scopa on the last move counts: does it change "
                    "who wins?",
        "game": "scopa", "rules": {"last_move_scopa_counts": True},
        "agents": ["heuristic", "random", "ismcts:iterations=10"],
        "matchups": [[1, 0], [2, 0]], "seed": 6, "batch_size": 10, "size": {"deals": 20}},
    "scopa_matches": {
        "question": "Does the heuristic partnership win 2x2 Scopa matches against random play?",
        "game": "scopa", "rules": {"num_players": 4, "target_score": 11},
        "agents": ["heuristic", "random"], "unit": "match", "seed": 8, "batch_size": 6,
        "size": {"deals": 12}},
    "bura_ends": {
        "question": "How do Bura deals end between the heuristic and the random player?",
        "game": "bura", "rules": {"moscow": "three_aces", "false_claim_penalty": "single"},
        "agents": ["heuristic", "random"], "seed": 3, "batch_size": 20,
        "size": {"deals": 40}},
}


def main(names=None) -> None:
    for name, data in SPECS.items():
        if names and name not in names:
            continue
        out = HERE / name
        shutil.rmtree(out, ignore_errors=True)
        run(parse_spec(data), RunConfig(out=str(out), jobs=1, progress=False))
    if names and "future_schema" not in names:
        return
    future = HERE / "future_schema"
    shutil.rmtree(future, ignore_errors=True)
    (future / "batches").mkdir(parents=True)
    manifest = json.loads((HERE / "bura_ends" / "manifest.json").read_text())
    manifest["schema_version"] = 99
    (future / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])

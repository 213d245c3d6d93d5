"""Golden playthroughs: each game's seeded deals, played again, must give the checked-in
transcripts of ``tests/data/golden/`` line for line (format and regeneration:
``tests/golden.py``)."""
import json

import pytest

from tests.golden import CASES, game_text, path_of

SHOWN = 6     # lines of context shown around the first difference


@pytest.mark.parametrize("game", sorted(CASES))
def test_playthroughs_match_the_golden_file(game):
    path = path_of(game)
    assert path.exists(), f"{path} is missing: write it with `python -m tests.golden {game}`"
    want = path.read_text().splitlines()
    got = game_text(game).splitlines()
    if got == want:
        return
    first = next((i for i, (w, g) in enumerate(zip(want, got)) if w != g), min(len(want), len(got)))
    header = next((line for line in reversed(want[:first + 1]) if line.startswith("# ")), "")
    shown = [f"{game}: the playthrough differs from {path.name} at line {first + 1} ({header})"]
    for i in range(max(0, first - SHOWN), first):
        shown.append(f"   {want[i][:200]}")
    shown.append(f"-  {want[first][:600] if first < len(want) else '<end of file>'}")
    shown.append(f"+  {got[first][:600] if first < len(got) else '<end of transcript>'}")
    shown.append(f"(files have {len(want)} lines, the new transcript {len(got)}.) If the change of "
                 f"behaviour is meant, regenerate with `python -m tests.golden {game}` from the "
                 f"repository root and review `git diff tests/data/golden`.")
    pytest.fail("\n".join(shown), pytrace=False)


@pytest.mark.parametrize("game", sorted(CASES))
def test_deltas_rebuild_the_end_observations(game):
    """The ``obs`` lines of a transcript, applied one after another to the start's whole
    observations, give its ``end obs`` lines: the deltas record every observation in full."""
    for block in path_of(game).read_text().split("\n\n"):
        if not block.strip():
            continue
        seen, end = {}, {}
        for line in block.splitlines():
            if line.startswith("obs "):
                _, label, text = line.split(" ", 2)
                if label not in seen and label != "*":
                    seen[label] = json.loads(text)
                    continue
                for target in (seen.values() if label == "*" else [seen[label]]):
                    _apply(target, json.loads(text))
            elif line.startswith("end obs "):
                _, _, label, text = line.split(" ", 3)
                end[label] = json.loads(text)
        assert seen == end, block.splitlines()[0]


def _apply(observation: dict, changes: dict) -> None:
    for path, value in changes.items():
        for gone in (value if path == "-" else []):
            *parents, last = gone.split("/")
            _at(observation, parents).pop(last)
        if path != "-":
            *parents, last = path.split("/")
            container = _at(observation, parents)
            container[int(last) if isinstance(container, list) else last] = value


def _at(observation, parts):
    for part in parts:
        observation = observation[int(part) if isinstance(observation, list) else part]
    return observation

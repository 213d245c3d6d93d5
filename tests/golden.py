"""Golden playthroughs: seeded deals of every game written out in full, checked in under
``tests/data/golden/``, so that any change of behaviour shows as a diff (OpenSpiel's habit).

:func:`transcript` plays one deal (or match) through the public API only
(``cardsim.load_game``, ``new_deal`` / ``new_match``, ``current_player``, ``legal_actions``,
``action_to_string``, ``observation``, ``apply_action``, ``returns``, ``score_breakdown``)
and returns its text; :data:`CASES` lists the deals of each game and
``tests/test_golden.py`` compares each game's file with a fresh transcript.

**Which action is played.** A deterministic function of the seed and the legal actions only:
``chooser = random.Random(seed)``, and at every step the action played is
``legal[chooser.randrange(len(legal))]`` of the sorted legal action ids. The same ``seed`` is
also the deal's seed (``game.new_deal(seed=seed)`` or ``game.new_match(seed=seed)``).

**Format** (one file per game, its transcripts one after another, each ending in a blank
line); every JSON value is compact with sorted keys::

    # scopa new_deal seed=1 options={"num_players":2}
    obs 0 {...}                          each player's whole observation at the start
    obs 1 {...}
    step 0 player 1 action "Cco" legal ["Cco","Asw","5sw"]
    obs * {"hand_sizes":[3,2],"table":[...],"to_move":0}   what changed for every player
    obs 1 {"hand":["Asw","5sw"]}         what else changed for player 1
    ...
    end obs 0 {...}                      each player's whole observation at the end
    end obs 1 {...}
    returns [0.0,0.0]
    score_breakdown {...}

A step's line gives the seat to move, the action played and the strings of all the legal
actions (in id order). The ``obs`` lines after it record each player's new observation as
the changes from its previous one, so that Minchiate's large observations (about 2 KB a
player, mostly unchanged from step to step) stay small while every observation of every
player is recorded in full: a change is a path (``"to_move"``; ``"played/1"``: item 1 of
the list ``played``; ``"points/pile"``: a key of the dict ``points``) and its new value;
dicts are compared key by key, lists of unchanged length whose items are lists or dicts
item by item, anything else as a whole; ``"-": [paths]`` lists keys that disappeared. ``obs *`` holds the
changes that are the same for every player, ``obs <p>`` the rest of player p's (a line with
nothing in it is left out). ``end obs`` repeats the whole last observations, which the
changes applied in order must give (``tests/test_golden.py`` checks it).

**Regenerating.** After a change of behaviour that is meant (a rule fixed, an observation
field added), rewrite the files from the repository root with ``python -m tests.golden``
(all games) or ``python -m tests.golden scopa bura`` (some), then review ``git diff
tests/data/golden`` before committing: the diff is the change of behaviour. To generate from
another copy of the code, run the script by its path with that copy first on ``PYTHONPATH``
and a working directory outside the repository (``-m`` would put the working directory, and
so its ``cardsim``, first): ``cd /tmp && PYTHONPATH=/other/copy python
/path/to/repo/tests/golden.py``; the files are always written next to this script.
"""
import json
import random
import sys
from pathlib import Path

import cardsim

GOLDEN_DIR = Path(__file__).resolve().parent / "data" / "golden"

#: Per game: (options, "new_deal" or "new_match", seed) of each transcript. Bura's seeds are
#: picked for different ends: a false claim, a bura (three trumps), a match of several deals.
CASES: dict[str, list[tuple[dict, str, int]]] = {
    "scopa": [({"num_players": 2}, "new_deal", 1),
              ({"num_players": 4}, "new_deal", 2)],
    "bura": [({"num_players": 2}, "new_deal", 14),
             ({"num_players": 3}, "new_deal", 9),
             ({"num_players": 2, "match_format": "penalty_points"}, "new_match", 3)],
    "mushka": [({"num_players": 3}, "new_deal", 1),
               ({"num_players": 5}, "new_deal", 2)],
    "minchiate": [({}, "new_deal", 1),
                  ({"declaration_mode": "all"}, "new_deal", 2)],
}


def _json(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


GONE = "-"   # the JSON text of no value (not valid JSON, so never a real value's text)


def _changes(before, after, path: str, out: dict) -> None:
    """Into ``out``: path -> new value (JSON text) of each part of ``after`` that differs.

    Dicts are compared key by key, and lists of containers of the same length item by
    item (``"played/1"``: seat 1's list); anything else is replaced whole. A key that
    disappears maps to ``GONE``."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in after.keys() | before.keys():
            sub = f"{path}/{key}" if path else str(key)
            if key not in after:
                out[sub] = GONE
            elif key not in before:
                out[sub] = _json(after[key])
            else:
                _changes(before[key], after[key], sub, out)
    elif (isinstance(before, list) and isinstance(after, list) and len(before) == len(after)
          and after and all(isinstance(item, (list, dict)) for item in after)):
        for i, (old, new) in enumerate(zip(before, after)):
            _changes(old, new, f"{path}/{i}", out)
    elif _json(before) != _json(after):
        out[path] = _json(after)


def _delta_line(label: str, changes: dict) -> str:
    """``obs <label> {"path":value,...}`` (sorted), with ``"-":[paths]`` for removed keys."""
    gone = sorted(path for path, text in changes.items() if text == GONE)
    parts = [f"{_json(path)}:{text}" for path, text in sorted(changes.items()) if text != GONE]
    if gone:
        parts.append(f'"-":{_json(gone)}')
    return f"obs {label} {{{','.join(parts)}}}"


def transcript(game_name: str, options: dict, start: str, seed: int) -> str:
    """The golden text of one deal (``start="new_deal"``) or match (``"new_match"``)."""
    game = cardsim.load_game(game_name, **options)
    state = getattr(game, start)(seed=seed)
    chooser = random.Random(seed)
    players = range(game.num_players)
    lines = [f"# {game_name} {start} seed={seed} options={_json(options)}"]
    seen = [state.observation(p) for p in players]
    lines += [f"obs {p} {_json(seen[p])}" for p in players]
    step = 0
    while not state.is_terminal():
        mover = state.current_player()
        legal = state.legal_actions()
        action = legal[chooser.randrange(len(legal))]
        lines.append(f"step {step} player {mover} action {_json(state.action_to_string(action))} "
                     f"legal {_json([state.action_to_string(a) for a in legal])}")
        state.apply_action(action)
        changes = []
        for p in players:
            now = state.observation(p)
            changes.append({})
            _changes(seen[p], now, "", changes[p])
            seen[p] = now
        shared = {path: text for path, text in changes[0].items()
                  if all(c.get(path) == text for c in changes[1:])}
        if shared:
            lines.append(_delta_line("*", shared))
        for p in players:
            own = {path: text for path, text in changes[p].items() if path not in shared}
            if own:
                lines.append(_delta_line(str(p), own))
        step += 1
    lines += [f"end obs {p} {_json(seen[p])}" for p in players]
    lines.append(f"returns {_json(state.returns())}")
    lines.append(f"score_breakdown {_json(state.score_breakdown())}")
    return "\n".join(lines) + "\n\n"


def game_text(game_name: str) -> str:
    """The whole golden file of a game: its :data:`CASES` one after another."""
    return "".join(transcript(game_name, *case) for case in CASES[game_name])


def path_of(game_name: str) -> Path:
    return GOLDEN_DIR / f"{game_name}.txt"


def main(argv: list[str]) -> int:
    names = argv or list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        print(f"unknown game(s) {', '.join(unknown)}: expected some of {', '.join(CASES)}",
              file=sys.stderr)
        return 2
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    print(f"cardsim from {Path(cardsim.__file__).parent}")
    for name in names:
        text = game_text(name)
        path_of(name).write_text(text)
        print(f"wrote {path_of(name)} ({len(text.encode()) / 1000:.0f} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

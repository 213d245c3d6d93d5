"""Fuzz: the command line's arguments.

Every argument list either works (status 0) or gets one line ``cardsim: error: …`` with status
2 — never a traceback, never a silent acceptance. ``cardsim.app.cli.main`` runs in-process
(stdout and stderr captured, stdin empty, in a temporary folder); a traceback is any exception
other than ``SystemExit`` (``--help`` and ``--version`` exit 0) escaping ``main``, or stderr
saying ``Traceback``; status 2 must come with exactly one ``cardsim: error: …`` line, the last
one (a progress bar or a compile notice may come before it).

Argument lists come from a grammar: a subcommand, then its arguments, each drawn with a value
that is valid or known to be wrong (game names, counts, seeds, ``--option`` and ``--player``
pairs, agent specs, files and folders of every kind: missing, a directory, not UTF-8, not JSON
or TOML, nested too deeply, of another game, a results folder). When every part is valid the
command must work (exit 0); when a part is wrong it must fail with status 2: this is what
catches a silent acceptance. Combinations are judged too (a repeated ``--option``,
``--players`` against ``num_players``, a Mushka deck too small for its players, a seat beyond
the table, a PIMC agent where the game has no exact solver). Random tokens are then inserted
into some of these lists, and some lists are random tokens only; those must only never raise.

Each example is cheap: wrong input fails in validation, and a command that works does tiny work
(1 to 3 deals; resuming a finished 2-deal run; near-terminal positions; ``play`` reads an empty
stdin and stops at once). ``compile``, ``bench``, ``demo`` and ``report`` run for seconds to
minutes when valid: their lists always hold a wrong part, and their work functions are replaced
by stubs that fail the test if reached. ``compile --prune`` and ``--repair`` are drawn only with a
wrong part (the stubs stand in for the pruning and the repair).

The normal run tries a bounded number of examples; ``-m slow`` tries ``CARDSIM_FUZZ_EXAMPLES``
(:data:`tests.fuzz.outcome.SLOW_EXAMPLES`; 100,000 for the long run).
"""
from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import cardsim
import cardsim.app.bench
import cardsim.compiled.cache
import cardsim.solvers.warmup
from cardsim.app import cli, studies
from cardsim.errors import CardsimError
from cardsim.game import definition
from cardsim.protocol.options import Integers, describe
from tests.fuzz.outcome import SLOW_EXAMPLES, counted, run_cli, works_or_one_line

GAMES = cardsim.list_games()
FAST = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))

BAD_GAMES = ["chess", "", "Scopa", " scopa", "scopa ", "sc", "scopa\n", "bura,scopa"]
BAD_INTS = ["-1", "1.5", "1e3", "", "x", "0x10", "nan", "inf", "1,000", "2 3", "--", "½", "−1"]
SEEDS = ["0", "1", "7", "+3", str(2 ** 64), str(10 ** 30)]
BAD_DEALS = BAD_INTS + ["0", str(2 ** 63), str(10 ** 30)]
AGENTS = ["random", "heuristic", "ismcts:iterations=2", "ismcts:iterations=3,c=1.5,final=sample"]
BAD_AGENTS = ["bogus", "ismcts:iters=1", "ismcts:iterations=0", "ismcts:iterations=1000000000000",
              "ismcts:iterations=2,iterations=3", "random:x=1", "", "ismcts:nodes=1",
              "pimc:worlds=-1", "ismcts:worlds=10000000"]
EXACT = {"scopa", "bura"}                     # games with the exact solver (PIMC, solve)
SOLVED = EXACT | {"minchiate", "mushka"}      # and the endgame solvers: solve (a near-end position)
BAD_FILES = ["missing.json", "empty", "bin.json", "bad.json", "list.json", "deep.json",
             "long.json", "rules_list.json", "rules_name.json", "afile", ""]
BAD_FOLDERS = ["afile", "afile/x", ""]
BAD_DASK = ["", "notanaddress", "tcp://host", "foo://h:1", "h:abc", "tcp://h:0", "tcp://h:70000",
            "tcp://h:1 "]
LONG = {"compile", "bench", "demo", "report"}
"""Subcommands that run long when valid: always drawn with a wrong part."""
REPEATABLE = {"--option", "--player", "--vs", "--part"}
"""Options given once per value (``action="append"``); every other option is given once."""


# --- the workspace: files and folders the arguments name ----------------------------------------

def _refuse(*args, **kwargs):
    raise AssertionError("a long command was started: its arguments were accepted")


def near_end(game: cardsim.Game, seed: int) -> cardsim.State:
    """A seeded random deal, one move before its end."""
    rng = random.Random(seed)
    state = game.new_deal(seed=seed)
    while True:
        nxt = state.clone()
        nxt.apply_action(rng.choice(nxt.legal_actions()))
        if nxt.is_terminal():
            return state
        state = nxt


@dataclasses.dataclass
class Workspace:
    root: Path
    to_move: dict


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli")
    (root / "tiny.toml").write_text('game = "scopa"\nagents = ["random", "heuristic"]\n'
                                    'batch_size = 1\n[size]\ndeals = 2\n')
    (root / "other.toml").write_text('game = "scopa"\nagents = ["random", "random"]\n'
                                     '[size]\ndeals = 1\n')
    (root / "bad.toml").write_text("game = \n")
    (root / "bin.toml").write_bytes(b"\xff\xfe\x00")
    (root / "bin.json").write_bytes(b"\xff\xfe\x00")
    (root / "bad.json").write_text('{"a":')
    (root / "list.json").write_text("[1, 2]")
    (root / "deep.json").write_text("[" * 100_000)
    (root / "long.json").write_text("[" + "1" * 5000 + "]")
    (root / "empty").mkdir()
    (root / "afile").write_text("")
    to_move = {}
    for name in GAMES:
        state = near_end(cardsim.load_game(name), seed=3)
        (root / f"{name}.json").write_text(json.dumps(state.to_dict()))
        to_move[name] = state.current_player()
        record = cardsim.load_game(name).from_dict(state.to_dict())   # its last moves
        while not record.is_terminal():
            record.apply_action(record.legal_actions()[0])
        record.record().write(root / f"{name}_record.json")
    position = json.loads((root / "scopa.json").read_text())
    (root / "rules_list.json").write_text(json.dumps({**position, "rules": [1]}))
    (root / "rules_name.json").write_text(json.dumps({**position, "rules": {"name": 1}}))
    for argv in (["run", "tiny.toml", "--out", "runs/done"], ["run", "tiny.toml"],
                 ["run", "other.toml"]):
        code, _, err = run_cli([*argv, "--quiet"], root)
        assert code == 0, err
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(studies, "cmd_demo", _refuse)
        mp.setattr(cardsim.solvers.warmup, "compile_games", _refuse)
        mp.setattr(cardsim.compiled.cache, "prune", _refuse)
        mp.setattr(cardsim.compiled.cache, "repair", _refuse)
        mp.setattr(cardsim.app.bench, "bench", _refuse)
        mp.setattr(cardsim.app.bench, "startup_rows", _refuse)
        yield Workspace(root, to_move)


# --- the grammar -----------------------------------------------------------------------------------

class Parts(list):
    """A command's parts: (tokens, valid: True, False or None when it may be either); with
    ``good_only`` every part is drawn valid (half the commands: a command works only when all
    its parts are valid)."""

    def __init__(self, draw) -> None:
        super().__init__()
        self.good_only = draw(st.integers(0, 2)) > 0


def pick(good, bad, parts: Parts):
    """A value and whether it is valid (valid three times as often)."""
    wrong = st.sampled_from(bad).map(lambda v: (v, False))
    right = st.sampled_from(good).map(lambda v: (v, True)) if good else wrong
    if parts.good_only and good:
        return right
    return st.one_of(right, right, right, wrong)


def flag(draw, name: str, good, bad, parts: Parts, required: bool = False) -> None:
    """Maybe (or surely) ``name VALUE`` (or ``name=VALUE``), its validity into ``parts``."""
    if parts.good_only and not good:
        return
    if required or draw(st.booleans()):
        value, ok = draw(pick(good, bad, parts))
        tokens = [f"{name}={value}"] if draw(st.integers(0, 4)) == 0 else [name, value]
        parts.append((tokens, ok))


def format_flag(draw, parts: Parts) -> None:
    """Maybe ``--format`` (the table printers')."""
    flag(draw, "--format", ["table", "csv", "json", "markdown"], ["xml", "", "TABLE", "md"],
         parts)


def switch(draw, name: str, parts: Parts) -> bool:
    on = draw(st.booleans())
    if on:
        parts.append(([name], True))
    return on


WRONG = object()
"""An option value that is not allowed (None is an allowed value of some options)."""


def option_text(draw, game: str, parts: Parts):
    """An ``--option`` pair for ``game``: (text, name, typed value or :data:`WRONG`)."""
    opts = {o["name"]: o for o in describe(definition(game).rules_type)}
    known = st.sampled_from(sorted(opts))
    name = draw(known if parts.good_only else st.one_of(known, known, known, st.sampled_from(
        ["colour", "rules", "name", "Target_score", "deck size"])))
    allowed = st.sampled_from(opts[name]["examples"] if name in opts else ["1"])
    good = st.one_of(allowed, allowed.map(str.upper), allowed.map(lambda a: f" {a} "))
    value = draw(good if parts.good_only else st.one_of(
        good, good, st.sampled_from(["12", "maybe", "1.0", "-1", "yes", "0", "", " ", "6",
                                     "1000001", "٣", "+5", "05"]),
        st.text(max_size=5)))
    text = (f"{name}={value}" if parts.good_only
            else draw(st.sampled_from([f"{name}={value}"] * 4 + [name, f"={value}"])))
    key, sep, val = text.partition("=")
    typed = WRONG
    if sep and key.strip() in opts:
        typed = typed_option(game, key.strip(), val)
    return text, key.strip(), typed


def typed_option(game: str, name: str, text: str):
    """The value ``name=text`` gives the option: one of its allowed values whose text is
    ``text`` (case and spaces aside), or an integer of its range; :data:`WRONG` otherwise."""
    field = {f.name: f for f in dataclasses.fields(definition(game).rules_type)}[name]
    for a in field.metadata["allowed"]:
        if isinstance(a, Integers):
            t = text.strip()
            if t.isascii() and t.isdigit() and a.low <= int(t) <= a.high:
                return int(t)
        elif (str(a).lower() if isinstance(a, bool) or a is None else str(a)) \
                == text.strip().lower():
            return a
    return WRONG


def rules_of(draw, game: str, parts: Parts, players: str | None = None):
    """Draw ``--option`` pairs into ``parts``; the rules they make, None if they are wrong
    (a wrong pair, a name given twice, ``--players`` against ``num_players``, a combination
    the rules refuse)."""
    given = {}
    ok = True
    for _ in range(draw(st.integers(0, 3))):
        text, name, typed = option_text(draw, game, parts)
        parts.append((["--option", text], typed is not WRONG))
        ok = ok and typed is not WRONG and name not in given
        given[name] = typed
    if players is not None:
        d = definition(game)
        fields = {f.name for f in dataclasses.fields(d.rules_type)}
        n = int(players)
        allowed = [a for f in dataclasses.fields(d.rules_type) if f.name == "num_players"
                   for a in f.metadata["allowed"]]
        if "num_players" not in fields or n not in allowed or (
                "num_players" in given and given["num_players"] != n):
            ok = False
        given["num_players"] = n
    if not ok:
        return None
    try:
        return definition(game).rules_type(**given)
    except CardsimError:
        return None


def expect(parts: Parts) -> int | None:
    """0 when every part is valid, 2 when one is wrong, None when a part may be either."""
    oks = [ok for _, ok in parts]
    return 2 if False in oks else None if None in oks else 0


def game_part(draw, parts: Parts) -> str | None:
    game, ok = draw(pick(GAMES, BAD_GAMES, parts))
    parts.append(([game], ok))
    return game if ok else None


@st.composite
def simulate_argv(draw):
    parts = Parts(draw)
    game = game_part(draw, parts) or "scopa"
    flag(draw, "--deals", ["1", "2", "3"], BAD_DEALS, parts, required=True)
    flag(draw, "--seed", SEEDS, BAD_INTS, parts)
    players = None
    allowed = [str(a) for f in dataclasses.fields(definition(game).rules_type)
               if f.name == "num_players" for a in f.metadata["allowed"]]
    if draw(st.booleans()) and (allowed or not parts.good_only):
        players, ok = draw(pick(allowed if parts.good_only else [str(n) for n in range(2, 8)],
                                ["1", "0", *BAD_INTS], parts))
        parts.append((["--players", players], ok))
        players = players if ok else None
    rules = rules_of(draw, game, parts, players)
    parts.append(([], rules is not None))
    known = [name for name, _, _ in definition(game).random_player]
    names = []
    for _ in range(draw(st.integers(0, 2))):
        if parts.good_only and not known:
            break
        name = draw(st.sampled_from(known if parts.good_only else
                                    [*known, "foo", "claim_probability", "pass_probability"]))
        good = st.one_of(st.floats(0, 1).map(repr), st.sampled_from(["0", "1", "1e-2", " 0.25 "]))
        value = draw(good if parts.good_only else st.one_of(good, st.sampled_from(
            ["-0.1", "1.01", "nan", "inf", "x", ""])))
        try:
            good = 0 <= float(value) <= 1
        except ValueError:
            good = False
        parts.append((["--player", f"{name}={value}"],
                      good and name in known and name not in names and bool(value.strip())))
        names.append(name)
    switch(draw, "--quiet", parts)
    format_flag(draw, parts)
    return "simulate", parts


@st.composite
def run_argv(draw):
    parts = Parts(draw)
    spec, ok = draw(pick(["tiny.toml", "other.toml", "runs/done"],
                         ["missing.toml", "bad.toml", "bin.toml", "empty", "afile", "list.json",
                          "tiny.json", ""], parts))
    parts.append(([spec], ok))
    if draw(st.booleans()):
        same = {"tiny.toml": ["runs/done", "runs/tiny"], "other.toml": ["runs/other"],
                "runs/done": ["runs/done"]}.get(spec, ["runs/done"])
        wrong = {"tiny.toml": ["runs/other"], "other.toml": ["runs/done", "runs/tiny"],
                 "runs/done": ["runs/tiny", "runs/new"]}.get(spec, [])
        flag(draw, "--out", same, BAD_FOLDERS + wrong, parts, required=True)
    flag(draw, "--jobs", ["1"], ["0", *BAD_INTS], parts)
    flag(draw, "--dask", [], BAD_DASK, parts)   # (a reachable scheduler is not fuzzed)
    switch(draw, "--quiet", parts)
    return "run", parts


@st.composite
def report_argv(draw):
    parts = Parts(draw)
    run, ok = draw(pick(["runs/done"], ["missing", "empty", "afile", ""], parts))
    parts.append(([run], ok))
    flag(draw, "--format", ["html", "md", "both"], ["pdf", "", "HTML"], parts)
    flag(draw, "--out", ["rep"], BAD_FOLDERS + ["runs/done"], parts)
    return "report", with_a_wrong_part(draw, parts, [(["--format", "pdf"], False),
                                                     (["missing"], False)])


@st.composite
def verify_argv(draw):
    parts = Parts(draw)
    run, ok = draw(pick(["runs/done", "runs/other"], ["missing", "empty", "afile", "tiny.toml", ""],
                        parts))
    parts.append(([run], ok))
    if not parts.good_only and draw(st.integers(0, 4)) == 0:
        parts.append((["extra"], False))
    return "verify", parts


@st.composite
def compare_argv(draw):
    parts = Parts(draw)
    for _ in range(2 if parts.good_only else draw(st.sampled_from([2, 2, 2, 1, 3]))):
        run, ok = draw(pick(["runs/done", "runs/other"], ["missing", "empty", "afile", ""], parts))
        parts.append(([run], ok))
    if len(parts) != 2:
        parts.append(([], False))
    format_flag(draw, parts)
    return "compare", parts


def position_part(draw, game: str | None, parts: Parts) -> str | None:
    """A position file: the near-terminal position of ``game``, another game's, or a bad file."""
    path, ok = draw(pick([f"{game}.json"] if parts.good_only and game else
                         [f"{g}.json" for g in GAMES], BAD_FILES, parts))
    parts.append(([path], ok and path == f"{game}.json"))
    return path[:-5] if ok and path == f"{game}.json" else None


def analyze_options(draw, game: str, parts: Parts) -> None:
    """``--option`` pairs on a position: a wrong pair fails; right ones may not fit the
    position (validity unknown)."""
    given = []
    for _ in range(0 if parts.good_only else draw(st.integers(0, 2))):
        text, name, typed = option_text(draw, game, parts)
        parts.append((["--option", text], False if typed is WRONG or name in given else None))
        given.append(name)


@st.composite
def analyze_argv(draw, ws: Workspace):
    parts = Parts(draw)
    game = game_part(draw, parts)
    position = position_part(draw, game, parts)
    seat = ws.to_move[position] if position else 0
    player, ok = draw(pick([str(seat)], [str(s) for s in range(8) if s != seat] + BAD_INTS,
                           parts))
    parts.append((["--player", player], ok))
    flag(draw, "--agent", AGENTS, BAD_AGENTS + ([] if game in EXACT else ["pimc:worlds=1"]), parts)
    flag(draw, "--worlds", ["2", "3"], ["0", "1", "1000001", *BAD_INTS], parts)
    flag(draw, "--seed", SEEDS, BAD_INTS, parts)
    analyze_options(draw, game or "scopa", parts)
    return "analyze", parts


@st.composite
def equity_argv(draw):
    """``cardsim equity``: Scopa and Minchiate have a match model under their default rules
    (Bura's is a single deal, Mushka's needs max_deals); a folder may hold another request
    (validity unknown), options may not fit together."""
    parts = Parts(draw)
    game, ok = draw(pick(["scopa", "minchiate"], BAD_GAMES + ["bura", "mushka"], parts))
    parts.append(([game], ok))
    flag(draw, "--agents", ["heuristic", "random,heuristic", "ismcts:iterations=2,c=1.5,random"],
         BAD_AGENTS + ["random,random,random", ","], parts)
    flag(draw, "--deals", ["2", "3"], BAD_DEALS, parts)
    flag(draw, "--boot", ["10", "11"], ["3", "9", "10001", *BAD_INTS], parts)
    flag(draw, "--seed", SEEDS[:4], BAD_INTS, parts)
    out, ok = draw(pick(["eq1", "eq2"], BAD_FOLDERS, parts))
    parts.append((["--out", out], None if ok else False))
    for _ in range(0 if parts.good_only else draw(st.integers(0, 1))):
        text, name, typed = option_text(draw, game if ok and game in GAMES else "scopa", parts)
        parts.append((["--option", text], False if typed is WRONG else None))
    switch(draw, "--quiet", parts)
    return "equity", parts


@st.composite
def review_argv(draw, ws: Workspace):
    """``cardsim review``: a record of each game's last moves (a position file is no record),
    or one of them as a list of moves (``--game``, ``--deal-seed``: no deal seed plays them)."""
    parts = Parts(draw)
    game = draw(st.sampled_from(GAMES))
    path, ok = draw(pick([f"{game}_record.json"], BAD_FILES + [f"{game}.json"], parts))
    parts.append(([path], ok))
    n = cardsim.load_game(game).num_players
    flag(draw, "--player", [str(s) for s in range(n)], [str(n), "9", *BAD_INTS], parts)
    flag(draw, "--agent", ["random", "heuristic"], BAD_AGENTS, parts)
    flag(draw, "--worlds", ["2", "3"], ["0", "1", "1000001", *BAD_INTS], parts)
    flag(draw, "--seed", SEEDS, BAD_INTS, parts)
    flag(draw, "--thresholds", ["0.1,0.2,0.3", "1,2,3"],
         ["1,2", "3,2,1", "0,1,2", "a,b,c", "nan,1,2", "1,2,inf", ""], parts)
    flag(draw, "--baseline", ["0", "5"], ["-1", "1000001", *BAD_INTS], parts, required=True)
    if not parts.good_only and draw(st.integers(0, 5)) == 0:
        parts.append((["--game", game, "--deal-seed", "1"], False))   # a record is no move list
    switch(draw, "--json", parts)
    return "review", parts


@st.composite
def solve_argv(draw):
    parts = Parts(draw)
    game = game_part(draw, parts)
    position = position_part(draw, game, parts)
    if position and position not in SOLVED:
        parts.append(([], False))                        # no exact solver for the game
    switch(draw, "--stats", parts)
    analyze_options(draw, game or "scopa", parts)
    return "solve", parts


@st.composite
def play_argv(draw):
    parts = Parts(draw)
    game = game_part(draw, parts) or "scopa"
    rules = rules_of(draw, game, parts)
    parts.append(([], rules is not None))
    n = cardsim.load_game(game, rules).num_players if rules is not None else 2
    vs = draw(st.lists(pick(AGENTS, BAD_AGENTS + ([] if game in EXACT else ["pimc:worlds=1"]),
                            parts), max_size=1 if parts.good_only else 3))
    for agent, ok in vs:
        parts.append((["--vs", agent], ok))
    parts.append(([], len(vs) in (0, 1, n - 1) or rules is None))
    flag(draw, "--seat", [str(s) for s in range(n)], [str(s) for s in range(n, 8)] + BAD_INTS,
         parts)
    flag(draw, "--seed", SEEDS, BAD_INTS, parts)
    if switch(draw, "--match", parts) and rules is not None:
        parts.append(([], not definition(game).endless_match(rules)))   # Mushka: max_deals
    return "play", parts


def with_a_wrong_part(draw, parts: Parts, wrong: list) -> list:
    if expect(parts) == 0:
        parts.append(draw(st.sampled_from(wrong)))
    return parts


@st.composite
def compile_argv(draw):
    parts = Parts(draw)
    for _ in range(draw(st.integers(0, 2))):
        game, ok = draw(pick(GAMES, BAD_GAMES, parts))
        parts.append(([game], ok))
    flag(draw, "--jobs", ["1", "2"], ["0", *BAD_INTS], parts)
    flag(draw, "--part", ["engine", "agents", "analyze", "exact"], ["engines", "", "all"], parts)
    switch(draw, "--prune", parts)
    switch(draw, "--repair", parts)
    return "compile", with_a_wrong_part(draw, parts, [(["chess"], False), (["--jobs", "0"], False),
                                                      (["--part", "x"], False)])


@st.composite
def bench_argv(draw):
    parts = Parts(draw)
    flag(draw, "--game", GAMES, BAD_GAMES, parts)
    flag(draw, "--seconds", ["0.1", "2", "1e-3"], ["0", "-1", "inf", "nan", "x", "", "-inf"], parts)
    startup = switch(draw, "--startup", parts)
    demo = switch(draw, "--demo", parts)
    others = [switch(draw, name, parts) for name in ("--no-startup", "--no-solver", "--runner")]
    parts.append(([], not (demo and not startup) and not (startup and any(others))))
    return "bench", with_a_wrong_part(draw, parts, [(["--seconds", "0"], False),
                                                    (["--game", "chess"], False)])


@st.composite
def demo_argv(draw):
    parts = Parts(draw)
    flag(draw, "--out", ["runs/demo_x"], BAD_FOLDERS, parts)
    flag(draw, "--jobs", ["1", "2"], ["0", *BAD_INTS], parts)
    switch(draw, "--quiet", parts)
    return "demo", with_a_wrong_part(draw, parts, [(["--jobs", "0"], False),
                                                   (["--out", "afile"], False)])


@st.composite
def games_argv(draw):
    parts = Parts(draw)
    if not parts.good_only and draw(st.integers(0, 3)) == 0:
        parts.append((["extra"], False))
    format_flag(draw, parts)
    return "games", parts


@st.composite
def rules_argv(draw):
    """``cardsim rules GAME [RULE-ID]``: an ID of the game (any case), of another game, or
    none of any."""
    parts = Parts(draw)
    game = game_part(draw, parts)
    if draw(st.booleans()):
        ids = {"scopa": "SC-CAPT-3", "bura": "BU-CLAIM-2", "mushka": "MU-DEAL-2",
               "minchiate": "MI-MATTO-2"}
        good = [ids[game], ids[game].lower()] if game else []
        rule, ok = draw(pick(good, ["ZZ-NOPE-9", "", "x", *(v for k, v in ids.items()
                                                          if k != game)], parts))
        parts.append(([rule], ok))
    return "rules", parts


def commands(ws: Workspace):
    """(subcommand, parts) of every subcommand's grammar (the long ones less often, and
    ``solve``: its exact solver takes about half a second to set up)."""
    quick = st.one_of(simulate_argv(), run_argv(), verify_argv(), compare_argv(), analyze_argv(ws),
                      play_argv(), games_argv(), equity_argv(), review_argv(ws), rules_argv())
    return st.one_of(quick, quick, st.one_of(report_argv(), compile_argv(), bench_argv(),
                                             demo_argv(), solve_argv()))


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


JUNK = st.one_of(st.sampled_from(["-h", "--help", "--", "-", "--option", "--nope", "-x", "=",
                                  "--deals=0", "--quiet", "--seed", "scopa", "afile", "--out",
                                  "--option=colour=red", "--vs", "\x00", "ǅ", " "]),
                 st.text(max_size=8)).filter(lambda t: not _is_number(t))
"""Random tokens: never a number (one could become a count of deals)."""
VOCAB = st.one_of(JUNK, st.sampled_from(
    ["games", "run", "verify", "compare", "analyze", "solve", "play", "tiny.toml", "runs/done",
     "scopa.json", "bura", "--player", "0", "1", "--worlds", "--agent", "heuristic", "--version",
     "--jobs", "--dask", "--stats", "--match", "--seat"]))
"""Tokens of argument lists made of random tokens only (no subcommand that runs long)."""


@st.composite
def argvs(draw, ws: Workspace):
    """(argv, expected status or None)."""
    mode = draw(st.integers(0, 14))
    if mode == 0:                                        # random tokens only
        return draw(st.lists(VOCAB, max_size=6)), None
    if mode == 1:                                        # top level
        return draw(st.sampled_from([(["--version"], 0), (["--help"], 0), (["-h"], 0), ([], 0),
                                     (["chess"], 2), (["--verbose"], 2), (["-x", "games"], 2),
                                     ([""], 2), (["simulate"], 2), (["analyze", "scopa"], 2)]))
    command, parts = draw(commands(ws))
    order = draw(st.permutations(range(len(parts))))
    positional = [i for i in order if parts[i][0] and not parts[i][0][0].startswith("-")]
    options = [i for i in order if i not in positional]
    argv = [command] + [t for i in sorted(positional) + options for t in parts[i][0]]
    expected = expect(parts)
    if mode == 2 and command not in LONG:               # random tokens inserted
        for _ in range(draw(st.integers(1, 2))):
            argv.insert(draw(st.integers(1, len(argv))), draw(JUNK))
        expected = None
    once = [parts[i][0] for i in options if parts[i][0] and (
        len(parts[i][0]) == 2 or "=" in parts[i][0][0]) and parts[i][0][0].split("=")[0]
        not in REPEATABLE]
    if mode == 3 and once:                               # an option given twice
        argv += draw(st.sampled_from(once))
        expected = 2
    return argv, expected


# --- the property ----------------------------------------------------------------------------------

def check(argv: list[str], expected: int | None, ws: Workspace) -> None:
    code, out, err = run_cli(argv, ws.root)
    event(f"{argv[0] if argv else '(none)'}: exit {code}")
    errors = works_or_one_line(argv, code, err)
    if expected is not None:
        assert code == expected, (f"{argv}: expected exit {expected}, got {code}"
                                  + (f": {errors[0]}" if errors else " (accepted)"))


@FAST
@given(data=st.data())
def test_every_argument_list_works_or_fails_in_one_line(ws, data):
    check(*data.draw(argvs(ws)), ws)


@pytest.mark.slow
@SLOW
@given(data=st.data())
@counted
def test_every_argument_list_slow(ws, data):
    check(*data.draw(argvs(ws)), ws)


@pytest.mark.parametrize("argv, needle", [
    (["simulate", "scopa", "--option", "rules=x"], "unknown scopa option 'rules'"),
    (["play", "scopa", "--option", "name=x"], "unknown scopa option 'name'"),
    (["simulate", "scopa", "--deals", "1", "--option", "target_score=21", "--option",
      "target_score=11"], "given twice"),
    (["simulate", "bura", "--deals", "1", "--player", "claim_probability=0.1", "--player",
      "claim_probability=0.2"], "given twice"),
    (["analyze", "scopa", "bin.json", "--player", "0"], "not UTF-8"),
    (["analyze", "scopa", "deep.json", "--player", "0"], "nested too deeply"),
    (["analyze", "scopa", "long.json", "--player", "0"], "4300 digits"),
    (["solve", "scopa", "rules_list.json"], "rules=[1]"),
    (["solve", "scopa", "rules_name.json"], "unknown scopa option 'name'"),
    (["run", "bin.toml"], "not UTF-8"),
    (["run", "tiny.toml", "--out", "afile/x"], "'afile' is a file, not a folder"),
    (["run", "tiny.toml", "--out", ""], "empty name"),
    (["run", "tiny.toml", "--dask", "notanaddress"], "expected a scheduler address"),
    (["run", "tiny.toml", "--dask", ""], "expected a scheduler address"),
    (["analyze", "scopa", "scopa.json", "--player", "0", "--worlds", "100000000000000"],
     "at most 1,000,000"),
    (["play", "scopa", "--vs", "ismcts:iterations=1000000000000"], "iterations"),
    (["bench", "--seconds", "inf"], "expected a positive number"),
    (["bench", "--demo"], "--demo goes with --startup"),
    (["bench", "--startup", "--runner"], "drop --runner"),
    (["compile", "--prune", "chess"], "unknown game 'chess'"),
    (["demo", "--jobs=--"], "argument --jobs: expected a value"),
    (["games", "\n:"], "unrecognized arguments: \\n:"),
    (["run", "a\nb.toml"], "cannot read a\\nb.toml"),
    (["simulate", "scopa", "--option=--"], "argument --option: expected a value"),
    (["play", "mushka", "--match", "--option", "num_players=7"], "set max_deals"),
    (["review", "afile", "--game", "bura", "--deal-seed", "1"], "afile: no moves")])
def test_found_by_fuzzing_fails_in_one_line(ws, argv, needle):
    """Inputs the fuzzing found raising a traceback, or accepted (silently, or for a long run)."""
    code, _, err = run_cli(argv, ws.root)
    last = err.rstrip("\n").split("\n")[-1]
    assert code == 2 and err.count("cardsim: error:") == 1, err
    assert last.startswith("cardsim: error: ") and needle in last, err


def test_a_command_that_hangs_fails_the_fuzzing(ws, monkeypatch):
    """A command still running after ``HANG`` seconds fails the test instead of stalling it (a
    7-player Mushka match at ``play --match`` once searched forever)."""
    import time

    from tests.fuzz import outcome
    monkeypatch.setattr(outcome, "HANG", 1)
    monkeypatch.setattr(cli, "main", lambda argv: time.sleep(30) or 0)
    start = time.perf_counter()
    with pytest.raises(outcome.Hung, match="still running after 1 s"):
        run_cli(["games"], ws.root)
    assert time.perf_counter() - start < 10


GOOD_VARY = ["target_score=11,21", "primiera_missing_suit=zero,forfeit", "num_players=2,4",
             "declaration_mode=choice,all", "num_players=3,5", "wins_target=11,21",
             "false_claim_penalty=double,single"]
VARY = st.one_of(st.sampled_from(GOOD_VARY), st.sampled_from(GOOD_VARY), st.sampled_from(
    ["target_score=11", "target_score=21,11,31", "max_deals=2,3", "target_scor=11,21",
     "target_score=", "=1,2", "target_score", "target_score=11,11", "target_score=x,y", ""]))
VARIANTS_WORDS = st.one_of(
    st.sampled_from(["--seed", "7", "-1", "--agents", "heuristic,random", "random,heuristic",
                     "heuristic", "easy,random", "--option", "max_deals=2", "target_score=21",
                     "--jobs", "1", "--format", "json", "csv", "--quiet", "--vary", "x"]),
    VARY.map(lambda v: f"--vary={v}"))


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from([*GAMES, *GAMES, "chess"]), vary=st.lists(VARY, min_size=1,
                                                                          max_size=2),
       words=st.lists(VARIANTS_WORDS, max_size=3))
def test_variants_arguments_work_or_fail_in_one_line(ws, tmp_path_factory, game, vary, words):
    """``cardsim variants`` on arguments drawn from its vocabulary (small sizes, a fresh
    folder each): it works or fails in one line (exit 2), never a traceback."""
    out = tmp_path_factory.mktemp("variants") / "study"
    argv = ["variants", game, *(f"--vary={v}" for v in vary), "--deals", "2", "--matches",
            "1", *words, "--out", str(out), "--quiet"]
    code, _, err = run_cli(argv, ws.root)
    event(f"variants: exit {code}")
    works_or_one_line(argv, code, err)

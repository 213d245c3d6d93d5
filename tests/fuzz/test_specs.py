"""Fuzz: experiment specs in TOML, and agent spec strings.

The shipped specs of ``experiments/specs`` are mutated as values (:mod:`tests.fuzz.mutate`:
keys removed or renamed, values retyped, wrong nesting, huge or negative numbers; plus
spec-specific changes: rules options set to allowed values of the right or a wrong type, agent
strings from a grammar, other sizes and matchups), written as TOML, sometimes damaged as text
(characters cut, doubled or inserted: invalid syntax, duplicate keys, bytes that are not
UTF-8), and loaded with ``load_spec`` — the function ``cardsim run SPEC`` uses. Each either

- is refused with one line: a :class:`~cardsim.errors.CardsimError` whose message is a single
  non-empty line, and ``cardsim run SPEC`` (in-process) exits 2 printing exactly
  ``cardsim: error: <that line>``; or
- loads, and is then not silently wrong: every field has the type and range it must have
  (``seed = 1.0`` is not the seed 1, ``matchups = [[true, false]]`` not ``[[1, 0]]``), holds
  the value written in the file (or the documented default), the game loads with those rules
  (an option's value keeps its type: ``target_score = 21.0`` is refused), and
  ``spec_from_dict(spec.to_dict())`` is the same spec (what the store's manifest keeps).

The manifest's form (``spec_from_dict`` on mutated ``to_dict()`` dicts, which may hold
``None``) is fuzzed the same way. Agent strings get the same treatment alone: parsed, or one
line. A few small valid specs (every game, random and heuristic agents, 1 or 2 deals) are run
through ``cardsim run`` into a temporary folder; they must finish and keep the spec.

The normal run tries a bounded number of examples; ``-m slow`` tries ``CARDSIM_FUZZ_EXAMPLES`` per
surface (:data:`tests.fuzz.outcome.SLOW_EXAMPLES`; 100,000 for the long run).
"""
from __future__ import annotations

import json
import math
import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import cardsim
from cardsim.app.cli import _one_line, main
from cardsim.errors import CardsimError
from cardsim.experiments.spec import ExperimentSpec, load_spec, parse_spec, spec_from_dict
from cardsim.game import definition
from cardsim.protocol.options import describe
from cardsim.simulate import MAX_DEALS
from cardsim.solvers import agent_spec
from cardsim.solvers.agent_spec import parse_agent
from tests.fuzz.mutate import JUNK, mutate, mutations
from tests.fuzz.outcome import SLOW_EXAMPLES, counted
from tests.helpers import DEMO_SPEC, shipped_specs

SPEC_FILES = shipped_specs()
SHIPPED = {p.stem: data for p in SPEC_FILES
           for data in [tomllib.loads(p.read_text(encoding="utf-8"))] if "kind" not in data}
"""The shipped experiment specs (calibration and variant studies have their own spec, and their
own tests: tests/experiments/test_calibration.py, test_variants.py)."""
STUDIES = {p.stem: data for p in SPEC_FILES
           for data in [tomllib.loads(p.read_text(encoding="utf-8"))]
           if data.get("kind") == "variants"}
"""The shipped variant studies."""
GAMES = cardsim.list_games()
FAST = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))


# --- TOML text ---------------------------------------------------------------------------

def toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else toml_value(key)


def toml_value(v) -> str:
    """``v`` as a TOML value (inline arrays and tables; ``None``, which TOML lacks, left out)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v if x is not None) + "]"
    return "{" + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()
                           if x is not None) + "}"


def toml_text(data: dict) -> str:
    return "".join(f"{toml_key(k)} = {toml_value(v)}\n" for k, v in data.items() if v is not None)


# --- strategies ------------------------------------------------------------------------------

NUMBER_TEXT = st.sampled_from(["0", "1", "2", "7", "0.5", "1e3", "-1", "nan", "inf", "",
                               "1.5", "10", str(10 ** 9), str(10 ** 9 + 1), str(10 ** 12),
                               str(2 ** 63), "1_000", " 3", "x", "1,2", "٣"])
AGENT_KEYS = ["iterations", "seconds", "c", "final", "worlds", "rollout", "epsilon", "exact",
              "nodes",
              "iters", "",
              "Iterations", "world"]
AGENT_WORDS = ["visits", "sample", "value", "random", "heuristic", "best", ""]


GOOD_VALUES = {"iterations": ["1", "2", "1000", str(agent_spec.MAX_COUNT),
                              str(agent_spec.MAX_COUNT + 1), "0"],
               "seconds": ["0.1", "0", "1e-300", "1e308", "inf"],
               "c": ["0.7", "0", "1e9", "-0.1"], "final": ["visits", "sample", "value", "Visits"],
               "worlds": ["0", "3", str(agent_spec.MAX_FIXED_WORLDS),
                          str(agent_spec.MAX_FIXED_WORLDS + 1), str(agent_spec.MAX_COUNT)],
               "rollout": ["random", "heuristic", "none"],
               "epsilon": ["0", "0.25", "1", "1.0000001", "-0.1", "nan"],
               "exact": ["0", "6", "97", "98", "-1", "1.5"],
               "nodes": ["2", "1", "100", str(agent_spec.MAX_NODES), str(agent_spec.MAX_NODES + 1)]}
"""Values near each parameter's bounds (most allowed, some just outside)."""


@st.composite
def agent_strings(draw) -> str:
    """Agent spec strings: a kind (known or not) and parameters with good and bad values,
    values at their bounds, repeated keys, missing ``=``, stray separators and spaces."""
    kind = draw(st.sampled_from(["random", "heuristic", "ismcts", "ismcts", "pimc", "oracle",
                                 "Random", "mcts", "", " ismcts", "ismcts ", "strong", "best",
                                 "easy", "medium", "Best"]))
    near = st.sampled_from(sorted(GOOD_VALUES)).flatmap(
        lambda k: st.tuples(st.just(k), st.just("="), st.sampled_from(GOOD_VALUES[k])))
    anything = st.tuples(st.sampled_from(AGENT_KEYS), st.sampled_from(["=", "", "==", " = "]),
                         st.one_of(NUMBER_TEXT, st.sampled_from(AGENT_WORDS)))
    items = draw(st.lists(st.one_of(near, near, anything), max_size=4))
    text = kind
    if items or draw(st.booleans()):
        text += draw(st.sampled_from([":", ":", "::", ": "]))
        text += draw(st.sampled_from([",", ",", ",,"])).join(k + eq + v for k, eq, v in items)
    if draw(st.integers(0, 9)) == 0:
        text = draw(st.text(max_size=12)) + text
    return text


def option_values(game: str):
    """A rules option of ``game`` (or an unknown name) and a value: an allowed one as TOML
    would write it, as text, retyped (int <-> float <-> bool <-> str), or junk."""
    opts = describe(definition(game).rules_type)
    names = [o["name"] for o in opts] + ["colour", "rules", "name", "Num_players", ""]

    def value_for(name: str, pick: int, how: int):
        known = [o for o in opts if o["name"] == name]
        allowed = known[0]["examples"] if known else ["1"]
        text = allowed[pick % len(allowed)]
        typed = (True if text == "true" else False if text == "false"
                 else int(text) if re.fullmatch(r"-?\d+", text) else text)
        kinds = [typed, text, text.upper(), float(typed) if isinstance(typed, int) else typed,
                 [typed], {"value": typed}, JUNK[pick % len(JUNK)],
                 int(typed) if isinstance(typed, bool) else typed]
        return kinds[how % len(kinds)]

    return st.builds(lambda n, p, h: (n, value_for(n, p, h)), st.sampled_from(names),
                     st.integers(0, 50), st.integers(0, 20))


SIZES = st.one_of(
    st.builds(lambda d: {"deals": d}, st.sampled_from([1, 2, 0, -1, 1.0, True, "5", MAX_DEALS,
                                                       MAX_DEALS + 1, 10 ** 30])),
    st.builds(lambda h, m: {"half_width": h, "max_deals": m},
              st.sampled_from([0.1, 1, 0, -0.1, math.inf, math.nan, True, "0.1", 1e-300]),
              st.sampled_from([2, 1, 0, 2.0, MAX_DEALS + 1, None])),
    st.builds(lambda k, lo, up, a, b, m: {"sprt": {"kind": k, "lower": lo, "upper": up,
                                                   "alpha": a, "beta": b}, "max_deals": m},
              st.sampled_from(["elo", "margin", "bayes", 1, None]),
              st.sampled_from([0.0, 0, -5, math.nan, -math.inf, True, None]),
              st.sampled_from([0.5, 20, 0.0, math.inf, math.nan, "1"]),
              st.sampled_from([0.05, 0.25, 0.5, 0, 0.0, -0.1, 1, math.nan, None]),
              st.sampled_from([0.05, 0.1, 0.49, 0.6, None]),
              st.sampled_from([4, 1, 0, None])),
    st.builds(lambda a, b: {"deals": a, "half_width": b}, st.just(5), st.just(0.1)),
    st.just({}))
MATCHUPS = st.one_of(
    st.sampled_from(["round_robin", "Round_Robin", "", [], {}, {"field": 0}, {"field": True},
                     {"field": -1}, {"field": 1.0}, {"field": 0, "x": 1}]),
    st.lists(st.lists(st.sampled_from([0, 1, 2, 3, 4, -1, True, False, 1.0, "0", None]),
                      min_size=0, max_size=5), max_size=3))


@st.composite
def spec_dicts(draw) -> dict:
    """A shipped spec as a dict, changed: generic mutations, then spec-specific ones."""
    data = json.loads(json.dumps(SHIPPED[draw(st.sampled_from(sorted(SHIPPED)))]))
    game = data.get("game") if data.get("game") in GAMES else draw(st.sampled_from(GAMES))
    for kind in draw(st.lists(st.integers(0, 7), max_size=4)):
        if kind == 0:
            data = mutate(data, draw(mutations))
        if not isinstance(data, dict):
            break
        if kind == 1:
            rules = data.setdefault("rules", {}) if isinstance(data.get("rules"), dict) else {}
            data["rules"] = rules
            name, value = draw(option_values(game))
            rules[name] = value
        elif kind == 2:
            data["agents"] = draw(st.lists(st.one_of(st.sampled_from(["random", "heuristic"]),
                                                     agent_strings()), min_size=0, max_size=4))
        elif kind == 3:
            data["size"] = draw(SIZES)
        elif kind == 4:
            data["matchups"] = draw(MATCHUPS)
        elif kind == 5:
            data[draw(st.sampled_from(["seed", "batch_size", "duplicate", "unit", "question",
                                       "game"]))] = draw(st.sampled_from(
                                           [0, 1, 25, -1, 1.0, True, False, "1", "deal", "match",
                                            "scopa", "chess", "", [], {}, MAX_DEALS + 1,
                                            10 ** 30, math.nan]))
        elif kind == 6:
            data["game"] = draw(st.sampled_from(GAMES))
        elif kind == 7:
            data[draw(st.sampled_from(["size_", "Game", "agent", "rules", "size"]))] = draw(
                st.sampled_from([{}, {"deals": 1}, 1, "x", [1]]))
    return data


TEXT_EDITS = st.lists(st.tuples(st.sampled_from(["cut", "double", "insert", "bytes"]),
                                st.integers(0, 10 ** 6), st.integers(0, 40),
                                st.sampled_from(["[", "]", "{", "}", "=", '"', "'", "\n", "#",
                                                 ",", "[size]\n", "[rules]\n", "x = 1\n",
                                                 "game = 'scopa'\n", "\\", "\x00", "ǅ",
                                                 "[" * 2000, "9" * 4400])),
                      max_size=2)


def edit_text(text: str, edits) -> bytes:
    raw = text.encode()
    for how, where, length, what in edits:
        at = where % (len(raw) + 1)
        if how == "cut":
            raw = raw[:at] + raw[at + length:]
        elif how == "double":
            raw = raw[:at] + raw[at:at + length] * 2 + raw[at + length:]
        elif how == "insert":
            raw = raw[:at] + what.encode() + raw[at:]
        else:
            raw = raw[:at] + bytes([0xff, 0xfe, 0x80][:1 + length % 3]) + raw[at:]
    return raw


# --- checks ------------------------------------------------------------------------------------

def one_line(e: CardsimError) -> str:
    message = str(e)
    assert message.strip() and "\n" not in message and "\r" not in message, repr(message)
    return message


def check_faithful(spec: ExperimentSpec, data: dict) -> None:
    """A loaded spec holds what ``data`` (the parsed file) says, with the right types and ranges."""
    assert type(spec.game) is str and spec.game == data["game"] and spec.game in GAMES
    game = spec.load()
    n = game.num_players
    for name, value in data.get("rules", {}).items():
        got = getattr(game.rules, name)
        if isinstance(value, str):
            assert str(got).lower() == value.strip().lower(), (name, value, got)
        else:
            assert type(got) is type(value) and got == value, (name, value, got)
    assert spec.agents == tuple(data["agents"]) and spec.agents
    for a in spec.agents:
        parse_agent(a)
    assert spec.matchups
    for m in spec.matchups:
        assert len(m) == n and all(type(k) is int and 0 <= k < len(spec.agents) for k in m), m
    given = data.get("matchups", "round_robin")
    if isinstance(given, list):
        assert spec.matchups == tuple(tuple(m) if len(m) == n else tuple(m[s % 2] for s in range(n))
                                      for m in given)
    assert type(spec.question) is str and spec.question == data.get("question", "")
    assert spec.unit in ("deal", "match") and spec.unit == data.get("unit", "deal")
    assert type(spec.duplicate) is bool and spec.duplicate is data.get("duplicate", True)
    assert type(spec.seed) is int and spec.seed == data.get("seed", 0) and spec.seed >= 0
    assert type(spec.batch_size) is int and spec.batch_size == data.get("batch_size", 500)
    assert 1 <= spec.batch_size <= MAX_DEALS
    size = data.get("size", {"deals": 1000})
    assert sum(x is not None for x in (spec.deals, spec.half_width, spec.sprt)) == 1
    if spec.deals is not None:
        assert type(spec.deals) is int and spec.deals == size["deals"] and spec.max_deals is None
        assert 1 <= spec.deals <= MAX_DEALS
    else:
        assert type(spec.max_deals) is int and spec.max_deals == size["max_deals"]
        assert 1 <= spec.max_deals <= MAX_DEALS
    if spec.half_width is not None:
        assert type(spec.half_width) is float and spec.half_width == size["half_width"]
        assert math.isfinite(spec.half_width) and spec.half_width > 0
    if spec.sprt is not None:
        s = size["sprt"]
        assert spec.sprt["kind"] == s.get("kind", "elo") in ("elo", "margin")
        assert spec.sprt["lower"] == s["lower"] and spec.sprt["upper"] == s["upper"]
        assert math.isfinite(spec.sprt["lower"]) and math.isfinite(spec.sprt["upper"])
        assert spec.sprt["lower"] < spec.sprt["upper"]
        for key in ("alpha", "beta"):
            v = spec.sprt[key]
            assert type(v) is float and 0 < v < 0.5 and v == s.get(key, 0.05)
    assert spec_from_dict(spec.to_dict()) == spec


def check_agent(text: str) -> None:
    """An agent string parses to exactly the values it gives, within the documented ranges, or
    is refused in one line."""
    try:
        agent = parse_agent(text)
    except CardsimError as e:
        one_line(e)
        event("refused")
        return
    event("parsed")
    if text.strip() in agent_spec.LEVELS:                     # a named level
        assert agent.name == text.strip()
        assert agent.params.tolist() == parse_agent(agent_spec.LEVELS[agent.name]).params.tolist()
        return
    name, _, rest = text.strip().partition(":")
    items = [item.partition("=") for item in rest.split(",") if item]
    keys = [k.strip() for k, _, _ in items]
    assert len(keys) == len(set(keys)), f"{text!r}: a repeated parameter was accepted"
    p = agent.params
    assert p.shape == (agent_spec.N_PARAMS,) and all(math.isfinite(x) and x >= 0 for x in p)
    given = {k.strip(): v.strip() for k, _, v in items}
    if name == "ismcts":
        for key, value in given.items():
            if key == "nodes":
                assert agent.nodes == int(value)
            elif key in ("final", "rollout"):
                assert p[getattr(agent_spec, key.upper())] == agent_spec._CHOICES[key].index(value)
            else:
                assert p[getattr(agent_spec, key.upper())] == float(value), (key, value)
        assert p[agent_spec.ITERATIONS] <= agent_spec.MAX_COUNT
        assert p[agent_spec.WORLDS] <= agent_spec.MAX_FIXED_WORLDS
        assert 0 <= p[agent_spec.EPSILON] <= 1
        assert 0 <= p[agent_spec.EXACT] <= agent_spec.MAX_EXACT
        assert 2 <= agent.nodes <= agent_spec.MAX_NODES
        assert p[agent_spec.ITERATIONS] > 0 or p[agent_spec.SECONDS] > 0
        if "iterations" not in given:             # a time budget alone is the budget
            assert p[agent_spec.ITERATIONS] == (0 if p[agent_spec.SECONDS] else 1000)
    elif name == "pimc":
        assert set(given) <= {"worlds", "seconds"}
        for key, value in given.items():
            assert p[getattr(agent_spec, key.upper())] == float(value), (key, value)
        assert p[agent_spec.WORLDS] <= agent_spec.MAX_COUNT
        assert p[agent_spec.WORLDS] > 0 or p[agent_spec.SECONDS] > 0
    else:
        assert name in agent_spec.KINDS and not given and not p.any()


def check_spec_file(path: Path, out: Path, capsys) -> None:
    """``load_spec(path)`` loads a faithful spec, or refuses in one line, as ``cardsim run``
    (which reads a calibration study's spec, ``kind = "calibration"``, as
    :func:`cardsim.experiments.calibration.load_study` does: such a file is that loader's)."""
    from cardsim.experiments.calibration import CalibrationSpec, load_study
    from cardsim.experiments.variants import VariantStudy
    try:
        study = load_study(path)
        if isinstance(study, (CalibrationSpec, VariantStudy)):
            event(f"{type(study).__name__} loaded")
            return
    except CardsimError:
        pass
    try:
        spec = load_spec(path)
    except CardsimError as e:
        message = one_line(e)
        event(f"file refused: {type(e).__name__}" + (" (TOML)" if "TOML" in message else ""))
        capsys.readouterr()
        assert main(["run", str(path), "--out", str(out), "--quiet"]) == 2
        assert capsys.readouterr().err == f"cardsim: error: {_one_line(message)}\n"
        return
    check_faithful(spec, tomllib.loads(path.read_text(encoding="utf-8")))
    event("file loaded")


def fuzz_specs(data, edits, tmp_path_factory, capsys) -> None:
    folder = tmp_path_factory.getbasetemp() / "fuzz_specs"
    folder.mkdir(exist_ok=True)
    try:                                   # the value itself (not only what TOML can hold)
        spec = parse_spec(data)
    except CardsimError as e:
        one_line(e)
        event(f"value refused: {type(e).__name__}")
    else:
        check_faithful(spec, data)
        event("value loaded")
    if not isinstance(data, dict):
        return
    path = folder / "spec.toml"
    path.write_bytes(edit_text(toml_text(data), edits))
    check_spec_file(path, folder / "out", capsys)


@FAST
@given(data=spec_dicts(), edits=TEXT_EDITS)
def test_mutated_specs_load_faithfully_or_fail_in_one_line(data, edits, tmp_path_factory,
                                                           capsys):
    fuzz_specs(data, edits, tmp_path_factory, capsys)


@pytest.mark.slow
@SLOW
@given(data=spec_dicts(), edits=TEXT_EDITS)
@counted
def test_mutated_specs_slow(data, edits, tmp_path_factory, capsys):
    fuzz_specs(data, edits, tmp_path_factory, capsys)


@st.composite
def manifest_dicts(draw) -> dict:
    """A shipped spec's ``to_dict()`` (what a store's manifest keeps), mutated."""
    name = draw(st.sampled_from(sorted(SHIPPED)))
    spec = load_spec(next(p for p in SPEC_FILES if p.stem == name))
    return mutate(spec.to_dict(), draw(mutations))


def fuzz_manifest(d) -> None:
    try:
        spec = spec_from_dict(d)
    except CardsimError as e:
        one_line(e)
        event("refused")
        return
    event("loaded")
    size = {k: d[k] for k in ("deals", "half_width", "max_deals", "sprt") if d.get(k) is not None}
    check_faithful(spec, {**{k: v for k, v in d.items() if v is not None}, "size": size})


@FAST
@given(d=manifest_dicts())
def test_mutated_manifest_specs_load_faithfully_or_fail_in_one_line(d):
    fuzz_manifest(d)


@pytest.mark.slow
@SLOW
@given(d=manifest_dicts())
@counted
def test_mutated_manifest_specs_slow(d):
    fuzz_manifest(d)


@FAST
@given(text=agent_strings())
def test_agent_strings_parse_faithfully_or_fail_in_one_line(text):
    check_agent(text)


@pytest.mark.slow
@SLOW
@given(text=agent_strings())
@counted
def test_agent_strings_slow(text):
    check_agent(text)


@pytest.mark.parametrize("text, needle", [
    ("seed = 1.0", "seed=1.0"), ("duplicate = 1", "duplicate=1"),
    ("batch_size = true", "batch_size=True"), ("matchups = [[true, false]]", "matchups"),
    ("matchups = {field = true}", "matchups.field"),
    ("[size]\nhalf_width = inf\nmax_deals = 10", "size.half_width"),
    ("[size]\nsprt = {lower = 0, upper = inf}\nmax_deals = 10", "size.sprt.upper"),
    ("[size]\ndeals = 9223372036854775808", "size.deals"),
    ("[size]\nsprt = {lower = -9223372036854775809, upper = 1}\nmax_deals = 10", "size.sprt.lower"),
    ("[size]\nsprt = {lower = 0, upper = 1" + "0" * 400 + "}\nmax_deals = 10", "size.sprt.upper"),
    ("[rules]\ntarget_score = 21.0", "target_score"), ("[rules]\nrules = 1", "'rules'"),
    ("[rules]\nname = 'x'", "'name'"), ("agents = ['ismcts:iterations=5,iterations=6']", "twice"),
    ("agents = ['ismcts:iterations=1000000000000']", "iterations"),
    ("a = " + "[" * 5000, "nested too deeply"), ("seed = " + "1" * 5000, "not valid TOML")])
def test_found_by_fuzzing_refused_in_one_line(tmp_path, text, needle):
    """Inputs the fuzzing found accepted as something else, or raising a traceback."""
    lines = {"game": 'game = "scopa"', "agents": 'agents = ["random", "heuristic"]'}
    head = "".join(line + "\n" for key, line in lines.items() if not text.startswith(key))
    path = tmp_path / "spec.toml"
    path.write_text(head + text + "\n")
    with pytest.raises(CardsimError, match=re.escape(needle)) as info:
        load_spec(path)
    one_line(info.value)


def test_toml_text_writes_the_shipped_specs_as_they_are(tmp_path):
    """The fuzzing's TOML writer: a shipped spec written again loads as the same spec."""
    for name, data in SHIPPED.items():
        path = tmp_path / f"{name}.toml"
        path.write_text(toml_text(data), encoding="utf-8")
        assert load_spec(path) == load_spec(next(p for p in SPEC_FILES if p.stem == name))


@pytest.mark.parametrize("key", ["seed", "batch_size"])
def test_found_by_fuzzing_a_stored_spec_without_seed_is_refused(key):
    """A manifest's spec with ``null`` for a count that has a default was taken as None."""
    d = load_spec(DEMO_SPEC).to_dict()
    with pytest.raises(CardsimError, match=f"{key}=None") as info:
        spec_from_dict({**d, key: None})
    one_line(info.value)


def test_undecodable_spec_refused_in_one_line(tmp_path):
    path = tmp_path / "spec.toml"
    path.write_bytes(b'game = "scopa"\n\xff\xfe')
    with pytest.raises(CardsimError, match="not UTF-8") as info:
        load_spec(path)
    one_line(info.value)


@st.composite
def small_specs(draw) -> dict:
    """A valid spec of tiny size: any game, random and heuristic agents, allowed rules."""
    game = draw(st.sampled_from(GAMES))
    rules = {}
    for o in draw(st.lists(st.sampled_from(describe(definition(game).rules_type)), max_size=2,
                           unique_by=lambda o: o["name"])):
        rules[o["name"]] = draw(st.sampled_from(o["examples"]))
    data = {"game": game, "agents": draw(st.lists(st.sampled_from(["random", "heuristic"]),
                                                   min_size=2, max_size=3)),
            "unit": draw(st.sampled_from(["deal", "match"])), "duplicate": draw(st.booleans()),
            "seed": draw(st.integers(0, 10 ** 20)), "batch_size": draw(st.integers(1, 2)),
            "size": draw(st.sampled_from([{"deals": 1}, {"deals": 2},
                                          {"half_width": 100.0, "max_deals": 2},
                                          {"sprt": {"kind": "margin", "lower": 0, "upper": 1},
                                           "max_deals": 2}]))}
    if rules:
        data["rules"] = rules
    return data


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=small_specs())
def test_small_valid_specs_run_and_keep_their_spec(data, tmp_path_factory, capsys):
    """``cardsim run`` (in-process) on a few valid specs: status 0, the store keeps the spec."""
    folder = tmp_path_factory.mktemp("run")
    path = folder / "spec.toml"
    path.write_text(toml_text(data), encoding="utf-8")
    try:
        spec = load_spec(path)
    except CardsimError as e:               # e.g. a Mushka deck too small for its players
        one_line(e)
        return
    code = main(["run", str(path), "--out", str(folder / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 0, err
    manifest = json.loads((folder / "out" / "manifest.json").read_text())
    assert spec_from_dict(manifest["spec"]) == spec


@FAST
@given(name=st.sampled_from(sorted(STUDIES)), edits=mutations)
def test_mutated_variant_studies_load_or_fail_in_one_line(name, edits):
    """A shipped variant study mutated (:mod:`tests.fuzz.mutate`) parses to every (variant,
    part) a valid spec over the variant's rules, or is refused in one line."""
    from cardsim.experiments.variants import parse_study
    try:
        study = parse_study(mutate(STUDIES[name], edits))
    except CardsimError as e:
        event(f"refused: {type(e).__name__}")
        one_line(e)
        return
    event("loaded")
    for (variant, part), spec in study.specs.items():
        options = next(v.options for v in study.variants if v.name == variant)
        assert {k: spec.rules[k] for k in options} == dict(options)
        assert part in study.parts and spec.game == study.game

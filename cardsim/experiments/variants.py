"""Variant studies: the same experiments under several sets of rules options, side by side.

```toml
kind = "variants"
question = "Does a target of 21 make Scopa more a game of skill?"
game = "scopa"
seed = 7                       # every variant plays the same seeds: where the rules deal
batch_size = 500               # alike, the same cards (paired differences)

[rules]                        # options every variant shares (optional)

[variants]
baseline = "target_score=11"   # the variant the others are compared with (default: the first)
grid = {target_score = [11, 21]}               # every combination of these values, or
# list = [{name = "short", target_score = 11}, {name = "long", target_score = 21}]

[[parts]]                      # what each variant plays: an experiment spec's keys
name = "play"                  # (agents, matchups, unit, duplicate, [size], ...)
agents = ["heuristic", "random"]
matchups = [[0, 0], [0, 1]]
size = {deals = 20000}

[[parts]]
name = "search"
agents = ["heuristic", "ismcts:iterations=100"]
matchups = [[1, 0]]
size = {deals = 1000}
```

Each (variant, part) is an ordinary experiment (:class:`~cardsim.experiments.spec.ExperimentSpec`)
whose rules are the study's ``[rules]`` with the variant's options over them, run into its own
store ``<out>/<variant folder>/<part>/`` (:func:`run_study`): stored, resumable and reproducible
like any run. A variant's name is given (``list``) or made of its options (``grid``:
``target_score=21``); its folder is its number and name (:meth:`VariantStudy.folder`). Bad
tables are refused in one line naming the key: an unknown option or a value it does not allow
(the game's own message), an empty grid or list, two variants with the same rules or name, a
baseline that names no variant, an agent with the learned evaluation (``leaf=net``, the
``fast`` level) where the game has none for a variant's rules.
"""
from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import pandas as pd

from cardsim.errors import CardsimError
from cardsim.files import SPEC_BYTES
from cardsim.game import definition
from cardsim.protocol.options import rules_from_options

from .spec import ExperimentSpec, SpecError, _check, parse_spec

KIND = "variants"
"""The ``kind`` of a variant study's spec."""
_TOP = {"kind", "question", "game", "rules", "seed", "batch_size", "variants", "parts"}
_VARIANTS = {"baseline", "grid", "list"}
_PART_KEYS = {"name", "agents", "matchups", "unit", "duplicate", "same_deals", "batch_size",
              "size", "equity", "setup", "deal"}
MAX_VARIANTS = 64
"""The most variants a study may hold (a grid's combinations multiply)."""


@dataclass(frozen=True)
class Variant:
    """One set of rules options: its name and the options it sets (over the study's)."""

    name: str
    options: Mapping[str, Any]


@dataclass(frozen=True)
class VariantStudy:
    """A parsed variant study (module docstring): its variants, the baseline's name, and the
    experiment of every (variant, part)."""

    game: str
    question: str
    variants: tuple[Variant, ...]
    baseline: str
    parts: tuple[str, ...]
    specs: Mapping[tuple[str, str], ExperimentSpec]
    source: Mapping[str, Any]

    def folder(self, variant: str) -> str:
        """The folder of a variant's stores: its number and its name, made safe for a file
        name (``01-target_score=21``)."""
        k = [v.name for v in self.variants].index(variant)
        return f"{k:02d}-" + re.sub(r"[^A-Za-z0-9=.,_+-]", "_", variant)[:80]

    def path(self, out, variant: str, part: str) -> Path:
        """The store of one (variant, part) under the study's folder ``out``."""
        return Path(out) / self.folder(variant) / part


def is_study(d: Any) -> bool:
    """Whether ``d`` (a spec as a dict) is a variant study's."""
    return isinstance(d, Mapping) and d.get("kind") == KIND


def _variants(table: Any, game: str, shared: Mapping[str, Any]) -> list[Variant]:
    _check(isinstance(table, Mapping), "variants", table, "a table with grid or list")
    unknown = sorted(set(table) - _VARIANTS)
    if unknown:
        raise SpecError(f"unknown key variants.{unknown[0]}: expected one of "
                        + ", ".join(sorted(_VARIANTS)))
    if ("grid" in table) == ("list" in table):
        raise SpecError("variants: give exactly one of grid (every combination of option "
                        "values) or list (named option sets)")
    if "grid" in table:
        grid = table["grid"]
        _check(isinstance(grid, Mapping) and grid, "variants.grid", grid,
               "a table of options, each with a list of values")
        for option, values in grid.items():
            _check(isinstance(values, list) and values, f"variants.grid.{option}", values,
                   "a non-empty list of values")
        count = math.prod(len(values) for values in grid.values())   # before making them
        if count > MAX_VARIANTS:
            raise SpecError(f"variants.grid: {count:,} combinations, at most {MAX_VARIANTS}")
        combos = list(itertools.product(*grid.values()))
        found = [Variant(",".join(f"{o}={_text(v)}" for o, v in zip(grid, combo)),
                         dict(zip(grid, combo))) for combo in combos]
    else:
        entries = table["list"]
        _check(isinstance(entries, list) and entries, "variants.list", entries,
               "a non-empty list of tables, each with a name and rules options")
        if len(entries) > MAX_VARIANTS:
            raise SpecError(f"variants.list: {len(entries)} variants, at most {MAX_VARIANTS}")
        found = []
        for k, entry in enumerate(entries):
            _check(isinstance(entry, Mapping) and isinstance(entry.get("name"), str)
                   and entry["name"].strip(), f"variants.list[{k}]", entry,
                   "a table with a name and rules options")
            found.append(Variant(entry["name"].strip(),
                                 {o: v for o, v in entry.items() if o != "name"}))
    if len(found) < 2:
        raise SpecError(f"variants: {found[0].name} only: a study compares two or more")
    rules_type = definition(game).rules_type
    seen: dict = {}
    for v in found:
        try:
            rules = rules_from_options(rules_type, {**shared, **v.options}, game)
        except CardsimError as e:                   # the game's own one-line message
            raise SpecError(f"variants: {v.name}: {e}") from None
        if rules in seen:
            raise SpecError(f"variants: {v.name} and {seen[rules]} have the same rules")
        seen[rules] = v.name
    names = [v.name for v in found]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise SpecError(f"variants: two variants are named {twice!r}")
    return found


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def parse_study(data: Mapping[str, Any]) -> VariantStudy:
    """Validate a variant study given as a dict (the parsed TOML)."""
    _check(isinstance(data, Mapping), "the study", data, "a table of keys")
    unknown = sorted(set(data) - _TOP)
    if unknown:
        raise SpecError(f"unknown key {unknown[0]!r} in a variant study: expected one of "
                        + ", ".join(sorted(_TOP)))
    for key in ("game", "variants", "parts"):
        if key not in data:
            raise SpecError(f"missing key {key!r} in a variant study")
    game = data["game"]
    definition(game)                                     # an unknown game: its own error
    shared = data.get("rules", {})
    _check(isinstance(shared, Mapping), "rules", shared, "a table of rules options")
    variants = _variants(data["variants"], game, shared)
    names = [v.name for v in variants]
    baseline = data["variants"].get("baseline", names[0])
    _check(baseline in names, "variants.baseline", baseline,
           "the name of one of the variants: " + ", ".join(names))
    parts = data["parts"]
    _check(isinstance(parts, list) and parts, "parts", parts,
           "a non-empty list of tables, each an experiment's agents, matchups and size")
    specs, part_names = {}, []
    for k, part in enumerate(parts):
        _check(isinstance(part, Mapping), f"parts[{k}]", part, "a table")
        unknown = sorted(set(part) - _PART_KEYS)
        if unknown:
            raise SpecError(f"unknown key parts[{k}].{unknown[0]}: expected one of "
                            + ", ".join(sorted(_PART_KEYS)))
        name = part.get("name", f"part{k}")
        _check(isinstance(name, str) and re.fullmatch(r"[A-Za-z0-9_-]{1,40}", name or ""),
               f"parts[{k}].name", name, "a name of letters, digits, _ and - (a folder's)")
        if name in part_names:
            raise SpecError(f"parts: two parts are named {name!r}")
        part_names.append(name)
        body = {key: value for key, value in part.items() if key != "name"}
        for v in variants:
            spec = {"game": game, "question": data.get("question", ""),
                    "seed": data.get("seed", 0), **body,
                    "rules": {**shared, **v.options}}
            if "batch_size" in data and "batch_size" not in body:
                spec["batch_size"] = data["batch_size"]
            try:
                specs[v.name, name] = parse_spec(spec)
                _learned_evaluation(specs[v.name, name])
            except SpecError as e:
                raise SpecError(f"parts[{k}] ({name}), variant {v.name}: {e}") from None
    question = data.get("question", "")
    _check(isinstance(question, str), "question", question, "a string")
    return VariantStudy(game=game, question=question, variants=tuple(variants),
                        baseline=baseline, parts=tuple(part_names), specs=specs,
                        source=dict(data))


def _learned_evaluation(spec: ExperimentSpec) -> None:
    """:class:`SpecError` for an agent of ``spec`` that values positions by the learned
    evaluation (``leaf=net``: the ``fast`` level) with no weights for the spec's rules: it
    would play out instead, another agent than under the rules the weights were trained for,
    and the study would measure the agent's change as the rules'."""
    from cardsim.game import load_game
    from cardsim.solvers.agents import parse_agent
    from cardsim.solvers.evaluation import shipped_weights
    game = load_game(spec.game, **spec.rules)
    for text in spec.agents:
        agent = parse_agent(text, game)
        if agent.uses_net and not agent.weights and shipped_weights(game.spec) is None:
            raise SpecError(f"agent {text!r} values positions by the learned evaluation, "
                            f"which {spec.game} has not for these rules: give it weights=PATH "
                            "trained for them (cardsim train), or choose an agent without "
                            "leaf=net")


STUDY = "study.json"
"""The file at the top of a variant study's folder: the study as given (its spec's keys, in
their order: a grid's order is its variants' order and names), from which ``cardsim run
FOLDER`` resumes it."""


def run_study(study: VariantStudy, config) -> dict:
    """Run (or resume) every (variant, part) of ``study`` into its store under ``config.out``
    (:meth:`VariantStudy.path`), in the order of the variants, then the parts; the study's
    own file (:data:`STUDY`) is written first, and a folder that holds another study is
    refused. Returns the stores by (variant, part)."""
    import json
    from dataclasses import replace

    from .runner import run
    from .store import write_synced
    out = Path(config.out)
    here = out / STUDY
    source = json.loads(json.dumps(study.source))          # TOML's values as JSON keeps them
    if here.exists():
        from cardsim.records.documents import read_document
        held = read_document(here, "JSON", SpecError, limit=SPEC_BYTES, what="a variant study")
        if json.dumps(held) != json.dumps(source):      # a grid's order is its variants'
            raise SpecError(f"{out} holds another variant study ({STUDY} differs): use "
                            "another folder (--out), or the same study")
    elif out.exists() and any(out.iterdir()):
        raise SpecError(f"{out} is not empty and holds no {STUDY}: choose an empty or new "
                        "folder")
    else:
        out.mkdir(parents=True, exist_ok=True)
        write_synced(here, json.dumps(source, indent=2).encode("utf-8"))   # in its order
    stores = {}
    for v in study.variants:
        for part in study.parts:
            where = study.path(out, v.name, part)
            stores[v.name, part] = run(study.specs[v.name, part],
                                       replace(config, out=str(where)))
    return stores


ALPHA = 0.05
"""The family-wise error rate of a study's comparison: a difference is marked significant when
its Holm-adjusted p-value is at most this, over every measure, matchup, part and variant."""


def _matchup_rows(study: VariantStudy, out, variant: str, part: str) -> dict:
    """A (variant, part)'s rows by matchup (those the tables use: :func:`.runner.used_rows`)."""
    from .runner import used_rows
    from .store import Store
    spec = study.specs[variant, part]
    rows = used_rows(spec, Store.open(study.path(out, variant, part)).rows())
    return {m: rows[rows["matchup"] == m] for m in range(len(spec.matchups))
            if (rows["matchup"] == m).any()}


def _label(study: VariantStudy, part: str, matchup: int) -> str:
    from .rows import matchup_label
    spec = study.specs[study.baseline, part]
    return matchup_label(spec.agents, spec.matchups[matchup])


def study_measures(study: VariantStudy, out, boot: int | None = None) -> pd.DataFrame:
    """Every variant's measures (:func:`.measures.matchup_measures`) of every part and matchup
    of the study in ``out``: one row each, the variant, part and matchup named, with the games
    the matchup played (``games``)."""
    from cardsim.game import definition as game_definition

    from .measures import BOOT, matchup_measures
    d = game_definition(study.game)
    out_rows = []
    for v in study.variants:
        for part in study.parts:
            for m, rows in _matchup_rows(study, out, v.name, part).items():
                for r in matchup_measures(rows, d.categories, d.zero_sum, boot or BOOT):
                    out_rows.append({"variant": v.name, "part": part, "matchup": m,
                                     "label": _label(study, part, m), "games": len(rows), **r})
    return pd.DataFrame(out_rows)


def study_differences(study: VariantStudy, out, boot: int | None = None,
                      alpha: float = ALPHA) -> pd.DataFrame:
    """Every other variant's measures against the baseline's (:func:`.measures.compare`), for
    every part and matchup both hold, with Holm's adjustment over the whole table (``p_holm``)
    and ``significant`` where it is at most ``alpha``."""
    from cardsim.game import definition as game_definition
    from cardsim.stats import holm

    from .measures import BOOT, DIFF_COLUMNS, compare
    d = game_definition(study.game)
    found = []
    for part in study.parts:
        base = _matchup_rows(study, out, study.baseline, part)
        for v in study.variants:
            if v.name == study.baseline:
                continue
            for m, rows in _matchup_rows(study, out, v.name, part).items():
                if m in base:
                    for r in compare(rows, base[m], d.categories, d.zero_sum, boot or BOOT):
                        found.append({"variant": v.name, "part": part, "matchup": m,
                                      "label": _label(study, part, m), **r})
    table = pd.DataFrame(found, columns=["variant", "part", "matchup", "label",
                                         *DIFF_COLUMNS])
    table["p_holm"] = holm(table["p"].to_numpy()) if len(table) else []
    table["significant"] = table["p_holm"] <= alpha
    return table


def load_study_folder(out) -> VariantStudy:
    """The variant study whose folder is ``out`` (its :data:`STUDY` file), to resume it or
    report on it."""
    from cardsim.records.documents import read_document
    return parse_study(read_document(Path(out) / STUDY, "JSON", SpecError, limit=SPEC_BYTES,
                                     what="a variant study"))


def is_study_folder(out) -> bool:
    """Whether ``out`` is a variant study's folder."""
    return (Path(out) / STUDY).is_file()

"""Experiment specs in TOML: what to play, how much, and from which seed.

```toml
question = "Does ISMCTS beat the heuristic at Scopa, and by how much?"
game = "scopa"
agents = ["heuristic", "random", "ismcts:iterations=1000"]
matchups = "round_robin"     # or [[0, 1], [0, 2]] (pairs of agent indices), or
                             # {field = 0} (agent 0 against each other agent)
unit = "deal"                # or "match"
duplicate = true             # every deal once per rotation of the seats, same cards
same_deals = false           # true: every matchup plays the same deals (a field or budget
                             # curve compared deal by deal); false: each matchup its own
seed = 1                     # the root seed
batch_size = 500             # deals per batch (a batch is the unit of work and of resumption)
equity = "runs/equity_scopa" # the match-equity table (`cardsim equity --out`) of agents
                             # with value=match; default: cardsim equity's folder for the
                             # rules (`cardsim run` computes it first when it holds no table)

[rules]                      # rules options, as `cardsim games` lists them
target_score = 11

[setup]                      # optional, unit = "deal" only: what every deal starts from
                             # besides its seed (Game.new_deal(seed, **setup)), e.g. Bura's
                             # first_leader = "dealer"; the same seeds deal the same cards

[deal]                       # optional, unit = "deal" only: the initial cards every deal
                             # satisfies (Game.new_deal(seed, where=deal), cardsim.deals):
# hold = {0 = ["7co"]}       #   these cards in seat 0's first hand;
# count = [{seat = 0, cards = "trumps", min = 3, max = 3}]   # how many of a set in a hand
# table = ["7co"]            #   Scopa's opening table; turned = "As": Bura's, Mushka's trump

[size]                       # one of:
deals = 1000                 #   a fixed number of deals per matchup
# half_width = 0.1           #   until the 95% interval of the first agent's mean return
# max_deals = 20000          #   is this narrow (with a cap)
# sprt = {kind = "elo", lower = 0, upper = 20, alpha = 0.05, beta = 0.05}
#                            #   a sequential test (kind "elo" or "margin"), with max_deals
```

Unknown keys and bad values are refused with the key's name and what is allowed
(:class:`SpecError`): a value of another type is not converted (``seed = 1.0``, ``duplicate =
1`` and ``matchups = [[true, false]]`` are refused), numbers must be finite, and counts (deals,
batch size) fit int64: at most :data:`cardsim.simulate.MAX_DEALS` (2**63 - 1; a run of any
number up to it starts at once, :mod:`cardsim.experiments.runner`). A spec file is read with a
size limit (:data:`cardsim.files.SPEC_BYTES`) and only when it is a regular file; an error
quotes a long value cut (:func:`cardsim.errors.shown`). A spec is frozen once parsed; :meth:`ExperimentSpec.to_dict` is what the
store's manifest keeps and compares on resume (without ``setup`` or ``deal`` when they are
empty, so that the stores of a cardsim without them resume).
"""
from __future__ import annotations

import itertools
import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Mapping

from cardsim.errors import CardsimError, shown
from cardsim.files import SPEC_BYTES
from cardsim.game import definition, load_game
from cardsim.protocol.options import rules_from_options
from cardsim.records.documents import read_document
from cardsim.simulate import MAX_DEALS
from cardsim.solvers.agent_spec import parse_agent


class SpecError(CardsimError):
    """A bad experiment spec: the message names the key and what is allowed."""


_TOP = {"question", "game", "rules", "agents", "matchups", "unit", "duplicate", "same_deals",
        "seed", "batch_size", "size", "equity", "setup", "deal"}
_SIZE = {"deals", "half_width", "max_deals", "sprt"}
_SPRT = {"kind", "lower", "upper", "alpha", "beta"}


@dataclass(frozen=True)
class ExperimentSpec:
    """A parsed, validated experiment (module docstring)."""

    game: str
    agents: tuple[str, ...]
    matchups: tuple[tuple[int, ...], ...]
    question: str = ""
    rules: Mapping[str, Any] = field(default_factory=dict)
    unit: str = "deal"
    duplicate: bool = True
    same_deals: bool = False
    seed: int = 0
    batch_size: int = 500
    deals: int | None = None
    half_width: float | None = None
    max_deals: int | None = None
    sprt: Mapping[str, Any] | None = None
    equity: str = ""
    setup: Mapping[str, Any] = field(default_factory=dict)
    deal: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["agents"] = list(self.agents)
        d["matchups"] = [list(m) for m in self.matchups]
        d["rules"] = dict(self.rules)
        d["sprt"] = None if self.sprt is None else dict(self.sprt)
        if not self.same_deals:
            del d["same_deals"]      # as a cardsim without the key wrote it: old stores resume
        if not self.equity:
            del d["equity"]
        if self.setup:
            d["setup"] = dict(self.setup)
        else:
            del d["setup"]           # as a cardsim without setups wrote it: old stores resume
        if self.deal:
            d["deal"] = dict(self.deal)
        else:
            del d["deal"]
        return d

    @property
    def limit(self) -> int:
        """The most deals any matchup can need."""
        return self.deals if self.deals is not None else self.max_deals

    def load(self):
        """The :class:`cardsim.Game` under the spec's rules (its deals' ``setup`` and ``deal``
        condition go to :func:`cardsim.solvers.duplicate.play_duplicate` with the deals)."""
        return game_with_rules(self.game, self.rules)


def game_with_rules(name: Any, rules: Mapping[str, Any]):
    """``load_game(name, **rules)``, every key of ``rules`` taken as a rules option (even one
    named like a parameter of ``load_game``)."""
    d = definition(name)
    return load_game(name, rules_from_options(d.rules_type, rules, name))


def load_spec(path) -> ExperimentSpec:
    """Parse a TOML spec file."""
    data = read_document(path, "TOML", SpecError, limit=SPEC_BYTES, what="a spec")
    return parse_spec(data)


def spec_from_dict(d: Mapping[str, Any]) -> ExperimentSpec:
    """The spec a store's manifest keeps (:meth:`ExperimentSpec.to_dict`), parsed and
    validated again; a key that is no field of the spec is refused (not dropped)."""
    if not isinstance(d, Mapping):
        raise SpecError(f"expected a spec dict, got {type(d).__name__}")
    known = {f.name for f in fields(ExperimentSpec)}
    unknown = sorted(map(str, set(d) - known))
    if unknown:
        raise SpecError(f"unknown key {shown(unknown[0])} in a stored spec: expected some of "
                        + ", ".join(sorted(known)))
    size = {k: d[k] for k in ("deals", "half_width", "max_deals", "sprt") if d.get(k) is not None}
    return parse_spec({**{k: v for k, v in d.items() if k in _TOP}, "size": size})


def _setup(setup: Any, game, unit: str) -> dict:
    """A deal setup (module docstring), tried on one deal: the game's own refusal otherwise."""
    _check(isinstance(setup, Mapping) and all(isinstance(k, str) for k in setup), "setup", setup,
           "a table of what a deal starts from")
    if not setup:
        return {}
    if unit != "deal":
        raise SpecError("setup: a deal setup starts single deals; unit = \"match\" takes none")
    if game.definition.deal_setup is None:
        raise SpecError(f"setup: {game.name} deals take nothing but their seed, not "
                        + ", ".join(sorted(map(str, setup))))
    try:
        game.new_deal(seed=0, **setup)
    except CardsimError as e:
        raise SpecError(f"setup: {e}") from None
    return dict(setup)


def _deal(deal: Any, game, unit: str) -> dict:
    """A deal condition (module docstring; :mod:`cardsim.deals`), checked and tried on one
    deal; kept in its canonical form (seats as strings, cards in deck order)."""
    _check(isinstance(deal, Mapping), "deal", deal, "a table of conditions on the initial cards")
    if not deal:
        return {}
    if unit != "deal":
        raise SpecError("deal: a deal condition draws single deals; unit = \"match\" takes none")
    from cardsim.deals import parse_where
    try:
        where = parse_where(game, deal)
        game.new_deal(seed=0, where=where)
    except CardsimError as e:
        raise SpecError(f"deal: {e}") from None
    return dict(where.canonical)


def _check(cond: bool, key: str, value: Any, allowed: str) -> None:
    if not cond:
        raise SpecError(f"{key}={shown(value)}: expected {allowed}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    """A finite int or float (not a bool) that a float holds exactly (it is kept as a float)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value) and float(value) == value
    except OverflowError:                      # an int beyond any float
        return False


def _int(d: Mapping, key: str, default: Any, low: int, name: str | None = None,
         high: int | None = None) -> Any:
    value = d.get(key, default)
    if value is None and default is None:     # an optional count, not given
        return None
    _check(_is_int(value) and value >= low and (high is None or value <= high), name or key,
           value, f"an integer >= {low}" + ("" if high is None else f" and <= {high:,}"))
    return value


def parse_spec(data: Mapping[str, Any]) -> ExperimentSpec:
    """Validate a spec given as a dict (the parsed TOML)."""
    if not isinstance(data, Mapping):
        raise SpecError(f"expected a table of keys, got {type(data).__name__}")
    unknown = sorted(set(data) - _TOP)
    if unknown:
        raise SpecError(f"unknown key {shown(unknown[0])}: expected one of "
                        + ", ".join(sorted(_TOP)))
    for key in ("game", "agents"):
        if key not in data:
            raise SpecError(f"missing key {key!r}")
    game_name = data["game"]
    rules = data.get("rules", {})
    _check(isinstance(rules, Mapping), "rules", rules, "a table of rules options")
    game = game_with_rules(game_name, rules)        # unknown game or option: its own clear error
    agents = data["agents"]
    _check(isinstance(agents, list) and len(agents) >= 1 and all(isinstance(a, str)
                                                                 for a in agents),
           "agents", agents, "a list of agent spec strings")
    for_the_match = [a for a in agents if parse_agent(a, game).for_the_match]
    equity = data.get("equity", "")
    _check(isinstance(equity, str), "equity", equity, "the folder of a match-equity table")
    if for_the_match:
        try:
            if game.definition.match is None:
                raise CardsimError(f"{game.name} has no table of match states to value a "
                                   "deal's end by")
            game.definition.match(game.rules)
        except CardsimError as e:
            raise SpecError(f"agents: {for_the_match[0]}: value=match: {e}") from None
    n = game.num_players
    matchups = _matchups(data.get("matchups", "round_robin"), len(agents), n)
    unit = data.get("unit", "deal")
    _check(unit in ("deal", "match"), "unit", unit, "'deal' or 'match'")
    endless = game.definition.endless_match(game.rules) if unit == "match" else None
    if endless:
        raise SpecError(f"unit = \"match\": {endless} (max_deals = N in [rules])")
    duplicate = data.get("duplicate", True)
    _check(isinstance(duplicate, bool), "duplicate", duplicate, "true or false")
    same_deals = data.get("same_deals", False)
    _check(isinstance(same_deals, bool), "same_deals", same_deals, "true or false")
    setup = _setup(data.get("setup", {}), game, unit)
    deal = _deal(data.get("deal", {}), game, unit)
    question = data.get("question", "")
    _check(isinstance(question, str), "question", question, "a string")
    size = data.get("size", {"deals": 1000})
    _check(isinstance(size, Mapping), "size", size, "a table with deals, half_width or sprt")
    unknown = sorted(set(size) - _SIZE)
    if unknown:
        raise SpecError(f"unknown key size.{unknown[0]}: expected one of "
                        + ", ".join(sorted(_SIZE)))
    rules_given = [k for k in ("deals", "half_width", "sprt") if k in size]
    if len(rules_given) != 1:
        raise SpecError(f"size: give exactly one of deals, half_width or sprt, got "
                        f"{rules_given or 'none'}")
    deals = _int(size, "deals", None, 1, "size.deals", MAX_DEALS)
    max_deals = _int(size, "max_deals", None, 1, "size.max_deals", MAX_DEALS)
    half_width = size.get("half_width")
    if half_width is not None:
        _check(_is_number(half_width) and half_width > 0, "size.half_width", half_width,
               "a finite number > 0")
    sprt = size.get("sprt")
    if sprt is not None:
        sprt = _sprt(sprt, matchups)
    if deals is None and max_deals is None:
        raise SpecError("size.max_deals is needed with half_width or sprt (a cap on deals)")
    if deals is not None and max_deals is not None:
        raise SpecError("size.max_deals goes with half_width or sprt, not with deals")
    return ExperimentSpec(
        game=game_name, agents=tuple(agents), matchups=matchups, question=question,
        rules=dict(rules), unit=unit, duplicate=duplicate, same_deals=same_deals,
        seed=_int(data, "seed", 0, 0), batch_size=_int(data, "batch_size", 500, 1,
                                                       high=MAX_DEALS),
        deals=deals, half_width=None if half_width is None else float(half_width),
        max_deals=max_deals, sprt=sprt, equity=equity, setup=setup, deal=deal)


def _matchups(value: Any, n_agents: int, n_seats: int) -> tuple[tuple[int, ...], ...]:
    """Pairs (or seat tuples) of agent indices; with more seats than agents in a pair, the
    pair's agents alternate round the table."""
    if value == "round_robin":
        pairs = list(itertools.combinations(range(n_agents), 2))
    elif isinstance(value, Mapping) and set(value) == {"field"}:
        hero = value["field"]
        _check(_is_int(hero) and 0 <= hero < n_agents, "matchups.field", hero,
               f"an agent index from 0 to {n_agents - 1}")
        pairs = [(hero, k) for k in range(n_agents) if k != hero]
    elif isinstance(value, list) and value:
        pairs = []
        for m in value:
            _check(isinstance(m, list) and len(m) in (2, n_seats) and all(
                _is_int(k) and 0 <= k < n_agents for k in m), "matchups", m,
                f"pairs (or {n_seats}-tuples) of agent indices from 0 to {n_agents - 1}")
            pairs.append(tuple(m))
    else:
        raise SpecError(f"matchups={shown(value)}: expected 'round_robin', {{field = k}} or a list "
                        "of pairs of agent indices")
    if not pairs:
        raise SpecError("matchups: a round robin needs at least 2 agents")
    return tuple(tuple(m) if len(m) == n_seats else tuple(m[s % 2] for s in range(n_seats))
                 for m in pairs)


def _sprt(sprt: Any, matchups) -> dict:
    _check(isinstance(sprt, Mapping), "size.sprt", sprt, "a table with kind, lower, upper")
    unknown = sorted(set(sprt) - _SPRT)
    if unknown:
        raise SpecError(f"unknown key size.sprt.{unknown[0]}: expected one of "
                        + ", ".join(sorted(_SPRT)))
    kind = sprt.get("kind", "elo")
    _check(kind in ("elo", "margin"), "size.sprt.kind", kind, "'elo' or 'margin'")
    out = {"kind": kind}
    for key in ("lower", "upper"):
        value = sprt.get(key)
        _check(_is_number(value), f"size.sprt.{key}", value, "a finite number")
        out[key] = float(value)
    _check(out["lower"] < out["upper"], "size.sprt.upper", out["upper"],
           f"a number above lower={out['lower']}")
    for key in ("alpha", "beta"):
        value = sprt.get(key, 0.05)
        _check(isinstance(value, float) and 0 < value < 0.5, f"size.sprt.{key}", value,
               "a number between 0 and 0.5")
        out[key] = value
    return out

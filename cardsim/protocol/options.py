"""Rules options, declared once per game as fields of a frozen dataclass.

Each option is a dataclass field made with :func:`option`: its default, the allowed values, the
rule it toggles and a one-line description. From that single declaration come the validation
(:func:`check_options`), the parsing of ``name=value`` strings from the command line
(:func:`rules_from_options`) and the option table of ``cardsim games`` (:func:`describe`).
"""
from __future__ import annotations

import dataclasses
import functools
from typing import Any, Mapping

from ..errors import OptionError, shown


@dataclasses.dataclass(frozen=True)
class Integers:
    """An allowed value of an option that stands for every integer from ``low`` to ``high``
    (Mushka's ``max_deals``: any number of deals, not a menu)."""

    low: int
    high: int

    def admits(self, value: Any) -> bool:
        return type(value) is int and self.low <= value <= self.high

    def parse(self, text: str) -> int | None:
        """The integer ``text`` writes (decimal digits only), if this range admits it."""
        text = text.strip()
        if not (text.isascii() and text.isdigit()) or len(text) > len(str(self.high)):
            return None
        value = int(text)
        return value if self.admits(value) else None

    def __str__(self) -> str:
        return f"an integer from {self.low} to {self.high:,}"

    def examples(self) -> list[str]:
        return [str(self.low), str(self.low + 5), str(self.high)]


def option(default: Any, allowed: tuple, rule: str, doc: str) -> Any:
    """A rules option: a dataclass field with its allowed values (an :class:`Integers` among
    them stands for a range), rule ID and description."""
    return dataclasses.field(default=default,
                             metadata={"allowed": tuple(allowed), "rule": rule, "doc": doc})


def _show(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) or value is None else str(value)


def _admits(allowed: Any, value: Any) -> bool:
    if isinstance(allowed, Integers):
        return allowed.admits(value)
    return type(value) is type(allowed) and value == allowed


def _expected(allowed: tuple) -> str:
    return "expected one of " + ", ".join(_show(a) for a in allowed)


def check_options(rules: Any) -> None:
    """Raise :class:`OptionError` unless every field of ``rules`` holds an allowed value."""
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        allowed = f.metadata["allowed"]
        if not any(_admits(a, value) for a in allowed):
            raise OptionError(f"option {f.name}={shown(_show(value))} is not allowed: "
                              + _expected(allowed))


def rules_from_options(cls: type, options: Mapping[str, Any], game: str) -> Any:
    """Build the rules dataclass ``cls`` from options given as values or as strings.

    Strings are matched against the allowed values' text (``"true"``, ``"21"``, ``"forfeit"``),
    so command-line ``name=value`` pairs and Python values both work.
    """
    fields = {f.name: f for f in dataclasses.fields(cls)}
    check_option_names(cls, options, game)
    values = {}
    for name, value in options.items():
        allowed = fields[name].metadata["allowed"]
        if isinstance(value, str):
            match = [a for a in allowed if not isinstance(a, Integers)
                     and _show(a) == value.strip().lower()]
            match += [v for a in allowed if isinstance(a, Integers)
                      for v in [a.parse(value)] if v is not None]
            if not match:
                raise OptionError(f"option {name}={shown(value)} is not allowed: "
                                  + _expected(allowed))
            value = match[0]
        values[name] = value
    return cls(**values)


def check_option_names(cls: type, names, game: str) -> None:
    """Raise :class:`OptionError` for the first of ``names`` that is not an option of the rules
    dataclass ``cls`` (of the game ``game``)."""
    fields = [f.name for f in dataclasses.fields(cls)]
    for name in names:
        if name not in fields:
            raise OptionError(f"unknown {game} option {shown(name)}: expected one of "
                              + ", ".join(fields))


def parse_option_pairs(pairs: list[str]) -> dict[str, str]:
    """``["a=1", "b=x"]`` → ``{"a": "1", "b": "x"}``, with a clear error for a malformed pair
    or a name given twice (the second value would silently replace the first)."""
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise OptionError(f"option {shown(pair)} is malformed: expected name=value")
        name, value = name.strip(), value.strip()
        if name in out:
            raise OptionError(f"option {shown(name)} is given twice ({shown(out[name])} and "
                              f"{shown(value)}): "
                              "give it once")
        out[name] = value
    return out


def describe(cls: type) -> list[dict]:
    """One dict per option: name, allowed values (as text; a range as its phrase), examples
    of values to type (every allowed value, a few of a range), default, rule ID and
    description."""
    return [{"name": f.name, "allowed": [_show(a) for a in f.metadata["allowed"]],
             "examples": [v for a in f.metadata["allowed"]
                          for v in (a.examples() if isinstance(a, Integers) else [_show(a)])],
             "default": _show(f.default), "rule": f.metadata["rule"], "doc": f.metadata["doc"]}
            for f in dataclasses.fields(cls)]


def non_default(rules: Any) -> dict[str, Any]:
    """The options of ``rules`` whose value differs from the default."""
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)
            if getattr(rules, f.name) != f.default}


@functools.lru_cache(maxsize=64)
def _rules_items(rules: Any) -> tuple:
    return tuple((f.name, getattr(rules, f.name)) for f in dataclasses.fields(rules))


def rules_dict(rules: Any) -> dict[str, Any]:
    """Every option of a (frozen, flat) rules dataclass by name: ``dataclasses.asdict``
    without its deep copy, computed once per rules (position dicts carry it at every step)."""
    return dict(_rules_items(rules))

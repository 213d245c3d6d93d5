"""The differential harness: a game's compiled engine against its plain-Python reference.

Every game has a reference engine (``cardsim/games/<game>/reference.py``), an independent
plain-Python reading of its rules file and of the engine's position format. A differential test
starts both engines from the same seed (or the same position), applies the same random choice
to both at every step, and after every step requires identical legal-action lists, ``to_dict``
positions, ``current_player`` and ``is_terminal``, and at the end identical ``returns``; the
reference is also checked to conserve the pack's cards after every step.

This module is that harness, written once. A game's ``tests/games/<game>/test_differential.py``
holds only what differs: a :class:`Differential` subclass naming its reference and rules
(and the hooks where its checks differ: the cards of the pack, the end of a game, the order of
the dict's keys), its random player (a :class:`Chooser`), its option axes and deal plans, its
game-specific checks, and its slow run's default number of deals (:func:`deal_count`)::

    class Scopa(Differential):
        name, reference, rules_type, n_cards = "scopa", ReferenceScopa, ScopaRules, 40

    DIFF = Scopa()
    state, ref = DIFF.deal(options, seed)
    DIFF.play_both(ref, state, Chooser(seed), f"seed {seed}")

A step can be watched (:class:`Watch`): a game counts the rare events its deals reach, or logs
the actions played, to assert that the rules it aims at were exercised.
"""
from __future__ import annotations

import copy
import dataclasses
import os
import random
from typing import Any, ClassVar, Iterable

from tests.helpers import load_game


def deal_count(default: int) -> int:
    """The slow run's number of deals: the environment variable ``CARDSIM_DIFF_DEALS`` when
    set, else the game's own ``default`` (each game's default keeps the slow suite within its
    time budget)."""
    return int(os.environ.get("CARDSIM_DIFF_DEALS", str(default)))


class Chooser:
    """The random player whose choice is applied to both engines: uniform among the legal
    actions, drawn from ``rnd`` (``random.Random(seed)``). A game's player overrides
    ``__call__``; tests draw other choices (how many steps to play first) from ``rnd`` too."""

    def __init__(self, seed: Any) -> None:
        self.rnd = random.Random(seed)

    def __call__(self, legal: list[int]) -> int:
        return self.rnd.choice(legal)


class Watch:
    """Sees every step :meth:`Differential.play_both` plays (both methods do nothing here)."""

    def before_step(self, ref: Any, action: int) -> None:
        """``ref`` is the reference before ``action`` is applied."""

    def after_step(self, before: dict, action: int, after: dict, ref: Any) -> None:
        """``before`` and ``after``: the position dicts around ``action``; ``ref`` after it."""


class Log(Watch):
    """The actions played, in order (``actions``)."""

    def __init__(self) -> None:
        self.actions: list[int] = []

    def after_step(self, before: dict, action: int, after: dict, ref: Any) -> None:
        self.actions.append(action)


class Differential:
    """One game's compiled engine and reference engine, played side by side.

    A subclass sets the class attributes and overrides the hooks where its game differs:
    :meth:`expected_cards`, :meth:`check_end`, :meth:`action_text`.
    """

    name: ClassVar[str]                  # the registered game
    reference: ClassVar[type]            # new_deal(rules, seed, **setup), new_match, from_dict
    rules_type: ClassVar[type]           # the game's rules dataclass
    n_cards: ClassVar[int]               # the reference's cards are range(n_cards)
    key_order: ClassVar[bool] = False    # the compiled dict's keys also come in the same order

    # --- the game's hooks -------------------------------------------------------------------

    def expected_cards(self, ref: Any) -> list[int]:
        """Every card the reference must hold exactly once, in order."""
        return list(range(self.n_cards))

    def check_end(self, state: Any, ref: Any, where: str) -> None:
        """Both engines finished: the same returns."""
        assert state.returns() == ref.returns(), f"{where}: returns differ"

    def action_text(self, action: int) -> str:
        """An action for failure messages."""
        return str(action)

    # --- the engines ------------------------------------------------------------------------

    def load(self, **options: Any):
        """The compiled game under these options (:func:`tests.helpers.load_game`)."""
        return load_game(self.name, **options)

    def deal(self, options: dict, seed: Any, **setup: Any) -> tuple[Any, Any]:
        """(compiled state, reference) of the deal ``seed`` gives under ``options`` (``setup``:
        the deal's setup, e.g. starting records, a copy to each engine); the compiled game's
        rules must be the reference's."""
        game, rules = self.load(**options), self.rules_type(**options)
        assert game.rules == rules
        return (game.new_deal(seed=seed, **copy.deepcopy(setup)),
                self.reference.new_deal(rules, seed, **copy.deepcopy(setup)))

    def match(self, options: dict, seed: Any) -> tuple[Any, Any]:
        """(compiled state, reference) of the match ``seed`` starts under ``options``."""
        game, rules = self.load(**options), self.rules_type(**options)
        assert game.rules == rules
        return game.new_match(seed=seed), self.reference.new_match(rules, seed)

    # --- the checks -------------------------------------------------------------------------

    def assert_cards_conserved(self, ref: Any, where: str) -> None:
        """Every card of the pack exactly once in the reference's position."""
        assert sorted(ref.all_cards()) == self.expected_cards(ref), f"{where}: cards not conserved"

    def assert_same(self, state: Any, ref: Any, where: str, before: dict | None = None) -> dict:
        """The two engines agree on the position and on whose move it is; returns the
        reference's position dict (``before``: the previous position, shown on a failure)."""
        got, expected = state.to_dict(), ref.to_dict()
        if got != expected:
            if before is not None:
                where = f"{where} from position {before}\n"
            keys = list(expected) + [k for k in got if k not in expected]
            diff = {k: (got.get(k), expected.get(k)) for k in keys
                    if got.get(k) != expected.get(k)}
            raise AssertionError(f"{where}: to_dict differs in {list(diff)}\n"
                                 f"(compiled, reference) per key: {diff}\n"
                                 f"reference position: {expected}")
        if self.key_order:
            assert list(got) == list(expected), f"{where}: key order differs"
        assert state.is_terminal() == ref.is_terminal(), where
        assert state.current_player() == ref.current_player(), where
        return expected

    def play_both(self, ref: Any, state: Any, chooser: Chooser, where: str,
                  max_steps: int | None = None, watch: Watch | None = None) -> int:
        """Play both engines in lockstep with the same choices; return the steps made.

        Compares the legal actions before every step and the whole position after it, checks
        that the reference conserves the cards, and at the end (:meth:`check_end`) compares
        the returns. With ``max_steps`` the play stops early (the position is not necessarily
        terminal). ``watch`` sees every step.
        """
        steps = 0
        before = self.assert_same(state, ref, f"{where} start")
        self.assert_cards_conserved(ref, where)
        while not ref.is_terminal():
            if max_steps is not None and steps >= max_steps:
                return steps
            expected = ref.legal_actions()
            got = state.legal_actions()
            if got != expected:
                def show(actions: Iterable[int]) -> list[str]:
                    return sorted(self.action_text(a) for a in actions)
                raise AssertionError(
                    f"{where} step {steps}: legal actions differ\n"
                    f"only compiled:  {show(set(got) - set(expected))}\n"
                    f"only reference: {show(set(expected) - set(got))}\n"
                    f"position: {before}")
            assert expected, f"{where} step {steps}: no legal action before the end"
            action = chooser(expected)
            if watch is not None:
                watch.before_step(ref, action)
            state.apply_action(action)
            ref.apply_action(action)
            steps += 1
            self.assert_cards_conserved(ref, where)
            after = self.assert_same(
                state, ref, f"{where} after step {steps} ({self.action_text(action)})", before)
            if watch is not None:
                watch.after_step(before, action, after, ref)
            before = after
        assert state.legal_actions() == [] == ref.legal_actions()
        self.check_end(state, ref, where)
        return steps

    def cross(self, ref: Any, state: Any, options: dict, where: str) -> tuple[Any, Any]:
        """Each engine's position into the other's ``from_dict``: the reference's dict into
        the compiled engine, the compiled dict into the reference; the two new engines must
        agree. Returns (compiled, reference) to play on."""
        game, rules = self.load(**options), self.rules_type(**options)
        state2 = game.from_dict(ref.to_dict())
        ref2 = self.reference.from_dict(rules, state.to_dict())
        self.assert_same(state2, ref2, f"{where} after from_dict")
        return state2, ref2

    def reference_dict_problems(self, d: dict, rules: Any) -> list[str]:
        """What the reference's position dict ``d`` lacks: every option of ``rules``
        (``dataclasses.asdict``) and the 4 words of the chance stream (empty: nothing)."""
        problems = []
        if d["rules"] != dataclasses.asdict(rules):
            problems.append(f"rules {d['rules']} are not {dataclasses.asdict(rules)}")
        if set(d["rules"]) != {f.name for f in dataclasses.fields(self.rules_type)}:
            problems.append(f"the options {sorted(d['rules'])} are not the rules' fields")
        if not (len(d["rng"]) == 4 and all(isinstance(w, int) for w in d["rng"])):
            problems.append(f"rng {d['rng']} is not 4 integer words")
        return problems

    def missing_pairs(self, plans: Iterable[dict], axes: dict[str, tuple],
                      impossible: Iterable[tuple] = ()) -> list[tuple]:
        """The pairs of values of two different options (``axes``: each option's values) that
        no option set of ``plans`` plays together (every option filled in from the rules'
        defaults), except the ``impossible`` ones ((option, value, option, value), in the order
        of ``axes``). Pairwise coverage asserts it empty."""
        names = list(axes)
        seen = set()
        for options in plans:
            full = dataclasses.asdict(self.rules_type(**options))
            for i, a in enumerate(names):
                for b in names[i + 1:]:
                    seen.add((a, full[a], b, full[b]))
        skip = set(impossible)
        return [(a, x, b, y) for i, a in enumerate(names) for b in names[i + 1:]
                for x in axes[a] for y in axes[b]
                if (a, x, b, y) not in seen and (a, x, b, y) not in skip]

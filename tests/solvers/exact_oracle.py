"""The test oracle of the exact solver (``tests/solvers/test_exact.py``): plain brute-force
minimax over the plain-Python REFERENCE engines, with the value of a finished deal computed
from the reference state's own scoring, independently of the compiled kernels and of the
solver's hooks (``cardsim/games/<game>/exact.py``).

- Scopa: the finished deal's point difference, side 0 minus side 1, from the reference's
  ``deal_points()`` (SC-SCORE-1..6); seat ``p`` plays for side ``p % 2`` (SC-TEAM-2/3).
- Bura (2 players): ``256 * return of seat 0 + (card points in seat 0's piles - card points in
  seat 1's piles)`` at the deal's end (BU-END-1..4, BU-CLAIM-1..2), the return from the
  reference's ``returns()`` and the card points of the cards of its piles (those its
  ``to_dict()`` lists, face up and face down) by the rules' table (``rules/bura.md`` §1: A=11,
  T=10, K=4, Q=3, J=2, 9/8/7/6=0), written out again here.
- Minchiate: the finished deal's net resti of team A (MI-RESTO-3/4), the reference's return of
  seat 0; seat ``p`` plays for team ``p % 2`` (rules/minchiate.md §1.4).
- Mushka, paranoid for a *root* seat: the record the root wrote off in the finished deal
  (MU-SCORE-1..5, MU-STOP-1..3), the reference's return of the root; the root is side 0 and
  every other seat side 1, playing against it.

No pruning, no table: every line of play is walked to the deal's end.
"""
from __future__ import annotations

import random

from cardsim.games.bura.layout import DECK as BURA
from cardsim.games.bura.reference import CLAIM, KIND_SHIFT, ReferenceBura
from cardsim.games.minchiate.reference import ReferenceGame as ReferenceMinchiate
from cardsim.games.mushka.reference import ReferenceMushka
from cardsim.games.scopa.reference import ReferenceScopa

OUTCOME = 256
"""Bura: the weight of the deal's result above the card-point margin (at most 120)."""

BURA_CARD_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0, "6": 0}
"""rules/bura.md §1: card points by rank letter (a card's name is rank letter + suit letter)."""


def bura_card_points(name: str) -> int:
    """The card points of a Bura card given by name (``"As"``, ``"Td"``, ``"6h"``)."""
    return BURA_CARD_POINTS[name[0]]


def bura_pile_points(position: dict, seat: int) -> int:
    """BU-CLAIM-1, BU-END-4: the card points in ``seat``'s piles of a position dict, face up
    and face down."""
    pile = position["piles"][seat]
    return sum(bura_card_points(c) for c in pile["up"] + pile["down"])


def bura_reference_pile_points(ref: ReferenceBura, seat: int) -> int:
    """:func:`bura_pile_points` of the reference's piles, read without building the whole
    position dict (the same cards as its ``to_dict()["piles"][seat]``, named by the deck)."""
    return sum(bura_card_points(BURA.name(c)) for c in ref.piles_up[seat] | ref.piles_down[seat])


def reference_of(state):
    """The reference engine's copy of a compiled ``State`` (same rules, same position dict,
    same action ids), as the differential tests build it."""
    d = state.to_dict()
    if state.game.name == "scopa":
        return ReferenceScopa.from_dict(state.game.rules, d)
    if state.game.name == "minchiate":
        return ReferenceMinchiate.from_dict(state.game.rules, d)
    if state.game.name == "mushka":
        return ReferenceMushka.from_dict(state.game.rules, d)
    return ReferenceBura.from_dict(state.game.rules, d)


def as_lone_deal(ref):
    """A copy of a reference position to be solved to the end of its current deal: a match
    position becomes the same position of a lone deal (``mode = "deal"``; the match scores do
    not enter a deal's value). A Bura copy drops its trick history (``history = None``, the
    reference's own form of a position given without it), which no rule reads and every copy
    would otherwise carry."""
    ref = ref.clone()
    ref.mode = "deal"
    if isinstance(ref, ReferenceBura):
        ref.history = None
    return ref


def finished_value(ref, root: int = 0) -> int:
    """The value for side 0 of a FINISHED lone deal of the reference engine (Mushka: for the
    seat ``root``)."""
    assert ref.is_terminal() and ref.mode == "deal"
    if isinstance(ref, ReferenceMushka):
        written_off = ref.returns()[root]                # start_record - record
        assert written_off == int(written_off)
        return int(written_off)
    if isinstance(ref, ReferenceScopa):
        points = ref.deal_points()                       # SC-SCORE-6
        return points[0] - points[1]
    if isinstance(ref, ReferenceMinchiate):
        net = ref.returns()[0]                           # MI-RESTO-3/4: team A's net resti
        assert net == int(net)
        return int(net)
    ret = ref.returns()[0]                               # BU-END-3: +-multiplier, 0 void
    assert ret == int(ret)
    return (OUTCOME * int(ret) + bura_reference_pile_points(ref, 0)
            - bura_reference_pile_points(ref, 1))


def side_of(ref, seat: int, root: int = 0) -> int:
    """The side of a seat: Scopa ``p % 2`` (SC-TEAM-2/3), Minchiate ``p % 2`` (team A is
    seats 0 and 2), Bura (2 players) the seat; Mushka 0 for the root, 1 for every other."""
    if isinstance(ref, ReferenceMushka):
        return 0 if seat == root else 1
    return seat % 2 if isinstance(ref, (ReferenceScopa, ReferenceMinchiate)) else seat


class Oracle:
    """Brute-force minimax over a reference engine; ``nodes`` counts the positions visited."""

    def __init__(self) -> None:
        self.nodes = 0

    def value(self, ref, root: int = 0) -> int:
        """The exact value for side 0 of a reference position (solved to its deal's end;
        Mushka: for the seat ``root``)."""
        return self._minimax(as_lone_deal(ref), root)

    def child_values(self, ref, root: int = 0) -> dict[int, int]:
        """Each legal action of ``ref`` -> the exact value of the position it leads to."""
        ref = as_lone_deal(ref)
        out = {}
        for action in ref.legal_actions():
            child = ref.clone()
            child.apply_action(action)
            out[action] = self._minimax(child, root)
        return out

    def _minimax(self, ref, root: int) -> int:
        self.nodes += 1
        if ref.is_terminal():
            return finished_value(ref, root)
        actions = ref.legal_actions()
        assert actions, "a live position without a legal action"
        values = []
        for action in actions:
            child = ref.clone()
            child.apply_action(action)
            values.append(self._minimax(child, root))
        return max(values) if side_of(ref, ref.current_player(), root) == 0 else min(values)


def play_line(ref, actions, root: int = 0) -> int:
    """Play ``actions`` on a copy of a reference position (as a lone deal) and return the
    finished deal's value (Mushka: for ``root``); the line must end the deal."""
    ref = as_lone_deal(ref)
    for action in actions:
        assert action in ref.legal_actions(), f"action {action} is not legal"
        ref.apply_action(action)
    return finished_value(ref, root)


def random_prefix(state, plies: int, chooser: random.Random, avoid_claims: bool = False) -> bool:
    """Play ``plies`` random legal moves on a compiled ``state``; False if the deal ended first.
    With ``avoid_claims`` a Bura claim is played only when it is the sole legal move."""
    for _ in range(plies):
        if state.is_terminal():
            return False
        state.apply_action(choose(state.legal_actions(), chooser, avoid_claims))
    return not state.is_terminal()


def choose(legal: list[int], chooser: random.Random, avoid_claims: bool) -> int:
    """A uniform choice; with ``avoid_claims`` Bura claims are left out when another
    move exists."""
    if avoid_claims:
        others = [a for a in legal if a >> KIND_SHIFT != CLAIM]
        if others:
            return chooser.choice(others)
    return chooser.choice(legal)

"""High card, the smallest real game of the protocol: a toy fifth game, built outside cardsim
to show what a game is — its package and one registry line (``tests/conformance/
test_toy_game.py`` registers it and runs the conformance suite on it).

Two players, twelve cards, three in hand, the higher card takes the trick (the rules:
:mod:`.kernels`). Roles of the modules, as in every game package: :mod:`.rules`,
:mod:`.layout` (the deck, the state vector), :mod:`.kernels`, :mod:`.worlds`,
:mod:`.heuristic`, :mod:`.notation`, :mod:`.reference` (the oracle), :mod:`.summary` and
:mod:`.conformance`. No exact solver, no match model, no learned evaluation.

Returns: for a deal, each seat's tricks minus the other's; for a match, +1 for its winner and
-1 for the other.
"""
from cardsim.protocol.spec import GameDefinition

from .kernels import ROW_COLUMNS
from .rules import PRESETS, HighCardRules
from .summary import summarize

GAME = GameDefinition.of_package(
    __name__, reference="ReferenceHighCard", rules_type=HighCardRules,
    summary="toy trick game: 12 cards, 2 players, the higher card takes the trick",
    summarize=summarize, row_columns=ROW_COLUMNS, reward_scale=2.0,
    no_exact="the toy game has no exact solver hooks", categories=("tricks",),
    return_bounds=lambda rules, n: (-6.0, 6.0))

__all__ = ["GAME", "PRESETS", "HighCardRules"]

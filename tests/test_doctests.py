"""The examples in the modules' docstrings run and give what they show."""
import doctest
import importlib

import pytest

MODULES = ["cardsim", "cardsim.cards", "cardsim.game", "cardsim.protocol.registry", "cardsim.compiled.jit",
           "cardsim.compiled.compiling", "cardsim.compiled.clock", "cardsim.solvers.agent_spec", "cardsim.solvers.strength"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0

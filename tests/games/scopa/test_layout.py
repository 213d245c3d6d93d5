"""The state layout's constant tables and the action-buffer bound.

That the state vector's slots do not overlap is checked for every game in
``tests/conformance/test_layout.py``.
"""
from functools import lru_cache

from cardsim.games.scopa import layout as L
from cardsim.games.scopa.layout import DECK as SCOPA


def subsets_with_sum(values, target):
    """Number of subsets (any size >= 1) of ``values`` summing to ``target``."""
    @lru_cache(None)
    def count(i, rest):
        if rest == 0:
            return 1
        if i == len(values) or rest < 0:
            return 0
        return count(i + 1, rest) + count(i + 1, rest - values[i])
    return count(0, target)


def test_max_actions_bound_covers_every_hand():
    """SC-CAPT-8: at most one action per (card in hand, subset of the other cards with the
    card's value); the buffer sizes are that bound for 3-card and 9-card hands."""
    values = tuple(L.VALUE.tolist())
    per_value = {v: subsets_with_sum(values, v) for v in range(1, 11)}
    per_card = sorted((per_value[L.VALUE[c]] for c in range(40)), reverse=True)
    assert L.MAX_ACTIONS_3 == sum(per_card[:3])
    assert L.MAX_ACTIONS_9 == sum(per_card[:9])


def test_card_tables_follow_the_rules_file():
    """Rules §1.2: capture values 1..10, primiera scale 7=21 6=18 A=16 5=15 4=14 3=13 2=12,
    figures 10; coins is suit 0; the settebello is 7co."""
    assert [int(L.VALUE[SCOPA.index(f"{r}co")]) for r in "A234567JCK"] == list(range(1, 11))
    assert [int(L.PRIMIERA[SCOPA.index(f"{r}ba")]) for r in "A234567JCK"] == \
        [16, 12, 13, 14, 15, 18, 21, 10, 10, 10]
    assert int(L.COINS) == SCOPA.mask([f"{r}co" for r in "A234567JCK"])
    assert L.SETTEBELLO == SCOPA.index("7co")
    assert int(L.KINGS) == SCOPA.mask(["Kco", "Kcu", "Ksw", "Kba"])
    for v in range(1, 11):
        assert int(L.LOWER_VALUES[v]) == sum(1 << c for c in range(40) if L.VALUE[c] < v)


"""The four games' decks (each its layout's ``DECK``, a :class:`cardsim.cards.Deck`) against
the documented card indices (rules/*.md §1).

Every expected index below is copied from the rules files, not computed by the code under test,
except the formula checks, which restate the documented formula independently.
"""
import numpy as np
import pytest

from cardsim.cards import bits_of
from cardsim.errors import CardError, CardsimError
from cardsim.games.bura.layout import DECK as BURA
from cardsim.games.minchiate.layout import DECK as MINCHIATE
from cardsim.games.mushka.layout import DECK as MUSHKA
from cardsim.games.mushka.layout import deck_mask as mushka_deck_mask
from cardsim.games.scopa.layout import DECK as SCOPA
from cardsim.protocol.registry import definition, list_games

DECKS = {"scopa": SCOPA, "bura": BURA, "mushka": MUSHKA, "minchiate": MINCHIATE}

# --- documented examples (rules §1) ------------------------------------------------------------

@pytest.mark.parametrize("deck,name,index", [
    # scopa.md §1.3
    (SCOPA, "Aco", 0), (SCOPA, "7co", 6), (SCOPA, "Kco", 9), (SCOPA, "7cu", 16),
    (SCOPA, "Asw", 20), (SCOPA, "Kba", 39),
    # bura.md §1
    (BURA, "6s", 0), (BURA, "As", 8), (BURA, "Tc", 16), (BURA, "Qd", 23), (BURA, "Ah", 35),
    # mushka.md §1
    (MUSHKA, "As", 12), (MUSHKA, "Ah", 51), (MUSHKA, "2s", 0),
    # minchiate.md §1.4
    (MINCHIATE, "T1", 0), (MINCHIATE, "T40", 39), (MINCHIATE, "M", 40), (MINCHIATE, "Aco", 41),
    (MINCHIATE, "Kba", 96),
])
def test_documented_index(deck, name, index):
    assert deck.index(name) == index
    assert deck.name(index) == name


@pytest.mark.parametrize("deck,size,words", [
    (SCOPA, 40, 1), (BURA, 36, 1), (MUSHKA, 52, 1), (MINCHIATE, 97, 2),
])
def test_sizes(deck, size, words):
    assert deck.size == size == len(deck.cards)
    assert deck.n_words == words
    assert len(set(deck.cards)) == size
    assert deck.full_mask == (1 << size) - 1


def test_each_record_has_its_layouts_deck():
    assert set(DECKS) <= set(list_games())
    for game in list_games():
        record = definition(game)
        assert record.deck is record.layout.DECK and record.deck.game == game


# --- the documented formulas, restated ----------------------------------------------------------

def test_scopa_formula():
    ranks = "A 2 3 4 5 6 7 J C K".split()
    suits = "co cu sw ba".split()
    for s, suit in enumerate(suits):
        for r, rank in enumerate(ranks):
            assert SCOPA.index(rank + suit) == s * 10 + r   # r = capture value - 1


def test_bura_formula():
    ranks = "6 7 8 9 J Q K T A".split()
    for s, suit in enumerate("s c d h".split()):
        for r, rank in enumerate(ranks):
            assert BURA.index(rank + suit) == s * 9 + r


def test_mushka_formula():
    ranks = "2 3 4 5 6 7 8 9 T J Q K A".split()
    for s, suit in enumerate("s c d h".split()):
        for r, rank in enumerate(ranks):
            assert MUSHKA.index(rank + suit) == s * 13 + r


def test_minchiate_formula():
    for n in range(1, 41):
        assert MINCHIATE.index(f"T{n}") == n - 1
    ranks = "A 2 3 4 5 6 7 8 9 10 F C Q K".split()
    for s, suit in enumerate("co cu sw ba".split()):
        for f, rank in enumerate(ranks):
            assert MINCHIATE.index(rank + suit) == 41 + s * 14 + f
    assert MINCHIATE.index("10ba") == 41 + 3 * 14 + 9
    assert MINCHIATE.index("Fco") == 51


# --- Mushka's deck masks (mushka.md §1: 32 = 7..A, 36 = 6..A, 52 = 2..A) ------------------------

@pytest.mark.parametrize("size,lowest_rank", [(32, "7"), (36, "6"), (52, "2")])
def test_mushka_deck_masks(size, lowest_rank):
    mask = mushka_deck_mask(size)
    assert bin(mask).count("1") == size
    names = MUSHKA.names(mask)
    order = "2 3 4 5 6 7 8 9 T J Q K A".split()
    allowed = order[order.index(lowest_rank):]
    assert sorted(names) == sorted(r + s for r in allowed for s in "scdh")
    assert "As" in names and "Ah" in names


def test_mushka_deck_masks_nested():
    m32, m36, m52 = (mushka_deck_mask(n) for n in (32, 36, 52))
    assert m32 & ~m36 == 0 and m36 & ~m52 == 0
    assert MUSHKA.names(m36 & ~m32) == ["6s", "6c", "6d", "6h"]
    assert m52 == MUSHKA.full_mask


@pytest.mark.parametrize("bad", [0, 31, 40, "32"])
def test_mushka_bad_deck_size(bad):
    with pytest.raises(CardError, match=repr(bad).replace("'", ".")):
        mushka_deck_mask(bad)


# --- masks and words ----------------------------------------------------------------------------

def test_mask_and_names_round_trip():
    for deck in DECKS.values():
        for i, name in enumerate(deck.cards):
            assert deck.mask([name]) == 1 << i
        every = deck.mask(list(reversed(deck.cards)))
        assert every == deck.full_mask
        assert deck.names(every) == list(deck.cards)   # index order


def test_mask_from_string():
    assert SCOPA.mask("Kba Aco") == (1 << 39) | 1
    assert SCOPA.names(SCOPA.mask("Kba Aco 7co")) == ["Aco", "7co", "Kba"]
    assert SCOPA.indices("Kba Aco") == [39, 0]


def test_bits_of():
    assert bits_of(0) == []
    assert bits_of(0b1011) == [0, 1, 3]
    assert bits_of(1 << 96 | 1 << 64 | 1 << 63) == [63, 64, 96]


def test_minchiate_words_round_trip():
    words = MINCHIATE.to_words(MINCHIATE.full_mask)
    assert words.dtype == np.uint64 and words.shape == (2,)
    # rules/minchiate.md §1.4: word 0 = trumps + Matto (41 bits), word 1 = the 56 suit cards
    # at bit index - 41.
    assert int(words[0]) == (1 << 41) - 1 and int(words[1]) == (1 << 56) - 1
    m = MINCHIATE.mask(["T1", "M", "Acu", "Kba"])
    w = MINCHIATE.to_words(m)
    assert int(w[0]) == 1 | (1 << 40)
    assert int(w[1]) == (1 << (55 - 41)) | (1 << (96 - 41))
    assert MINCHIATE.word_bit(40) == (0, 40) and MINCHIATE.word_bit(41) == (1, 0)
    assert SCOPA.word_bit(39) == (0, 39)
    assert MINCHIATE.from_words(w) == m
    rng = np.random.default_rng(11)
    for _ in range(200):
        mask = int("".join(rng.choice(["0", "1"], 97)), 2)
        assert MINCHIATE.from_words(MINCHIATE.to_words(mask)) == mask
    one = SCOPA.to_words(SCOPA.mask("Kba"))
    assert one.shape == (1,) and int(one[0]) == 1 << 39
    assert SCOPA.from_words(one) == 1 << 39


# --- errors -------------------------------------------------------------------------------------

@pytest.mark.parametrize("deck,bad", [
    (SCOPA, "7x"), (SCOPA, "Qco"), (SCOPA, "7CO"), (SCOPA, ""), (BURA, "5s"), (BURA, "10s"),
    (MUSHKA, "1s"), (MUSHKA, "Tco"), (MINCHIATE, "T0"), (MINCHIATE, "T41"), (MINCHIATE, "Jco"),
])
def test_unknown_name_raises(deck, bad):
    with pytest.raises(CardError) as info:
        deck.index(bad)
    assert repr(bad) in str(info.value)
    assert deck.game in str(info.value)
    assert isinstance(info.value, CardsimError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize("bad", [None, 6, ("7co",)])
def test_non_string_raises_card_error(bad):
    with pytest.raises(CardError):
        SCOPA.index(bad)


def test_unknown_name_in_mask_raises():
    with pytest.raises(CardError, match="'Zz'"):
        SCOPA.mask(["Aco", "Zz"])


def test_duplicate_card_raises():
    with pytest.raises(CardError, match="7co"):
        SCOPA.mask(["7co", "Aco", "7co"])

"""Card sets, written once: the :class:`Deck` of a game and the bit helpers of its masks.

A deck fixes the bit index of every card of one game and the card names used everywhere in
cardsim: positions, actions, observations and the command line. Each game declares its own
deck in its package (``cardsim/games/<game>/layout.py``, ``DECK``, read through the game's
record: ``definition(name).deck``). A set of cards is a Python ``int`` bit mask at the API
boundary and ``n_words`` uint64 words inside the kernels (a deck of more than 64 cards needs
several words).

>>> deck = Deck("demo", suited(["A", "2", "3"], ["x", "y"]),
...             "a rank (A 2 3) followed by a suit (x y), e.g. '2x'")
>>> deck.index("2x"), deck.name(3), deck.names(deck.mask(["3y", "Ax"]))
(1, 'Ay', ['Ax', '3y'])
>>> Deck("wide", tuple(f"c{i}" for i in range(70)), "c0..c69", word_starts=(0, 40)).word_bit(55)
(1, 15)
>>> deck.index("7x")
Traceback (most recent call last):
...
cardsim.errors.CardError: unknown demo card '7x': expected a rank (A 2 3) followed by a suit (x y), e.g. '2x'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

import numpy as np

from .errors import CardError

WORD_BITS = 64
WORD_MASK = (1 << WORD_BITS) - 1


@dataclass(frozen=True)
class Deck:
    """The cards of one game, in bit-index order.

    ``cards[i]`` is the name of the card with bit index ``i``; ``hint`` describes the notation
    for error messages.
    """

    game: str
    cards: tuple[str, ...]
    hint: str
    word_starts: tuple[int, ...] = ()
    """Index of the first card of each uint64 word; default: 64 cards a word (a game may
    split its cards otherwise, such as its trumps in word 0 and its suit cards in word 1)."""
    _index: dict = field(init=False, repr=False, compare=False)
    _widths: tuple = field(init=False, repr=False, compare=False)
    _byte_names: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {c: i for i, c in enumerate(self.cards)})
        if not self.word_starts:
            object.__setattr__(self, "word_starts", tuple(range(0, len(self.cards), WORD_BITS)))
        ends = self.word_starts[1:] + (len(self.cards),)
        assert all(0 < e - s <= WORD_BITS for s, e in zip(self.word_starts, ends))
        object.__setattr__(self, "_widths", tuple(e - s for s, e in zip(self.word_starts, ends)))
        # _byte_names[k][b]: the names of the cards whose bits are set in byte k of a mask
        byte_names = tuple(tuple(tuple(self.cards[8 * k + i] for i in _BYTE_BITS[b]
                                       if 8 * k + i < len(self.cards)) for b in range(256))
                           for k in range((len(self.cards) + 7) // 8))
        object.__setattr__(self, "_byte_names", byte_names)

    @property
    def size(self) -> int:
        """Number of cards."""
        return len(self.cards)

    @property
    def n_words(self) -> int:
        """uint64 words of one card set of this deck."""
        return len(self.word_starts)

    def word_bit(self, index: int) -> tuple[int, int]:
        """(word, bit) where the card with this index lives in the kernels' words."""
        w = max(k for k, start in enumerate(self.word_starts) if start <= index)
        return w, index - self.word_starts[w]

    @property
    def full_mask(self) -> int:
        """Mask of every card of the deck."""
        return (1 << len(self.cards)) - 1

    def index(self, name: str) -> int:
        """Bit index of a card given by name; :class:`CardError` for an unknown name."""
        try:
            return self._index[name]
        except (KeyError, TypeError):
            raise CardError(f"unknown {self.game} card {name!r}: expected {self.hint}") from None

    def name(self, index: int) -> str:
        """Name of the card with bit index ``index``."""
        return self.cards[index]

    def indices(self, names: Iterable[str] | str) -> list[int]:
        """Indices of a list of card names (or one space-separated string), duplicates rejected."""
        if isinstance(names, str):
            names = names.split()
        if not isinstance(names, (list, tuple, set, frozenset)):
            raise CardError(f"{names!r}: expected a list of {self.game} card names")
        out: list[int] = []
        seen: set[int] = set()
        for n in names:
            i = self.index(n)
            if i in seen:
                raise CardError(f"card {n!r} appears twice in the same list: each card exists once")
            seen.add(i)
            out.append(i)
        return out

    def mask(self, names: Iterable[str] | str) -> int:
        """Bit mask of a list of card names."""
        m = 0
        for i in self.indices(names):
            m |= 1 << i
        return m

    def matching(self, keep: Callable[[str], bool]) -> int:
        """Bit mask of the cards whose names ``keep`` accepts."""
        return self.mask([c for c in self.cards if keep(c)])

    def names(self, mask: int) -> list[str]:
        """Card names of a mask, in index order."""
        out: list[str] = []
        if mask <= 0:
            return out
        if mask >> len(self.cards):
            raise CardError(f"mask {mask:#x} has bits beyond the {len(self.cards)} cards of "
                            f"the {self.game} deck")
        for table, byte in zip(self._byte_names,
                               mask.to_bytes((mask.bit_length() + 7) // 8, "little")):
            if byte:
                out.extend(table[byte])
        return out

    def to_words(self, mask: int) -> np.ndarray:
        """A mask (bit i = card index i) as the kernels' ``n_words`` uint64 words."""
        return np.array([(mask >> start) & ((1 << width) - 1)
                         for start, width in zip(self.word_starts, self._widths)],
                        dtype=np.uint64)

    def from_words(self, words) -> int:
        """The inverse of :meth:`to_words`."""
        mask = 0
        for start, w in zip(self.word_starts, words):
            mask |= int(w) << start
        return mask


_BYTE_BITS = tuple(tuple(i for i in range(8) if b >> i & 1) for b in range(256))


def bits_of(mask: int) -> list[int]:
    """Indices of the set bits of a Python int, ascending (a byte at a time)."""
    out: list[int] = []
    if mask <= 0:
        return out
    for k, byte in enumerate(mask.to_bytes((mask.bit_length() + 7) // 8, "little")):
        if byte:
            base = 8 * k
            out.extend(base + i for i in _BYTE_BITS[byte])
    return out


def mask_of(cards) -> int:
    """The bit mask of a collection of card indices (a Python int)."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def suited(ranks: list[str], suits: list[str]) -> tuple[str, ...]:
    """The names of a suited deck, suit by suit: ``rank + suit``, index ``suit * len(ranks) +
    rank``."""
    return tuple(r + s for s in suits for r in ranks)

"""Toy games built outside cardsim, to show that a game is its package and one registry line
(:func:`cardsim.registry.register`): :mod:`.highcard`."""

"""Toy games built outside cardsim, to show that a game is its package and one registry line
(:func:`cardsim.protocol.registry.register`): :mod:`.highcard`."""

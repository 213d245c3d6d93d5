"""cardsim's games in other frameworks: OpenSpiel (:mod:`.openspiel`)."""

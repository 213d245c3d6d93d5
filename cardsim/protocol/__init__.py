"""What a game's package gives the rest of cardsim: its definition (:mod:`.spec`), found by
name (:mod:`.registry`); its rules options (:mod:`.options`); its match (:mod:`.match`); the
shared parts of positions (:mod:`.positions`), reference engines (:mod:`.reference`) and
observation planes (:mod:`.planes`); and the conformance suite every game passes
(:mod:`.conformance`)."""

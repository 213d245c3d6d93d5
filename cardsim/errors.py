"""User-facing errors.

Every mistake a user can make — an unknown game, option or value, a malformed position, an
illegal action — raises a subclass of :class:`CardsimError`, itself a :class:`ValueError`. The
message is one line that names the offending value and says what was expected. The command line
prints that line and exits with status 2 (:class:`EnvironmentFault`, a fault of the machine
rather than of the request, with status 1); anything else is a bug and keeps its traceback.
"""


class CardsimError(ValueError):
    """Base class of every user error raised by cardsim."""


class EnvironmentFault(CardsimError):
    """A fault of the environment, not of the request: a lost Dask scheduler, a full disk, a
    read-only folder. Its line names what failed and what was kept; the command line exits
    with :attr:`exit_status`, 1 (a user error exits with 2)."""

    exit_status = 1


class UnknownGameError(CardsimError):
    """A game name that is not registered."""


class OptionError(CardsimError):
    """An unknown rules option, or a value the option does not allow."""


class CardError(CardsimError):
    """A card name that the game's deck does not contain."""


class PositionError(CardsimError):
    """A position (dict) that no legal play of the game can reach."""


class IllegalActionError(CardsimError):
    """An action that is not legal in the current state; the state is left unchanged."""


class AgentError(CardsimError):
    """An agent spec string that names no agent or has a bad parameter."""


class UnsupportedError(CardsimError):
    """A capability the game does not have (the exact solver, PIMC or the oracle where it has
    no exact-solver hooks)."""


def nearest(value, choices) -> str | None:
    """The choice nearest to a misspelt ``value`` (:func:`difflib.get_close_matches`), if any is
    near enough to name in an error ("did you mean ...?")."""
    import difflib
    near = difflib.get_close_matches(str(value), [str(c) for c in choices], n=1, cutoff=0.75)
    return near[0] if near else None


def shown(value, limit: int = 80) -> str:
    """``repr(value)`` as an error message quotes what a user gave: cut after about ``limit``
    characters, saying how long it was, so that a huge value keeps the message one readable
    line.

    >>> shown("7co")
    "'7co'"
    >>> shown("x" * 1000, limit=5)
    "'xxxxx…' (1,000 characters)"
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{repr(value[:limit])[:-1]}…{repr(value[:limit])[-1]} ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"

"""Reading a JSON or TOML file a user wrote (a position, a spec, a store's manifest): every way
of failing — missing, unreadable, not a regular file or too large
(:func:`cardsim.files.read_limited`), not UTF-8, not the format, nested too deeply, a number
too long for Python to convert — is one line naming the file
(:class:`~cardsim.errors.CardsimError` or the subclass given)."""
from __future__ import annotations

import json
import tomllib
from typing import Any

from cardsim.errors import CardsimError
from cardsim.files import DOCUMENT_BYTES, read_limited

_PARSERS = {"JSON": (json.loads, json.JSONDecodeError), "TOML": (tomllib.loads,
                                                                  tomllib.TOMLDecodeError)}


def read_document(path, kind: str, error: type[CardsimError] = CardsimError, *,
                  limit: int = DOCUMENT_BYTES, what: str = "a document") -> Any:
    """The value the ``kind`` ("JSON" or "TOML") file ``path``, ``what`` (e.g. "a spec") of at
    most ``limit`` bytes (:mod:`cardsim.files` has each kind's), holds; ``error`` in one line
    otherwise."""
    parse, syntax = _PARSERS[kind]
    data = read_limited(path, limit, what, error)
    try:
        return parse(data.decode("utf-8"))
    except syntax as e:
        raise error(f"{path} is not valid {kind}: {e}") from None
    except UnicodeDecodeError as e:
        raise error(f"{path} is not UTF-8 text ({kind}): {e.reason} at byte {e.start}") from None
    except RecursionError:
        raise error(f"{path}: {kind} nested too deeply") from None
    except ValueError as e:                    # e.g. an integer of more than 4300 digits
        raise error(f"{path} is not valid {kind}: {e}") from None

"""Reading a file cardsim was pointed at, with a bound: :func:`read_limited` reads a regular
file of at most a given size, and refuses in one line anything else — a FIFO, a device such as
``/dev/zero``, a socket, a folder (without blocking on a FIFO) or a file over the limit (read no
further than one byte past it, so that a file that grows while read is refused too).

The limits of each kind of file, generous for what cardsim writes and far below what would
exhaust memory, are the constants below; every reader of a file from the user or a results
folder names its kind's.
"""
from __future__ import annotations

import errno
import os
import stat

from cardsim.errors import CardsimError

MB = 1 << 20

SPEC_BYTES = 1 * MB
"""An experiment or calibration spec (TOML): a few hundred bytes in practice."""
MANIFEST_BYTES = 1 * MB
"""A results folder's ``manifest.json`` or an equity folder's (the spec and a few keys)."""
RECORD_BYTES = 1 * MB
"""A batch's record in a results folder (its size, rows and checksum: about 100 bytes)."""
BATCH_BYTES = 1 << 30
"""A batch's Parquet file: about 100 bytes a game (a batch of 500 deals in 2 rotations is
about 100 KB), so a batch of up to millions of games."""
TABLE_BYTES = 1 << 30
"""An equity folder's table (Parquet, one row per match state)."""
POSITION_BYTES = 1 * MB
"""A position (JSON): a few hands and piles."""
GAME_RECORD_BYTES = 16 * MB
"""A game record (JSON, ``cardsim play --record``) or a list of moves: a match of many deals
with their moves and thinking, far below this."""
DOCUMENT_BYTES = 16 * MB
"""A JSON or TOML document of no kind above (:func:`cardsim.records.documents.read_document`'s
default)."""

_CHUNK = MB


class FileError(CardsimError):
    """A file that cannot be read: missing, unreadable, not a regular file, or too large."""


def _kind(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def read_limited(path, limit: int, what: str,
                 error: type[CardsimError] = FileError) -> bytes:
    """The bytes of the regular file ``path``, ``what`` (e.g. "a spec") of at most ``limit``
    bytes; ``error`` in one line naming the file when it is missing or unreadable, not a
    regular file (opened without blocking, then checked on the open file) or larger than
    ``limit`` (at most ``limit + 1`` bytes are read)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        if e.errno == errno.ENXIO:                  # a socket, or a FIFO's other end
            raise error(f"{path} is not a regular file: {what} is read from a file") from None
        raise error(f"cannot read {path}: {e.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{path} is {_kind(info.st_mode)}, not a regular file: {what} is read "
                        "from a file")
        too_large = f"{path} is too large for {what}: {{}} bytes, at most {limit:,}"
        if info.st_size > limit:
            raise error(too_large.format(f"{info.st_size:,}"))
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:                           # it grew while read
            raise error(too_large.format(f"more than {limit:,}"))
        return b"".join(chunks)
    except OSError as e:
        raise error(f"cannot read {path}: {e.strerror}") from None
    finally:
        os.close(fd)

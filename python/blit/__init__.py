"""Reader of Blit queue directories, written from docs/format.md alone: pure Python on NumPy (pandas optional).

``blit.open(dir)`` opens a queue read-only; see :class:`blit.queue.Queue` and docs/readers.md."""

from .errors import BlitError, CorruptFileError, UnsupportedFormatError
from .queue import Chunk, LiveClaim, Queue, Record

__all__ = ["open", "Queue", "Record", "Chunk", "LiveClaim", "BlitError", "CorruptFileError", "UnsupportedFormatError"]


def open(directory, abandon_grace=1.0):  # noqa: A001 - the package's verb, as in blit.open(dir)
    """Opens the queue in ``directory`` read-only (see :class:`Queue`)."""
    return Queue(directory, abandon_grace)

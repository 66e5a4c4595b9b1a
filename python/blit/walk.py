"""The record walk of docs/format.md ("The record walk"), written once: every way of reading (iteration, to_numpy,
follow) steps through it. A :class:`Walker` stands at one index and reports what is there (:meth:`Walker.peek`)
without moving; the caller decides to move (:meth:`Walker.advance`), to wait, or to stop."""

from collections import namedtuple

import numpy as np

from .errors import CorruptFileError
from .segment import RECORDS

EMPTY, COMMITTED, CLAIMED, ABANDONED = "empty", "committed", "claimed", "abandoned"
STATE_NAMES = {1: CLAIMED, 2: COMMITTED, 3: ABANDONED}
P_BIT = 1 << 61
LENGTH_MASK = 0xFFFFFFFF
#: Bits a run of like records must share: state, P, type (formats 2 to 4) and length; the claimer may differ.
RUN_MASK = 0xFFC00000FFFFFFFF
RUN_MASK_V1 = 0xE0000000FFFFFFFF
RUN_BLOCK = 1 << 16

#: What stands at the walker's index: kind, index, segment, byte position, header word, type slot, body length.
Step = namedtuple("Step", "kind index segment pos word slot length")


def align8(x):
    return (x + 7) & ~7


def claimer_of(word, version):
    """The claimer field: writer id (formats 3, 4) or pid modulo 2^22 (format 2) or 2^29 (format 1)."""
    return (word >> 32) & (0x1FFFFFFF if version == 1 else 0x3FFFFF)


def check_records(segment, pos, stride, count):
    """The one place where a per-record check (a record checksum, once the format has one) goes: called for every
    committed record a reader returns, singly or as an evenly spaced run. The format has none yet: nothing to check."""


class Walker:
    """Walks the records of a queue from ``index``. ``files`` is the queue's file lookup (``segment_named(i)``:
    the segment whose first index is exactly ``i``, or None if no such file exists yet; it raises if a later one
    does). Not thread-safe."""

    def __init__(self, files, segment, pos, index):
        self.files, self.segment, self.pos, self.index = files, segment, pos, index

    def _corrupt(self, what, pos=None):
        raise CorruptFileError(self.segment.path, self.pos if pos is None else pos, f"(index {self.index}) {what}")

    def peek(self):
        """What stands at the current index, after following file ends and padding words. Never moves past a
        record; re-reads the word each call (so a caller polls a claim or the end by calling it again)."""
        while True:
            seg, p = self.segment, self.pos
            if p + 8 > seg.size:
                if not self._next_file():
                    return Step(EMPTY, self.index, seg, p, 0, 0, 0)
                continue
            w = seg.word(p)
            if w == 0:
                return Step(EMPTY, self.index, seg, p, 0, 0, 0)
            version = seg.version
            if w & P_BIT:
                exact = (w >> 62 == 2 and w & LENGTH_MASK == 0 and
                         (version == 1 or (w >> 54) & 0x7F == 0))
                if not exact:
                    self._corrupt(f"word {w:#018x} has the padding bit but is not a padding word")
                if p == RECORDS:
                    self._corrupt("a padding word as the file's first record")
                if not self._next_file():
                    return Step(EMPTY, self.index, seg, p, 0, 0, 0)
                continue
            state = w >> 62
            if state == 0:
                self._corrupt(f"word {w:#018x}: state EMPTY with other bits set")
            slot = 0 if version == 1 else (w >> 54) & 0x7F
            if version != 1 and slot >= max(1, len(seg.types)):
                self._corrupt(f"type slot {slot}, the file has {len(seg.types)} types")
            length = w & LENGTH_MASK
            if length > 2 ** 31 - 1:
                self._corrupt(f"record length {length} above 2^31 - 1")
            if p + align8(8 + length) > seg.size:
                self._corrupt(f"record of length {length} would end past the file's {seg.size} bytes")
            kind = STATE_NAMES[state]
            if kind == COMMITTED and version >= 2 and length < 8:
                self._corrupt(f"committed record of length {length}, below its 8-byte time")
            return Step(kind, self.index, seg, p, w, slot, length)

    def _next_file(self):
        """Continues in the file named for the current index; False if it does not exist yet."""
        nxt = self.files.segment_named(self.index)
        if nxt is None:
            return False
        self.segment, self.pos = nxt, RECORDS
        return True

    def advance(self, step, count=1):
        """Moves past ``count`` records like ``step`` (a run from :meth:`run`, or the one record peeked)."""
        self.pos = step.pos + count * align8(8 + step.length)
        self.index += count

    def run(self, step, limit):
        """How many records from ``step`` (COMMITTED) on are like it, evenly spaced in its file: same state, type
        slot and length (so same size), at most ``limit``. Vectorised over the mapped words."""
        seg, stride = step.segment, align8(8 + step.length)
        mask = RUN_MASK_V1 if seg.version == 1 else RUN_MASK
        expected = step.word & mask
        fit = min(limit, (seg.size - step.pos) // stride)
        count = 1
        while count < fit:
            n = min(RUN_BLOCK, fit - count)
            words = np.ndarray((n,), "<u8", buffer=seg.data, offset=step.pos + count * stride, strides=(stride,))
            bad = np.flatnonzero((words & np.uint64(mask)) != np.uint64(expected))
            if bad.size:
                return count + int(bad[0])
            count += n
        return count

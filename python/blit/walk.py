"""The record walk of docs/format.md ("The record walk"), written once: every way of reading (iteration, to_numpy,
follow) steps through it. A :class:`Walker` stands at one index and reports what is there (:meth:`Walker.peek`)
without moving; the caller decides to move (:meth:`Walker.advance`), to wait, or to stop."""

from collections import namedtuple

import numpy as np

from .crc32c import TABLE, crc32c
from .errors import CorruptFileError
from .segment import CHECKSUM_FORMAT, RECORDS

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
    """The claimer field: writer id (formats 3 to 5) or pid modulo 2^22 (format 2) or 2^29 (format 1)."""
    return (word >> 32) & (0x1FFFFFFF if version == 1 else 0x3FFFFF)


#: Runs at least this long are checked with NumPy, one vector step per byte column; shorter ones byte by byte.
VECTOR_RUN = 8
_TABLE = np.array(TABLE, dtype=np.uint32)


def body_prefix(version):
    """Bytes of a committed message record's body before its payload: 0 (format 1), 8 (the time: formats 2 to 4),
    16 (time, CRC32C and reserved word: format 5)."""
    return 16 if version >= CHECKSUM_FORMAT else 8 if version >= 2 else 0


def check_records(segment, pos, stride, count, first_index):
    """The one place where the per-record check goes: called for every committed record a reader returns, singly or
    as an evenly spaced run of ``count`` records of ``stride`` bytes from ``pos``, the first of index ``first_index``.
    In format 5 it verifies each record's CRC32C (docs/format.md, "Records": over the word as committed, the time,
    the reserved word and the payload; stored as a u32 LE at +16) and raises CorruptFileError naming the file, the
    record's offset and index at the first mismatch. Formats 1 to 4 have no record checksum: nothing to check."""
    if segment.version < CHECKSUM_FORMAT:
        return
    end = 8 + (segment.word(pos) & LENGTH_MASK)  # every record of a run has the same length
    data = segment.data
    if count < VECTOR_RUN:
        for k in range(count):
            p = pos + k * stride
            computed = crc32c(data[p + 20:p + end], crc32c(data[p:p + 16]))
            _compare(segment, p, first_index + k, computed)
        return
    rows = np.ndarray((count, stride), np.uint8, buffer=data, offset=pos, strides=(stride, 1))
    crc = np.full(count, 0xFFFFFFFF, dtype=np.uint32)
    for column in list(range(16)) + list(range(20, end)):
        crc = _TABLE[(crc ^ rows[:, column]) & 0xFF] ^ (crc >> 8)
    crc ^= np.uint32(0xFFFFFFFF)
    stored = np.ndarray((count,), "<u4", buffer=data, offset=pos + 16, strides=(stride,))
    bad = np.flatnonzero(crc != stored)
    if bad.size:
        k = int(bad[0])
        _compare(segment, pos + k * stride, first_index + k, int(crc[k]))


def _compare(segment, p, index, computed):
    stored = int.from_bytes(segment.data[p + 16:p + 20], "little")
    if stored != computed:
        raise CorruptFileError(segment.path, p, f"(index {index}) record checksum mismatch: the record stores "
                               f"CRC32C {stored:#010x}, its bytes give {computed:#010x}")


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
            if kind == COMMITTED and length < body_prefix(version):
                self._corrupt(f"committed record of length {length}, below its {body_prefix(version)}-byte "
                              + ("time" if version < CHECKSUM_FORMAT else "time, checksum and reserved word"))
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

"""Named consumers' positions (docs/format.md, "The positions file: consumers.blitc"), read, never held."""

import os
import struct
import sys
import time
from collections import namedtuple

from .crc32c import crc32c
from .errors import CorruptFileError, UnsupportedFormatError

MAGIC = b"BLITCON\0"
FILE = "consumers.blitc"
#: A READY slot: the name, the last committed index (-1: none), the holder's writer id (0: none) and the time of the
#: last commit (epoch ms; 0: never).
Consumer = namedtuple("Consumer", "name committed holder last_commit_ms")


#: Incompatible feature bit 0 of the positions file, *slot reuse*: a REMOVED slot may have been given to another name,
#: so a slot can change while it is read (the file is read again, below).
SLOT_REUSE = 1
#: The incompatible feature bits this reader knows.
INCOMPATIBLE_KNOWN = SLOT_REUSE
#: How many times a file whose header or a READY slot does not match its CRC32C is read again before it is refused:
#: a writer may be rewriting the header (a feature bit, then the CRC) or reusing a slot while it is read.
REREADS = 50


class _Changing(Exception):
    """A CRC mismatch that a read of the file at another moment may not have: (offset, message)."""


def read_consumers(directory):
    """The READY consumers of the queue in ``directory``, in slot order; [] if it has no positions file.

    The file is read whole; a header or READY slot that does not match its CRC32C is read again (up to ``REREADS``
    times, 1 ms apart) before the file is refused, since a writer may be changing it: a slot's name is rewritten only
    after its state word stops being READY, and published READY after it is written."""
    path = os.path.join(directory, FILE)
    for attempt in range(REREADS + 1):
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return []
        try:
            return _parse(path, data)
        except _Changing as changing:
            if attempt == REREADS:
                raise CorruptFileError(path, *changing.args) from None
            time.sleep(0.001)


def _parse(path, data):
    """The READY consumers in the bytes ``data`` of the positions file ``path``; raises _Changing for a CRC mismatch."""
    if len(data) < 64 or data[:8] != MAGIC:
        raise CorruptFileError(path, 0, "not a positions file (magic or size)")
    version, slot_size, count, order = struct.unpack_from("<IIII", data, 8)
    if version not in (1, 2):
        raise UnsupportedFormatError(path, 8, f"positions file version {version} unknown (this reader knows 1, 2)")
    stored = struct.unpack_from("<I", data, 60)[0]
    if stored != crc32c(data[:60]):
        raise _Changing(60, f"header CRC32C {stored:#010x} does not match the header's bytes")
    if order == 2 or (order in (0, 1) and sys.byteorder != "little") or order > 2:
        raise UnsupportedFormatError(path, 20, f"byte order {order} is not this machine's")
    incompatible = struct.unpack_from("<Q", data, 48)[0]
    unknown = incompatible & ~INCOMPATIBLE_KNOWN
    if unknown:
        bit = (unknown & -unknown).bit_length() - 1
        raise UnsupportedFormatError(path, 48, f"incompatible feature bit {bit} unknown to this reader")
    if slot_size != 64 or len(data) != 64 + 64 * count:
        raise CorruptFileError(path, 12, f"slot size {slot_size}, {count} slots, file of {len(data)} bytes")
    out = []
    for k in range(count):
        at = 64 + 64 * k
        committed, holder, last, state = struct.unpack_from("<qQqQ", data, at)
        if state == 0:
            break  # slots are used as a prefix: the first FREE slot ends the scan
        if state >> 62 != 2:
            continue  # CLAIMING or REMOVED: not a consumer
        length, name_crc = (state >> 32) & 0x3FFFFFFF, state & 0xFFFFFFFF
        name = data[at + 32:at + 32 + length]
        if not 1 <= length <= 32 or crc32c(name) != name_crc:
            raise _Changing(at + 24, f"slot {k}: name does not match its length and CRC32C")
        out.append(Consumer(name.decode("ascii"), committed, holder, last))
    return out

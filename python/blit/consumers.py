"""Named consumers' positions (docs/format.md, "The positions file: consumers.blitc"), read, never held."""

import os
import struct
import sys
from collections import namedtuple

from .crc32c import crc32c
from .errors import CorruptFileError, UnsupportedFormatError

MAGIC = b"BLITCON\0"
FILE = "consumers.blitc"
#: A READY slot: the name, the last committed index (-1: none), the holder's writer id (0: none) and the time of the
#: last commit (epoch ms; 0: never).
Consumer = namedtuple("Consumer", "name committed holder last_commit_ms")


def read_consumers(directory):
    """The READY consumers of the queue in ``directory``, in slot order; [] if it has no positions file."""
    path = os.path.join(directory, FILE)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return []
    if len(data) < 64 or data[:8] != MAGIC:
        raise CorruptFileError(path, 0, "not a positions file (magic or size)")
    version, slot_size, count, order = struct.unpack_from("<IIII", data, 8)
    if version not in (1, 2):
        raise UnsupportedFormatError(path, 8, f"positions file version {version} unknown (this reader knows 1, 2)")
    stored = struct.unpack_from("<I", data, 60)[0]
    if stored != crc32c(data[:60]):
        raise CorruptFileError(path, 60, f"header CRC32C {stored:#010x} does not match the header's bytes")
    if order == 2 or (order in (0, 1) and sys.byteorder != "little") or order > 2:
        raise UnsupportedFormatError(path, 20, f"byte order {order} is not this machine's")
    incompatible = struct.unpack_from("<Q", data, 48)[0]
    if incompatible:
        bit = (incompatible & -incompatible).bit_length() - 1
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
            raise CorruptFileError(path, at + 24, f"slot {k}: name does not match its length and CRC32C")
        out.append(Consumer(name.decode("ascii"), committed, holder, last))
    return out

"""One segment file (docs/format.md, "Segment files"): opened read-only, its header and type table checked in the
order the format prescribes, its bytes mapped read-only. Never writes."""

import mmap
import os
import re
import struct
import sys

from .crc32c import crc32c
from .descriptor import DescriptorError, parse
from .errors import CorruptFileError, UnsupportedFormatError

MAGIC = b"BLITQUE\0"
HEADER_AREA = 4096
RECORDS = 8192
NEWEST_FORMAT = 5
#: The format whose committed message records carry a CRC32C (docs/format.md, "Records").
CHECKSUM_FORMAT = 5
#: Compatible feature bits this reader knows (it ignores others); no incompatible bit is defined.
KNOWN_INCOMPATIBLE = 0
NAME = re.compile(r"segment-(\d{20})\.blitq")
MAX_FIRST_INDEX = 2 ** 63 - 1 - 2 ** 29


class Segment:
    """A checked, mapped segment file. Attributes: ``path``, ``version``, ``size``, ``first_index``, ``created``
    (epoch ns), ``term``, ``types`` (list of (type id, Layout) by type slot; empty: raw payloads), ``data`` (the
    read-only mmap). Close with :meth:`close`."""

    def __init__(self, path, expected_first=None):
        self.path = str(path)
        with open(self.path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < RECORDS:
                raise CorruptFileError(path, size, f"file of {size} bytes is shorter than 8192, its header and checkpoints")
            self.data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        try:
            self._check_header(size, expected_first)
        except BaseException:
            self.data.close()
            raise

    def _fail(self, offset, what):
        raise CorruptFileError(self.path, offset, what)

    def _check_header(self, size, expected_first):
        d = self.data
        if d[0:8] != MAGIC:
            self._fail(0, f"magic {bytes(d[0:8])!r} is not a Blit segment file's")
        version, h = struct.unpack_from("<II", d, 8)
        if version < 1:
            self._fail(8, f"format version {version} unknown")
        if version > NEWEST_FORMAT:
            raise UnsupportedFormatError(self.path, 8, f"format version {version} is newer than this reader "
                                         f"(it reads 1 to {NEWEST_FORMAT})")
        self.version = version
        table_start = 80 if version >= 4 else 56
        if not table_start <= h <= HEADER_AREA - 4:
            self._fail(12, f"header length {h} outside [{table_start}, 4092]")
        stored, actual = struct.unpack_from("<I", d, h)[0], crc32c(d[0:h])
        if stored != actual:
            self._fail(h, f"header CRC32C {stored:#010x} does not match the header's bytes ({actual:#010x})")
        if version >= 4:
            order, self.term, compatible, incompatible = struct.unpack_from("<IIQQ", d, 56)
            if order == 2 or (order in (0, 1) and sys.byteorder != "little"):
                raise UnsupportedFormatError(self.path, 56, f"byte order {order} is not this machine's")
            if order not in (0, 1, 2):
                self._fail(56, f"byte order {order} invalid")
            unknown = incompatible & ~KNOWN_INCOMPATIBLE
            if unknown:
                bit = (unknown & -unknown).bit_length() - 1
                raise UnsupportedFormatError(self.path, 72, f"incompatible feature bit {bit} unknown to this reader "
                                             f"(mask {incompatible:#x})")
            if not compatible & 1:
                self.term = 0
        else:
            if sys.byteorder != "little":
                raise UnsupportedFormatError(self.path, 8, "format 1 to 3 files are little-endian, this machine is not")
            self.term = 0
        self.size, self.first_index, self.created, self.pid = struct.unpack_from("<QQQQ", d, 16)
        if self.size % 4096 or not 12288 <= self.size <= 2 ** 32:
            self._fail(16, f"segment size {self.size} is not a multiple of 4096 in [12288, 2^32]")
        if self.size != size:
            self._fail(16, f"header says {self.size} bytes, the file has {size} (truncated or extended)")
        m = NAME.fullmatch(os.path.basename(self.path))
        named = int(m.group(1)) if m else None
        if self.first_index > MAX_FIRST_INDEX or (named is not None and named != self.first_index):
            self._fail(24, f"first index {self.first_index} is not the name's ({named})")
        if expected_first is not None and self.first_index != expected_first:
            self._fail(24, f"first index {self.first_index}, expected {expected_first}")
        self.types = self._type_table(h, table_start)

    def _type_table(self, h, table_start):
        d = self.data
        if self.version == 1:
            length = struct.unpack_from("<I", d, 48)[0]
            if h != 56 + length:
                self._fail(48, f"descriptor length {length} does not end at the header length {h}")
            entries = [(0, 56, length)] if length else []
        else:
            count, t = struct.unpack_from("<II", d, 48)
            if count > 128:
                self._fail(48, f"type count {count} above 128")
            if t != h - table_start:
                self._fail(52, f"type table length {t}, the header length {h} makes it {h - table_start}")
            entries, pos = [], table_start
            for _ in range(count):
                if pos + 8 > h:
                    self._fail(pos, "type table entry runs past the table")
                type_id, length = struct.unpack_from("<II", d, pos)
                if type_id > 65535 or (entries and type_id <= entries[-1][0]) or length < 1 or pos + 8 + length > h:
                    self._fail(pos, f"type table entry: id {type_id}, descriptor length {length}")
                entries.append((type_id, pos + 8, length))
                pos += 8 + length
            if pos != h:
                self._fail(pos, f"{h - pos} bytes after the type table's last entry")
        types = []
        for type_id, at, length in entries:
            try:
                layout, used = parse(d, at, length)
            except DescriptorError as e:
                self._fail(at + e.offset, f"layout descriptor of type {type_id}: {e}")
            if used != length:
                self._fail(at, f"descriptor of type {type_id} is {used} bytes, its entry says {length}")
            types.append((type_id, layout))
        return types

    def word(self, pos):
        """The record header word at ``pos`` (native order, checked little-endian at open)."""
        return struct.unpack_from("<Q", self.data, pos)[0]

    def close(self):
        self.data.close()

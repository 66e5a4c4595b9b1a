"""The layout descriptor of a message type (docs/format.md, "Layout descriptor"): parsed and checked in the order
the format prescribes, its fingerprint recomputed, and its fields as a NumPy dtype."""

import hashlib
import struct
from dataclasses import dataclass

import numpy as np

from .crc32c import crc32c

#: Type codes of the format: (Java keyword, size, NumPy type code).
TYPES = (("boolean", 1, "?"), ("byte", 1, "i1"), ("char", 2, "u2"), ("short", 2, "i2"),
         ("int", 4, "i4"), ("float", 4, "f4"), ("long", 8, "i8"), ("double", 8, "f8"))
MAGIC = b"BLYD"
NAMES_OFFSET = 37
MAX_STRING = 1024
#: Names the reader's own columns take (to_numpy); a payload field of such a name is qualified by its class.
RESERVED_COLUMNS = ("index", "appended")


@dataclass(frozen=True)
class Field:
    """One field: ``name``, ``declaring`` class, Java ``type`` keyword, ``size``, ``offset`` from the object's start
    and ``payload_offset`` (offset − the descriptor's start: where it lies in a record's payload)."""
    name: str
    declaring: str
    type: str
    size: int
    offset: int
    payload_offset: int


@dataclass(frozen=True)
class Layout:
    """A stored layout: the writer's class name, block ``start`` and ``length``, JVM facts, fingerprint, fields in
    ascending offset order. ``big_endian`` is the writer's byte order (flag bit 2)."""
    class_name: str
    jvm_name: str
    jvm_version: str
    start: int
    length: int
    header_size: int
    alignment: int
    compact_headers: bool
    compressed_class_pointers: bool
    big_endian: bool
    fingerprint: str
    fields: tuple
    encoded: bytes

    @property
    def simple_name(self):
        """The class name after its last dot, as ``blit dump`` prints it (``MarketData``, ``Outer$Inner``)."""
        return self.class_name[self.class_name.rfind(".") + 1:]

    def column_names(self):
        """Each field's column name: its name, or ``Declaring.name`` (simple class name) where that would collide
        with another field or with a reserved column."""
        names = [f.name for f in self.fields]
        out = []
        for f in self.fields:
            clash = names.count(f.name) > 1 or f.name in RESERVED_COLUMNS
            out.append(f"{f.declaring[f.declaring.rfind('.') + 1:]}.{f.name}" if clash else f.name)
        return out

    def payload_dtype(self, base=0, itemsize=None):
        """A structured dtype of the payload's fields at ``base`` + their payload offsets, in the writer's order."""
        order = ">" if self.big_endian else "<"
        codes = [order + TYPES[[t[0] for t in TYPES].index(f.type)][2] if f.size > 1 else
                 TYPES[[t[0] for t in TYPES].index(f.type)][2] for f in self.fields]
        spec = {"names": self.column_names(), "formats": codes,
                "offsets": [base + f.payload_offset for f in self.fields]}
        if itemsize is not None:
            spec["itemsize"] = itemsize
        return np.dtype(spec)


class DescriptorError(ValueError):
    """A descriptor that is not valid; the caller names the file and offset (``offset`` is relative)."""

    def __init__(self, offset, what):
        self.offset = offset
        super().__init__(what)


def parse(data, at=0, available=None):
    """Parses the descriptor at ``data[at:]`` (bytes); returns (Layout, encoded size). Raises DescriptorError."""
    end = len(data) if available is None else at + available
    if end - at < NAMES_OFFSET + 4:
        raise DescriptorError(0, f"descriptor of {end - at} bytes is too short")
    if data[at:at + 4] != MAGIC:
        raise DescriptorError(0, f"descriptor magic {bytes(data[at:at + 4])!r}, expected {MAGIC!r}")
    version, count, size, start, length, header, align = struct.unpack_from("<HHiiiii", data, at + 4)
    if version != 1:
        raise DescriptorError(4, f"descriptor version {version} unknown (this reader knows 1)")
    if count < 1:
        raise DescriptorError(6, "descriptor has no fields")
    if size < NAMES_OFFSET + 4 or size > end - at:
        raise DescriptorError(8, f"descriptor size {size} outside the {end - at} bytes available")
    stored = struct.unpack_from("<I", data, at + size - 4)[0]
    actual = crc32c(data[at:at + size - 4])
    if stored != actual:
        raise DescriptorError(size - 4, f"descriptor CRC32C {stored:#010x} does not match its bytes ({actual:#010x})")
    flags = data[at + 28]
    if flags & ~7:
        raise DescriptorError(28, f"descriptor flags {flags:#x} have unknown bits")
    if start < 0 or length < 1 or header < 1 or align < 1:
        raise DescriptorError(12, f"descriptor start {start}, length {length}, header {header}, alignment {align}")
    fingerprint = bytes(data[at + 29:at + 37]).hex()
    pos = at + NAMES_OFFSET
    limit = at + size - 4

    def string(minimum):
        nonlocal pos
        if pos + 2 > limit:
            raise DescriptorError(pos - at, "descriptor string runs past its end")
        n = struct.unpack_from("<H", data, pos)[0]
        if n < minimum or n > MAX_STRING or pos + 2 + n > limit:
            raise DescriptorError(pos - at, f"descriptor string of {n} bytes is out of range")
        text = bytes(data[pos + 2:pos + 2 + n]).decode("utf-8")
        pos += 2 + n
        return text

    class_name, jvm_name, jvm_version = string(1), string(0), string(0)
    fields = []
    for _ in range(count):
        name, declaring = string(1), string(1)
        if pos + 5 > limit:
            raise DescriptorError(pos - at, "descriptor field runs past its end")
        code, offset = struct.unpack_from("<Bi", data, pos)
        if code >= len(TYPES) or offset < 0:
            raise DescriptorError(pos - at, f"field {name}: type code {code}, offset {offset}")
        pos += 5
        keyword, fsize, _ = TYPES[code]
        fields.append(Field(name, declaring, keyword, fsize, offset, offset - start))
    if pos != limit:
        raise DescriptorError(pos - at, f"descriptor fields end at {pos - at}, its CRC is at {limit - at}")
    for a, b in zip(fields, fields[1:]):
        if b.offset < a.offset + a.size:
            raise DescriptorError(NAMES_OFFSET, f"fields {a.name} and {b.name} overlap or are not sorted")
    if fields[0].offset != start or fields[-1].offset + fields[-1].size - start != length:
        raise DescriptorError(12, f"start {start} and length {length} do not follow from the fields")
    text = "blit-layout-v1\n" + "".join(f"{f.name}:{f.type}:{f.offset - start}\n" for f in fields) + f"length:{length}"
    expected = hashlib.sha256(text.encode("utf-8")).digest()[:8].hex()
    if expected != fingerprint:
        raise DescriptorError(29, f"fingerprint {fingerprint} does not follow from the fields ({expected})")
    layout = Layout(class_name, jvm_name, jvm_version, start, length, header, align, bool(flags & 1),
                    bool(flags & 2), bool(flags & 4), fingerprint, tuple(fields), bytes(data[at:at + size]))
    return layout, size

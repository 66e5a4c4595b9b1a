"""The positions file's incompatible feature bit 0 (slot reuse, docs/format.md) is read; unknown bits are refused."""

import struct

import pytest

import blit
from blit.consumers import read_consumers
from blit.crc32c import crc32c
from blit.errors import CorruptFileError, UnsupportedFormatError

from conftest import SAMPLES, copy_queue


def set_features(path, incompatible):
    """Sets the positions file's incompatible feature mask and recomputes its header CRC, as a writer does."""
    with open(path, "r+b") as f:
        header = bytearray(f.read(64))
        struct.pack_into("<Q", header, 48, incompatible)
        struct.pack_into("<I", header, 60, crc32c(header[:60]))
        f.seek(0)
        f.write(header)


def test_a_file_with_reused_slots_is_read(tmp_path):
    q_dir = copy_queue(SAMPLES / "format-v4/typed", tmp_path / "q")
    set_features(q_dir / "consumers.blitc", 1)
    assert [c.name for c in read_consumers(q_dir)] == ["audit"]
    with blit.open(q_dir) as q:
        assert [c.committed for c in q.consumers()] == [59]


def test_an_unknown_incompatible_bit_is_refused_naming_it(tmp_path):
    q_dir = copy_queue(SAMPLES / "format-v4/typed", tmp_path / "q")
    set_features(q_dir / "consumers.blitc", 1 | 4)
    with pytest.raises(UnsupportedFormatError, match="incompatible feature bit 2 unknown"):
        read_consumers(q_dir)


def test_a_slot_that_stays_torn_is_refused_after_reading_again(tmp_path):
    q_dir = copy_queue(SAMPLES / "format-v4/typed", tmp_path / "q")
    path = q_dir / "consumers.blitc"
    with open(path, "r+b") as f:  # slot 0's name no longer matches its CRC32C, and never will
        f.seek(64 + 32)
        f.write(b"AUDIT")
    with pytest.raises(CorruptFileError, match="slot 0: name does not match its length and CRC32C"):
        read_consumers(q_dir)

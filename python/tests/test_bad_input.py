"""Bad input is refused with one message naming file and offset, and nothing is written: on a read-only copy too."""

import os
import struct

import pytest

import blit
from blit.__main__ import main as python_main
from blit.crc32c import crc32c

from conftest import SAMPLES, copy_queue
from queues import read_only_unchanged, record_positions, segments


def rewrite_header(path, offset, fmt, value):
    """Sets a header field and recomputes the header's CRC, as a writer of that header would have."""
    with open(path, "r+b") as f:
        data = bytearray(f.read(4096))
        struct.pack_into(fmt, data, offset, value)
        h = struct.unpack_from("<I", data, 12)[0]
        struct.pack_into("<I", data, h, crc32c(data[:h]))
        f.seek(0)
        f.write(data)


def refusal(directory, capsys):
    """The exception of opening and reading the queue, and the CLI's exit code and error line; on the queue made
    read-only, which neither changes."""
    with read_only_unchanged(directory):
        with pytest.raises(blit.BlitError) as error:
            with blit.open(directory) as q:
                list(q)
        assert python_main(["dump", str(directory)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")
    return str(error.value), err[0]


def test_truncated_file(generated, tmp_path, capsys):
    q_dir = copy_queue(generated["several-files"], tmp_path / "q")
    path = segments(q_dir)[3]
    os.truncate(path, 10000)
    message, line = refusal(q_dir, capsys)
    assert path in message and "at byte 16" in message and "10000" in message and path in line


def test_file_shorter_than_its_header(generated, tmp_path, capsys):
    q_dir = copy_queue(generated["single"], tmp_path / "q")
    path = segments(q_dir)[0]
    os.truncate(path, 5000)
    message, _ = refusal(q_dir, capsys)
    assert path in message and "5000 bytes" in message


def test_damaged_header_crc(generated, tmp_path, capsys):
    q_dir = copy_queue(generated["single"], tmp_path / "q")
    path = segments(q_dir)[0]
    with open(path, "r+b") as f:
        f.seek(40)
        f.write(b"\x7f")  # the creator pid, covered by the CRC
    h = struct.unpack_from("<I", open(path, "rb").read(16), 12)[0]
    message, _ = refusal(q_dir, capsys)
    assert path in message and f"at byte {h}" in message and "CRC32C" in message


def test_unknown_incompatible_feature(generated, tmp_path, capsys):
    q_dir = copy_queue(generated["single"], tmp_path / "q")
    path = segments(q_dir)[0]
    rewrite_header(path, 72, "<Q", 1 << 5)
    message, _ = refusal(q_dir, capsys)
    assert path in message and "at byte 72" in message and "incompatible feature bit 5" in message


def test_newer_format_version(generated, tmp_path, capsys):
    q_dir = copy_queue(generated["single"], tmp_path / "q")
    path = segments(q_dir)[0]
    rewrite_header(path, 8, "<I", 6)
    message, _ = refusal(q_dir, capsys)
    assert path in message and "at byte 8" in message and "format version 6 is newer" in message


def test_damaged_record_word(generated, tmp_path, capsys):
    q_dir = copy_queue(generated["single"], tmp_path / "q")
    path = segments(q_dir)[0]
    with open(path, "r+b") as f:
        f.seek(8192 + 160 * 7 + 7)
        f.write(bytes([0x20]))  # the padding bit in a record's word
    message, _ = refusal(q_dir, capsys)
    assert path in message and f"at byte {8192 + 160 * 7}" in message and "padding bit" in message


@pytest.mark.parametrize("offset", [8 + 2, 16, 20, 24 + 100, 4 + 1])  # time, CRC, reserved, payload, claimer
def test_damaged_record_of_format_5_is_refused_by_its_checksum(offset, tmp_path, capsys):
    q_dir = copy_queue(SAMPLES / "format-v5/typed", tmp_path / "q")
    path = segments(q_dir)[0]
    position = record_positions(path)[3][0]  # message 3, a MarketData record (message 2 is a Quote)
    with open(path, "r+b") as f:
        f.seek(position + offset)
        byte = f.read(1)[0]
        f.seek(position + offset)
        f.write(bytes([byte ^ 0x10]))
    message, line = refusal(q_dir, capsys)
    assert path in message and f"at byte {position}" in message and "(index 3)" in message
    assert "checksum" in message and "checksum" in line
    with blit.open(q_dir) as q:
        with pytest.raises(blit.BlitError, match="checksum"):
            q.to_numpy("MarketData")


@pytest.mark.parametrize("name", ["mixed-several-files", "several-files"])
def test_read_only_copy_is_read_and_left_unchanged(name, generated, tmp_path, capsys):
    q_dir = copy_queue(generated[name], tmp_path / "q")
    with read_only_unchanged(q_dir):
        with blit.open(q_dir) as q:
            assert len(list(q)) > 0
            assert len(q.to_numpy("MarketData")) > 0
            q.consumers()
            follower = q.follow()
            assert next(follower).index == 0
            follower.close()
        assert python_main(["dump", str(q_dir)]) == 0
        capsys.readouterr()


def test_read_only_sample_with_positions_and_writers_files_is_left_unchanged(tmp_path, capsys):
    q_dir = copy_queue(SAMPLES / "format-v4/typed", tmp_path / "q")
    with read_only_unchanged(q_dir):
        with blit.open(q_dir) as q:
            assert [c.name for c in q.consumers()] == ["audit"]
            assert len(q.to_numpy("MarketData")) + len(q.to_numpy("Quote")) == 120
        assert python_main(["dump", str(q_dir)]) == 0
        capsys.readouterr()

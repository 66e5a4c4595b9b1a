"""The C reader (c/blit_reader.c, built by the Maven module with cc -std=c11 -Wall -Werror) prints what ``blit dump``
prints, and refuses bad input with one line naming the file and offset."""

import os
import subprocess

import pytest

from conftest import GENERATED, SAMPLES, SAMPLE_DIRS, copy_queue, required
from queues import read_only_unchanged, record_positions, segments, set_state
from test_bad_input import rewrite_header


def c_dump(directory):
    result = subprocess.run([required("BLIT_C_READER"), str(directory)], capture_output=True, text=True, timeout=120)
    return result.stdout.splitlines(), result.returncode, result.stderr


@pytest.mark.parametrize("sample", SAMPLE_DIRS)
def test_c_reader_prints_samples_as_dump(sample, tools):
    expected, _ = tools.dump_once(SAMPLES / sample)
    lines, code, err = c_dump(SAMPLES / sample)
    assert code == 0, err
    assert lines == expected and len(lines) > 10


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_c_reader_prints_generated_queues_as_dump(name, generated, tools):
    expected, _ = tools.dump_once(generated[name])
    lines, code, err = c_dump(generated[name])
    assert code == 0, err
    assert lines == expected
    assert len([line for line in lines if line.startswith("index=")]) == GENERATED[name]["count"]


def test_c_reader_steps_over_a_dead_writers_claim(generated, tools, tmp_path):
    q_dir = copy_queue(generated["mixed"], tmp_path / "q")
    first = segments(q_dir)[0]
    set_state(first, record_positions(first)[40][0], 1)
    set_state(first, record_positions(first)[41][0], 3)
    expected, _ = tools.dump(q_dir)
    assert "# index 40: abandoned by a writer that died" in expected and "# indices 41..41 abandoned" in expected
    lines, code, _ = c_dump(q_dir)
    assert code == 0 and lines == expected


@pytest.mark.parametrize("damage, offset, words", [
    ("truncate", 16, "truncated"),
    ("version", 8, "format version 6 is newer"),
    ("feature", 72, "incompatible feature bit 3"),
    ("crc", None, "header CRC32C"),
])
def test_c_reader_refuses_bad_input(damage, offset, words, generated, tmp_path):
    q_dir = copy_queue(generated["several-files"], tmp_path / "q")
    path = segments(q_dir)[2]
    if damage == "truncate":
        os.truncate(path, 9000)
    elif damage == "version":
        rewrite_header(path, 8, "<I", 6)
    elif damage == "feature":
        rewrite_header(path, 72, "<Q", 1 << 3)
    else:
        with open(path, "r+b") as f:
            f.seek(33)
            f.write(b"\x55")
    with read_only_unchanged(q_dir):
        lines, code, err = c_dump(q_dir)
    assert code == 2
    assert len(err.splitlines()) == 1 and err.startswith(f"error: {path} at byte ")
    assert words in err
    if offset is not None:
        assert f"at byte {offset}:" in err


@pytest.mark.parametrize("offset", [8 + 2, 16, 20, 24 + 100, 4 + 1])  # time, CRC, reserved, payload, claimer
def test_c_reader_refuses_a_damaged_record_of_format_5_by_its_checksum(offset, tmp_path):
    q_dir = copy_queue(SAMPLES / "format-v5/typed", tmp_path / "q")
    path = segments(q_dir)[0]
    position = record_positions(path)[3][0]  # message 3, a MarketData record (message 2 is a Quote)
    with open(path, "r+b") as f:
        f.seek(position + offset)
        byte = f.read(1)[0]
        f.seek(position + offset)
        f.write(bytes([byte ^ 0x10]))
    with read_only_unchanged(q_dir):
        lines, code, err = c_dump(q_dir)
    assert code == 2 and len(err.splitlines()) == 1
    assert err.startswith(f"error: {path} at byte {position}: (index 3) record checksum mismatch"), err
    assert len([line for line in lines if line.startswith("index=")]) == 3, "the records before it are printed"

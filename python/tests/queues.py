"""Derived queues the tests build from a Java-written one: what a writer leaves when it dies holding a claim, and a
quarantine's shape (format.md "Quarantine"). Only copies are modified; the reader under test never writes."""

import os
import struct
import threading

RECORDS = 8192


def record_positions(path):
    """(position, word) of every non-empty record of a segment file, walking its words."""
    with open(path, "rb") as f:
        data = f.read()
    pos, out = RECORDS, []
    while pos + 8 <= len(data):
        word = struct.unpack_from("<Q", data, pos)[0]
        if word == 0 or word & (1 << 61):
            break
        out.append((pos, word))
        pos += (8 + (word & 0xFFFFFFFF) + 7) & ~7
    return out


def set_state(path, pos, state):
    """Rewrites the state bits (63-62) of the word at ``pos``, keeping claimer, type and length."""
    with open(path, "r+b") as f:
        f.seek(pos)
        word = struct.unpack("<Q", f.read(8))[0]
        f.seek(pos)
        f.write(struct.pack("<Q", (word & ~(3 << 62)) | (state << 62)))
    return (word >> 32) & 0x3FFFFF


def segments(directory):
    return sorted(os.path.join(directory, n) for n in os.listdir(directory) if n.startswith("segment-"))


def take(records, n, seconds=60):
    """The first ``n`` items of the generator ``records``, read in a daemon thread: a reader that hangs fails the test
    after ``seconds`` instead of hanging it."""
    out = []

    def run():
        for item in records:
            out.append(item)
            if len(out) == n:
                break

    reader = threading.Thread(target=run, daemon=True)
    reader.start()
    reader.join(seconds)
    assert not reader.is_alive(), f"{len(out)} of {n} records after {seconds} s"
    return out

"""Derived queues the tests build from a Java-written one: what a writer leaves when it dies holding a claim, and a
quarantine's shape (format.md "Quarantine"). Only copies are modified; the reader under test never writes."""

import contextlib
import hashlib
import os
import stat
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


def snapshot(directory):
    """Every entry under ``directory``: mode, size, mtime and (files) SHA-256, to show a reader changed nothing."""
    out = {}
    for root, dirs, files in os.walk(directory):
        for name in dirs + files:
            path = os.path.join(root, name)
            st = os.lstat(path)
            digest = hashlib.sha256(open(path, "rb").read()).hexdigest() if stat.S_ISREG(st.st_mode) else None
            out[path] = (st.st_mode, st.st_size, st.st_mtime_ns, digest)
    return out


@contextlib.contextmanager
def read_only_unchanged(directory):
    """Makes ``directory`` and everything in it read-only (chmod a-w) for the block, and asserts afterwards that
    nothing under it changed or appeared: the tests run as root, which may write anyway."""
    entries = [root for root, _, _ in os.walk(directory)] + [os.path.join(root, f) for root, _, files in
                                                               os.walk(directory) for f in files]
    for path in entries:
        os.chmod(path, stat.S_IMODE(os.lstat(path).st_mode) & ~0o222)
    before = snapshot(directory)
    try:
        yield
        assert snapshot(directory) == before
    finally:
        for path in entries:
            os.chmod(path, stat.S_IMODE(os.lstat(path).st_mode) | 0o200)

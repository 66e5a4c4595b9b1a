"""Is the writer that claimed a record alive? (docs/format.md, "Writer liveness"). Probes only: takes no lock,
creates nothing, and opens writers.blitw read-only without following a link."""

import errno
import fcntl
import os
import struct

WRITERS_FILE = "writers.blitw"
LOCK_BASE = 65536
MAX_WRITER_ID = 2 ** 22 - 1
F_OFD_GETLK = getattr(fcntl, "F_OFD_GETLK", 36)  # Linux's value where Python lacks the name


def _probe(fd, byte):
    """The type of lock another process holds on ``byte``: F_WRLCK, F_RDLCK or F_UNLCK."""
    request = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, byte, 1, 0)
    for command in (F_OFD_GETLK, fcntl.F_GETLK):
        try:
            return struct.unpack("hhqqi4x", fcntl.fcntl(fd, command, request))[0]
        except OSError as e:
            if e.errno != errno.EINVAL:
                raise
    raise OSError(errno.EINVAL, "no lock probe")


def writer_alive(directory, version, claimer):
    """Whether the claimer of a CLAIMED word of a file of format ``version`` is alive. Formats 3 and 4 name a writer
    id (alive while a process holds the exclusive lock of its byte); formats 1 and 2 a pid (alive while it exists).
    Where the probe is impossible the claim is taken as alive (the reader waits), as the format requires."""
    if version <= 2:
        try:
            os.kill(claimer, 0)
        except ProcessLookupError:
            return False
        except (PermissionError, OverflowError):
            return True
        return claimer != 0
    if claimer == 0 or claimer > MAX_WRITER_ID:
        return False
    try:
        fd = os.open(os.path.join(directory, WRITERS_FILE), os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return False  # no writer has ever locked an id here (a copy of the segment files, for instance)
    except OSError:
        return True
    try:
        return _probe(fd, LOCK_BASE + claimer) == fcntl.F_WRLCK
    except OSError:
        return True
    finally:
        os.close(fd)

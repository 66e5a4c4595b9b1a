"""``python -m blit dump DIR``: the record lines and gap lines of ``blit dump``, from this reader; ``python -m blit
types DIR``: each file's stored layouts. Bad input: one line ``error: ...`` on stderr, exit 2; a read stopped at a
live writer's claim: exit 1."""

import sys

from . import BlitError, open as open_queue
from .render import record_line


def dump(directory):
    with open_queue(directory) as q:
        reading = q.records()
        expected = q.first_index
        for record in reading:
            gap(expected, record.index, reading)
            expected = record.index + 1
            print(record_line(record, _layout(q, record)))
        if not reading.stopped:
            gap(expected, reading.next_index, reading)  # abandoned records and dead claims at the end
        else:
            print(f"# stopped at index {reading.stopped.index}: claimed by live writer {reading.stopped.writer}")
            return 1
    return 0


def gap(expected, index, reading):
    """Prints the skipped indices as dump does: runs of abandoned indices, dead writers' claims on their own lines."""
    if index <= expected:
        return
    at = expected
    for dead in [d for d in reading.dead_claims if expected <= d < index]:
        if dead > at:
            print(f"# indices {at}..{dead - 1} abandoned")
        print(f"# index {dead}: abandoned by a writer that died")
        at = dead + 1
    if index > at:
        print(f"# indices {at}..{index - 1} abandoned")


def _layout(q, record):
    """The layout of a record's type in the file that holds it (the newest opened file starting at or before it)."""
    if record.type is None:
        return None
    seg = q._segments[max(n for n in q._segments if n <= record.index)]
    return next(layout for _, layout in seg.types if layout.simple_name == record.type)


def types(directory):
    with open_queue(directory) as q:
        for path, first, entries in q.layouts():
            for type_id, layout in entries:
                fields = ", ".join(f"{f.name} {f.type} @{f.payload_offset}" for f in layout.fields)
                print(f"{path} first {first} type {type_id} {layout.class_name} fingerprint {layout.fingerprint} "
                      f"length {layout.length}: {fields}")
    return 0


def main(argv):
    if len(argv) != 2 or argv[0] not in ("dump", "types"):
        print("error: usage: python -m blit dump|types DIR", file=sys.stderr)
        return 2
    try:
        return (dump if argv[0] == "dump" else types)(argv[1])
    except (BlitError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

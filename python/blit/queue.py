"""A queue directory opened read-only: its files, its types, and the ways of reading its records."""

import os
import time
from collections import namedtuple

import numpy as np

from . import walk as w
from .consumers import read_consumers
from .errors import BlitError, CorruptFileError
from .segment import NAME, RECORDS, Segment
from .writers import writer_alive

#: One message: its index, its type's simple class name (None: raw payload), the time it was appended (epoch ns;
#: None in format-1 files, which record none) and its fields (dict name -> value; bytes for a raw payload).
Record = namedtuple("Record", "index type appended fields")
#: Where a one-pass read stopped at a live writer's claim: the index and the claimer (writer id; pid in formats 1, 2).
LiveClaim = namedtuple("LiveClaim", "index writer")
#: A stretch of evenly spaced records of one type: their indices and a zero-copy view of the mapped file.
Chunk = namedtuple("Chunk", "index records")

DEFAULT_GRACE = 1.0


class Queue:
    """A Blit queue directory, opened read-only: creates, writes and locks nothing (files are opened 'rb' and mapped
    ACCESS_READ), so it works on a read-only mount. ``abandon_grace`` (seconds, default 1 as the Java tools' read-only
    queues) is how long a claim of a dead writer is watched before it is stepped over. Use as a context manager."""

    def __init__(self, directory, abandon_grace=DEFAULT_GRACE):
        self.directory = str(directory)
        self.abandon_grace = abandon_grace
        if not os.path.isdir(self.directory):
            raise BlitError(f"{self.directory}: not a queue directory (missing or not a directory)")
        self._segments = {}
        names = self._list()
        if not names:
            raise BlitError(f"{self.directory}: no segment files (segment-<20 digits>.blitq)")
        newest = self._segment(names[-1])
        self.first_index = self._segment(names[0]).first_index
        #: The newest file's message types: simple class name -> (type id, Layout). Empty for a raw queue.
        self.types = {layout.simple_name: (type_id, layout) for type_id, layout in newest.types}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Unmaps the files. A view chunks() returned keeps its file mapped until the view is dropped."""
        for seg in self._segments.values():
            try:
                seg.close()
            except BufferError:
                pass  # a view still uses the mapping; it goes with the view
        self._segments.clear()

    # ---- files ----

    def _list(self):
        return sorted(int(m.group(1)) for m in map(NAME.fullmatch, os.listdir(self.directory)) if m)

    def _segment(self, first):
        seg = self._segments.get(first)
        if seg is None:
            seg = Segment(os.path.join(self.directory, f"segment-{first:020d}.blitq"), first)
            self._segments[first] = seg
        return seg

    def segment_named(self, index):
        """The file whose first index is ``index``, None if there is none yet; a gap (a later file only) is corrupt."""
        if index in self._segments:
            return self._segments[index]
        names = self._list()
        if index in names:
            return self._segment(index)
        later = [n for n in names if n > index]
        if later:
            raise CorruptFileError(os.path.join(self.directory, f"segment-{later[0]:020d}.blitq"), 24,
                                   f"the queue continues at index {index}, but the next file starts at {later[0]}")
        return None

    def layouts(self):
        """Every file's stored layouts: a list of (file path, first index, [(type id, Layout), ...])."""
        return [(s.path, s.first_index, s.types) for s in (self._segment(n) for n in self._list())]

    def walker(self, start=None):
        """A :class:`walk.Walker` standing at ``start`` (default: the queue's first index)."""
        names = self._list()
        first = names[0]
        if start is None:
            start = first
        if start < first:
            raise BlitError(f"{self.directory}: index {start} is before the queue's first, {first} (deleted)")
        walker = w.Walker(self, self._segment(max(n for n in names if n <= start)), RECORDS, 0)
        walker.index = walker.segment.first_index
        while walker.index < start:
            step = walker.peek()
            if step.kind == w.EMPTY:
                break
            count = walker.run(step, start - walker.index) if step.kind == w.COMMITTED else 1
            walker.advance(step, count)
        return walker

    # ---- claims ----

    def _claim_alive(self, step):
        return writer_alive(self.directory, step.segment.version, w.claimer_of(step.word, step.segment.version))

    # ---- records ----

    def decode(self, step):
        """The :class:`Record` of a COMMITTED step. A payload whose length is not its layout's is damage, refused."""
        seg = step.segment
        w.check_records(seg, step.pos, w.align8(8 + step.length), 1, step.index)
        body = step.pos + 8
        appended, length = None, step.length
        if seg.version >= 2:
            appended = int(np.frombuffer(seg.data, "<i8", 1, body)[0])
            prefix = w.body_prefix(seg.version)
            body, length = body + prefix, length - prefix
        if not seg.types:
            return Record(step.index, None, appended, bytes(seg.data[body:body + length]))
        layout = seg.types[step.slot][1]
        if length != layout.length:
            raise CorruptFileError(seg.path, step.pos, f"(index {step.index}) payload of {length} bytes, the layout "
                                   f"of {layout.simple_name} says {layout.length}")
        value = np.frombuffer(seg.data, layout.payload_dtype(), 1, body)[0]
        return Record(step.index, layout.simple_name, appended, dict(zip(value.dtype.names, value.item())))

    def __iter__(self):
        return iter(self.records())

    def records(self, start=None, stop=None):
        """A one-pass :class:`Reading` of the records from ``start`` to ``stop`` (excluded; default: the end)."""
        return Reading(self, start, stop)

    def follow(self, start=None, poll=0.001):
        """Yields records as they are committed, forever (close the generator to stop). Waits at the end and at a
        live writer's claim; steps over a dead writer's claim after the abandon grace; follows new files."""
        walker = self.walker(start)
        watch = ClaimWatch(self)
        while True:
            step = walker.peek()
            if step.kind == w.COMMITTED:
                yield self.decode(step)
                walker.advance(step)
            elif step.kind == w.ABANDONED or (step.kind == w.CLAIMED and watch.dead_after_grace(step)):
                walker.advance(step)
            else:
                time.sleep(poll)

    # ---- columns ----

    def _type_entry(self, seg, type_name):
        for slot, (type_id, layout) in enumerate(seg.types):
            if type_name in (layout.simple_name, layout.class_name):
                return slot, layout
        return None, None

    def _runs(self, type_name, start, stop):
        """Yields (segment, pos, stride, count, first index, layout) for each run of evenly spaced committed records of
        ``type_name`` from ``start`` to ``stop`` (excluded). One pass, no waiting: stops at the end and at a live
        claim; a dead writer's claim is stepped over at once (it holds no message, and a snapshot does not wait)."""
        walker = self.walker(start)
        fingerprint = None
        while stop is None or walker.index < stop:
            step = walker.peek()
            if step.kind not in (w.COMMITTED, w.ABANDONED):
                if step.kind == w.CLAIMED and not self._claim_alive(step):
                    walker.advance(step)
                    continue
                return
            slot, layout = self._type_entry(step.segment, type_name)
            if step.kind == w.ABANDONED or slot != step.slot:
                walker.advance(step)
                continue
            if fingerprint is not None and layout.fingerprint != fingerprint:
                raise BlitError(f"{step.segment.path}: {type_name}'s layout differs from an earlier file's "
                                f"(fingerprint {layout.fingerprint}, was {fingerprint}); read it file by file")
            fingerprint = layout.fingerprint
            seg, stride = step.segment, w.align8(8 + step.length)
            if step.length - _time_bytes(seg) != layout.length:
                raise CorruptFileError(seg.path, step.pos, f"(index {step.index}) payload of "
                                       f"{step.length - _time_bytes(seg)} bytes, the layout of {layout.simple_name} "
                                       f"says {layout.length}")
            count = walker.run(step, (stop - walker.index) if stop is not None else 2 ** 62)
            w.check_records(seg, step.pos, stride, count, step.index)
            yield seg, step.pos, stride, count, step.index, layout
            walker.advance(step, count)

    def chunks(self, type_name, start=None, stop=None):
        """Yields :class:`Chunk`\\ s of the committed records of ``type_name`` (simple or binary class name) from
        ``start`` to ``stop`` (excluded): each a run of evenly spaced records of one file, its ``records`` a
        zero-copy, read-only strided view of the mapped file (fields ``appended``, except in format 1, and the
        layout's), ``index`` their indices. One pass without waiting (see _runs)."""
        for seg, pos, stride, count, first, layout in self._runs(type_name, start, stop):
            tb = _time_bytes(seg)
            payload = layout.payload_dtype(base=8 + tb)
            names, formats, offsets = list(payload.names), [payload.fields[n][0] for n in payload.names], \
                [payload.fields[n][1] for n in payload.names]
            if tb:
                names, formats, offsets = ["appended"] + names, ["<M8[ns]"] + formats, [8] + offsets
            dtype = np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": stride})
            view = np.ndarray((count,), dtype, buffer=seg.data, offset=pos, strides=(stride,))
            yield Chunk(np.arange(first, first + count, dtype=np.int64), view)

    def to_numpy(self, type_name, start=None, stop=None):
        """A structured array of the committed records of ``type_name`` from ``start`` to ``stop`` (excluded):
        ``index`` (int64), ``appended`` (datetime64[ns]; NaT in format-1 files) and the layout's fields, with the
        names and dtypes it stores, each at 16 + its payload offset (the record's own layout, with the index in
        the header word's place). Built with one block copy per evenly spaced run, then the index column written;
        the result outlives the queue. Zero-copy views of the mapped files: :meth:`chunks`."""
        runs = list(self._runs(type_name, start, stop))
        if runs:
            layout = runs[0][5]
        else:
            layout = self._type_entry(self._segment(self._list()[-1]), type_name)[1]
            if layout is None:
                raise BlitError(f"{self.directory}: no type {type_name} (types: {', '.join(self.types) or 'raw'})")
        itemsize = 16 + w.align8(layout.length)
        out = np.empty(sum(r[3] for r in runs), self._out_dtype(layout, itemsize))
        flat = out.view(np.uint8)
        rows = flat.reshape(len(out), itemsize)
        raw = {}
        at = 0
        for seg, pos, stride, count, first, _ in runs:
            data = raw.get(seg.path)
            if data is None:
                data = raw[seg.path] = np.frombuffer(seg.data, np.uint8)
            if 2 <= seg.version < w.CHECKSUM_FORMAT:  # the same layout, stride == itemsize: one flat copy (a memcpy)
                flat[at * itemsize:(at + count) * itemsize] = data[pos:pos + count * stride]
            elif seg.version >= w.CHECKSUM_FORMAT:  # time at 8, payload at 24 (after CRC and reserved): shift to 16
                block = data[pos:pos + count * stride].reshape(count, stride)
                rows[at:at + count, 8:16] = block[:, 8:16]
                rows[at:at + count, 16:16 + layout.length] = block[:, 24:24 + layout.length]
            else:  # format 1: no time, the payload at 8; shift it to 16
                block = data[pos:pos + count * stride].reshape(count, stride)
                rows[at:at + count, 16:16 + layout.length] = block[:, 8:8 + layout.length]
                out["appended"][at:at + count] = np.datetime64("NaT")
            out["index"][at:at + count] = np.arange(first, first + count, dtype=np.int64)
            at += count
        return out

    @staticmethod
    def _out_dtype(layout, itemsize):
        payload = layout.payload_dtype(base=16)
        names = list(payload.names)
        return np.dtype({"names": ["index", "appended"] + names,
                         "formats": ["<i8", "<M8[ns]"] + [payload.fields[n][0] for n in names],
                         "offsets": [0, 8] + [payload.fields[n][1] for n in names], "itemsize": itemsize})

    def to_pandas(self, type_name, start=None, stop=None):
        """:meth:`to_numpy` as a pandas DataFrame (pandas is imported here, and only here)."""
        import pandas as pd
        return pd.DataFrame(self.to_numpy(type_name, start, stop))

    def consumers(self):
        """The named consumers' positions (consumers.blitc), read, never held: a list of consumers.Consumer."""
        return read_consumers(self.directory)


def _time_bytes(seg):
    """Bytes of a record's body before its payload: 8 where records carry a time (formats 2 to 4), 16 where they
    also carry a checksum and a reserved word (format 5), 0 in format 1."""
    return w.body_prefix(seg.version)


class ClaimWatch:
    """When to step over a claim: once its writer is dead and the claim was seen for the abandon grace."""

    def __init__(self, queue):
        self.queue, self.index, self.since = queue, None, 0.0

    def seen_for(self, step):
        """Seconds the claim at ``step`` has been watched (0 the first time)."""
        now = time.monotonic()
        if self.index != step.index:
            self.index, self.since = step.index, now
        return now - self.since

    def dead_after_grace(self, step):
        return self.seen_for(step) >= self.queue.abandon_grace and not self.queue._claim_alive(step)


class Reading:
    """One pass over the records (iterate it once). Steps over abandoned records and, after the abandon grace, over
    claims of dead writers (their indices collected in ``dead_claims``); at a claim of a live writer it waits the grace
    and a second, then stops and sets ``stopped`` (a :class:`LiveClaim`), so a read cut short is never taken for
    whole. Stops at the end (an empty word) and at ``stop``."""

    def __init__(self, queue, start, stop):
        self.queue, self.start, self.stop = queue, start, stop
        self.stopped, self.dead_claims = None, []
        #: After the pass: the index it ended at (the end, the stop, or the live claim).
        self.next_index = None

    def __iter__(self):
        q = self.queue
        walker = q.walker(self.start)
        self.next_index = walker.index
        for record in self._walk(q, walker):
            yield record
            self.next_index = walker.index
        self.next_index = walker.index if self.stop is None else min(walker.index, self.stop)

    def _walk(self, q, walker):
        watch = ClaimWatch(q)
        while self.stop is None or walker.index < self.stop:
            step = walker.peek()
            if step.kind == w.EMPTY:
                return
            if step.kind == w.COMMITTED:
                yield q.decode(step)
                walker.advance(step)
            elif step.kind == w.ABANDONED:
                walker.advance(step)
            else:
                watched = watch.seen_for(step)
                alive = q._claim_alive(step) if watched >= q.abandon_grace else None
                if alive is False:
                    self.dead_claims.append(step.index)
                    walker.advance(step)
                elif alive and watched >= q.abandon_grace + 1.0:
                    self.stopped = LiveClaim(step.index, w.claimer_of(step.word, step.segment.version))
                    return
                else:
                    time.sleep(0.001)

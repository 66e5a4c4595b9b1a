package io.blit.queue.replica;

import io.blit.layout.LayoutDescriptor;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.record.RecordChecksum;
import io.blit.queue.internal.record.RecordStep;
import io.blit.queue.internal.segment.FileType;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.segment.SegmentHeader;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Verifies every segment file of a queue directory from its bytes against docs/format.md, as {@code blit check} does:
 * each file header and type table (and its CRC), every record header word (the walk's checks, the exact padding
 * word, type slots in the file's table, a COMMITTED record long enough for its time and exactly as long as the layout
 * of its type), that the records area after the last record of each file is all zero, every checkpoint slot (written
 * only for a record the file holds, and then exactly at that record), and that each file starts at the index at which
 * the one before it ends. In a file with record checksums (format 5) every COMMITTED record's CRC32C is verified, and an
 * ABANDONED record whose body checksums as its COMMITTED form is reported (a flipped state bit hiding a message); in
 * older formats payloads and times are not checked: those hold no checksum of them.
 *
 * <p>Reads only (files mapped read-only); never waits for a writer and never decides a claim's writer's liveness (a
 * reader of messages does that). A queue appended to while it is verified is verified as of the moment each word is
 * read: a word found empty is loaded again before the bytes after it are called damaged. Stateless; thread-safe (each
 * call has its own checksum state).
 */
public final class QueueVerifier {
    private static final MemorySegment ZEROS = MemorySegment.ofArray(new byte[1 << 16]);
    private static final ValueLayout.OfInt SLOT = ValueLayout.JAVA_INT;

    private QueueVerifier() {
    }

    /**
     * One damage found.
     *
     * @param file   the file it is in
     * @param offset its byte offset from the start of the file
     * @param index  the message index of the record it is in or at, or -1 if it is not in a record
     * @param what   what is wrong, in words
     */
    public record Problem(Path file, long offset, long index, String what) {
        @Override
        public String toString() {
            return file + " at byte " + offset + (index < 0 ? "" : " (index " + index + ")") + ": " + what;
        }
    }

    /**
     * Verifies every segment file of {@code dir}, oldest first, then its sidecar files ({@code SidecarVerifier}).
     *
     * @param dir a queue directory
     * @return every problem found, in file and offset order; empty if the files are as the format defines them
     * @throws java.io.UncheckedIOException if a file cannot be read
     */
    public static List<Problem> verify(Path dir) {
        List<Problem> problems = new ArrayList<>();
        RecordChecksum checksum = new RecordChecksum();
        long[] firsts = SegmentFiles.list(dir);
        long expectedFirst = -1; // where the previous file's records end, or -1 if not known
        for (int i = 0; i < firsts.length; i++) {
            long first = firsts[i];
            SegmentHeader.Info info;
            try {
                info = SegmentFiles.readHeader(dir, first);
            } catch (QueueCorruptedException e) {
                problems.add(problem(e, -1));
                expectedFirst = -1;
                continue;
            }
            if (expectedFirst >= 0 && first != expectedFirst) {
                problems.add(new Problem(info.file(), SegmentFormat.FIRST_INDEX_OFFSET, first,
                        "the file starts at index " + first + " but the previous file's records end at index "
                                + expectedFirst));
            }
            try (MappedSegment file = new MappedSegment(info, true)) {
                expectedFirst = verifyFile(file, i == firsts.length - 1, checksum, problems);
            }
        }
        SidecarVerifier.verify(dir, expectedFirst, problems); // expectedFirst: the newest file's end, if its walk says
        return problems;
    }

    /**
     * Verifies one file; returns the index its next file must start at (for the newest file: the queue's end index),
     * or -1 if its records do not say.
     */
    private static long verifyFile(MappedSegment file, boolean newest, RecordChecksum checksum,
                                   List<Problem> problems) {
        SegmentHeader.Info info = file.info();
        MemorySegment bytes = file.segment();
        long[] checkpoints = new long[SegmentFormat.CHECKPOINT_SLOTS];
        long position = SegmentFormat.RECORDS_START;
        long ordinal = 0;
        long word;
        boolean broken = false;
        while (true) {
            long index = info.firstIndex() + ordinal;
            long slot = ordinal >>> SegmentFormat.CHECKPOINT_INTERVAL_SHIFT;
            if ((ordinal & (SegmentFormat.CHECKPOINT_INTERVAL - 1)) == 0 && slot < SegmentFormat.CHECKPOINT_SLOTS) {
                checkpoints[(int) slot] = position;
            }
            try {
                word = RecordStep.wordAt(file, position);
            } catch (QueueCorruptedException e) {
                problems.add(problem(e, index));
                broken = true;
                word = 0;
                break;
            }
            if (word == 0 || RecordStep.endsFile(word)) {
                break;
            }
            String bad = badRecord(file, word);
            if (bad == null && file.checksums()) {
                String mismatch = badChecksum(file, position, word, checksum);
                if (mismatch != null) { // the walk can go on: the word's length is sound, only the bytes differ
                    problems.add(new Problem(info.file(), position, index, mismatch));
                }
            }
            if (bad != null) {
                problems.add(new Problem(info.file(), position, index, "record header " + RecordHeader.describe(word)
                        + ": " + bad));
                broken = true;
                break;
            }
            position += RecordHeader.recordLength(RecordHeader.length(word));
            ordinal++;
        }
        long end = info.firstIndex() + ordinal;
        if (!broken) {
            if (word == 0) {
                checkZeros(file, position, position + RecordHeader.LENGTH, end, problems);
                if (!newest) {
                    problems.add(new Problem(info.file(), position, end, "the file's records end with an empty word"
                            + " (no padding word, not the file's end), but a later file follows it"));
                }
            } else if (word != RecordStep.FILE_END) {
                checkZeros(file, position, position + RecordHeader.LENGTH, end, problems);
            }
        }
        checkSlots(file, bytes, checkpoints, broken ? -1 : ordinal, problems);
        return broken || word == 0 && !newest ? -1 : end; // the newest file's end is the queue's: its sidecars' bound
    }

    /** What is wrong with the checked, non-padding {@code word} beyond the walk's checks, or null. */
    private static String badRecord(MappedSegment file, long word) {
        if (RecordHeader.state(word) != RecordHeader.STATE_COMMITTED) {
            return null; // ABANDONED and CLAIMED records have no body a reader returns
        }
        int length = RecordHeader.length(word);
        long time = file.payloadOffset() - RecordHeader.LENGTH;
        if (length < time) {
            return "a committed record shorter than the " + time + "-byte " + (file.checksums()
                    ? "time, checksum and reserved word" : "time") + " every record of format "
                    + file.info().version() + " starts with";
        }
        List<FileType> types = file.info().types();
        int slot = file.info().version() == 1 ? 0 : RecordHeader.typeSlot(word);
        LayoutDescriptor layout = slot < types.size() ? types.get(slot).descriptor() : null;
        if (layout != null && length - time != layout.length()) {
            return "a payload of " + (length - time) + " bytes where the layout of its type ("
                    + layout.className() + ") is " + layout.length() + " bytes";
        }
        return null;
    }

    /**
     * What is wrong with the checksum of the record at {@code position} of {@code file} (format 5), whose checked word
     * {@code word} passed {@link #badRecord}, or null: a COMMITTED record whose stored CRC32C is not that of its bytes,
     * or an ABANDONED one whose body checksums as its COMMITTED form (a writer abandons a claim before it writes the
     * CRC, so such a record was committed and its state bits changed since: a message readers now skip).
     */
    private static String badChecksum(MappedSegment file, long position, long word, RecordChecksum checksum) {
        long state = RecordHeader.state(word);
        long body = RecordHeader.unsignedLength(word);
        if (RecordHeader.isPadding(word) || body < file.payloadOffset() - RecordHeader.LENGTH
                || (state != RecordHeader.STATE_COMMITTED && state != RecordHeader.STATE_ABANDONED)) {
            return null;
        }
        MemorySegment bytes = file.segment();
        int stored = RecordChecksum.stored(bytes, position);
        int computed = checksum.compute(bytes, position, RecordHeader.committed(word));
        if (state == RecordHeader.STATE_COMMITTED && stored != computed) {
            return String.format("record checksum mismatch: the record stores CRC32C 0x%08x, its bytes give 0x%08x"
                    + " (a damaged word, time or payload)", stored, computed);
        }
        if (state == RecordHeader.STATE_ABANDONED && stored == computed) {
            return "an ABANDONED record whose body checksums as a COMMITTED one (" + RecordHeader.describe(word)
                    + "): a committed message whose state bits were damaged, which readers skip";
        }
        return null;
    }

    /**
     * Checks that bytes [{@code from}, end of file) are zero, the records area after the file's last record whose word
     * (at {@code at}) ended the walk; a non-zero byte is reported only if that word is still 0 or padding (no append
     * meanwhile).
     */
    private static void checkZeros(MappedSegment file, long at, long from, long index, List<Problem> problems) {
        MemorySegment bytes = file.segment();
        long before = RecordHeader.loadAcquire(bytes, at);
        for (long p = from; p < file.size(); p += ZEROS.byteSize()) {
            long n = Math.min(ZEROS.byteSize(), file.size() - p);
            long mismatch = MemorySegment.mismatch(bytes, p, p + n, ZEROS, 0, n);
            if (mismatch >= 0) {
                if (RecordHeader.loadAcquire(bytes, at) == before) {
                    problems.add(new Problem(file.info().file(), p + mismatch, index, "a byte that is not zero after"
                            + " the file's last record (its records end at byte " + at + ", index " + index + "):"
                            + " a damaged record header word there, or the write of a replica cut by a crash (the"
                            + " next follow clears it)"));
                }
                return;
            }
        }
    }

    /**
     * Checks every checkpoint slot against the positions the walk found ({@code reached} records; -1 if the walk broke
     * off, so that only the slots of ordinals it reached are checked).
     */
    private static void checkSlots(MappedSegment file, MemorySegment bytes, long[] positions, long reached,
                                   List<Problem> problems) {
        SegmentHeader.Info info = file.info();
        long walked = reached >= 0 ? reached : Long.MAX_VALUE;
        for (int k = 0; k < SegmentFormat.CHECKPOINT_SLOTS; k++) {
            long offset = SegmentFormat.CHECKPOINT_AREA_OFFSET + (long) k * Integer.BYTES;
            long slot = Integer.toUnsignedLong(bytes.get(SLOT, offset));
            if (slot == 0) {
                continue; // not written: its claimer has not got there, or died; readers use an earlier slot
            }
            long ordinal = (long) k << SegmentFormat.CHECKPOINT_INTERVAL_SHIFT;
            long index = info.firstIndex() + ordinal;
            if (k == 0) {
                problems.add(new Problem(info.file(), offset, -1, "checkpoint slot 0 holds " + slot
                        + ": slot 0 is never written (the first record is at " + SegmentFormat.RECORDS_START + ")"));
            } else if (reached >= 0 && ordinal >= reached) {
                problems.add(new Problem(info.file(), offset, index, "checkpoint " + k + " holds position " + slot
                        + " for ordinal " + ordinal + ", but the file holds " + reached + " records"));
            } else if (ordinal < walked && positions[k] != 0 && slot != positions[k]) {
                problems.add(new Problem(info.file(), offset, index, "checkpoint " + k + " holds position " + slot
                        + ", but the record of ordinal " + ordinal + " (index " + index + ") is at " + positions[k]));
            }
        }
    }

    private static Problem problem(QueueCorruptedException e, long index) {
        String message = e.getMessage();
        int at = message.indexOf(": ", message.indexOf(" at byte "));
        return new Problem(e.file(), e.offset(), index, at < 0 ? message : message.substring(at + 2));
    }
}

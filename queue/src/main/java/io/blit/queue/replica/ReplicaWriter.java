package io.blit.queue.replica;

import io.blit.queue.BlitQueue;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.record.Checkpoints;
import io.blit.queue.internal.record.RecordChecksum;
import io.blit.queue.internal.record.ReplicaResume;
import io.blit.queue.internal.segment.BlankSegmentPreparer;
import io.blit.queue.internal.segment.MappedFaults;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.segment.SegmentHeader;
import io.blit.queue.internal.sidecar.ReplicaMarker;
import io.blit.queue.internal.writer.WriterRegistry;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * Writes a replica: a queue directory that holds a byte-identical copy of another queue's files, record by record,
 * from the events of a {@link RecordStream} on the source (carried between machines by the replication module).
 * Each file is created from the source file's header bytes (same first index, segment size, creation stamp and layout
 * descriptor), each record lands at the same index and position with the same header word and payload bytes, and
 * the checkpoints are the source's; so {@code check}, {@code dump} and tailers work on the replica unchanged, and a
 * {@link RecordStream} on it can feed further replicas.
 *
 * <p><b>Crash safety.</b> A record's payload is written before its header word, which is stored last with release
 * semantics: a writer killed at any point leaves either the whole record or an empty header word (whatever payload
 * bytes it had copied lie behind a 0 word, which readers never pass, and are overwritten when the record is written
 * again). {@link #open} therefore resumes at the first empty word: {@link #nextIndex()} is the last complete index
 * + 1. Files are published complete ({@code link(2)} of a forced temporary), as the queue's own appenders do; the
 * next file is zero-filled in a background thread before the source rolls to it, so that
 * writing into it faults no page in from a hole.
 *
 * <p><b>Refusals.</b> {@link #open} marks the directory as a replica ({@code replica-of}, naming the source): from
 * then on {@link BlitQueue#appender()} throws in every process. Events out of order (a gap, a duplicate, a record
 * that does not fit, a file whose header differs from the copy already held) throw {@link IllegalStateException}
 * and write nothing.
 *
 * <p><b>Hostile input.</b> Every byte of an event (a header, a word, a run) may come from the network: each is checked
 * before it is used, and an event that fails a check is refused with the exception its method documents before
 * anything is written or created, after a bounded amount of work (no length or count in an event makes a check loop
 * longer than the event's own bytes, nor allocates). After a refusal the replica is as it was, and takes the valid
 * event that should have come.
 *
 * <p>Not thread-safe: it belongs to the thread that opened it (its mapping is confined to that thread).
 */
public final class ReplicaWriter implements AutoCloseable {
    /**
     * The most bytes of a {@link #writeRun run} of two or more records. A writer killed while it copied a run leaves
     * that run's bytes (header words included) behind the run's still-empty first word; {@link #open} clears this
     * many bytes from the first empty word on, so that a later write finds empty words where it starts.
     */
    public static final int MAX_RUN_BYTES = 1 << 20;

    private final Path dir;
    /** The next file, zero-filled in the background before the source rolls (see {@link BlankSegmentPreparer}). */
    private final BlankSegmentPreparer blanks;
    private MappedSegment file;
    private long position;
    private long ordinal;
    /** The current file ended with a padding word: the next event must be the next file. */
    private boolean padded;
    private long nextIndex = -1;
    /**
     * The record being written in parts ({@link #writePart}): its header word, its length as stored, and how many of
     * its bytes have arrived; {@code partWord} 0 when none is.
     */
    private long partWord;
    private long partRecordLength;
    private long partReceived;
    /** Verifies the CRC32C of every COMMITTED record given for a file with record checksums, before it is written. */
    private final RecordChecksum checksum = new RecordChecksum();

    /** @param privateFiles whether files are created owner-only ({@link QueueOptions#privateFiles()}) */
    /** The replica directory's writer registry, in which this writer holds an id while open. */
    private final WriterRegistry writers;
    private boolean closed;

    private ReplicaWriter(Path dir, boolean privateFiles, WriterRegistry writers) {
        this.dir = dir;
        this.writers = writers;
        this.blanks = new BlankSegmentPreparer(dir, privateFiles);
    }

    /**
     * Refuses a directory that holds a queue of its own (segment files and no marker) or a segment file that is a
     * symbolic link; returns the first indices of its segment files (none if it is missing).
     *
     * @throws IllegalStateException naming the directory and what to do
     */
    static long[] requireReplicaOrEmpty(Path dir) {
        long[] firsts = Files.isDirectory(dir) ? SegmentFiles.list(dir) : new long[0];
        for (long first : firsts) {
            ReplicaMarker.requireNoLink(SegmentFiles.path(dir, first), "replica " + dir);
        }
        if (firsts.length > 0 && ReplicaMarker.sourceOf(dir) == null) {
            throw new IllegalStateException("queue " + dir + " is not a replica (it has segment files and no "
                    + ReplicaMarker.NAME + " marker): replicate into an empty or replica directory");
        }
        return firsts;
    }

    /**
     * Opens (creating and marking if needed) the replica in {@code dir} and finds where it resumes.
     *
     * @param dir    the replica's queue directory: empty, missing or a replica already
     * @param source what the {@code replica-of} marker names (e.g. the source's address and directory)
     * @return the writer, at {@link #nextIndex()}
     * @throws IllegalStateException   if {@code dir} holds a queue that is not a replica (it has files but no marker)
     * @throws QueueCorruptedException if a file's header is invalid, a record points past its file's end, or clearing
     *                                 what a killed writer left faults (the file system failed)
     */
    public static ReplicaWriter open(Path dir, String source) {
        return open(dir, source, false);
    }

    /**
     * As {@link #open(Path, String)}; with {@code privateFiles} everything this writer creates is readable by its
     * user only, as {@link QueueOptions#privateFiles()} says: the directory (and its missing parents)
     * {@code rwx------}; the {@code replica-of} marker, which each open rewrites, {@code rw-------}; each file it
     * creates and its temporaries {@code rw-------}. Segment files and directories that exist already keep their
     * modes.
     *
     * @param dir          the replica's queue directory: empty, missing or a replica already
     * @param source       what the {@code replica-of} marker names
     * @param privateFiles whether what this writer creates is owner-only
     * @return the writer, at {@link #nextIndex()}
     */
    public static ReplicaWriter open(Path dir, String source, boolean privateFiles) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(source, "source");
        long[] firsts = requireReplicaOrEmpty(dir);
        ReplicaMarker.mark(dir, source, privateFiles);
        WriterRegistry writers = WriterRegistry.acquire(dir); // the replica's writer: its temporaries name its id
        ReplicaWriter writer;
        try {
            writers.lease(privateFiles);
            SegmentFiles.deleteStaleTemporaries(dir);
            writer = new ReplicaWriter(dir, privateFiles, writers);
        } catch (RuntimeException | Error e) {
            writers.release();
            throw e;
        }
        try {
            if (firsts.length > 0) {
                writer.resumeIn(firsts[firsts.length - 1]);
            }
        } catch (RuntimeException | Error e) {
            writer.close();
            throw e;
        }
        return writer;
    }

    /**
     * Maps the newest file and walks to its first empty header word (or its padding word, or its end), clearing what a
     * writer killed during a run may have left behind it ({@link ReplicaResume}).
     */
    private void resumeIn(long first) {
        file = new MappedSegment(SegmentFiles.readHeader(dir, first));
        ReplicaResume resume = ReplicaResume.in(file, MAX_RUN_BYTES);
        position = resume.position();
        ordinal = resume.ordinal();
        padded = resume.padded();
        nextIndex = first + ordinal;
        blanks.request(file.info().segmentSize());
    }

    /** {@return the index of the next record this replica expects, or -1 if it holds no file yet (any first file)} */
    public long nextIndex() {
        return nextIndex;
    }

    /**
     * {@return the first index of the oldest file the replica holds, or -1 if it holds no file} Read from the
     * directory (a listing): for a handshake, not for the write path. Records below it are not held (retention
     * deleted them, or the replica was started from a later file), so nothing below it can be set aside.
     */
    public long firstIndex() {
        long[] firsts = SegmentFiles.list(dir);
        return firsts.length == 0 ? -1 : firsts[0];
    }

    /** {@return the header bytes of the newest file held (what a source compares with its own), or null if none} */
    public byte[] newestFileHeader() {
        return file == null ? null : SegmentHeader.copyOf(file.segment(), file.info().file());
    }

    /**
     * Takes a {@link RecordStream#FILE} event: creates the file of {@code header} (the source's file header, as
     * {@link RecordStream#fileHeader()} gives it) unless the replica holds it already, and moves there.
     *
     * @param header the source's file header: exactly its stated header length plus the 4 CRC bytes
     * @throws ReplicaDivergedException if the file does not start at {@link #nextIndex()}, the current file is not
     *                                  finished (no padding word and room for a record), or the replica's file of
     *                                  that index has another header (another queue)
     * @throws ReplicaInputException    if the header is invalid (bad input, not a failure of the replica's files;
     *                                  the cause is the {@link QueueCorruptedException} of
     *                                  {@link SegmentHeader#decodeCopy}): not exactly its header length plus 4 CRC
     *                                  bytes, a wrong CRC, a segment size that is not a multiple of 4096 from 12 KiB
     *                                  to 4 GiB, a negative first index, ...; checked before anything is created
     * @throws java.io.UncheckedIOException if the file cannot be created (e.g. the file system is full: every page of
     *                                 a replica's file is allocated when it is created; nothing is written then)
     */
    public void startFile(byte[] header) {
        partWord = 0;
        SegmentHeader.Info stated;
        try {
            stated = SegmentHeader.decodeCopy(dir, header); // every byte checked, nothing created yet
        } catch (QueueCorruptedException invalid) { // the sender's header, not this replica's storage, is at fault
            throw new ReplicaInputException("a file header the replica cannot take: " + invalid.getMessage(), invalid);
        }
        long first = stated.firstIndex();
        long segmentSize = stated.segmentSize();
        if (file != null && file.firstIndex() == first) {
            requireSameHeader(first, newestFileHeader(), header);
            return;
        }
        if (nextIndex >= 0 && first != nextIndex) {
            throw new ReplicaDivergedException("replica " + dir + " expects index " + nextIndex
                    + " next; the source's file starts at " + first);
        }
        if (file != null && !padded && position + RecordHeader.LENGTH <= file.size()) {
            throw new ReplicaDivergedException("replica " + dir + ": file " + file.firstIndex()
                    + " has no padding word at " + position + " yet the source moved to file " + first);
        }
        ReplicaMarker.requireNoLink(SegmentFiles.path(dir, first), "replica " + dir);
        if (!Files.exists(SegmentFiles.path(dir, first), LinkOption.NOFOLLOW_LINKS)) {
            SegmentFiles.publish(dir, first, blanks.takeOrPrepare(first, segmentSize, header));
        }
        requireSameHeader(first, SegmentFiles.readHeaderBytes(dir, first), header); // before anything changes
        MappedSegment next = new MappedSegment(SegmentFiles.readHeader(dir, first));
        if (file != null) {
            file.segment().force(); // what force() promised for the finished file holds after the roll too
            file.close();
        }
        file = next;
        position = SegmentFormat.RECORDS_START;
        ordinal = 0;
        padded = false;
        nextIndex = first;
        blanks.request(segmentSize);
    }

    private void requireSameHeader(long first, byte[] held, byte[] header) {
        if (!Arrays.equals(held, header)) {
            throw new ReplicaDivergedException("replica " + dir + " holds file " + first
                    + " with another header than the source's: a replica of another queue");
        }
    }

    /**
     * Takes a {@link RecordStream#RECORD} event: writes {@code payload} at the record's position, then stores
     * {@code word} there with release semantics (a tailer of the replica that sees the word sees the payload), and
     * the record's checkpoint if its ordinal has a slot. A padding word is stored alone.
     *
     * @param word    the record's header word as stored on the source (COMMITTED or ABANDONED with a payload of at most
     *                2^31 - 1 bytes, or the COMMITTED padding word of length 0; a padding word after the file's padding
     *                is ignored)
     * @param payload the record's payload bytes (empty for padding)
     * @return the record's index (for padding: the index the next file starts at)
     * @throws ReplicaDivergedException if no file is open or the current one ended; if the record does not fit in
     *                                  the file or its header word is not empty (this replica diverged)
     * @throws ReplicaInputException    if {@code word} is not a final record word or its length is not the payload's,
     *                                  or it is a padding word at a file's first record, or (format 5) the record's
     *                                  checksum does not match its word and bytes: nothing is written
     * @throws QueueCorruptedException  if writing into the mapped file faulted (the file system is out of space, or
     *                                  the file was truncated or failed): the record's word is not stored
     */
    public long write(long word, MemorySegment payload) {
        return write(word, payload, 0, payload.byteSize());
    }

    /**
     * As {@link #write(long, MemorySegment)}, with the payload the {@code size} bytes of {@code source} from
     * {@code offset} (no slice to allocate per record).
     *
     * @param word   the record's header word, as for {@link #write(long, MemorySegment)}
     * @param source holds the record's payload bytes
     * @param offset the byte offset of the payload in {@code source}
     * @param size   the payload's length in bytes (0 for padding)
     * @return the record's index (for padding: the index the next file starts at)
     * @throws ReplicaInputException    also if those bytes are not all in {@code source}
     */
    public long write(long word, MemorySegment source, long offset, long size) {
        partWord = 0;
        boolean padding = RecordHeader.isPadding(word);
        if (padded && padding) {
            return nextIndex; // the same padding word again (a stream restarted at the file's end)
        }
        requireFileOpen();
        long length = ReplicaRuns.checkedRecord(word, padding, source, offset, size, file, checksum, nextIndex);
        long recordLength = padding ? RecordHeader.LENGTH : RecordHeader.recordLength(length);
        if (recordLength > file.size() - position) {
            throw new ReplicaDivergedException("replica " + dir + ": record " + nextIndex + " of " + recordLength
                    + " bytes does not fit at " + position + " in file " + file.firstIndex() + " of " + file.size());
        }
        MemorySegment segment = file.segment();
        requireEmptyWord(segment);
        if (padding) {
            if (position == SegmentFormat.RECORDS_START) {
                throw new ReplicaInputException("a padding word as the first record of file " + file.firstIndex()
                        + ": the queue would continue in the same file");
            }
            RecordHeader.storeRelease(segment, position, word);
            padded = true;
            return nextIndex;
        }
        try {
            MemorySegment.copy(source, offset, segment, position + RecordHeader.LENGTH, length);
            MappedFaults.surfacePending(); // a faulted copy (no space for a page) must not get its word
            RecordHeader.storeRelease(segment, position, word);
            Checkpoints.record(segment, ordinal, position);
            MappedFaults.surfacePending();
        } catch (InternalError fault) {
            throw MappedFaults.translate(fault, file, position, true);
        }
        long index = nextIndex;
        position += recordLength;
        ordinal++;
        nextIndex++;
        return index;
    }

    /**
     * Takes a {@link RecordStream#RUN}: {@code count} records stored back to back, as {@link RecordStream#copyRun}
     * gives them, which must start at {@link #nextIndex()} and at this replica's position in its current file. Every
     * header word in the run is checked (a final record word whose record ends inside the run, the last one exactly at
     * its end) before anything is written; then the bytes after the first word are copied, and the first word is
     * stored last with release semantics, so a tailer of the replica that sees it sees the whole run; then the
     * records' checkpoints.
     *
     * @param index    the run's first index
     * @param position the file offset of the run's first header word on the source
     * @param source   holds the run's bytes from {@code offset}
     * @param offset   the byte offset of the run's first header word in {@code source}
     * @param length   the run's length in bytes (a multiple of 8)
     * @param count    how many records it holds
     * @return the index after the run
     * @throws ReplicaDivergedException if no file is open or the current one ended; if the run does not start at
     *                                  {@link #nextIndex()} and this replica's position, does not fit in the file, or
     *                                  its first header word is not empty here (this replica diverged)
     * @throws ReplicaInputException    if the run's bytes are not all in {@code source}, a header word in the run is
     *                                  not a committed or abandoned record word of at most 2^31 - 1 payload bytes,
     *                                  the records do not fill it exactly, their number is not {@code count}, or a
     *                                  run of two or more records is longer than {@link #MAX_RUN_BYTES}, or (format 5)
     *                                  a record's checksum does not match its word and bytes: nothing is written
     * @throws QueueCorruptedException  if writing into the mapped file faulted (the file system is out of space, or
     *                                  the file was truncated or failed): the run's first word is not stored
     */
    public long writeRun(long index, long position, MemorySegment source, long offset, long length, int count) {
        partWord = 0;
        requireFileOpen();
        if (index != nextIndex || position != this.position) {
            throw new ReplicaDivergedException("replica " + dir + " expects index " + nextIndex + " at " + this.position
                    + " in file " + file.firstIndex() + "; a run starts at index " + index + " at " + position);
        }
        ReplicaRuns.checkRunBounds(source, offset, length, count, MAX_RUN_BYTES);
        if (length > file.size() - position) {
            throw new ReplicaDivergedException("replica " + dir + ": a run of " + length + " bytes does not fit at "
                    + position + " in file " + file.firstIndex() + " of " + file.size());
        }
        long first = ReplicaRuns.checkedRun(source, offset, length, count, file, checksum, index);
        MemorySegment segment = file.segment();
        requireEmptyWord(segment);
        try {
            MemorySegment.copy(source, offset + RecordHeader.LENGTH, segment, position + RecordHeader.LENGTH,
                    length - RecordHeader.LENGTH);
            MappedFaults.surfacePending(); // a faulted copy (no space for a page) must not get its word
            RecordHeader.storeRelease(segment, position, first);
            long at = 0;
            // the words checked above, as copied (were the source changed meanwhile: wrong slots, but no endless walk)
            for (int i = 0; i < count && at < length; i++, ordinal++) {
                Checkpoints.record(segment, ordinal, position + at);
                long word = segment.get(ReplicaRuns.WORD_IN_COPY, position + at);
                at += RecordHeader.recordLength(RecordHeader.unsignedLength(word));
            }
            MappedFaults.surfacePending();
        } catch (InternalError fault) {
            throw MappedFaults.translate(fault, file, position, true);
        }
        this.position += length;
        nextIndex += count;
        return nextIndex;
    }

    /**
     * Takes one part of a record too long for one message: {@code length} bytes of the record as stored (header word,
     * body, alignment) from {@code partOffset}, which must start at {@link #nextIndex()} and this replica's position.
     * The parts must come in order, each from where the last ended; a first part (offset 0) starts the record over.
     * The first part's header word is checked as a single-record run's is (a final record word whose record is
     * {@code recordLength} bytes long and fits in the file) before anything is written; each part's bytes go straight
     * into the file, behind the record's still-empty header word, which is stored with release semantics when the
     * last part arrives (then its checkpoint). So nothing is buffered, a tailer sees the record whole or not at all,
     * and a writer killed between parts leaves only bytes behind an empty word, written again on resumption. Any other
     * event in between abandons the partial record.
     *
     * @param index        the record's index
     * @param position     the file offset of its header word on the source
     * @param recordLength its length as stored, header word and alignment included (a multiple of 8)
     * @param partOffset   the offset of this part in the record (a multiple of 8)
     * @param source       holds the part's bytes from {@code offset}
     * @param offset       the byte offset of the part's first byte in {@code source}
     * @param length       the part's length (a multiple of 8, at least 8; at most {@code recordLength - partOffset})
     * @return true if this part completed the record (then {@link #nextIndex()} is the index after it)
     * @throws ReplicaDivergedException if no file is open or the current one ended; if the record does not start at
     *                                  {@link #nextIndex()} and this replica's position, does not fit in the file, or
     *                                  its header word is not empty here
     * @throws ReplicaInputException    if the part's bytes are not all in {@code source}, the lengths or offset are
     *                                  not as stated above, a part does not continue where the last ended, or the
     *                                  first part's header word is not a final record word of {@code recordLength}
     *                                  bytes, or (format 5) once the last part is in, the record's checksum does not
     *                                  match its word and bytes: its word is not stored (the bytes left behind the
     *                                  empty word are written again on resumption)
     * @throws QueueCorruptedException  if writing into the mapped file faulted: the record's word is not stored
     */
    public boolean writePart(long index, long position, long recordLength, long partOffset, MemorySegment source,
                             long offset, long length) {
        requireFileOpen();
        if (index != nextIndex || position != this.position) {
            partWord = 0;
            throw new ReplicaDivergedException("replica " + dir + " expects index " + nextIndex + " at " + this.position
                    + " in file " + file.firstIndex() + "; a part of record " + index + " at " + position + " came");
        }
        if (recordLength < 2L * RecordHeader.LENGTH || length < RecordHeader.LENGTH || partOffset < 0
                || ((recordLength | partOffset | length) & 7) != 0 || partOffset > recordLength - length
                || offset < 0 || offset > source.byteSize() - length) {
            partWord = 0;
            throw new ReplicaInputException("a part [" + partOffset + ", " + partOffset + " + " + length + ") of a "
                    + recordLength + "-byte record, from " + offset + " of " + source.byteSize() + " bytes given");
        }
        MemorySegment segment = file.segment();
        long from = partOffset;
        if (partOffset == 0) {
            partWord = 0;
            if (recordLength > file.size() - position) {
                throw new ReplicaDivergedException("replica " + dir + ": record " + nextIndex + " of " + recordLength
                        + " bytes does not fit at " + position + " in file " + file.firstIndex() + " of "
                        + file.size());
            }
            long word = source.get(ReplicaRuns.WORD_IN_COPY, offset);
            ReplicaRuns.checkPartWord(word, recordLength, file);
            requireEmptyWord(segment);
            partWord = word;
            partRecordLength = recordLength;
            partReceived = 0;
            from = RecordHeader.LENGTH; // the word is stored last
        } else if (partWord == 0 || recordLength != partRecordLength || partOffset != partReceived) {
            partWord = 0;
            throw new ReplicaInputException("a part from " + partOffset + " of a " + recordLength + "-byte record"
                    + " where none continues there");
        }
        try {
            MemorySegment.copy(source, offset + (from - partOffset), segment, position + from,
                    partOffset + length - from);
            MappedFaults.surfacePending(); // a faulted copy (no space for a page) must not get its word
            partReceived = partOffset + length;
            if (partReceived < partRecordLength) {
                return false;
            }
            // The body is in the file behind the still-empty word: verified there, before the word makes it a record.
            try {
                ReplicaRuns.checkChecksum(partWord, segment, position + RecordHeader.LENGTH, file, checksum, nextIndex);
            } catch (ReplicaInputException e) {
                partWord = 0;
                throw e;
            }
            RecordHeader.storeRelease(segment, position, partWord);
            Checkpoints.record(segment, ordinal, position);
            MappedFaults.surfacePending();
        } catch (InternalError fault) {
            partWord = 0;
            throw MappedFaults.translate(fault, file, position, true);
        }
        partWord = 0;
        this.position += recordLength;
        ordinal++;
        nextIndex++;
        return true;
    }

    /** Throws unless a file is open and has not ended (with a padding word): the next event must be a record. */
    private void requireFileOpen() {
        if (file == null || padded) {
            throw new ReplicaDivergedException("replica " + dir + " expects the file of index " + nextIndex + " first");
        }
    }

    /** Throws unless the header word at this replica's position in {@code segment} is empty (else it diverged). */
    private void requireEmptyWord(MemorySegment segment) {
        long held = RecordHeader.loadAcquire(segment, position);
        if (held != 0) {
            throw new ReplicaDivergedException("replica " + dir + ": index " + nextIndex + " at " + position
                    + " is written already (" + RecordHeader.describe(held) + ")");
        }
    }

    /**
     * {@return whether {@code word} is the padding word that ends a file} Format: docs/format.md, "Records".
     *
     * @param word a record header word, as {@link RecordStream#word()} gives it
     */
    public static boolean isPadding(long word) {
        return RecordHeader.isPadding(word);
    }

    /** Forces the current file to storage ({@link MemorySegment#force()}): what a {@code sync} replica acknowledges. */
    public void force() {
        if (file != null) {
            file.segment().force();
        }
    }

    /** {@return the replica's directory} */
    public Path directory() {
        return dir;
    }

    /** Unmaps the current file, deletes a prepared blank and gives back the writer id. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            blanks.close();
            if (file != null) {
                file.close();
                file = null;
            }
        } finally {
            writers.release();
        }
    }
}

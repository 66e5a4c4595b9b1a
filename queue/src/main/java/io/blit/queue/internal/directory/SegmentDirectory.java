package io.blit.queue.internal.directory;

import io.blit.layout.LayoutDescriptor;
import io.blit.queue.LayoutMismatchException;
import io.blit.queue.MessagesDeletedException;
import io.blit.queue.QueueOptions;
import io.blit.queue.TermHistory;
import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.file.FileModes;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.record.RecordCursor;
import io.blit.queue.internal.record.RecordProtocol;
import io.blit.queue.internal.record.WriteGuard;
import io.blit.queue.internal.segment.FileCheck;
import io.blit.queue.internal.segment.FileType;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.segment.SegmentHeader;
import io.blit.queue.internal.sidecar.ReplicaMarker;
import io.blit.queue.internal.sidecar.TermHistoryFile;
import io.blit.queue.internal.writer.WriterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The segment files of one open queue as its appenders, tailers and record streams use them: opening the directory,
 * validating each file's header (and, through the queue's {@link FileCheck}, its type table), creating the next file
 * when an appender rolls (published from the background preparation when there is one), and mapping files.
 *
 * <p>Thread-safe: shared by every appender and tailer of the queue, in any threads. Not API.
 */
public final class SegmentDirectory implements AutoCloseable {
    private final Path dir;
    /** Whether the queue object was opened raw: it writes the newest file's type table. */
    private final boolean raw;
    private final FileCheck fileCheck;
    /** The type table appenders write and new files record: the types', or a raw queue's newest file's. */
    private final List<FileType> writeTypes;
    private final long segmentSize;
    private final SegmentPreparer preparer;
    private final boolean prepareNextFile;
    private final boolean privateFiles;
    /**
     * How many files {@link #continueInOwnTypes} ends before it gives up. An appender of the old layouts may fill the
     * file being ended, and roll into its prepared next one, before the walk to its end reaches the free word: with
     * 64 KiB files and a producer in a tight loop that happened 8 times in a row (the race test); each attempt ends
     * a file unless outrun again, so a thousand bound a livelock, never an ordinary take-over.
     */
    private static final int MAX_TAKE_OVER_ATTEMPTS = 1_000;
    /** How long {@link #continueInOwnTypes} waits for the first record of an empty file of other types. */
    private final long abandonGraceNanos;
    /** Opened read-only ({@link QueueOptions#readOnly()}): nothing is created, written, deleted or mapped writable. */
    private final WriteGuard guard;
    /** The directory's writer liveness, shared with the other queue objects of this directory in this JVM. */
    private final WriterRegistry writers;
    /** The term the files this object creates are created in, which their headers record ({@link #recordTerm}). */
    private volatile long fileTerm;
    /**
     * The format version of the files this object creates and its appenders write: {@link SegmentFormat#CHECKSUM_FORMAT}
     * with record checksums ({@link QueueOptions#recordChecksums()}), else {@link SegmentFormat#FORMAT_VERSION}.
     */
    private final int writeVersion;
    /** Whether tailers verify record checksums ({@link QueueOptions#verifyRecordChecksums()}). */
    private final boolean verifyChecksums;

    /**
     * Opens {@code dir}, creating it and its first file if needed, and validates every file's header and types.
     *
     * @param types     the type table the queue object's appenders write, or null for a raw queue (which writes the
     *                  newest file's)
     * @param fileCheck what the queue object checks of every file header ({@link FileCheck#NONE} for a raw queue)
     * @throws IllegalStateException   if a file is invalid or refused by {@code fileCheck}, or the queue is read-only
     *                                 and has no file, or a replica has no file yet
     * @throws LayoutMismatchException if {@code fileCheck} refuses a file's layouts
     * @throws java.io.UncheckedIOException if the directory cannot be created or listed
     */
    public SegmentDirectory(Path dir, List<FileType> types, FileCheck fileCheck, QueueOptions options) {
        this.dir = dir;
        this.raw = types == null;
        this.fileCheck = fileCheck;
        this.writeVersion = options.recordChecksums() ? SegmentFormat.CHECKSUM_FORMAT : SegmentFormat.FORMAT_VERSION;
        this.verifyChecksums = options.verifyRecordChecksums();
        this.privateFiles = options.privateFiles();
        this.abandonGraceNanos = options.abandonGrace().toNanos();
        boolean readOnly = options.readOnly();
        this.guard = new WriteGuard(dir, readOnly);
        if (readOnly) {
            if (!java.nio.file.Files.isDirectory(dir)) {
                throw QueueErrors.noQueue(dir, "no such directory");
            }
        } else {
            try {
                FileModes.createDirectories(dir, privateFiles);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create queue directory " + dir, e);
            }
        }
        this.writers = WriterRegistry.acquire(dir);
        try {
            if (!readOnly) {
                SegmentFiles.deleteStaleTemporaries(dir);
            }
            long[] firsts = SegmentFiles.list(dir);
            if (readOnly && firsts.length == 0) {
                throw QueueErrors.noQueue(dir, "no segment file");
            }
            List<FileType> mine = raw ? List.of() : types;
            if (firsts.length == 0) {
                String source = ReplicaMarker.sourceOf(dir);
                if (source != null) {
                    throw QueueErrors.replicaWithoutFiles(dir, source);
                }
                this.writeTypes = mine;
                this.segmentSize = options.segmentSize();
                TermHistory history = TermHistoryFile.read(dir); // none for a new queue: term 0
                this.fileTerm = history == null ? 0 : history.currentTerm();
                SegmentFiles.createIfAbsent(dir, 0, segmentSize, writeTypes, privateFiles, fileTerm, writeVersion);
                firsts = SegmentFiles.list(dir);
            } else {
                SegmentHeader.Info last = SegmentFiles.readHeader(dir, firsts[firsts.length - 1]);
                this.segmentSize = last.segmentSize();
                this.writeTypes = raw ? last.types() : mine;
            }
            for (SegmentHeader.Info info : Retention.readExisting(dir, firsts)) { // retention may delete meanwhile
                check(info);
            }
            for (FileType type : writeTypes) {
                if (maxPayload() < type.descriptor().length()) {
                    throw QueueErrors.messageTooLarge(type.descriptor().length(), segmentSize, maxPayload());
                }
            }
        } catch (RuntimeException | Error e) {
            writers.release();
            throw e;
        }
        this.preparer = readOnly ? null : new SegmentPreparer(dir, segmentSize, writeTypes, privateFiles,
                this::fileTerm, writeVersion);
        this.prepareNextFile = options.prepareNextFile();
    }

    /**
     * Sets the term the files this object creates from now on are created in: the term of the queue's appenders, which
     * each header records ({@link SegmentHeader#termOf}).
     *
     * @param term the queue's current term, 0 to {@link SegmentFormat#MAX_FILE_TERM}
     */
    public void recordTerm(long term) {
        fileTerm = term;
    }

    /** {@return the term the files this object creates now are created in} */
    public long fileTerm() {
        return fileTerm;
    }

    /** The queue directory. */
    public Path path() {
        return dir;
    }

    /** The type table appenders write and new files record. */
    public List<FileType> writeTypes() {
        return writeTypes;
    }

    /** The layout of the only type appenders write, or null for raw payloads or several types. */
    public LayoutDescriptor descriptor() {
        return writeTypes.size() == 1 ? writeTypes.getFirst().descriptor() : null;
    }

    /** Whether what this queue object creates is its user's only ({@link QueueOptions#privateFiles()}). */
    public boolean privateFiles() {
        return privateFiles;
    }

    /** The size of the queue's files in bytes. */
    public long segmentSize() {
        return segmentSize;
    }

    /** The payload length every record appenders write has (one type), or -1 when lengths differ or are free. */
    public int fixedPayloadLength() {
        return writeTypes.size() == 1 ? writeTypes.getFirst().descriptor().length() : -1;
    }

    /**
     * The longest payload a record this queue's appenders write holds: what a file's records area takes, at most
     * 2^31 - 1 bytes of body (time, and in format 5 checksum and reserved word, included).
     */
    public long maxPayload() {
        long prefix = bodyPrefix();
        return Math.min(segmentSize - SegmentFormat.RECORDS_START - RecordHeader.LENGTH - prefix,
                RecordHeader.MAX_PAYLOAD - prefix);
    }

    /** {@return whether tailers of this queue object verify record checksums: QueueOptions.verifyRecordChecksums} */
    public boolean verifyChecksums() {
        return verifyChecksums;
    }

    /** {@return the format version of the files this object creates and its appenders write (4, or 5: checksums)} */
    public int writeVersion() {
        return writeVersion;
    }

    /**
     * {@return the bytes of a message record's body before its payload in the files appenders write} 8 (the time) in
     * format 4, 16 (time, checksum, reserved word) in format 5.
     */
    public long bodyPrefix() {
        return MappedSegment.payloadOffset(writeVersion) - RecordHeader.LENGTH;
    }

    /** The first indices of the files, ascending. */
    public long[] firsts() {
        return SegmentFiles.list(dir);
    }

    /** The newest file, mapped in the caller's thread for appending; it must take this queue's records. */
    public MappedSegment mapNewestForAppend() {
        long[] firsts = firsts();
        return new MappedSegment(writable(file(firsts[firsts.length - 1])));
    }

    /**
     * The file of {@code firstIndex}, mapped in the caller's thread for appending, created if absent (rolling):
     * published from the background preparation if {@link #prepareFile} asked for it, else created here.
     *
     * @throws LayoutMismatchException if the file exists with another type table (another appender took the queue over
     *                                 with other layouts: {@link QueueErrors#queueContinuesInOtherLayouts})
     */
    public MappedSegment mapForAppend(long firstIndex) {
        preparer.publishIfPrepared(firstIndex);
        return new MappedSegment(writable(check(SegmentFiles.createIfAbsent(dir, firstIndex, segmentSize, writeTypes,
                privateFiles, fileTerm, writeVersion))));
    }

    /** The validated header of the file of {@code firstIndex}, created with this queue's types if absent. */
    public SegmentHeader.Info createIfAbsent(long firstIndex) {
        return check(SegmentFiles.createIfAbsent(dir, firstIndex, segmentSize, writeTypes, privateFiles, fileTerm,
                writeVersion));
    }

    /**
     * The existing file of {@code first}, mapped in the caller's thread for reading; the next wanted index in it is
     * {@code wanted}.
     *
     * @throws MessagesDeletedException if the file was deleted (by retention)
     */
    public MappedSegment mapForReading(long first, long wanted) {
        try {
            return new MappedSegment(file(first), guard.readOnly());
        } catch (UncheckedIOException e) {
            throw Retention.deletedOr(e, dir, wanted);
        }
    }

    /** Validated header of the existing file of {@code firstIndex}. */
    public SegmentHeader.Info file(long firstIndex) {
        return check(SegmentFiles.readHeader(dir, firstIndex));
    }

    /**
     * Makes the newest file one this queue's appenders may write: if its type table is another (other classes, ids or
     * layouts), ends it with a padding word at its first free record ({@link RecordProtocol#endFile}) and continues the
     * queue in a new file of this queue's types at the next index (or in the file another appender of these types
     * created there first). Maps the files in a temporary arena of the caller's thread.
     *
     * @throws LayoutMismatchException if appenders of other types keep taking the queue over meanwhile, or this queue is
     *                                 opened raw and the newest file's types changed since it was opened
     */
    public void continueInOwnTypes() {
        requireWritable("append");
        long[] firsts = firsts();
        SegmentHeader.Info newest = file(firsts[firsts.length - 1]);
        for (int attempt = 0; !takesAppends(newest); attempt++) {
            if (attempt == MAX_TAKE_OVER_ATTEMPTS || (raw && !newest.types().equals(writeTypes))) {
                // a raw queue writes the table it found (it continues a format-1 file of it in format 2)
                throw QueueErrors.queueContinuesInOtherLayouts(newest.file(), FileType.describe(newest.types()),
                        FileType.describe(writeTypes));
            }
            long next;
            try (RecordCursor cursor = RecordCursor.forAppender()) {
                cursor.enter(new MappedSegment(newest));
                awaitFirstRecord(cursor);
                next = RecordProtocol.endFile(cursor, writerId());
            }
            newest = createIfAbsent(next);
        }
    }

    /**
     * Waits, up to the abandon grace, while the file at {@code cursor} holds no record: an appender of the old types
     * that has just created it (a roll) claims its first record within microseconds, and ending the file before that
     * would abandon that index, a gap. A file still empty after the grace ends with its first index abandoned
     * ({@link RecordProtocol#endFile}), as a claim left for the grace by a dead claimer is.
     */
    private void awaitFirstRecord(RecordCursor cursor) {
        long start = System.nanoTime();
        while (RecordHeader.loadAcquire(cursor.segment(), cursor.position()) == 0
                && System.nanoTime() - start < abandonGraceNanos) {
            java.util.concurrent.locks.LockSupport.parkNanos(100_000);
        }
    }

    /**
     * Whether this queue's appenders may write into the file of {@code info} (validated here): one of their types and
     * of the format they write (records with times; with checksums or not, as {@link #writeVersion}).
     */
    private boolean takesAppends(SegmentHeader.Info info) {
        return FileType.sameTable(info.types(), writeTypes) && info.version() == writeVersion;
    }

    /**
     * Starts preparing the file of {@code firstIndex} in the background (see {@link SegmentPreparer}), unless the
     * options turned preparation off.
     */
    public void prepareFile(long firstIndex) {
        if (prepareNextFile && preparer != null) {
            preparer.request(firstIndex);
        }
    }

    /**
     * Starts preparing a blank next file in the background (a queue whose records have several lengths: the next
     * file's first index is known only at the roll), unless the options turned preparation off.
     */
    public void prepareBlankFile() {
        if (prepareNextFile && preparer != null) {
            preparer.requestBlank();
        }
    }

    /** Whether the queue was opened read-only ({@link QueueOptions#readOnly()}). */
    public boolean readOnly() {
        return guard.readOnly();
    }

    /** The directory's writer registry: whose claims are alive. */
    public WriterRegistry writers() {
        return writers;
    }

    /**
     * This process's writer id in the directory, which every claim it makes names: leased at the first call (or when
     * this object created the queue), by the first appender, named consumer or file creation, so that a queue opened
     * only to read creates nothing ({@link WriterRegistry#lease}); held until the last queue object of the directory
     * in this JVM closes.
     *
     * @throws IllegalStateException if the queue was opened read-only
     */
    public long writerId() {
        requireWritable("append");
        return writers.lease(privateFiles);
    }

    /**
     * @throws IllegalStateException naming {@code what} if the queue was opened read-only
     */
    public void requireWritable(String what) {
        guard.require(what);
    }

    /** Stops the background preparation and deletes what it left; gives back the writer registry. */
    @Override
    public void close() {
        try {
            if (preparer != null) {
                preparer.close();
            }
        } finally {
            writers.release();
        }
    }

    private SegmentHeader.Info check(SegmentHeader.Info info) {
        fileCheck.check(info);
        return info;
    }

    private SegmentHeader.Info writable(SegmentHeader.Info info) {
        if (!takesAppends(info) && FileType.sameTable(info.types(), writeTypes)) {
            throw QueueErrors.queueContinuesInOtherFormat(info.file(), info.version(), writeVersion);
        }
        if (!takesAppends(info)) {
            throw QueueErrors.queueContinuesInOtherLayouts(info.file(), FileType.describe(info.types()),
                    FileType.describe(writeTypes));
        }
        return info;
    }
}

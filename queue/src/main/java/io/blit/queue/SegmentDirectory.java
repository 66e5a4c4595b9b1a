package io.blit.queue;

import io.blit.core.BlockCopier;
import io.blit.core.BlockReader;
import io.blit.core.IncompatibleLayoutException;
import io.blit.core.LayoutPolicy;
import io.blit.layout.LayoutComparison;
import io.blit.layout.LayoutDescriptor;
import io.blit.queue.internal.FileModes;
import io.blit.queue.internal.MappedSegment;
import io.blit.queue.internal.QueueErrors;
import io.blit.queue.internal.RecordHeader;
import io.blit.queue.internal.ReplicaMarker;
import io.blit.queue.internal.Retention;
import io.blit.queue.internal.SegmentFiles;
import io.blit.queue.internal.SegmentHeader;
import io.blit.queue.internal.SegmentPreparer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The segment files of one open {@link BlitQueue} as its appenders and tailers use them: opening the directory,
 * validating each file's header and layout against the queue's message class, creating the next file when an
 * appender rolls (published from the background preparation when there is one), mapping files, and the reader of
 * each file layout met.
 *
 * <p>Thread-safe: shared by every appender and tailer of the queue, in any threads.
 *
 * @param <T> the message class, or {@link Void} for a raw queue
 */
final class SegmentDirectory<T> implements AutoCloseable {
    private final Path dir;
    private final Class<T> type;
    private final BlockCopier<T> copier;
    private final LayoutDescriptor descriptor;
    private final long segmentSize;
    private final LayoutPolicy layoutPolicy;
    /** One reader per file layout met, validated under the policy; files of one layout share it. */
    private final Map<LayoutDescriptor, BlockReader<T>> readers = new ConcurrentHashMap<>();
    private final SegmentPreparer preparer;
    private final boolean prepareNextFile;
    private final boolean privateFiles;

    /**
     * Opens {@code dir}, creating it and its first file if needed, and validates every file's header and layout.
     *
     * @param type the message class, or null for a raw queue
     */
    SegmentDirectory(Path dir, Class<T> type, BlitQueue.Options options) {
        this.dir = dir;
        this.type = type;
        this.copier = type == null ? null : BlockCopier.of(type);
        this.layoutPolicy = options.layoutPolicy();
        this.privateFiles = options.privateFiles();
        try {
            FileModes.createDirectories(dir, privateFiles);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create queue directory " + dir, e);
        }
        SegmentFiles.deleteStaleTemporaries(dir);
        long[] firsts = SegmentFiles.list(dir);
        LayoutDescriptor mine = copier == null ? null : copier.layout().descriptor();
        if (firsts.length == 0) {
            String source = ReplicaMarker.sourceOf(dir);
            if (source != null) {
                throw QueueErrors.replicaWithoutFiles(dir, source);
            }
            this.descriptor = mine;
            this.segmentSize = options.segmentSize();
            SegmentFiles.createIfAbsent(dir, 0, segmentSize, descriptor, privateFiles);
            firsts = SegmentFiles.list(dir);
        } else {
            SegmentHeader.Info last = SegmentFiles.readHeader(dir, firsts[firsts.length - 1]);
            this.segmentSize = last.segmentSize();
            this.descriptor = type == null ? last.descriptor() : mine;
        }
        for (SegmentHeader.Info info : Retention.readExisting(dir, firsts)) { // retention may delete meanwhile
            check(info);
        }
        if (descriptor != null && maxPayload() < descriptor.length()) {
            throw QueueErrors.messageTooLarge(descriptor.length(), segmentSize, maxPayload());
        }
        this.preparer = new SegmentPreparer(dir, segmentSize, descriptor, privateFiles);
        this.prepareNextFile = options.prepareNextFile();
    }

    Path path() {
        return dir;
    }

    Class<T> type() {
        return type;
    }

    /** The layout appenders write and new files record, or null for a raw queue of raw files. */
    LayoutDescriptor descriptor() {
        return descriptor;
    }

    LayoutPolicy layoutPolicy() {
        return layoutPolicy;
    }

    /** Whether what this queue object creates is its user's only ({@link BlitQueue.Options#privateFiles()}). */
    boolean privateFiles() {
        return privateFiles;
    }

    /**
     * The copier of the message class.
     *
     * @throws IllegalStateException if the queue is opened raw
     */
    BlockCopier<T> copier() {
        if (copier == null) {
            throw QueueErrors.openedRaw(dir);
        }
        return copier;
    }

    long segmentSize() {
        return segmentSize;
    }

    /** The payload length every record must have, or -1 when any length is allowed. */
    int fixedPayloadLength() {
        return descriptor == null ? -1 : descriptor.length();
    }

    /** The longest payload a record of this queue holds: what a file's records area takes, at most 2^31 - 1 bytes. */
    long maxPayload() {
        return Math.min(segmentSize - SegmentHeader.RECORDS_START - RecordHeader.LENGTH, RecordHeader.MAX_PAYLOAD);
    }

    /** The first indices of the files, ascending. */
    long[] firsts() {
        return SegmentFiles.list(dir);
    }

    /** The newest file, mapped in the caller's thread for appending; its layout must be ours. */
    MappedSegment mapNewestForAppend() {
        long[] firsts = firsts();
        return new MappedSegment(fileForWriting(firsts[firsts.length - 1]));
    }

    /**
     * The file of {@code firstIndex}, mapped in the caller's thread for appending, created if absent (rolling):
     * published from the background preparation if {@link #prepareFile} asked for it, else created here. Its
     * layout must be ours.
     */
    MappedSegment mapForAppend(long firstIndex) {
        preparer.publishIfPrepared(firstIndex);
        SegmentHeader.Info info = checkWritable(check(SegmentFiles.createIfAbsent(dir, firstIndex, segmentSize,
                descriptor, privateFiles)));
        return new MappedSegment(info);
    }

    /**
     * The existing file of {@code first}, mapped in the caller's thread for reading; the next wanted index in it is
     * {@code wanted}.
     *
     * @throws MessagesDeletedException if the file was deleted (by retention)
     */
    MappedSegment mapForReading(long first, long wanted) {
        try {
            return new MappedSegment(file(first));
        } catch (UncheckedIOException e) {
            throw Retention.deletedOr(e, dir, wanted);
        }
    }

    /** Validated header of the existing file of {@code firstIndex}, whose layout must be ours. */
    SegmentHeader.Info fileForWriting(long firstIndex) {
        return checkWritable(file(firstIndex));
    }

    /** The reader of the records of a file this directory validated. */
    BlockReader<T> reader(SegmentHeader.Info info) {
        BlockReader<T> reader = readers.get(info.descriptor());
        return reader != null ? reader : readerOf(info);
    }

    /**
     * Starts preparing the file of {@code firstIndex} in the background (see {@link SegmentPreparer}), unless the
     * options turned preparation off.
     */
    void prepareFile(long firstIndex) {
        if (prepareNextFile) {
            preparer.request(firstIndex);
        }
    }

    /** Stops the background preparation and deletes what it left. */
    @Override
    public void close() {
        preparer.close();
    }

    /** Validated header of the existing file of {@code firstIndex}. */
    private SegmentHeader.Info file(long firstIndex) {
        return check(SegmentFiles.readHeader(dir, firstIndex));
    }

    private SegmentHeader.Info check(SegmentHeader.Info info) {
        if (descriptor == null) {
            if (!info.raw()) {
                throw QueueErrors.typedFileOpenedRaw(info.file(), info.descriptor().className());
            }
            return info;
        }
        if (info.raw()) {
            throw QueueErrors.rawFileOpenedTyped(info.file(), descriptor.className());
        }
        if (copier == null) {
            // Opened raw on a queue of a message class: payloads are the stored blocks, of one layout throughout.
            LayoutComparison comparison = info.descriptor().compatibility(descriptor);
            if (!comparison.identical()) {
                throw QueueErrors.layoutMismatch(info.file(), comparison);
            }
        } else {
            readerOf(info);
        }
        return info;
    }

    private BlockReader<T> readerOf(SegmentHeader.Info info) {
        BlockReader<T> reader = readers.get(info.descriptor());
        if (reader == null) {
            try {
                reader = BlockReader.of(info.descriptor(), copier, layoutPolicy);
            } catch (IncompatibleLayoutException e) {
                throw QueueErrors.layoutMismatch(info.file(), e);
            }
            readers.putIfAbsent(info.descriptor(), reader);
        }
        return reader;
    }

    private SegmentHeader.Info checkWritable(SegmentHeader.Info info) {
        if (descriptor != null && !info.raw()) {
            LayoutComparison comparison = info.descriptor().compatibility(descriptor);
            if (!comparison.identical() || !info.descriptor().jvm().byteOrder().equals(descriptor.jvm().byteOrder())) {
                throw QueueErrors.foreignLayoutAppend(info.file(), comparison);
            }
        }
        return info;
    }
}

package io.blit.queue.internal.sidecar;

import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.file.FileModes;
import io.blit.queue.internal.format.FileFeatures;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.writer.WriterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The positions file of a queue's named consumers, {@code consumers.blitc} in the queue directory: a 64-byte header,
 * then {@value #SLOTS} slots of 64 bytes (one cache line each), 64 KiB in all; its bytes are specified in
 * {@code docs/format.md} ("The positions file"). This class creates, validates and maps the file; {@link ConsumerSlots}
 * is the protocol on its slots.
 *
 * <p>Header integers are little-endian (the file must not depend on the platform); the slots' words are native-order,
 * like the segment files' record words, because compare-and-set on a mapped segment needs the native aligned
 * {@code long}: the header records that order ({@link #BYTE_ORDER_OFFSET}, 0 in files of builds that predate the field:
 * little-endian) and its feature masks ({@link FileFeatures}); a reader refuses a file of another order or with an
 * unknown incompatible feature. The file is mapped from offset 0, so every slot is 64-byte aligned in memory and every
 * word of it 8-byte aligned.
 *
 * <p>Creation is all-or-nothing, as for segment files: the complete file (header, zero slots) is written to
 * {@code consumers.blitc.tmp-<owner>-<thread id>} (owner: {@link WriterRegistry#temporaryTag}), forced, and published with {@link Files#createLink}, which fails if
 * another creator (thread or process) won the race; the loser uses the winner's file. A reader never sees the file
 * without its header. Temporaries of dead creators are deleted by the next creator. The file is never opened or
 * created through a symbolic link: a link of its name is refused, naming it, and nothing is created where it points.
 * Stateless; thread-safe.
 */
public final class ConsumerFile {
    /** The file's name in the queue directory. */
    public static final String NAME = "consumers.blitc";
    /** The format version this build writes; format 1 (holders named by pid and start time) is read and upgraded. */
    public static final int FORMAT_VERSION = 2;
    public static final int HEADER_LENGTH = 64;
    public static final int SLOT_SIZE = 64;
    /** Slots of a file created by this version: the file is 64 KiB. */
    public static final int SLOTS = 1023;
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 8;
    public static final int SLOT_SIZE_OFFSET = 12;
    public static final int SLOT_COUNT_OFFSET = 16;
    /** The byte order code of the slots' words ({@link FileFeatures}); 0 (not recorded) reads as little-endian. */
    public static final int BYTE_ORDER_OFFSET = 20;
    public static final int CREATED_OFFSET = 24;
    public static final int PID_OFFSET = 32;
    /** Compatible feature bits, u64 ({@link FileFeatures}). */
    public static final int COMPATIBLE_OFFSET = 40;
    /** Incompatible feature bits, u64 ({@link FileFeatures}). */
    public static final int INCOMPATIBLE_OFFSET = 48;
    public static final int CRC_OFFSET = 60;
    /**
     * Incompatible feature bit 0 of the positions file, <em>slot reuse</em>: a REMOVED slot may have been given to
     * another name, so a creator must hold the creation lock ({@link WriterRegistry#lockConsumerCreation}) and a
     * reader must check a name's state word again after reading it. Set by the first such reuse; builds that predate
     * it refuse the file rather than create slots without the lock.
     */
    public static final long SLOT_REUSE = 1L;
    /** The incompatible feature bits of the positions file this build reads. */
    public static final long INCOMPATIBLE_KNOWN = SLOT_REUSE;
    /** How many times a header whose CRC does not match is read again before it is refused (a rewrite in flight). */
    private static final int HEADER_REREADS = 100;

    private static final byte[] MAGIC = "BLITCON\0".getBytes(StandardCharsets.US_ASCII);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final Pattern TEMPORARY = Pattern.compile(Pattern.quote(NAME) + "\\.tmp-(w?\\d+)-\\d+");

    private ConsumerFile() {
    }

    /** The positions file of queue directory {@code dir}. */
    public static Path path(Path dir) {
        return dir.resolve(NAME);
    }

    /**
     * The positions file of {@code dir}, validated and mapped read-write into {@code arena}; null if there is none.
     *
     * @throws QueueCorruptedException if its header is invalid
     * @throws IllegalStateException   if it is a symbolic link
     * @throws UncheckedIOException    if the file system fails
     */
    public static ConsumerSlots mapExisting(Path dir, Arena arena, WriterRegistry writers) {
        return mapExisting(dir, arena, false, writers);
    }

    /**
     * As {@link #mapExisting(Path, Arena, WriterRegistry)}; with {@code readOnly}, opened for reading and mapped
     * read-only. {@code writers} may be null for a caller that reads only names and indices (no liveness).
     */
    public static ConsumerSlots mapExisting(Path dir, Arena arena, boolean readOnly, WriterRegistry writers) {
        Path file = path(dir);
        FileModes.requireNoLink(file);
        try (FileChannel channel = readOnly ? FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)
                : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            long size = channel.size();
            if (size < HEADER_LENGTH) {
                throw corrupt(file, size, "truncated: the file is " + size + " bytes, shorter than its "
                        + HEADER_LENGTH + "-byte header");
            }
            MemorySegment mapped = channel.map(readOnly ? FileChannel.MapMode.READ_ONLY : FileChannel.MapMode.READ_WRITE,
                    0, size, arena);
            int slots = validate(file, mapped, size);
            return new ConsumerSlots(file, mapped, slots, mapped.get(INT, VERSION_OFFSET), writers);
        } catch (NoSuchFileException absent) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map the consumer positions file " + file, e);
        }
    }

    /**
     * As {@link #mapExisting}, creating the file first if there is none (with mode {@code rw-------} if
     * {@code privateFiles}).
     */
    public static ConsumerSlots mapOrCreate(Path dir, boolean privateFiles, Arena arena, WriterRegistry writers) {
        ConsumerSlots existing = mapExisting(dir, arena, writers);
        if (existing != null) {
            return existing;
        }
        create(dir, privateFiles);
        ConsumerSlots created = mapExisting(dir, arena, writers);
        if (created == null) {
            throw new UncheckedIOException(new NoSuchFileException(path(dir).toString(), null,
                    "the consumer positions file vanished right after it was created"));
        }
        return created;
    }

    /** The header of a new file: every field above, CRC included. */
    public static byte[] header(long createdNanos, long pid) {
        ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        header.put(MAGIC).putInt(FORMAT_VERSION).putInt(SLOT_SIZE).putInt(SLOTS).putInt(FileFeatures.NATIVE_ORDER)
                .putLong(createdNanos).putLong(pid).putLong(FileFeatures.COMPATIBLE_WRITTEN)
                .putLong(FileFeatures.INCOMPATIBLE_WRITTEN);
        CRC32C crc = new CRC32C();
        crc.update(header.array(), 0, CRC_OFFSET);
        header.putInt(CRC_OFFSET, (int) crc.getValue());
        return header.array();
    }

    /** Creates the complete file under a temporary name and publishes it, unless another creator did first. */
    private static void create(Path dir, boolean privateFiles) {
        Path file = path(dir);
        deleteStaleTemporaries(dir);
        Path tmp = dir.resolve(NAME + ".tmp-" + WriterRegistry.temporaryTag(dir) + "-" + Thread.currentThread().threadId());
        try {
            Files.deleteIfExists(tmp);
            try (FileChannel channel = FileModes.open(tmp, privateFiles, Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))) {
                ByteBuffer bytes = ByteBuffer.allocate(HEADER_LENGTH + SLOTS * SLOT_SIZE);
                bytes.put(header(System.currentTimeMillis() * 1_000_000L, ProcessHandle.current().pid())).clear();
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                channel.force(true);
            }
            Files.createLink(file, tmp);
        } catch (FileAlreadyExistsException lostRace) {
            // another creator published first: its file is used
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the consumer positions file " + file, e);
        } finally {
            SegmentFiles.deleteQuietly(tmp);
        }
    }

    /** Deletes the temporaries of creators whose process is no longer alive. */
    private static void deleteStaleTemporaries(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Matcher m = TEMPORARY.matcher(file.getFileName().toString());
                if (m.matches() && !WriterRegistry.temporaryOwnerAlive(dir, m.group(1))) {
                    SegmentFiles.deleteQuietly(file);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list queue directory " + dir, e);
        }
    }

    /**
     * Checks magic, version, the CRC, byte order and incompatible features, slot size and count against the file's
     * size; returns the slot count.
     */
    private static int validate(Path file, MemorySegment mapped, long size) {
        for (int i = 0; i < MAGIC.length; i++) {
            if (mapped.get(ValueLayout.JAVA_BYTE, MAGIC_OFFSET + i) != MAGIC[i]) {
                throw corrupt(file, MAGIC_OFFSET, "not a Blit consumer positions file (magic is not \"BLITCON\\0\")");
            }
        }
        int version = mapped.get(INT, VERSION_OFFSET);
        if (version < 1 || version > FORMAT_VERSION) {
            throw corrupt(file, VERSION_OFFSET, "format version " + version + ", this reader understands " + FORMAT_VERSION);
        }
        for (int attempt = 0; ; attempt++) { // another process may be rewriting the header: a feature bit, then CRC
            int computed = headerCrc(mapped);
            int stored = mapped.get(INT, CRC_OFFSET);
            if (computed == stored) {
                break;
            }
            if (attempt == HEADER_REREADS) {
                throw corrupt(file, CRC_OFFSET, String.format("header checksum mismatch: CRC32C of bytes [0, %d) is"
                        + " %08x, stored %08x", CRC_OFFSET, computed, stored));
            }
            LockSupport.parkNanos(100_000);
        }
        String order = FileFeatures.byteOrderProblem(mapped.get(INT, BYTE_ORDER_OFFSET));
        if (order != null) {
            throw corrupt(file, BYTE_ORDER_OFFSET, order);
        }
        String features = FileFeatures.incompatibleProblem(mapped.get(LONG, INCOMPATIBLE_OFFSET), INCOMPATIBLE_KNOWN);
        if (features != null) {
            throw corrupt(file, INCOMPATIBLE_OFFSET, features);
        }
        int slotSize = mapped.get(INT, SLOT_SIZE_OFFSET);
        if (slotSize != SLOT_SIZE) {
            throw corrupt(file, SLOT_SIZE_OFFSET, "slot size " + slotSize + ", this reader understands " + SLOT_SIZE);
        }
        long slots = Integer.toUnsignedLong(mapped.get(INT, SLOT_COUNT_OFFSET));
        if (slots < 1 || HEADER_LENGTH + slots * SLOT_SIZE != size) {
            throw corrupt(file, SLOT_COUNT_OFFSET, "truncated or extended: " + slots + " slots need "
                    + (HEADER_LENGTH + slots * SLOT_SIZE) + " bytes, the file is " + size);
        }
        return (int) slots;
    }

    /**
     * Rewrites the version of the mapped file's header, then its CRC ({@link ConsumerSlots#upgrade}); nothing if the
     * file already has that version (another process upgraded it).
     */
    static void rewriteVersion(MemorySegment mapped, int version) {
        if (mapped.get(INT, VERSION_OFFSET) != version) {
            mapped.set(INT, VERSION_OFFSET, version);
            mapped.set(INT, CRC_OFFSET, headerCrc(mapped));
        }
    }

    /** {@return whether the mapped file's header has incompatible feature {@code bit}} */
    static boolean hasIncompatible(MemorySegment mapped, long bit) {
        return (mapped.get(LONG, INCOMPATIBLE_OFFSET) & bit) != 0;
    }

    /**
     * Sets incompatible feature {@code bit} in the mapped file's header, then its CRC, and forces the header to storage;
     * under the creation lock ({@link WriterRegistry#lockConsumerCreation}), so no two processes rewrite it at once.
     */
    static void setIncompatible(MemorySegment mapped, long bit) {
        mapped.set(LONG, INCOMPATIBLE_OFFSET, mapped.get(LONG, INCOMPATIBLE_OFFSET) | bit);
        mapped.set(INT, CRC_OFFSET, headerCrc(mapped));
        mapped.asSlice(0, HEADER_LENGTH).force();
    }

    private static int headerCrc(MemorySegment mapped) {
        CRC32C crc = new CRC32C();
        crc.update(mapped.asSlice(0, CRC_OFFSET).asByteBuffer());
        return (int) crc.getValue();
    }

    private static QueueCorruptedException corrupt(Path file, long offset, String problem) {
        return QueueErrors.badConsumerFile(file, offset, problem);
    }
}

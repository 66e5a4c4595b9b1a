package io.blit.queue.internal.sidecar;

import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.file.FileModes;
import io.blit.queue.internal.format.FileFeatures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * The file {@code fence.blitf} in a queue directory: one word, the highest term the directory knows of, which
 * appenders load before every claim and which only rises. A primary whose term is below the word is fenced: a newer
 * primary exists, and its appenders refuse to append. 128 bytes, created whole under a temporary name, forced and
 * hard-linked to its name (a second creator keeps the first one's file); the word is then changed only in place, by a
 * compare-and-set in a shared mapping, so that every process that maps the file sees it at its next load. The layout
 * is in docs/format.md ("The fence").
 *
 * <pre>
 * 0   magic "BLITFNC\0"                       8 bytes
 * 8   version u32 LE (1)
 * 12  byte order u32 LE of the word ({@link FileFeatures})
 * 16  compatible features u64 LE (0)
 * 24  incompatible features u64 LE (0)
 * 32  reserved, 0                              28 bytes
 * 60  CRC32C u32 LE of bytes [0, 60)
 * 64  fence term u64, native order: only raised, by compare-and-set
 * 72  reserved, 0                              56 bytes
 * </pre>
 *
 * <p><b>Memory ordering.</b> {@link #raise} is a volatile compare-and-set, {@link #load} an acquire load: a load
 * that sees a raised word sees everything its raiser wrote before the raise (the term history of a promotion).
 *
 * <p>Stateless; thread-safe. Creation is atomic among processes; raising is lock-free among processes.
 */
public final class FenceFile {
    /** The file's name in the queue directory. */
    public static final String NAME = "fence.blitf";
    /** The file's size in bytes. */
    public static final int LENGTH = 128;
    /** Where the fence term lies, 8-byte aligned. */
    public static final long WORD_OFFSET = 64;

    static final byte[] MAGIC = "BLITFNC\0".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    static final int VERSION_OFFSET = 8;
    static final int BYTE_ORDER_OFFSET = 12;
    static final int INCOMPATIBLE_OFFSET = 24;
    static final int CRC_OFFSET = 60;

    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private FenceFile() {
    }

    /**
     * {@return the fence term in {@code fence}, a mapping from {@link #map}, by an acquire load} No system call, no
     * allocation: what an appender does before each claim.
     */
    public static long load(MemorySegment fence) {
        return (long) WORD.getAcquire(fence, WORD_OFFSET);
    }

    /**
     * Raises the fence term in {@code fence}, a writable mapping from {@link #map}, to {@code term} if it is below:
     * a compare-and-set loop, so that of concurrent raisers in any processes the highest term stands.
     *
     * @return whether this call raised it (false: it was at {@code term} or above already)
     */
    public static boolean raise(MemorySegment fence, long term) {
        long seen = load(fence);
        while (seen < term) {
            long witness = (long) WORD.compareAndExchange(fence, WORD_OFFSET, seen, term);
            if (witness == seen) {
                return true;
            }
            seen = witness;
        }
        return false;
    }

    /**
     * The fence of the queue in {@code dir}, mapped in {@code arena}: a shared arena for a mapping any thread uses,
     * which the caller closes to unmap it.
     *
     * @param writable whether to map it for {@link #raise} too
     * @return the mapping, or null if the directory has no fence file
     * @throws QueueCorruptedException if the file is not a fence this build reads
     * @throws UncheckedIOException    if it cannot be read or mapped, or is a link or not a regular file
     */
    public static MemorySegment map(Path dir, boolean writable, Arena arena) {
        Path file = dir.resolve(NAME);
        OpenOption[] modes = writable
                ? new OpenOption[] {StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS}
                : new OpenOption[] {StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS}; // a link: ELOOP
        try {
            if (!Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isRegularFile()) {
                throw new IOException("not a regular file"); // checked before the open, which a FIFO would block
            }
        } catch (NoSuchFileException absent) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map the fence " + file + ": " + e.getMessage(), e);
        }
        try (FileChannel channel = FileChannel.open(file, modes)) {
            ByteBuffer bytes = ByteBuffer.allocate(LENGTH + 1);
            while (bytes.hasRemaining() && channel.read(bytes) >= 0) {
                // reads the whole file, and one byte more if it is longer than a fence
            }
            check(file, bytes.array(), bytes.position());
            return channel.map(writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY, 0, LENGTH,
                    arena);
        } catch (NoSuchFileException absent) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map the fence " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@return the fence term of the queue in {@code dir}, or -1 if it has no fence file}
     *
     * @throws QueueCorruptedException if the file is not a fence this build reads
     * @throws UncheckedIOException    if it cannot be read
     */
    public static long read(Path dir) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fence = map(dir, false, arena);
            return fence == null ? -1 : load(fence);
        }
    }

    /**
     * Creates the fence of the queue in {@code dir} holding {@code term}, if it has none: the file written whole under
     * the temporary {@code fence.blitf.tmp-<tag>}, forced, hard-linked to its name (which fails if another process got
     * there first: its file stands), and the directory forced.
     *
     * @param privateFiles whether the file is created {@code rw-------} ({@link FileModes})
     * @throws UncheckedIOException if it cannot be written
     */
    public static void createIfAbsent(Path dir, long term, boolean privateFiles, String tag) {
        Path file = dir.resolve(NAME);
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Path temporary = dir.resolve(NAME + ".tmp-" + tag);
        try {
            Files.deleteIfExists(temporary);
            try (FileChannel out = FileModes.open(temporary, privateFiles, Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))) {
                ByteBuffer bytes = ByteBuffer.wrap(encode(term));
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
                out.force(true);
            }
            try {
                Files.createLink(file, temporary);
            } catch (FileAlreadyExistsException lost) {
                return; // another process created it between our check and our link: theirs stands
            }
            try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
                directory.force(true); // the link survives a crash only once the directory is on disk
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the fence " + file + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException ignored) {
                // the temporary is named after this writer and replaced by its next attempt
            }
        }
    }

    /** {@return the file's bytes holding {@code term}} */
    static byte[] encode(long term) {
        ByteBuffer out = ByteBuffer.allocate(LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        out.put(MAGIC).putInt(VERSION).putInt(FileFeatures.NATIVE_ORDER).putLong(0).putLong(0);
        out.putInt(CRC_OFFSET, crc(out.array()));
        out.order(ByteOrder.nativeOrder()).putLong((int) WORD_OFFSET, term);
        return out.array();
    }

    /**
     * Checks the first {@code length} bytes of a fence file before its word is used.
     *
     * @throws QueueCorruptedException naming file, offset and value of the first problem
     */
    static void check(Path file, byte[] bytes, int length) {
        if (length != LENGTH) {
            throw new QueueCorruptedException(file, Math.min(length, LENGTH), "a fence is " + LENGTH + " bytes, not "
                    + (length > LENGTH ? "more" : length));
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (bytes[i] != MAGIC[i]) {
                throw new QueueCorruptedException(file, 0, "not a Blit fence (magic is not \"BLITFNC\\0\")");
            }
        }
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int version = in.getInt(VERSION_OFFSET);
        if (version != VERSION) {
            throw new QueueCorruptedException(file, VERSION_OFFSET, "fence version " + version
                    + "; this build reads version " + VERSION);
        }
        if (in.getInt(CRC_OFFSET) != crc(bytes)) {
            throw new QueueCorruptedException(file, CRC_OFFSET, "CRC32C mismatch: the fence's header is damaged");
        }
        String order = FileFeatures.byteOrderProblem(in.getInt(BYTE_ORDER_OFFSET));
        if (order != null) {
            throw new QueueCorruptedException(file, BYTE_ORDER_OFFSET, order);
        }
        String features = FileFeatures.incompatibleProblem(in.getLong(INCOMPATIBLE_OFFSET));
        if (features != null) {
            throw new QueueCorruptedException(file, INCOMPATIBLE_OFFSET, features);
        }
    }

    private static int crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, CRC_OFFSET);
        return (int) crc.getValue();
    }
}

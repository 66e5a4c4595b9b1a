package io.blit.queue.internal.sidecar;

import io.blit.queue.internal.file.FileModes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The file {@code quarantine-of} in a quarantine queue (the records an old primary set aside when it rejoined,
 * {@code io.blit.queue.replica.Quarantine}): its presence makes every process refuse appenders in that directory, and
 * {@code replicate status} say {@code role quarantine}, wherever the directory is copied or moved; its text names the
 * queue the records were moved out of (informative). Written into the quarantine before it is published, never deleted.
 *
 * <p>A quarantine written by a build before the marker is recognised where it was made: a directory
 * {@code <queue>/quarantine/from-<i>-<yyyyMMdd'T'HHmmss'Z'>[-<n>]}. Stateless; thread-safe.
 */
public final class QuarantineMarker {
    /** The marker's file name in a quarantine queue's directory. */
    public static final String NAME = "quarantine-of";
    /** The subdirectory of a queue directory that holds its quarantine queues. */
    public static final String PARENT = "quarantine";
    /** A quarantine queue's directory name: {@code from-<first index>-<UTC time of the move>[-<n>]}. */
    public static final Pattern DIRECTORY_NAME = Pattern.compile("from-[0-9]{1,19}-[0-9]{8}T[0-9]{6}Z(-[0-9]{1,9})?");
    private static final int MAX_TEXT = 4096;

    private QuarantineMarker() {
    }

    /**
     * {@return what the quarantine in {@code dir} says it was moved out of ("of /data/q"; empty if it does not say),
     * or null if {@code dir} is not a quarantine}
     *
     * @throws UncheckedIOException if the marker exists but cannot be read
     */
    public static String originOf(Path dir) {
        Path file = dir.resolve(NAME);
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            Path absolute = dir.toAbsolutePath().normalize();
            Path parent = absolute.getParent();
            boolean legacy = parent != null && parent.getFileName() != null
                    && parent.getFileName().toString().equals(PARENT) && absolute.getFileName() != null
                    && DIRECTORY_NAME.matcher(absolute.getFileName().toString()).matches();
            return legacy ? "of " + parent.getParent() : null;
        }
        if (Files.isSymbolicLink(file)) {
            return ""; // a marker all the same: its presence decides; a link is never read
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer text = ByteBuffer.allocate(MAX_TEXT);
            while (text.hasRemaining() && channel.read(text) > 0) {
                // read up to MAX_TEXT bytes: the text is informative
            }
            String origin = new String(text.array(), 0, text.position(), StandardCharsets.UTF_8).strip();
            return origin.isEmpty() ? "" : "of " + origin.replaceAll("\\p{Cntrl}", "?");
        } catch (NoSuchFileException deleted) {
            return "";
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the quarantine marker " + file, e);
        }
    }

    /** {@return whether {@code dir} is a quarantine queue (see the class comment)} */
    public static boolean isQuarantine(Path dir) {
        return originOf(dir) != null;
    }

    /**
     * Writes the marker of the quarantine being built in {@code dir} (not through a link; {@code rw-------} if
     * {@code ownerOnly}), naming {@code origin}, and forces it.
     *
     * @throws IOException if it exists already or the file system fails
     */
    public static void mark(Path dir, Path origin, boolean ownerOnly) throws IOException {
        Path file = dir.resolve(NAME);
        try (FileChannel marker = FileModes.open(file, ownerOnly, Set.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))) {
            ByteBuffer text = ByteBuffer.wrap((origin.toAbsolutePath().normalize() + "\n")
                    .getBytes(StandardCharsets.UTF_8));
            while (text.hasRemaining()) {
                marker.write(text);
            }
            marker.force(true);
        }
    }
}

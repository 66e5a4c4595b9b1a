package io.blit.queue.internal.sidecar;

import io.blit.queue.internal.file.FileModes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.Files;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The file {@code handed-to} in a former primary's directory: which copy became the primary of the term its fence was
 * raised to by a planned handover, so that a refused appender's {@code QueueFencedException} can name it. One line,
 * {@code <term> <name>}: a decimal term, one space, a name of 1 to 200 printable ASCII characters. Written (replaced
 * atomically) before the fence is raised; read only when an append is refused, never on an append path. A note that
 * is absent, malformed, a symbolic link or of another term than the fence is ignored: the exception then names no
 * primary.
 */
public final class HandedToNote {
    /** The note's file name in the queue directory. */
    public static final String NAME = "handed-to";
    private static final Pattern NOTE = Pattern.compile("(0|[1-9][0-9]{0,9}) ([\\x21-\\x7e][\\x20-\\x7e]{0,199})");

    private HandedToNote() {
    }

    /** {@return whether {@code name} can be written in a note: 1 to 200 printable ASCII characters, not starting with a space} */
    public static boolean validName(String name) {
        return name != null && NOTE.matcher("0 " + name).matches();
    }

    /**
     * Writes the note of {@code dir}: the primary of {@code term} is {@code name}. Replaces a note of an earlier
     * handover through a rename, so that a reader sees the old note or the new one.
     *
     * @throws IllegalArgumentException if {@code name} is not 1 to 200 printable ASCII characters
     * @throws UncheckedIOException     if the file system fails
     */
    public static void write(Path dir, long term, String name, boolean privateFiles) {
        if (!validName(name)) {
            throw new IllegalArgumentException("a new primary's name is 1 to 200 printable ASCII characters, not '"
                    + name + "'");
        }
        Path partial = dir.resolve(NAME + ".partial");
        try {
            Files.deleteIfExists(partial);
            Set<OpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
            try (FileChannel note = FileModes.open(partial, privateFiles, options)) {
                ByteBuffer text = ByteBuffer.wrap((term + " " + name + "\n").getBytes(StandardCharsets.US_ASCII));
                while (text.hasRemaining()) {
                    note.write(text);
                }
            }
            Files.move(partial, dir.resolve(NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the note " + dir.resolve(NAME), e);
        }
    }

    /**
     * {@return the name the note of {@code dir} gives for the primary of {@code term}, or null if there is no such
     * note (absent, malformed, a link, another term, unreadable)} Never throws: it only adds to an error message.
     */
    public static String primaryOf(Path dir, long term) {
        Path file = dir.resolve(NAME);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            if (channel.size() > 256) {
                return null;
            }
            String text = new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.US_ASCII);
            Matcher matcher = NOTE.matcher(text.endsWith("\n") ? text.substring(0, text.length() - 1) : text);
            if (!matcher.matches() || Long.parseLong(matcher.group(1)) != term) {
                return null;
            }
            return matcher.group(2);
        } catch (NoSuchFileException none) {
            return null;
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
    }
}

package io.blit.cli;

import io.blit.layout.LayoutDescriptor;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.TypeLayouts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * What the reading commands share: how they open a queue, finding it, naming its types. Used by the commands of
 * {@code blit.jar} and by the queue's other tools. Stateless; thread-safe.
 */
public final class QueueFiles {
    /**
     * How the reading commands open a queue: read-only, so that they work on a read-only mount or files they may only
     * read, and change nothing (a record claimed by a dead writer is stepped over, not marked).
     */
    public static final QueueOptions READ_ONLY = QueueOptions.defaults().readOnly(true);

    private QueueFiles() {
    }

    /**
     * The directory of an existing queue.
     *
     * @return {@code dir}
     * @throws java.io.UncheckedIOException if the directory cannot be listed
     * @throws BadInputException naming what is missing: the directory, or any segment file in it
     */
    public static Path existingQueue(Path dir) {
        if (!Files.exists(dir)) {
            throw new BadInputException("no such directory: " + dir);
        }
        if (!Files.isDirectory(dir)) {
            throw new BadInputException("not a directory: " + dir);
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "segment-*.blitq")) {
            if (!files.iterator().hasNext()) {
                throw new BadInputException("no queue in " + dir + " (no segment-*.blitq file)");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        return dir;
    }

    /** The type ids, as text, and the simple class names of the types of the newest file of {@code queue}. */
    static Set<String> typeNamesOf(BlitQueue<?> queue) {
        Set<String> names = new HashSet<>();
        TypeLayouts.ofNewestFile(queue).classNames().forEach((id, className) -> {
            names.add(Integer.toString(id));
            names.add(className.substring(className.lastIndexOf('.') + 1));
        });
        return names;
    }

    /** Whether a record of stored layout {@code layout} and type id {@code typeId} is of type {@code nameOrId}. */
    static boolean isType(LayoutDescriptor layout, int typeId, String nameOrId) {
        if (layout == null) {
            return false;
        }
        String name = layout.className();
        return name.substring(name.lastIndexOf('.') + 1).equals(nameOrId) || Integer.toString(typeId).equals(nameOrId);
    }
}

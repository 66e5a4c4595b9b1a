package io.blit.queue.internal.file;

import io.blit.queue.internal.error.QueueErrors;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The modes of what a queue creates. With {@code ownerOnly} (the queue option {@code privateFiles}) every file is
 * created {@code rw-------} and every directory {@code rwx------}: given at creation and set again before any byte is
 * written, so that neither the umask nor a moment of a wider mode lets another user read it. Without it, files and
 * directories get the JVM's defaults (the umask's). On a file system without POSIX permissions, nothing is set.
 * Stateless; thread-safe.
 */
public final class FileModes {
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");

    private FileModes() {
    }

    /** Creates {@code dir} and its missing parents ({@link Files#createDirectories}), each {@code rwx------} if asked. */
    public static void createDirectories(Path dir, boolean ownerOnly) throws IOException {
        if (!ownerOnly || Files.isDirectory(dir)) {
            Files.createDirectories(dir);
            return;
        }
        Path missing = dir.toAbsolutePath();
        while (missing.getParent() != null && !Files.exists(missing.getParent())) {
            missing = missing.getParent();
        }
        if (!posix(missing.getParent())) {
            Files.createDirectories(dir);
            return;
        }
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIRECTORY));
        // the umask may have taken bits away; set exactly rwx------ on every directory created here
        for (Path created = dir.toAbsolutePath(); created != null && created.startsWith(missing);
             created = created.getParent()) {
            Files.setPosixFilePermissions(created, DIRECTORY);
        }
    }

    /**
     * Opens {@code file} with {@code options} (which create it), {@code rw-------} if asked: at creation, and set
     * again before the channel is returned (an existing file opened so gets that mode too).
     */
    public static FileChannel open(Path file, boolean ownerOnly, Set<? extends OpenOption> options) throws IOException {
        if (!ownerOnly || !posix(file.toAbsolutePath().getParent())) {
            return FileChannel.open(file, options);
        }
        FileChannel channel = FileChannel.open(file, options, attribute());
        try {
            Files.setPosixFilePermissions(file, FILE);
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Refuses {@code file} if it is a symbolic link: Blit creates and opens the files of a queue directory only as
     * themselves, never through a link (open them with {@link java.nio.file.LinkOption#NOFOLLOW_LINKS} as well, so that
     * a link planted after this check fails the open).
     *
     * @throws IllegalStateException naming the link and where it points
     */
    public static void requireNoLink(Path file) {
        if (Files.isSymbolicLink(file)) {
            throw QueueErrors.symbolicLink(file);
        }
    }

    /**
     * Creates the directory {@code dir}, which must not exist (not even as a link), {@code rwx------} if asked; its
     * parent must exist.
     *
     * @throws java.nio.file.FileAlreadyExistsException if anything of that name exists
     */
    public static void createDirectory(Path dir, boolean ownerOnly) throws IOException {
        if (!ownerOnly || !posix(dir.toAbsolutePath().getParent())) {
            Files.createDirectory(dir);
            return;
        }
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(DIRECTORY));
        Files.setPosixFilePermissions(dir, DIRECTORY); // the umask may have taken bits away
    }

    private static FileAttribute<Set<PosixFilePermission>> attribute() {
        return PosixFilePermissions.asFileAttribute(FILE);
    }

    private static boolean posix(Path path) {
        return path != null && path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}

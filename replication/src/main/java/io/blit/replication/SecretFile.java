package io.blit.replication;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The file that holds a replication secret, the same on the source and on every replica. Its bytes, as they are (a
 * trailing newline included), are the secret: at least {@value #MIN_BYTES} and at most {@value #MAX_BYTES} of them,
 * in a regular file of this process's user that neither group nor others may read or write (mode {@code 0600} or
 * {@code 0400}), named itself (a symbolic link is refused, not followed), opened once. {@link #create}
 * writes a new one. On a file system without POSIX permissions (Windows) the mode is not checked or set: protect the
 * file with its access control list. Stateless; thread-safe.
 */
public final class SecretFile {
    /** The fewest bytes a replication secret has (HMAC-SHA256's block of security: 256 bits). */
    public static final int MIN_BYTES = 32;
    /** The most bytes a secret file may hold: a larger file is not a secret file. */
    public static final int MAX_BYTES = 1024;

    private static final Set<PosixFilePermission> OTHERS_ACCESS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);
    private static final Set<PosixFilePermission> OWNER_READ_WRITE = PosixFilePermissions.fromString("rw-------");

    private SecretFile() {
    }

    /**
     * {@return the secret in {@code file}: its bytes as they are}
     *
     * @param file the secret file, which neither group nor others may read or write
     * @throws IllegalArgumentException naming the file and the problem: group or others may read or write it, it is a
     *                                  symbolic link, a directory or not a regular file, another user owns it, it
     *                                  was replaced while read, it holds fewer than {@value #MIN_BYTES} or more than
     *                                  {@value #MAX_BYTES} bytes
     * @throws UncheckedIOException     if it cannot be read
     */
    public static byte[] read(Path file) {
        try {
            PosixFileAttributes before = checkedAttributes(file);
            byte[] secret;
            // opened once, without following a link (O_NOFOLLOW): a link swapped in after the check is refused
            try (SeekableByteChannel channel = Files.newByteChannel(file, Set.of(StandardOpenOption.READ,
                    LinkOption.NOFOLLOW_LINKS)); InputStream in = Channels.newInputStream(channel)) {
                secret = in.readNBytes(MAX_BYTES + 1);
            }
            PosixFileAttributes after = checkedAttributes(file);
            if (before != null && after != null && !Objects.equals(before.fileKey(), after.fileKey())) {
                throw new IllegalArgumentException("the secret file " + file + " was replaced while it was read:"
                        + " read it again, and find out who can write its directory");
            }
            if (secret.length < MIN_BYTES) {
                throw new IllegalArgumentException("the secret file " + file + " holds " + secret.length
                        + " bytes; a replication secret needs at least " + MIN_BYTES
                        + " (replicate keygen --secret-file F writes one)");
            }
            if (secret.length > MAX_BYTES) {
                throw new IllegalArgumentException("the secret file " + file + " holds more than " + MAX_BYTES
                        + " bytes: not a secret file");
            }
            return secret;
        } catch (FileSystemException e) {
            if (Files.isSymbolicLink(file)) {
                throw notAFile(file, "a symbolic link");
            }
            throw new UncheckedIOException("cannot read the secret file " + file, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the secret file " + file, e);
        }
    }

    /**
     * The file's own attributes (links not followed), checked: a regular file, owned by this process's user, that
     * neither group nor others may read or write; null where the file system has no POSIX attributes.
     */
    private static PosixFileAttributes checkedAttributes(Path file) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (view == null) {
            return null;
        }
        PosixFileAttributes attributes = view.readAttributes();
        if (attributes.isSymbolicLink()) {
            throw notAFile(file, "a symbolic link");
        }
        if (!attributes.isRegularFile()) {
            throw notAFile(file, attributes.isDirectory() ? "a directory" : "not a regular file");
        }
        String user = System.getProperty("user.name");
        if (!attributes.owner().getName().equals(user)) {
            throw new IllegalArgumentException("the secret file " + file + " is owned by " + attributes.owner().getName()
                    + ", not by " + user + " who runs this process: a secret file is its user's own (chown it, or "
                    + "write a new one with replicate keygen)");
        }
        Set<PosixFilePermission> permissions = attributes.permissions();
        if (permissions.stream().anyMatch(OTHERS_ACCESS::contains)) {
            throw new IllegalArgumentException("the secret file " + file + " has mode "
                    + PosixFilePermissions.toString(permissions)
                    + ": group or others may read or write it; make it the owner's only (chmod 600 " + file
                    + ") and, since others could read it, consider the secret known and make a new one");
        }
        return attributes;
    }

    private static IllegalArgumentException notAFile(Path file, String what) {
        return new IllegalArgumentException("the secret file " + file + " is " + what + ": name the file itself (links"
                + " are not followed, so that nobody can point the secret at another file)");
    }

    /**
     * Writes a new secret of {@value #MIN_BYTES} bytes from {@link SecureRandom} to {@code file}, which must not
     * exist: created with mode {@code rw-------} (0600), set again before the secret is written, whatever the umask.
     *
     * @param file the secret file to create; it must not exist
     * @throws IllegalArgumentException if {@code file} exists (a secret is never overwritten)
     * @throws UncheckedIOException     if it cannot be written (nothing is left behind)
     */
    public static void create(Path file) {
        byte[] secret = new byte[MIN_BYTES];
        new SecureRandom().nextBytes(secret);
        Path parent = file.toAbsolutePath().getParent();
        boolean posix = parent != null && parent.getFileSystem().supportedFileAttributeViews().contains("posix");
        boolean created = false;
        Set<StandardOpenOption> options = EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try (SeekableByteChannel channel = posix
                ? Files.newByteChannel(file, options, PosixFilePermissions.asFileAttribute(OWNER_READ_WRITE))
                : Files.newByteChannel(file, options)) {
            created = true;
            if (posix) {
                Files.setPosixFilePermissions(file, OWNER_READ_WRITE);
            }
            ByteBuffer bytes = ByteBuffer.wrap(secret);
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        } catch (FileAlreadyExistsException exists) {
            throw new IllegalArgumentException("the secret file " + file
                    + " exists already; a secret is never overwritten: delete it first, or name another file");
        } catch (IOException e) {
            if (created) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // reported below with the cause
                }
            }
            throw new UncheckedIOException("cannot write the secret file " + file, e);
        }
    }

    /**
     * Checks a secret's length (the options of a source and of a replica).
     *
     * @throws IllegalArgumentException if it has fewer than {@value #MIN_BYTES} bytes
     */
    static void requireLength(byte[] secret) {
        if (secret.length < MIN_BYTES) {
            throw new IllegalArgumentException("the replication secret must have at least " + MIN_BYTES
                    + " bytes, got " + secret.length);
        }
    }
}

package io.blit.replication;

import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Set;

/**
 * Where embedded Aeron media drivers live: one private directory per user, {@code <Aeron's default directory>-blit}
 * ({@code /dev/shm/aeron-<user>-blit} on Linux), with one directory per driver inside it. Aeron's default directory
 * lies in a world-writable place, where any local user may create a name before the driver does (a link to a queue,
 * say); inside a directory that only its user can write, nobody else can.
 *
 * <ul>
 *   <li>The private directory is created with mode {@code rwx------}, and so is each missing directory above it. If
 *       it exists it must be a real directory (not a link), owned by the user this JVM runs as, and writable by
 *       nobody else (no group or other write bit); else every embedded driver is refused with
 *       {@link IllegalStateException} naming the directory, its owner and mode and what to do. One that group or
 *       others may only read or enter is given mode {@code rwx------} before any driver starts in it: nobody but its
 *       user ever reaches a driver's files, from before the driver creates them.</li>
 *   <li>{@link #prepare} deletes what processes killed with their driver left there: each directory owned by this
 *       user that has not changed for {@link #STALE_MILLIS} and whose driver's heartbeat is as old (a live driver
 *       heartbeats every few milliseconds), and each such link. It never follows a link: a link is deleted as a link,
 *       and a directory is walked without following the links in it.</li>
 *   <li>{@link #restrictToOwner} gives a launched driver's directory mode {@code rwx------} (Aeron deletes and
 *       creates it itself, with the umask's mode; the private directory around it keeps others out meanwhile).</li>
 * </ul>
 *
 * <p>On a file system without POSIX permissions (Windows, where Aeron's default directory lies in the user's own
 * temporary directory) owners and modes are neither checked nor set; links are still never followed. For an application
 * that launches embedded media drivers of its own beside replication's (for other Aeron traffic, or to measure Aeron
 * alone): {@link #prepare} and {@link #restrictToOwner} give its drivers the same private directory, and their
 * leftovers the same clean-up. Stateless; thread-safe.
 */
public final class DriverDirectories {
    /**
     * How long a driver directory must be untouched, and its driver's heartbeat silent, before another embedded
     * driver deletes it as the leftover of a killed process: longer than Aeron's driver timeout (10 s), so that a live
     * driver (which heartbeats every few milliseconds) or one still starting is never taken for dead.
     */
    public static final long STALE_MILLIS = 30_000;

    private static final String SUFFIX = "-blit";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;
    private static final System.Logger LOG = System.getLogger("io.blit.replication");

    private DriverDirectories() {
    }

    /** {@return the private directory: Aeron's default directory (property {@code aeron.dir}) + {@code -blit}} */
    public static Path parent() {
        return Path.of(CommonContext.getAeronDirectoryName() + SUFFIX).toAbsolutePath();
    }

    /**
     * The directory to launch the embedded driver {@code name} in, absent: creates or checks the private directory,
     * deletes the stale leftovers of killed processes in it, and deletes whatever is under {@code name} (the
     * directory of this driver's killed predecessor, as {@code dirDeleteOnStart} would, but without following a link).
     *
     * @param name the driver's directory name, one path element (e.g. {@code source-1f2e3d4c})
     * @return the driver's directory, {@code name} in the private directory; absent
     * @throws IllegalStateException    if the private directory is a link, not a directory, another user's, or
     *                                  writable by group or others
     * @throws IllegalArgumentException if {@code name} is not one plain path element
     * @throws UncheckedIOException     if the file system fails
     */
    public static Path prepare(String name) {
        if (name == null || name.isEmpty() || name.equals(".") || name.equals("..") || name.contains("/")
                || name.contains(FileSystems.getDefault().getSeparator())) {
            throw new IllegalArgumentException("a driver directory's name is one path element, got " + name);
        }
        Path parent = privateParent();
        deleteStale(parent, name);
        Path dir = parent.resolve(name);
        try {
            deleteTree(dir); // Aeron's own deletion on start would follow the links in it
        } catch (NoSuchFileException absent) {
            // the driver creates it
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear the driver directory " + dir, e);
        }
        return dir;
    }

    /**
     * Gives the directory of a launched driver mode {@code rwx------} (a no-op without POSIX permissions).
     *
     * @param driverDir the launched driver's directory, as {@link #prepare} gave it
     * @throws IllegalStateException if it is not a real directory of this user
     * @throws UncheckedIOException  if the file system fails
     */
    public static void restrictToOwner(Path driverDir) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(driverDir, BasicFileAttributes.class, NOFOLLOW);
            if (!attributes.isDirectory()) {
                throw new IllegalStateException("the embedded Aeron driver's directory " + driverDir
                        + " is not a directory");
            }
            if (posix(driverDir)) {
                UserPrincipal owner = Files.getOwner(driverDir, NOFOLLOW);
                if (!owner.equals(currentUser())) {
                    throw new IllegalStateException("the embedded Aeron driver's directory " + driverDir
                            + " belongs to " + owner.getName() + ", not to " + currentUser().getName());
                }
                Files.setPosixFilePermissions(driverDir, OWNER_ONLY);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot restrict the driver directory " + driverDir + " to its owner", e);
        }
    }

    /** The private directory, created (mode {@code rwx------}, as each missing directory above it) or checked. */
    static Path privateParent() {
        Path parent = parent();
        try {
            createOwnerOnly(parent.getParent());
            if (posix(parent.getParent())) {
                Files.createDirectory(parent, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                Files.setPosixFilePermissions(parent, OWNER_ONLY); // exactly rwx------, whatever the umask
            } else {
                Files.createDirectory(parent);
            }
            return parent;
        } catch (FileAlreadyExistsException exists) {
            return restricted(checked(parent));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the embedded Aeron drivers' directory " + parent, e);
        }
    }

    /** Creates {@code dir} and each missing directory above it with mode {@code rwx------}, whatever the umask. */
    private static void createOwnerOnly(Path dir) throws IOException {
        if (dir == null || Files.isDirectory(dir)) {
            return;
        }
        createOwnerOnly(dir.getParent());
        try {
            if (posix(dir.getParent() == null ? dir : dir.getParent())) {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                Files.setPosixFilePermissions(dir, OWNER_ONLY);
            } else {
                Files.createDirectory(dir);
            }
        } catch (FileAlreadyExistsException raced) {
            // another process created it meanwhile: it is checked where it matters, at the private directory
        }
    }

    /**
     * A checked private directory that group or others may read or enter (but not write), given mode
     * {@code rwx------}: its user owns it, and what drivers keep in it is nobody else's to read.
     */
    private static Path restricted(Path parent) {
        try {
            if (posix(parent) && !Files.readAttributes(parent, PosixFileAttributes.class, NOFOLLOW).permissions()
                    .equals(OWNER_ONLY)) {
                Files.setPosixFilePermissions(parent, OWNER_ONLY);
                LOG.log(System.Logger.Level.INFO, "gave the embedded Aeron drivers' directory " + parent
                        + " mode rwx------: group or others could read it");
            }
            return parent;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot restrict the embedded Aeron drivers' directory " + parent
                    + " to its owner", e);
        }
    }

    /** {@code parent} if it is a real directory of this user that nobody else may write; else refuses. */
    private static Path checked(Path parent) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(parent, BasicFileAttributes.class, NOFOLLOW);
            UserPrincipal owner = Files.getOwner(parent, NOFOLLOW);
            boolean posix = posix(parent);
            String mode = "";
            boolean othersWrite = false;
            if (posix) {
                Set<PosixFilePermission> permissions =
                        Files.readAttributes(parent, PosixFileAttributes.class, NOFOLLOW).permissions();
                mode = ", mode " + PosixFilePermissions.toString(permissions);
                othersWrite = permissions.contains(PosixFilePermission.GROUP_WRITE)
                        || permissions.contains(PosixFilePermission.OTHERS_WRITE);
            }
            String what = "the embedded Aeron drivers' directory " + parent + " (owner " + owner.getName() + mode + ")";
            String rule = "; it must be a directory of " + currentUser().getName() + " that nobody else may write: ";
            String elsewhere = ", or run with an external media driver (--aeron-dir) or another aeron.dir";
            if (attributes.isSymbolicLink()) {
                throw new IllegalStateException(what + " is a symbolic link, which Blit does not follow" + rule
                        + "delete the link" + elsewhere);
            }
            if (!attributes.isDirectory()) {
                throw new IllegalStateException(what + " is not a directory" + rule + "delete it" + elsewhere);
            }
            if (posix && !owner.equals(currentUser())) {
                throw new IllegalStateException(what + " belongs to another user" + rule
                        + "have it deleted (its owner or root)" + elsewhere);
            }
            if (othersWrite) {
                throw new IllegalStateException(what + " is writable by group or others" + rule + "chmod go-w "
                        + parent + elsewhere);
            }
            return parent;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot check the embedded Aeron drivers' directory " + parent, e);
        }
    }

    /**
     * Deletes the driver directories in {@code parent} (all but {@code own}) that processes killed with their driver
     * left behind: each holds the driver's log buffers (tens of MiB in {@code /dev/shm}), and a killed replica of a
     * temporary queue is never restarted to reuse its own. Only this user's directories and links untouched for
     * {@link #STALE_MILLIS}, and only if no driver heartbeats there.
     */
    private static void deleteStale(Path parent, String own) {
        long now = System.currentTimeMillis();
        boolean posix = posix(parent);
        UserPrincipal me = posix ? currentUser() : null;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent)) {
            for (Path entry : entries) {
                if (entry.getFileName().toString().equals(own)) {
                    continue;
                }
                try {
                    BasicFileAttributes attributes = Files.readAttributes(entry, BasicFileAttributes.class, NOFOLLOW);
                    boolean stale = now - attributes.lastModifiedTime().toMillis() > STALE_MILLIS;
                    if (!stale || !(attributes.isDirectory() || attributes.isSymbolicLink())
                            || posix && !Files.getOwner(entry, NOFOLLOW).equals(me)
                            || attributes.isDirectory() && driverActive(entry)) {
                        continue;
                    }
                    deleteTree(entry);
                    LOG.log(System.Logger.Level.INFO, "deleted the driver directory " + entry
                            + " of a process that ended without closing it");
                } catch (IOException | RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "cannot delete the stale driver directory " + entry + ": " + e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the embedded Aeron drivers' directory " + parent, e);
        }
    }

    /**
     * Whether a driver heartbeats in {@code dir} ({@code cnc.dat} is looked at only if it is a regular file). A
     * {@code cnc.dat} whose version is still 0 was created by a driver killed before it initialised it: Aeron's check
     * would wait {@link #STALE_MILLIS} for it and throw, on every start, so it is read here first (the directory is
     * already untouched for that long).
     */
    private static boolean driverActive(Path dir) throws IOException {
        Path cnc = dir.resolve(CncFileDescriptor.CNC_FILE);
        if (!Files.isRegularFile(cnc, NOFOLLOW)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(cnc, StandardOpenOption.READ, NOFOLLOW)) {
            ByteBuffer version = ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
            while (version.hasRemaining() && channel.read(version, CncFileDescriptor.cncVersionOffset(0)
                    + version.position()) > 0) {
                // a version word of 4 bytes, or a shorter file
            }
            if (version.hasRemaining() || version.getInt(0) == 0) {
                return false;
            }
        }
        return CommonContext.isDriverActive(dir.toFile(), STALE_MILLIS, message -> { });
    }

    /**
     * Deletes {@code path} and, if it is a directory, everything in it, never following a link: a link is deleted as
     * a link, whatever it points at.
     */
    static void deleteTree(Path path) throws IOException {
        Files.walkFileTree(path, EnumSet.noneOf(java.nio.file.FileVisitOption.class), Integer.MAX_VALUE,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                        Files.delete(file); // a link among them: the link itself
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                        if (failure != null) {
                            throw failure;
                        }
                        Files.delete(dir);
                        return FileVisitResult.CONTINUE;
                    }
                });
    }

    /** The user this JVM runs as: the owner of the files it creates. */
    static UserPrincipal currentUser() {
        try {
            return FileSystems.getDefault().getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name"));
        } catch (IOException | UnsupportedOperationException unknown) {
            // a user without a name (a container's uid with no passwd entry): the process's own directory on Linux
            try {
                return Files.getOwner(Path.of("/proc/self"));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot tell which user this JVM runs as", e);
            }
        }
    }

    private static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}

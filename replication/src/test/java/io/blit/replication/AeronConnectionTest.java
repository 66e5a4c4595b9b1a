package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.aeron.CommonContext;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where embedded drivers live and what their start deletes, with Aeron's default directory moved into a temporary
 * directory ({@code aeron.dir}): the private directory {@code <default>-blit}, and the sweep of what killed processes
 * left in it, which never follows a link and never deletes what its user does not own or a live driver uses.
 */
@SuppressWarnings("try") // a connection or driver held open only for its side effects
class AeronConnectionTest {
    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

    @TempDir
    Path tmp;
    private Path base;
    private Path privateDir;
    private String savedAeronDir;

    @BeforeEach
    void moveAeronsDefaultDirectory() {
        savedAeronDir = System.getProperty(CommonContext.AERON_DIR_PROP_NAME);
        base = tmp.resolve("aeron-u");
        System.setProperty(CommonContext.AERON_DIR_PROP_NAME, base.toString());
        privateDir = tmp.resolve("aeron-u-blit");
    }

    @AfterEach
    void restoreAeronsDefaultDirectory() {
        if (savedAeronDir == null) {
            System.clearProperty(CommonContext.AERON_DIR_PROP_NAME);
        } else {
            System.setProperty(CommonContext.AERON_DIR_PROP_NAME, savedAeronDir);
        }
    }

    @Test
    void anEmbeddedDriverLivesInAPrivateDirectoryOfItsUser() throws Exception {
        Path queue = tmp.resolve("q");
        Path driverDir = Path.of(AeronConnection.embeddedDir(queue, "replica"));
        assertEquals(privateDir, driverDir.getParent(), "one private directory holds every embedded driver");
        assertTrue(driverDir.getFileName().toString().startsWith("replica-"), driverDir.toString());
        try (AeronConnection connection = AeronConnection.open(null, queue, "replica")) {
            assertEquals("rwx------", mode(privateDir));
            assertEquals("rwx------", mode(driverDir));
            assertTrue(Files.exists(driverDir.resolve("cnc.dat")), "the driver runs there");
        }
        assertFalse(Files.exists(driverDir, NOFOLLOW), "the driver deletes its directory on close");
        assertTrue(Files.isDirectory(privateDir, NOFOLLOW), "the private directory stays for the next driver");
    }

    @Test
    void startingADriverNeverDeletesThroughALink() throws Exception {
        Path target = precious("data-q");
        // named like driver directories, stale, pointing at a queue: where older versions kept their drivers (beside
        // Aeron's default directory, in /dev/shm where anyone may create them) and in the private directory
        String name = Path.of(AeronConnection.embeddedDir(tmp.resolve("q"), "replica")).getFileName().toString();
        String hash = name.substring(name.lastIndexOf('-') + 1);
        List<Path> traps = List.of(
                link(tmp.resolve("aeron-u-blit-replica-trap"), target),
                link(tmp.resolve("aeron-u-blit-replica-" + hash), target),
                link(Files.createDirectories(tmp.resolve("aeron-u-blit-source-holder")).resolve("data"), target));
        Files.createDirectory(privateDir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path linkInside = link(privateDir.resolve("replica-trap"), target);
        Path ownName = link(privateDir.resolve("replica-" + hash), target);
        Path holderInside = Files.createDirectory(privateDir.resolve("source-holder"));
        Path linkInHolder = link(holderInside.resolve("data"), target);
        for (Path path : Stream.concat(traps.stream(), Stream.of(linkInside, ownName, linkInHolder, holderInside,
                tmp.resolve("aeron-u-blit-source-holder"), target)).toList()) {
            old(path);
        }

        try (AeronConnection connection = AeronConnection.open(null, tmp.resolve("q"), "replica")) {
            assertPrecious(target);
        }

        assertPrecious(target);
        for (Path trap : traps) {
            assertTrue(Files.isSymbolicLink(trap), "nothing outside the private directory is touched: " + trap);
        }
        assertFalse(Files.exists(linkInside, NOFOLLOW), "a stale link in the private directory is deleted as a link");
        assertFalse(Files.exists(holderInside, NOFOLLOW), "a stale directory is deleted, its links as links");
    }

    @Test
    void refusesAPrivateDirectoryThatIsALink() throws Exception {
        Path elsewhere = precious("elsewhere");
        Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwx------"));
        Files.createSymbolicLink(privateDir, elsewhere);

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> AeronConnection.open(null, tmp.resolve("q"), "source").close());

        assertTrue(refused.getMessage().contains(privateDir.toString()) && refused.getMessage().contains("link"),
                refused.getMessage());
        assertPrecious(elsewhere);
        assertEquals(List.of("precious"), names(elsewhere), "no driver is started through the link");
    }

    @Test
    void refusesAPrivateDirectoryThatOthersMayWrite() throws Exception {
        for (String mode : List.of("rwxrwx---", "rwx---rwx", "rwxrwxrwx")) {
            Files.createDirectories(privateDir);
            Files.setPosixFilePermissions(privateDir, PosixFilePermissions.fromString(mode));

            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> AeronConnection.open(null, tmp.resolve("q"), "source").close(), mode);

            String message = refused.getMessage();
            assertTrue(message.contains(privateDir.toString()) && message.contains(mode)
                    && message.contains(Files.getOwner(privateDir).getName()) && message.contains("chmod"), message);
            assertEquals(List.of(), names(privateDir), "no driver is started there");
        }
    }

    @Test
    void aPrivateDirectoryOthersMayReadOrEnterIsOwnerOnlyBeforeADriverStarts() throws Exception {
        for (String mode : List.of("rwxr-xr-x", "rwx--x--x", "rwxr-----", "rwx---r--")) {
            Files.createDirectories(privateDir);
            Files.setPosixFilePermissions(privateDir, PosixFilePermissions.fromString(mode));

            Path driverDir = DriverDirectories.prepare("replica-0");

            assertEquals("rwx------", mode(privateDir), "from " + mode + ", before the driver is launched");
            assertEquals(privateDir, driverDir.getParent());
        }
    }

    @Test
    void missingDirectoriesAboveThePrivateDirectoryAreCreatedOwnerOnly() throws Exception {
        Path deep = tmp.resolve("a").resolve("b");
        System.setProperty(CommonContext.AERON_DIR_PROP_NAME, deep.resolve("aeron-u").toString());

        DriverDirectories.prepare("source-0");

        for (Path dir : List.of(tmp.resolve("a"), deep, deep.resolve("aeron-u-blit"))) {
            assertEquals("rwx------", mode(dir), dir.toString());
        }
    }

    @Test
    void refusesAPrivateDirectoryOfAnotherUser() throws Exception {
        UserPrincipal nobody = nobodyIfRoot();
        Files.createDirectory(privateDir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.setOwner(privateDir, nobody);

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> AeronConnection.open(null, tmp.resolve("q"), "source").close());

        assertTrue(refused.getMessage().contains(privateDir.toString())
                && refused.getMessage().contains(nobody.getName()), refused.getMessage());
    }

    @Test
    void deletesOnlyTheOldDirectoriesOfDeadDriversOfItsUser() throws Exception {
        Files.createDirectory(privateDir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path dead = Files.createDirectories(privateDir.resolve("replica-dead").resolve("publications"));
        Files.writeString(dead.resolve("log"), "log buffers");
        old(dead);
        old(dead.getParent());
        Path young = Files.createDirectories(privateDir.resolve("source-young"));
        Path deadOfAnother = old(Files.createDirectories(privateDir.resolve("replica-another")));
        UserPrincipal nobody = nobodyOrNull();
        if (nobody != null) {
            Files.setOwner(deadOfAnother, nobody);
        }
        Path live = privateDir.resolve("replica-live");
        try (MediaDriver driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(live.toString())
                .threadingMode(ThreadingMode.SHARED).dirDeleteOnShutdown(true))) {
            old(live);

            try (AeronConnection connection = AeronConnection.open(null, tmp.resolve("q"), "source")) {
                assertFalse(Files.exists(dead.getParent()), "an old directory without a live driver is a killed process's leftover");
                assertTrue(Files.exists(young), "a young directory may belong to a driver still starting");
                assertTrue(Files.exists(live), "a driver that heartbeats is alive, however old its directory");
                if (nobody != null) {
                    assertTrue(Files.exists(deadOfAnother), "a directory of another user is not this user's to delete");
                }
            }
        }
    }

    @Test
    void anOldDirectoryOfADriverKilledBeforeItInitialisedItsCncIsDeletedWithoutWaiting() throws Exception {
        Files.createDirectory(privateDir,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path killed = Files.createDirectories(privateDir.resolve("source-killed"));
        Files.write(killed.resolve("cnc.dat"), new byte[4096]); // created, its version word still 0
        old(killed.resolve("cnc.dat"));
        old(killed);
        long started = System.nanoTime();
        try (AeronConnection connection = AeronConnection.open(null, tmp.resolve("q"), "source")) {
            assertFalse(Files.exists(killed), "a never-initialised driver directory untouched that long is a leftover");
        }
        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        // Aeron's own check would have waited the staleness age for the version word, then thrown.
        assertTrue(tookMillis < AeronConnection.STALE_MILLIS, "no wait for the dead driver: " + tookMillis + " ms");
    }

    /** A directory holding the file {@code precious}. */
    private Path precious(String name) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(name));
        Files.writeString(dir.resolve("precious"), "the data");
        return dir;
    }

    private static void assertPrecious(Path dir) throws IOException {
        assertTrue(Files.exists(dir.resolve("precious")), "the files behind a link are intact: " + dir);
        assertEquals("the data", Files.readString(dir.resolve("precious")));
    }

    private static Path link(Path link, Path target) throws IOException {
        return Files.createSymbolicLink(link, target);
    }

    /** Sets the modification time of {@code path} itself (not of a link's target) to twice the staleness age. */
    private static Path old(Path path) throws IOException {
        FileTime then = FileTime.from(Instant.now().minusMillis(2 * AeronConnection.STALE_MILLIS));
        Files.getFileAttributeView(path, BasicFileAttributeView.class, NOFOLLOW).setTimes(then, null, null);
        return path;
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, NOFOLLOW));
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** The user nobody, to own a file this test makes; the test is skipped unless it runs as root. */
    private static UserPrincipal nobodyIfRoot() {
        UserPrincipal nobody = nobodyOrNull();
        assumeTrue(nobody != null, "needs root (to give a file to another user) and a user named nobody");
        return nobody;
    }

    private static UserPrincipal nobodyOrNull() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return null;
        }
        try {
            return java.nio.file.FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        } catch (IOException e) {
            return null;
        }
    }
}

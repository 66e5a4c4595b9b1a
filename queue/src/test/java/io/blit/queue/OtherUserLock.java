package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A process of another user (uid and gid 65534, {@code nobody}, no groups: {@code setpriv}) that opens a file
 * <em>read-only</em> and holds a shared POSIX record lock ({@code fcntl F_SETLK F_RDLCK}) of a range of it until
 * closed: what any local user who may read a queue's files can do. The child is a single-file Java program run by
 * this JVM's {@code java} (nothing of the test class path, which that user may not read).
 */
final class OtherUserLock implements AutoCloseable {
    private static final String SOURCE = """
            import java.nio.channels.FileChannel;
            import java.nio.file.Path;
            import java.nio.file.StandardOpenOption;

            public class SharedLockHolder {
                public static void main(String[] args) throws Exception {
                    FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.READ);
                    var lock = channel.tryLock(Long.parseLong(args[1]), Long.parseLong(args[2]), true);
                    System.out.println((lock != null ? "locked " : "refused ") + ProcessHandle.current().pid() + " "
                            + System.getProperty("user.name"));
                    System.out.flush();
                    System.in.read();
                }
            }
            """;

    private final Process process;

    private OtherUserLock(Process process) {
        this.process = process;
    }

    /** Skips the test, saying why, unless this process is root and {@code setpriv} is installed. */
    static void assumeAvailable() {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "needs root, to run a child as another user (uid 65534) with setpriv; running as "
                        + System.getProperty("user.name"));
        Assumptions.assumeTrue(setpriv() != null, "needs setpriv (util-linux) to run a child as another user");
    }

    private static String setpriv() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "setpriv");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        for (String fixed : new String[] {"/usr/bin/setpriv", "/bin/setpriv", "/usr/sbin/setpriv"}) {
            if (Files.isExecutable(Path.of(fixed))) {
                return fixed;
            }
        }
        return null;
    }

    /** Makes {@code path} readable by every user ({@code rwxr-xr-x} for a directory, {@code rw-r--r--} for a file). */
    static Path readable(Path path) throws IOException {
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(Files.isDirectory(path) ? "rwxr-xr-x"
                : "rw-r--r--"));
        return path;
    }

    /**
     * Starts the other user's process holding a shared lock of bytes [{@code start}, {@code start + length}) of
     * {@code file} ({@code length} {@link Long#MAX_VALUE}: the whole file); returns once it holds it. {@code scratch}
     * is a directory this method may make world-readable for the child's source.
     */
    static OtherUserLock hold(Path scratch, Path file, long start, long length) throws IOException {
        Path source = readable(Files.writeString(readable(scratch).resolve("SharedLockHolder.java"), SOURCE));
        Process process = new ProcessBuilder(setpriv(), "--reuid=65534", "--regid=65534", "--clear-groups",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:-UsePerfData",
                "-Xshare:auto", source.toString(), file.toString(), Long.toString(start), Long.toString(length))
                .redirectErrorStream(true).start();
        OtherUserLock lock = new OtherUserLock(process);
        String line = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
                .readLine();
        if (line == null || !line.startsWith("locked ")) {
            lock.close();
            throw new AssertionError("the other user's process holds no lock of " + file + ": " + line);
        }
        String[] words = line.split(" ");
        assertEquals(Long.toString(process.pid()), words[1], "setpriv execs the child in its own process");
        assertNotEquals("root", words[2], "the child runs as another user (uid 65534)");
        return lock;
    }

    /** {@return the holder's pid} */
    long pid() {
        return process.pid();
    }

    /** Ends the holder: its lock is released. */
    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the lock holder ends");
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        } finally {
            process.destroyForcibly();
        }
    }
}

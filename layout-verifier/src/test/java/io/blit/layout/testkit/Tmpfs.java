package io.blit.layout.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A tmpfs mounted for one test, as a JUnit extension: a small file system to fill up, or one to remount read-only.
 * {@code @RegisterExtension final Tmpfs tmpfs = Tmpfs.sized("8m");} then {@code Path dir = tmpfs.mount();} in the
 * test. Mounting needs privileges (root, as on the CI machines): without them {@link #mount()} skips the test (a JUnit
 * assumption). The file system is unmounted after the test, and its mount point deleted.
 */
public final class Tmpfs implements AfterEachCallback {
    private final String size;
    private Path point;
    private boolean mounted;

    private Tmpfs(String size) {
        this.size = size;
    }

    /** A tmpfs of {@code size} ({@code 8m}, {@code 160m}), mounted by {@link #mount()}. */
    public static Tmpfs sized(String size) {
        return new Tmpfs(size);
    }

    /**
     * Mounts the file system at a new temporary directory and returns it; skips the test if this process may not
     * mount.
     */
    public Path mount() throws IOException, InterruptedException {
        point = Files.createTempDirectory("blit-tmpfs-");
        mounted = run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", point.toString()) == 0;
        assumeTrue(mounted, "mounting a tmpfs needs privileges this machine does not give");
        return point;
    }

    /**
     * Remounts with {@code options} ({@code ro}, {@code size=64m}).
     *
     * @throws IllegalStateException if the remount fails
     */
    public void remount(String options) throws IOException, InterruptedException {
        if (run("mount", "-o", "remount," + options, point.toString()) != 0) {
            throw new IllegalStateException("cannot remount " + point + " with " + options);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        if (mounted) {
            run("umount", point.toString());
        }
        if (point != null) {
            Files.deleteIfExists(point);
        }
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(List.of(command)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return process.waitFor(30, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }
}

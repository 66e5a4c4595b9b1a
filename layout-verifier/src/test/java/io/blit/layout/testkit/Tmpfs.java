package io.blit.layout.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A tmpfs mounted for a test: a small file system to fill up, or one to remount read-only. Mounting needs privileges
 * (root, as on the CI machines): {@link #mount} returns null without them, and the test skips itself
 * ({@code assumeTrue(tmpfs != null, ...)}). {@link #close()} unmounts it.
 */
public final class Tmpfs implements AutoCloseable {
    private final Path point;

    private Tmpfs(Path point) {
        this.point = point;
    }

    /**
     * Mounts a tmpfs of {@code size} ({@code 8m}) at a new directory {@code name} under {@code parent}.
     *
     * @return the mount, or null if this process may not mount
     */
    public static Tmpfs mount(Path parent, String name, String size) throws IOException, InterruptedException {
        Path point = Files.createDirectory(parent.resolve(name));
        return run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", point.toString()) == 0 ? new Tmpfs(point)
                : null;
    }

    /** The mount point. */
    public Path path() {
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

    /** Unmounts the file system (what it held is gone). */
    @Override
    public void close() throws IOException, InterruptedException {
        run("umount", point.toString());
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(List.of(command)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return process.waitFor(30, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }
}

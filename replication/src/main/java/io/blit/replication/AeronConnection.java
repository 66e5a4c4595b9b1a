package io.blit.replication;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.io.File;
import java.nio.file.Path;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;

/**
 * The Aeron client of a source or replica, with its own embedded media driver unless an external one is named
 * ({@code aeron.dir}). The embedded driver runs in one shared thread that backs off when idle (a replication peer
 * shares its machine with the queue's appenders and tailers) and deletes its directory on close.
 */
final class AeronConnection implements AutoCloseable {
    /** The stream of replicas' requests and acknowledgements on the source's control channel. */
    static final int CONTROL_STREAM = 1000;
    /** The stream the source publishes to a replica's data channel. */
    static final int DATA_STREAM = 1001;

    /**
     * Socket buffers and receiver window of an embedded driver: 2 MiB instead of Aeron's 128 KiB, so that a burst of
     * catch-up batches is not dropped by the kernel and repaired by NAKs (the kernel caps it at net.core.rmem_max).
     */
    static final int SOCKET_BUFFER = 2 << 20;

    /**
     * How long a driver directory must be untouched, and its driver's heartbeat silent, before another embedded
     * driver deletes it as the leftover of a killed process: longer than Aeron's driver timeout (10 s), so that a live
     * driver (which heartbeats every few milliseconds) or one still starting is never taken for dead.
     */
    static final long STALE_MILLIS = 30_000;

    private static final String BLIT_INFIX = "-blit-";
    private static final System.Logger LOG = System.getLogger("io.blit.replication");

    private final MediaDriver driver;
    private final Aeron aeron;

    private AeronConnection(MediaDriver driver, Aeron aeron) {
        this.driver = driver;
        this.aeron = aeron;
    }

    /**
     * Connects to the media driver in {@code aeronDir}, or launches an embedded one if {@code aeronDir} is null, in
     * {@link #embeddedDir}: one directory per queue directory and role, which the driver deletes on start and on
     * close; what a killed process left behind is deleted by the next embedded driver to start
     * ({@link #deleteStaleDirectories}).
     *
     * @throws io.aeron.exceptions.DriverTimeoutException if no driver runs in {@code aeronDir}
     */
    static AeronConnection open(String aeronDir, Path queueDir, String role) {
        if (aeronDir != null) {
            return new AeronConnection(null, Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir)));
        }
        String dir = embeddedDir(queueDir, role);
        deleteStaleDirectories(new File(dir));
        MediaDriver driver = MediaDriver.launch(new MediaDriver.Context()
                .aeronDirectoryName(dir)
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(IdleStrategies.create())
                .socketRcvbufLength(SOCKET_BUFFER)
                .socketSndbufLength(SOCKET_BUFFER)
                .initialWindowLength(SOCKET_BUFFER)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true));
        try {
            return new AeronConnection(driver,
                    Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())));
        } catch (RuntimeException e) {
            driver.close();
            throw e;
        }
    }

    /** Aeron's default directory (under /dev/shm on Linux) + {@code -blit-<role>-<hash of the queue's path>}. */
    static String embeddedDir(Path queueDir, String role) {
        String path = queueDir.toAbsolutePath().normalize().toString();
        return CommonContext.getAeronDirectoryName() + BLIT_INFIX + role + "-"
                + Long.toHexString(path.hashCode() & 0xFFFF_FFFFL);
    }

    /**
     * Deletes the embedded-driver directories ({@code <Aeron default>-blit-*}: the siblings of {@code own} named
     * like it up to {@code -blit-}) that processes
     * killed with their driver left behind: each holds the driver's log buffers (tens of MiB in {@code /dev/shm}), and
     * a killed replica of a temporary queue is never restarted to reuse its own. A directory is deleted only if it has
     * not changed for {@link #STALE_MILLIS} and its driver's heartbeat is older than that too.
     */
    static void deleteStaleDirectories(File own) {
        File parent = own.getAbsoluteFile().getParentFile();
        String name = own.getName();
        String prefix = name.substring(0, name.indexOf(BLIT_INFIX) + BLIT_INFIX.length());
        File[] candidates = parent == null ? null
                : parent.listFiles((d, other) -> other.startsWith(prefix) && !other.equals(name));
        if (candidates == null) {
            return;
        }
        long now = System.currentTimeMillis();
        for (File candidate : candidates) {
            if (candidate.isDirectory() && now - candidate.lastModified() > STALE_MILLIS
                    && !CommonContext.isDriverActive(candidate, STALE_MILLIS, message -> { })) {
                IoUtil.delete(candidate, true);
                LOG.log(System.Logger.Level.INFO, "deleted the driver directory " + candidate
                        + " of a process that ended without closing it");
            }
        }
    }

    Aeron aeron() {
        return aeron;
    }

    @Override
    public void close() {
        CloseHelper.closeAll(aeron, driver);
    }
}

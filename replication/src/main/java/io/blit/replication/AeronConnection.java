package io.blit.replication;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;
import org.agrona.CloseHelper;

/**
 * The Aeron client of a source or replica, with its own embedded media driver unless an external one is named
 * ({@code aeron.dir}). The embedded driver runs in one shared thread that backs off when idle (a replication peer
 * shares its machine with the queue's appenders and tailers), lives in the user's private directory
 * ({@link DriverDirectories}) and deletes its directory on close.
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
     * The channel parameter of every subscription: the log of each image (one per sender, of three terms of the
     * sender's term length, which Aeron takes from the sender's SETUP: up to 3 GiB) is a sparse file, so that a
     * stranger's image costs the memory of what it sends, not of the term length it names. The largest message an
     * image carries is an eighth of a term, at most 16 MiB (2 MiB at Aeron's default term of 16 MiB), which
     * {@link BoundedAssembler} bounds further.
     */
    static final String SPARSE_IMAGES = "|sparse=true";

    /** How long a driver directory must be untouched before another embedded driver deletes it. */
    static final long STALE_MILLIS = DriverDirectories.STALE_MILLIS;

    private final MediaDriver driver;
    private final Aeron aeron;

    private AeronConnection(MediaDriver driver, Aeron aeron) {
        this.driver = driver;
        this.aeron = aeron;
    }

    /**
     * Connects to the media driver in {@code aeronDir}, or launches an embedded one if {@code aeronDir} is null, in
     * {@link #embeddedDir}: one directory per queue directory and role, deleted on start and on close; what a killed
     * process left behind is deleted by the next embedded driver to start ({@link DriverDirectories#prepare}).
     *
     * @throws io.aeron.exceptions.DriverTimeoutException if no driver runs in {@code aeronDir}
     * @throws IllegalStateException if the private directory of embedded drivers is unsafe ({@link DriverDirectories})
     */
    static AeronConnection open(String aeronDir, Path queueDir, String role) {
        if (aeronDir != null) {
            return new AeronConnection(null, Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir)));
        }
        Path dir = DriverDirectories.prepare(driverName(queueDir, role));
        MediaDriver driver = MediaDriver.launch(new MediaDriver.Context()
                .aeronDirectoryName(dir.toString())
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(IdleStrategies.create())
                .socketRcvbufLength(SOCKET_BUFFER)
                .socketSndbufLength(SOCKET_BUFFER)
                .initialWindowLength(SOCKET_BUFFER)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true));
        try {
            DriverDirectories.restrictToOwner(dir);
            return new AeronConnection(driver,
                    Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())));
        } catch (RuntimeException e) {
            driver.close();
            throw e;
        }
    }

    /**
     * {@code <role>-<hash of the queue's path>} in the private directory of embedded drivers
     * ({@link DriverDirectories#parent()}: Aeron's default directory, under /dev/shm on Linux, + {@code -blit}).
     */
    static String embeddedDir(Path queueDir, String role) {
        return DriverDirectories.parent().resolve(driverName(queueDir, role)).toString();
    }

    private static String driverName(Path queueDir, String role) {
        String path = queueDir.toAbsolutePath().normalize().toString();
        return role + "-" + Long.toHexString(path.hashCode() & 0xFFFF_FFFFL);
    }

    /**
     * {@return the channel to subscribe to {@code endpoint} with: its UDP channel, images sparse}
     *
     * @throws IllegalArgumentException if {@code endpoint} is not {@code host:port} ({@link Endpoint})
     */
    static String subscriptionChannel(String endpoint) {
        return Endpoint.udp(endpoint) + SPARSE_IMAGES;
    }

    Aeron aeron() {
        return aeron;
    }

    @Override
    public void close() {
        CloseHelper.closeAll(aeron, driver);
    }

    /**
     * Closes the Aeron client, then lets an embedded driver run on for {@code drainNanos} before closing it: long
     * enough for its sender to tell each subscriber that the publications closed (Aeron sends the end of stream with
     * a heartbeat, at most {@value #END_OF_STREAM_HEARTBEAT_MILLIS} ms after a publication is drained), so that they
     * notice at once instead of after their driver's image liveness timeout. With a driver of its own (an Aeron
     * directory given), that driver sends it and nothing waits.
     *
     * @param drainNanos how long an embedded driver runs on after the client closed
     */
    void closeDraining(long drainNanos) {
        CloseHelper.close(aeron);
        if (driver != null) {
            LockSupport.parkNanos(drainNanos);
        }
        CloseHelper.close(driver);
    }

    /** Aeron's publication heartbeat interval, with which a closed publication's end of stream goes out. */
    static final long END_OF_STREAM_HEARTBEAT_MILLIS = 100;
}

package io.blit.replication;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.agrona.CloseHelper;

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

    private final MediaDriver driver;
    private final Aeron aeron;

    private AeronConnection(MediaDriver driver, Aeron aeron) {
        this.driver = driver;
        this.aeron = aeron;
    }

    /**
     * Connects to the media driver in {@code aeronDir}, or launches an embedded one if {@code aeronDir} is null.
     *
     * @throws io.aeron.exceptions.DriverTimeoutException if no driver runs in {@code aeronDir}
     */
    static AeronConnection open(String aeronDir) {
        if (aeronDir != null) {
            return new AeronConnection(null, Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir)));
        }
        MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
                .threadingMode(ThreadingMode.SHARED)
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

    Aeron aeron() {
        return aeron;
    }

    /** The UDP channel of {@code endpoint} ({@code host:port}). */
    static String udp(String endpoint) {
        if (endpoint == null || !endpoint.matches("[^:\\s]+:\\d{1,5}")) {
            throw new IllegalArgumentException("an endpoint is host:port, got " + endpoint);
        }
        return "aeron:udp?endpoint=" + endpoint;
    }

    @Override
    public void close() {
        CloseHelper.closeAll(aeron, driver);
    }
}

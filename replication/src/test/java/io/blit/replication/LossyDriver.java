package io.blit.replication;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.driver.ext.DebugReceiveChannelEndpoint;
import io.aeron.driver.ext.DebugSendChannelEndpoint;
import io.aeron.driver.ext.LossGenerator;

/**
 * A media driver (for a source's or replica's {@code aeronDir}) that loses, while {@link #dropIncoming} is set, every
 * datagram that reaches it from the network: data and setup frames on its receive endpoints, status messages and NAKs
 * on its send endpoints. What a host sees when the traffic towards it is lost (asymmetric routing, a firewall change)
 * while its own traffic still goes out, without the packet filters or {@code netem} a test machine may lack.
 * {@link #dropReceived} loses only what reaches its receive endpoints (what a source publishes to it).
 * {@link #cutOff} also loses everything it would send: the host is cut off from the network, both ways.
 */
final class LossyDriver implements AutoCloseable {
    private final MediaDriver driver;
    private volatile boolean dropReceived;
    private volatile boolean dropFeedback;
    private volatile boolean dropSent;

    LossyDriver(String name) {
        LossGenerator received = (address, buffer, length) -> dropReceived;
        LossGenerator feedback = (address, buffer, length) -> dropFeedback;
        LossGenerator sent = (address, buffer, length) -> dropSent;
        driver = MediaDriver.launch(new MediaDriver.Context()
                .aeronDirectoryName(name)
                .threadingMode(ThreadingMode.SHARED)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true)
                .receiveChannelEndpointSupplier((channel, dispatcher, status, context) ->
                        new DebugReceiveChannelEndpoint(channel, dispatcher, status, context, received, sent))
                .sendChannelEndpointSupplier((channel, status, context) ->
                        new DebugSendChannelEndpoint(channel, status, context, sent, feedback)));
    }

    /** Loses everything that reaches this driver from the network while {@code drop} holds. */
    void dropIncoming(boolean drop) {
        dropReceived = drop;
        dropFeedback = drop;
    }

    /**
     * Loses, while {@code cut} holds, everything that reaches this driver from the network and everything it sends
     * there: data, setup and heartbeat frames, status messages, NAKs. What a host sees when its link goes down.
     */
    void cutOff(boolean cut) {
        dropReceived = cut;
        dropFeedback = cut;
        dropSent = cut;
    }

    /** Loses the data and setup frames that reach this driver's receive endpoints while {@code drop} holds. */
    void dropReceived(boolean drop) {
        dropReceived = drop;
    }

    String directory() {
        return driver.aeronDirectoryName();
    }

    @Override
    public void close() {
        driver.close();
    }
}

package io.blit.tools.latency;

import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import java.nio.file.Path;
import java.util.List;

/**
 * A peer kind for the tests (registered in the test resources' {@code META-INF/services}): the {@code tc} kind, whose
 * ends refuse to open unless the JVM got this kind's own flag — so a run shows that a kind's
 * {@link #childJvmFlags()} reach its children, and only them.
 */
public final class FlaggedTestKind implements LatencyKind {
    static final String PROPERTY = "blit.test.peer.flag";

    @Override
    public String cliName() {
        return "flagged-test";
    }

    @Override
    public String description() {
        return "tc, in a JVM with a flag of its own (tests)";
    }

    @Override
    public MessageSender sender(Path dir, QueueOptions options) {
        requireFlag();
        return MessageKind.TC.sender(dir, options);
    }

    @Override
    public MessageReceiver receiver(Path dir, QueueOptions options) {
        requireFlag();
        return MessageKind.TC.receiver(dir, options);
    }

    @Override
    public long payloadBytes(long sequence) {
        return MessageKind.TC.payloadBytes(sequence);
    }

    @Override
    public List<String> childJvmFlags() {
        return List.of("-D" + PROPERTY + "=set");
    }

    private static void requireFlag() {
        if (!"set".equals(System.getProperty(PROPERTY))) {
            throw new IllegalStateException("this JVM was started without " + PROPERTY);
        }
    }
}

package io.blit.tools.latency;

import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * A kind of message the latency harness sends: Blit's own ({@link MessageKind}) or a peer's, which another module
 * provides as a service (the {@code benchmarks} module's {@code chronicle}: a peer library may be a dependency of the
 * benchmarks only, never of the tools jar users run). Implementations are stateless and thread-safe.
 */
public interface LatencyKind {
    /** The name on the command line and in the JSON, e.g. {@code tc}; unique among all kinds. */
    String cliName();

    /** A human-readable description for report titles. */
    String description();

    /** Opens (creating if needed) the kind's queue in {@code dir} and its writing end. */
    MessageSender sender(Path dir, QueueOptions options);

    /** Opens (creating if needed) the kind's queue in {@code dir} and its reading end, at its start. */
    MessageReceiver receiver(Path dir, QueueOptions options);

    /** The payload size of message {@code sequence}. */
    long payloadBytes(long sequence);

    /** Whether the kind writes a Blit queue, whose segment size the harness chooses ({@code --segment-size}). */
    default boolean usesBlitQueue() {
        return true;
    }

    /**
     * JVM flags the kind's process-mode children need beyond the harness's own (a peer library's
     * {@code --add-opens}, say); they go on this kind's children only.
     */
    default List<String> childJvmFlags() {
        return List.of();
    }

    /** Blit's kinds, then every peer kind on the class or module path, in that order. */
    static List<LatencyKind> all() {
        List<LatencyKind> kinds = new ArrayList<>(Arrays.asList(MessageKind.values()));
        ServiceLoader.load(LatencyKind.class, LatencyKind.class.getClassLoader()).forEach(kinds::add);
        return kinds;
    }

    /**
     * The kind named {@code name}.
     *
     * @throws IllegalArgumentException naming every valid name if {@code name} is none of them
     */
    static LatencyKind parse(String name) {
        List<LatencyKind> kinds = all();
        for (LatencyKind kind : kinds) {
            if (kind.cliName().equals(name)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown message kind '" + name + "' (expected one of "
                + kinds.stream().map(LatencyKind::cliName).collect(Collectors.joining(", "))
                + (name.equals("chronicle") ? "; chronicle is a peer kind of benchmarks.jar: run-latency.sh --with-peers"
                        : "") + ")");
    }
}

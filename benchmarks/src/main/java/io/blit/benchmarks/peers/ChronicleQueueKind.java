package io.blit.benchmarks.peers;

import io.blit.core.BlockCopier;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.tools.messages.BookUpdate;
import io.blit.tools.latency.LatencyKind;
import io.blit.tools.latency.MessageReceiver;
import io.blit.tools.latency.MessageSender;
import java.nio.file.Path;
import java.util.List;

/**
 * The latency harness's {@code chronicle} kind: the BookUpdate of the {@code tc} kind through Chronicle Queue, as
 * {@link ChronicleBookUpdate} written with an {@code ExcerptAppender} and read with an {@code ExcerptTailer}
 * ({@link ChronicleQueueEndpoints}). Provided as a service of the benchmarks jar, so that Chronicle is never a
 * dependency of the tools jar users run; its JVM flags go on its own process-mode children only.
 */
public final class ChronicleQueueKind implements LatencyKind {
    /**
     * What Chronicle Queue needs on JDK 25 to run without warnings: the four flags the Chronicle JMH benchmarks' forks
     * get, the packages Chronicle Queue opens reflectively, native access for JNA, and its analytics off.
     */
    public static final List<String> JVM_FLAGS = List.of(
            "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--enable-native-access=ALL-UNNAMED", // JNA, which Chronicle's posix layer loads
            "-Dchronicle.analytics.disable=true"); // no usage report to the vendor from a benchmark

    @Override
    public String cliName() {
        return "chronicle";
    }

    @Override
    public String description() {
        return "Chronicle Queue, trivially copyable BookUpdate (unsafeWriteObject)";
    }

    @Override
    public boolean usesBlitQueue() {
        return false;
    }

    @Override
    public MessageSender sender(Path dir, QueueOptions options) {
        return new ChronicleQueueEndpoints.Sender(dir);
    }

    @Override
    public MessageReceiver receiver(Path dir, QueueOptions options) {
        return new ChronicleQueueEndpoints.Receiver(dir);
    }

    /**
     * The BookUpdate block's length, as Blit measures it: the harness's own JVM asks, and Chronicle's classes (whose
     * initialisation wants Chronicle's JVM flags) must not load there. {@link ChronicleBookUpdate} copies the same
     * block.
     */
    @Override
    public long payloadBytes(long sequence) {
        return BlockCopier.of(BookUpdate.class).byteSize();
    }

    @Override
    public List<String> childJvmFlags() {
        return JVM_FLAGS;
    }
}

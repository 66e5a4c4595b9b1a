package io.blit.cli;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** Runs {@code blit.jar}'s command line in-process, and writes the raw queues the tests read. */
final class BlitCliRun {
    /** What a run printed, and its exit code. */
    record Result(int code, String out, String err) {
        List<String> lines() {
            return out.lines().toList();
        }
    }

    private BlitCliRun() {
    }

    /** Runs {@code args} through {@link BlitCli#run}. */
    static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = BlitCli.run(args, o, e);
        }
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Appends {@code count} raw 8-byte payloads to the queue in {@code dir}, payload n holding the long n. */
    static void appendRaw(Path dir, int count) {
        appendRaw(dir, count, QueueOptions.defaults());
    }

    /** As {@link #appendRaw(Path, int)}, with {@code options} (a segment size). */
    static void appendRaw(Path dir, int count, QueueOptions options) {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, options); Appender<Void> appender = queue.appender();
             Arena arena = Arena.ofConfined()) {
            MemorySegment payload = arena.allocate(8, 8);
            for (long n = 0; n < count; n++) {
                payload.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, n);
                appender.append(payload);
            }
        }
    }
}

/** The Blit demo: trivially copyable messages in a persisted queue, its command-line tool and latency harness. */
module io.blit.queue {
    requires io.blit.core;
    // The latency harness records with HdrHistogram 2.2.2 (an automatic module named after its jar, which has no
    // Automatic-Module-Name); transitive because its Histogram is in the harness API (LatencyResult).
    requires transitive HdrHistogram;

    exports io.blit.queue;
    // Lets Blit generate field-access code for the messages (CopyEngine.GENERATED) instead of
    // falling back to the slower word loop.
    opens io.blit.queue to io.blit.core;
    exports io.blit.queue.demo;
    exports io.blit.queue.latency;
    opens io.blit.queue.latency to io.blit.core;
}

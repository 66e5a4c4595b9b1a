/** The Blit demo: trivially copyable messages written to and read from memory-mapped files. */
module io.blit.queue {
    requires io.blit.core;

    exports io.blit.queue;
    // Lets Blit generate field-access code for the messages (CopyEngine.GENERATED) instead of
    // falling back to the slower word loop.
    opens io.blit.queue to io.blit.core;
    exports io.blit.queue.demo;
}

/** The Blit demo: trivially copyable messages written to and read from memory-mapped files. */
module io.blit.queue {
    requires io.blit.core;

    exports io.blit.queue;
    exports io.blit.queue.demo;
}

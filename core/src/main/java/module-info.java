/**
 * Blit core: {@link io.blit.core.TriviallyCopyable} and {@link io.blit.core.BlockCopier}, the bulk
 * copy of a trivially copyable object's field block to and from {@link java.lang.foreign.MemorySegment}s.
 */
module io.blit.core {
    requires transitive io.blit.layout;

    exports io.blit.core;
}

package io.blit.it.api;

/** A library's public API, release 1.0. */
public final class Lib {
    /** Creates the library. */
    public Lib() {
    }

    /** {@return the size, 1.0's contract} */
    public long size() {
        return 1L;
    }
}

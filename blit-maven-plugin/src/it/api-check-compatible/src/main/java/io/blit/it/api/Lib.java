package io.blit.it.api;

/** A library's public API, 2.1: 1.0's methods unchanged, one method added. */
public final class Lib {
    /** Creates the library. */
    public Lib() {
    }

    /** {@return the size, 1.0's contract} */
    public long size() {
        return 1L;
    }

    /** {@return whether the library holds nothing} */
    public boolean isEmpty() {
        return false;
    }
}

package io.blit.it.api;

/** A library's public API, 2.0: {@link #size()} now returns an int, which breaks 1.0's callers. */
public final class Lib {
    /** Creates the library. */
    public Lib() {
    }

    /** {@return the size, now an int} */
    public int size() {
        return 1;
    }
}

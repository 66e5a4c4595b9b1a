package io.blit.layout.baseline;

/**
 * A layout baseline file that cannot be parsed. The message names the file, the line number, the
 * line and what is wrong with it.
 */
public final class BaselineFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The file (or other source) that was parsed. */
    private final String source;
    /** The 1-based line number of the problem. */
    private final int line;

    BaselineFormatException(String source, int line, String text, String problem) {
        super(source + ":" + line + ": " + problem + (text == null ? "" : "\n  " + text.strip()));
        this.source = source;
        this.line = line;
    }

    /** {@return the file (or other source) that was parsed} */
    public String source() {
        return source;
    }

    /** {@return the 1-based line number of the problem} */
    public int line() {
        return line;
    }
}

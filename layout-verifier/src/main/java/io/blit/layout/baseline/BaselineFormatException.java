package io.blit.layout.baseline;

/**
 * A layout baseline file that cannot be parsed. The message names the file, the line number, the
 * line and what is wrong with it.
 */
public final class BaselineFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final int line;

    BaselineFormatException(String source, int line, String text, String problem) {
        super(source + ":" + line + ": " + problem + (text == null ? "" : "\n  " + text.strip()));
        this.source = source;
        this.line = line;
    }

    /** The file (or other source) that was parsed. */
    public String source() {
        return source;
    }

    /** The 1-based line number of the problem. */
    public int line() {
        return line;
    }
}

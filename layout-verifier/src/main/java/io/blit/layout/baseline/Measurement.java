package io.blit.layout.baseline;

import io.blit.layout.BlockLayout;
import io.blit.layout.LayoutVerifier;
import io.blit.layout.NotTriviallyCopyableException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Layouts measured in one JVM: a {@link Baseline} of the classes that are trivially copyable, and a
 * {@link BaselineCheck.NotTriviallyCopyable} for each class the verifier refused.
 *
 * @param baseline the measured entries
 * @param refused  the classes that have no layout, with the verifier's message
 */
record Measurement(Baseline baseline, List<BaselineCheck.NotTriviallyCopyable> refused) {
    /** Marks a refusal in the text a forked JVM prints; a comment to the baseline parser. */
    static final String REFUSED_PREFIX = "# refused ";

    Measurement {
        refused = List.copyOf(refused);
    }

    /** Measures the classes in this JVM, whose mode is {@link JvmMode#current()}. */
    static Measurement ofClasses(Collection<Class<?>> classes) {
        JvmMode mode = JvmMode.current();
        List<BaselineEntry> entries = new ArrayList<>();
        List<BaselineCheck.NotTriviallyCopyable> refused = new ArrayList<>();
        for (Class<?> type : classes) {
            try {
                BlockLayout layout = LayoutVerifier.verify(type);
                entries.add(BaselineEntry.of(mode, layout));
            } catch (NotTriviallyCopyableException e) {
                refused.add(new BaselineCheck.NotTriviallyCopyable(type.getName(), mode, e.getMessage()));
            }
        }
        return new Measurement(Baseline.of(entries), refused);
    }

    /** The measurement as a forked JVM prints it: the baseline text, then one comment line per refusal. */
    String toText() {
        StringBuilder out = new StringBuilder(baseline.format(""));
        for (BaselineCheck.NotTriviallyCopyable r : refused) {
            out.append(REFUSED_PREFIX).append(r.mode().id()).append(' ').append(r.className()).append(' ')
                    .append(r.message().replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
        }
        return out.toString();
    }

    /**
     * Reads what {@link #toText()} wrote.
     *
     * @throws BaselineFormatException if the text is not a measurement
     */
    static Measurement fromText(String text, String source) {
        List<BaselineCheck.NotTriviallyCopyable> refused = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.startsWith(REFUSED_PREFIX)) {
                String[] parts = line.substring(REFUSED_PREFIX.length()).split(" ", 3);
                String message = unescape(parts[2]);
                refused.add(new BaselineCheck.NotTriviallyCopyable(parts[1], JvmMode.byId(parts[0]), message));
            }
        }
        return new Measurement(Baseline.parse(text, source), refused);
    }

    /** Undoes the escaping of {@link #toText()}: backslash-n is a line break, two backslashes one backslash. */
    private static String unescape(String escaped) {
        StringBuilder out = new StringBuilder(escaped.length());
        for (int i = 0; i < escaped.length(); i++) {
            char c = escaped.charAt(i);
            if (c == '\\' && i + 1 < escaped.length()) {
                char next = escaped.charAt(++i);
                out.append(next == 'n' ? '\n' : next);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}

package io.blit.layout.baseline;

import io.blit.layout.FieldDescriptor;
import io.blit.layout.FieldType;
import io.blit.layout.LayoutDescriptor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text form of a {@link Baseline}: writing it and parsing it back, with errors that name the line.
 * Stateless; thread-safe.
 *
 * <pre>
 * file   = comment* "blit-layout-baseline 1" (entry | comment | blank)*
 * entry  = "layout " CLASS " mode=" MODE " start=" INT " length=" INT " fingerprint=" HEX16
 *          ("  @" OFFSET " " TYPE " " NAME " in " DECLARING-CLASS)+
 * comment = "#" anything
 * </pre>
 * Offsets count from the start of the object. Fields are listed by offset. Whitespace between
 * tokens may be any run of spaces or tabs.
 */
final class BaselineFormat {
    static final String FORMAT_LINE = "blit-layout-baseline 1";

    private static final Pattern LAYOUT = Pattern.compile(
            "layout\\s+(\\S+)\\s+mode=(\\S+)\\s+start=(\\d{1,9})\\s+length=(\\d{1,9})\\s+fingerprint=([0-9a-f]{16})");
    private static final Pattern FIELD = Pattern.compile("@(\\d{1,9})\\s+(\\S+)\\s+(\\S+)\\s+in\\s+(\\S+)");

    private BaselineFormat() {
    }

    static String format(Baseline baseline, String recordCommand) {
        StringBuilder out = new StringBuilder();
        out.append("# Blit layout baseline: the field layout of each class in each JVM mode (docs/layout-compatibility.md).\n");
        if (recordCommand.isBlank()) {
            out.append("# Do not edit by hand; when a layout change is intended, re-record it.\n");
        } else {
            out.append("# Do not edit by hand; when a layout change is intended, re-record it:\n");
            out.append("#   ").append(recordCommand.strip()).append('\n');
        }
        out.append("# Entries by class name, then mode; fields by offset from the start of the object.\n");
        out.append(FORMAT_LINE).append('\n');
        for (BaselineEntry entry : baseline.entries()) {
            LayoutDescriptor layout = entry.layout();
            out.append('\n').append("layout ").append(layout.className())
                    .append(" mode=").append(entry.mode().id())
                    .append(" start=").append(layout.start())
                    .append(" length=").append(layout.length())
                    .append(" fingerprint=").append(layout.fingerprint()).append('\n');
            for (FieldDescriptor field : layout.fields()) {
                out.append("  @").append(field.offset()).append(' ').append(field.type().keyword())
                        .append(' ').append(field.name()).append(" in ").append(field.declaringClassName()).append('\n');
            }
        }
        return out.toString();
    }

    static Baseline parse(String text, String source) {
        return new Parser(source).parse(text);
    }

    /** One parse; not reusable. */
    private static final class Parser {
        private final String source;
        private final List<BaselineEntry> entries = new ArrayList<>();
        private final Map<String, Integer> entryLines = new HashMap<>();
        private boolean sawFormatLine;
        // The entry being read: its header and fields so far.
        private Matcher header;
        private String headerText;
        private int headerLine;
        private JvmMode headerMode;
        private final List<FieldDescriptor> fields = new ArrayList<>();

        Parser(String source) {
            this.source = source;
        }

        Baseline parse(String text) {
            String[] lines = text.split("\r?\n", -1);
            for (int i = 0; i < lines.length; i++) {
                parseLine(i + 1, lines[i]);
            }
            if (!sawFormatLine) {
                throw new BaselineFormatException(source, 1, null, "not a layout baseline: no '" + FORMAT_LINE + "' line");
            }
            finishEntry();
            return new Baseline(entries);
        }

        private void parseLine(int number, String line) {
            String content = line.strip();
            if (content.isEmpty() || content.startsWith("#")) {
                return;
            }
            if (!sawFormatLine) {
                if (!content.equals(FORMAT_LINE)) {
                    String problem = content.startsWith("blit-layout-baseline")
                            ? "unsupported baseline format, expected '" + FORMAT_LINE + "'"
                            : "expected '" + FORMAT_LINE + "' before anything else";
                    throw new BaselineFormatException(source, number, line, problem);
                }
                sawFormatLine = true;
                return;
            }
            if (content.startsWith("layout")) {
                finishEntry();
                startEntry(number, line, content);
            } else if (content.startsWith("@")) {
                addField(number, line, content);
            } else {
                throw new BaselineFormatException(source, number, line,
                        "expected a 'layout CLASS mode=.. start=.. length=.. fingerprint=..' line, a field line '@OFFSET TYPE NAME in CLASS', or a # comment");
            }
        }

        private void startEntry(int number, String line, String content) {
            Matcher matcher = LAYOUT.matcher(content);
            if (!matcher.matches()) {
                throw new BaselineFormatException(source, number, line,
                        "malformed layout line, expected 'layout CLASS mode=MODE start=INT length=INT fingerprint=16-HEX-DIGITS'");
            }
            JvmMode mode;
            try {
                mode = JvmMode.byId(matcher.group(2));
            } catch (IllegalArgumentException e) {
                throw new BaselineFormatException(source, number, line, e.getMessage());
            }
            Integer earlier = entryLines.putIfAbsent(matcher.group(1) + " " + mode.id(), number);
            if (earlier != null) {
                throw new BaselineFormatException(source, number, line, "a second entry for " + matcher.group(1)
                        + " in mode " + mode.id() + " (the first is at line " + earlier + ")");
            }
            header = matcher;
            headerText = line;
            headerLine = number;
            headerMode = mode;
        }

        private void addField(int number, String line, String content) {
            if (header == null) {
                throw new BaselineFormatException(source, number, line, "field line before any 'layout' line");
            }
            Matcher matcher = FIELD.matcher(content);
            if (!matcher.matches()) {
                throw new BaselineFormatException(source, number, line, "malformed field line, expected '@OFFSET TYPE NAME in DECLARING-CLASS'");
            }
            FieldType type = fieldType(number, line, matcher.group(2));
            int offset = Integer.parseInt(matcher.group(1));
            FieldDescriptor field = new FieldDescriptor(matcher.group(3), matcher.group(4), type, offset);
            if (!fields.isEmpty() && field.offset() < fields.getLast().end()) {
                throw new BaselineFormatException(source, number, line, "field " + field + " is not after the previous field "
                        + fields.getLast() + "; fields are listed by offset and do not overlap");
            }
            fields.add(field);
        }

        private FieldType fieldType(int number, String line, String keyword) {
            for (FieldType type : FieldType.values()) {
                if (type.keyword().equals(keyword)) {
                    return type;
                }
            }
            throw new BaselineFormatException(source, number, line, "unknown field type '" + keyword
                    + "', expected one of boolean, byte, char, short, int, float, long, double");
        }

        private void finishEntry() {
            if (header == null) {
                return;
            }
            if (fields.isEmpty()) {
                throw new BaselineFormatException(source, headerLine, headerText, "layout entry without field lines");
            }
            LayoutDescriptor layout;
            try {
                layout = new LayoutDescriptor(header.group(1), Integer.parseInt(header.group(3)),
                        Integer.parseInt(header.group(4)), fields, BaselineEntry.nominalFacts(headerMode), header.group(5));
            } catch (IllegalArgumentException e) {
                throw new BaselineFormatException(source, headerLine, headerText,
                        "entry does not agree with its field lines (edited by hand? re-record instead): " + e.getMessage());
            }
            entries.add(new BaselineEntry(headerMode, layout));
            header = null;
            fields.clear();
        }
    }
}

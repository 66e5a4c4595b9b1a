package io.blit.layout.baseline;

import io.blit.layout.JvmFacts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The JVM configurations a layout baseline knows: each is a name used in baseline files and on the
 * command line, and the flags that select it in a forked JVM.
 *
 * <p>{@link #DEFAULT} adds no flag: it is whatever the JDK does by default (today 12-byte headers with
 * compressed class pointers). Were a future JDK to change its default, the baseline's {@code default}
 * entries would stop matching and the check would say so, which is the point.
 */
public enum JvmMode {
    /** No flag: the JDK's default object layout. */
    DEFAULT("default", List.of()),
    /** {@code -XX:+UseCompactObjectHeaders}: 8-byte object headers (JEP 519). */
    COMPACT_HEADERS("compact-headers", List.of("-XX:+UseCompactObjectHeaders")),
    /** {@code -XX:-UseCompressedClassPointers}: 16-byte object headers (the flag is deprecated in JDK 25). */
    UNCOMPRESSED_CLASS_POINTERS("uncompressed-class-pointers", List.of("-XX:-UseCompressedClassPointers"));

    private final String id;
    private final List<String> flags;

    JvmMode(String id, List<String> flags) {
        this.id = id;
        this.flags = flags;
    }

    /** {@return the name in baseline files and on the command line, e.g. {@code "compact-headers"}} */
    public String id() {
        return id;
    }

    /** {@return the JVM flags that select this mode} */
    public List<String> flags() {
        return flags;
    }

    /**
     * The mode of the given JVM facts: compact headers, else uncompressed class pointers, else default.
     * A JVM whose default were compact headers would report {@link #COMPACT_HEADERS}.
     *
     * @param facts the facts of a JVM
     * @return its mode
     */
    public static JvmMode of(JvmFacts facts) {
        if (facts.compactObjectHeaders()) {
            return COMPACT_HEADERS;
        }
        return facts.compressedClassPointers() ? DEFAULT : UNCOMPRESSED_CLASS_POINTERS;
    }

    /** {@return the mode of the running JVM} */
    public static JvmMode current() {
        return of(JvmFacts.current());
    }

    /**
     * The mode with this name.
     *
     * @param id the mode's {@link #id()}
     * @return the mode
     * @throws NullPointerException if {@code id} is null
     * @throws IllegalArgumentException naming the valid modes if there is none
     */
    public static JvmMode byId(String id) {
        Objects.requireNonNull(id, "id");
        for (JvmMode mode : values()) {
            if (mode.id.equals(id)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown JVM mode '" + id + "'; known modes: " + allIds());
    }

    /**
     * Modes from a comma-separated list such as {@code "default,compact-headers"}, in the order given,
     * each once.
     *
     * @param commaSeparated mode ids separated by commas; blanks around an id are ignored
     * @return the modes, in the order given, each once
     * @throws IllegalArgumentException if the list is empty or names an unknown mode
     */
    public static List<JvmMode> parseList(String commaSeparated) {
        Set<JvmMode> modes = new LinkedHashSet<>();
        for (String id : commaSeparated.split(",", -1)) {
            if (id.isBlank()) {
                throw new IllegalArgumentException("empty mode in list '" + commaSeparated + "'; known modes: " + allIds());
            }
            modes.add(byId(id.strip()));
        }
        return new ArrayList<>(modes);
    }

    /** {@return every mode's id, comma-separated: {@code "default, compact-headers, uncompressed-class-pointers"}} */
    public static String allIds() {
        return Arrays.stream(values()).map(JvmMode::id).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return id;
    }
}

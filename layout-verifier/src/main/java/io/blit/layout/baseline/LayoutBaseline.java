package io.blit.layout.baseline;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Layout baselines from tests: assert that classes still have the layouts recorded in a baseline file,
 * with no dependency on any test framework — a failure is an {@link AssertionError}, which JUnit 4, 5
 * and 6, TestNG and plain {@code assert}-style harnesses all report as a failed test.
 *
 * <pre>{@code
 * @Test
 * void persistedMessagesKeepTheirLayout() {
 *     LayoutBaseline.assertMatches(Path.of("layout-baseline.txt"), MarketData.class, BookUpdate.class);
 * }
 * }</pre>
 *
 * <p>{@link #assertMatches(Path, Class[])} measures in the test's own JVM, so it checks the entries of
 * that JVM's {@linkplain JvmMode#current() mode}; {@link #assertMatchesInModes(Path, List, Class[])}
 * forks one JVM per mode with the test's class path. Entries of other classes or modes in the file are
 * left alone. <b>Re-recording:</b> run the test with the system property
 * {@value #RECORD_PROPERTY}{@code =true} (Maven: {@code ./mvnw test -Dtest=TheTest -Dblit.layout.baseline.record=true});
 * the assertion then rewrites the entries of its classes and modes in the file, keeping the others,
 * and passes. Review the diff and commit it.
 *
 * <p>Stateless; thread-safe, but two tests recording the same file at the same time would race.
 */
public final class LayoutBaseline {
    /** The system property that turns every assertion into a recording: {@value}. */
    public static final String RECORD_PROPERTY = "blit.layout.baseline.record";

    private LayoutBaseline() {
    }

    /**
     * Asserts that every class has the layout recorded in {@code baseline} for the running JVM's mode,
     * or records it when {@value #RECORD_PROPERTY} is {@code true}.
     *
     * @param baseline the baseline file
     * @param classes  the classes to check
     * @throws AssertionError    if the file does not exist, a class's layout differs (the message lists
     *                           every changed field with its old and new offset and type) or is not
     *                           recorded, or a class is not trivially copyable
     * @throws BaselineFormatException if the file cannot be parsed, naming the line
     */
    public static void assertMatches(Path baseline, Class<?>... classes) {
        Measurement measured = Measurement.ofClasses(List.of(classes));
        assertOrRecord(baseline, measured, Set.of(JvmMode.current()), classes);
    }

    /**
     * As {@link #assertMatches(Path, Class[])}, measuring in one forked JVM per mode, with the running
     * JVM's {@code java} and class path ({@code java.class.path}).
     *
     * @param baseline the baseline file
     * @param modes    the modes to measure and check, one forked JVM each
     * @param classes  the classes to check
     * @throws IllegalStateException if a forked JVM fails (e.g. a flag the JDK does not know)
     */
    public static void assertMatchesInModes(Path baseline, List<JvmMode> modes, Class<?>... classes) {
        List<String> names = List.of(classes).stream().map(Class::getName).toList();
        List<BaselineEntry> entries = new ArrayList<>();
        List<BaselineCheck.NotTriviallyCopyable> refused = new ArrayList<>();
        for (JvmMode mode : modes) {
            Measurement m = ForkedMeasurement.inMode(mode, System.getProperty("java.class.path"), names);
            entries.addAll(m.baseline().entries());
            refused.addAll(m.refused());
        }
        assertOrRecord(baseline, new Measurement(Baseline.of(entries), refused), Set.copyOf(modes), classes);
    }

    /**
     * The check behind {@link #assertMatches(Path, Class[])}, for callers that want the findings rather
     * than an exception. A missing file counts as an empty baseline (every class is then "not in the
     * baseline").
     *
     * @param baseline the baseline file
     * @param classes  the classes to check
     * @return the findings of the check in the running JVM's mode
     * @throws BaselineFormatException if the file cannot be parsed, naming the line
     */
    public static BaselineCheck check(Path baseline, Class<?>... classes) {
        Measurement measured = Measurement.ofClasses(List.of(classes));
        return compare(baseline, measured, Set.of(JvmMode.current()), classes);
    }

    private static void assertOrRecord(Path baseline, Measurement measured, Set<JvmMode> modes, Class<?>[] classes) {
        if (Boolean.getBoolean(RECORD_PROPERTY)) {
            if (!measured.refused().isEmpty()) {
                throw new AssertionError("cannot record " + baseline + ": "
                        + measured.refused().stream().map(BaselineCheck.Finding::describe).collect(Collectors.joining("\n")));
            }
            Baseline existing = Files.exists(baseline) ? Baseline.read(baseline) : Baseline.of(List.of());
            existing.replacing(measured.baseline()).write(baseline, rerecordHint(baseline));
            return;
        }
        if (!Files.exists(baseline)) {
            throw new AssertionError("layout baseline " + baseline + " does not exist; record it: " + rerecordHint(baseline));
        }
        BaselineCheck check = compare(baseline, measured, modes, classes);
        if (!check.passed()) {
            throw new AssertionError(check.report(baseline.toString(), rerecordHint(baseline)));
        }
    }

    private static BaselineCheck compare(Path baseline, Measurement measured, Set<JvmMode> modes, Class<?>[] classes) {
        Baseline recorded = Files.exists(baseline) ? Baseline.read(baseline) : Baseline.of(List.of());
        Set<String> names = List.of(classes).stream().map(Class::getName).collect(Collectors.toSet());
        return BaselineCheck.compare(recorded, measured.baseline(), e -> modes.contains(e.mode()) && names.contains(e.className()))
                .with(measured.refused());
    }

    /**
     * How to re-record from the calling test: its class is the first stack frame that is neither this
     * class nor the JDK's or JUnit's (an assertion may be called through {@code assertThrows}).
     */
    private static String rerecordHint(Path baseline) {
        String caller = StackWalker.getInstance().walk(frames -> frames
                .map(StackWalker.StackFrame::getClassName)
                .filter(name -> !name.equals(LayoutBaseline.class.getName()) && !name.startsWith("java.") && !name.startsWith("jdk.")
                        && !name.startsWith("org.junit.") && !name.startsWith("org.opentest4j."))
                .findFirst().orElse("YourTest"));
        caller = caller.contains("$") ? caller.substring(0, caller.indexOf('$')) : caller;
        String simple = caller.substring(caller.lastIndexOf('.') + 1);
        return "rerun the test with -D" + RECORD_PROPERTY + "=true, e.g. ./mvnw test -Dtest=" + simple + " -D" + RECORD_PROPERTY
                + "=true (rewrites this test's entries in " + baseline + ")";
    }
}

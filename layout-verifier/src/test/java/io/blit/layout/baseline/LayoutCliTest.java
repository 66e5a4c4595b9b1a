package io.blit.layout.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.FieldDescriptor;
import io.blit.layout.baseline.GeneratedClasses.Field;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line, run in-process (its measurements still fork one JVM per mode). Classes are
 * generated into temporary directories: {@code v1} and {@code v2} hold two variants of
 * {@code example.Quote} whose field {@code qty} changes from int to long.
 */
class LayoutCliTest {
    private static final String TWO_MODES = "default,compact-headers";

    @TempDir
    Path tmp;
    private Path baseline;
    private String v1;
    private String v2;

    /** What one run printed. */
    private record Run(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout ---\n" + out + "\n--- stderr ---\n" + err;
        }
    }

    @BeforeEach
    void generateClasses() {
        Path base = tmp.resolve("base");
        GeneratedClasses.writeTriviallyCopyable(base);
        GeneratedClasses.write(tmp.resolve("v1"), "example.Quote", ClassScanner.TRIVIALLY_COPYABLE,
                Field.of("price", "J"), Field.of("qty", "I"), Field.of("venue", "S"));
        GeneratedClasses.write(tmp.resolve("v2"), "example.Quote", ClassScanner.TRIVIALLY_COPYABLE,
                Field.of("price", "J"), Field.of("qty", "J"), Field.of("venue", "S"));
        v1 = base + File.pathSeparator + tmp.resolve("v1");
        v2 = base + File.pathSeparator + tmp.resolve("v2");
        baseline = tmp.resolve("layout-baseline.txt");
    }

    @Test
    void recordThenCheckPassesInEveryRequestedMode() throws IOException {
        Run record = run("record", "--classpath", v1, "--baseline", baseline.toString(), "--modes", TWO_MODES);
        assertEquals(0, record.exitCode(), record.toString());

        Baseline recorded = Baseline.read(baseline);
        assertEquals(List.of(JvmMode.DEFAULT, JvmMode.COMPACT_HEADERS), recorded.entries().stream().map(BaselineEntry::mode).toList());
        assertEquals(8, recorded.entry("example.Quote", JvmMode.COMPACT_HEADERS).orElseThrow().layout().start(),
                "the compact-headers entry was measured with compact headers");
        assertTrue(Files.readString(baseline).contains("record --classpath"), "the file says how to re-record it");

        Run check = run("check", "--classpath", v1, "--baseline", baseline.toString(), "--modes", TWO_MODES);
        assertEquals(0, check.exitCode(), check.toString());
        assertTrue(check.out().contains("1 classes match in modes " + TWO_MODES), check.toString());
    }

    @Test
    void checkFailsWhenAFieldTypeChangesNamingClassFieldAndOldAndNewOffsetsInEachMode() {
        Path changed = tmp.resolve("changed.txt");
        assertEquals(0, run("record", "--classpath", v1, "--baseline", baseline.toString(), "--modes", TWO_MODES).exitCode());
        assertEquals(0, run("record", "--classpath", v2, "--baseline", changed.toString(), "--modes", TWO_MODES).exitCode());

        Run check = run("check", "--classpath", v2, "--baseline", baseline.toString(), "--modes", TWO_MODES);

        assertEquals(1, check.exitCode(), check.toString());
        for (JvmMode mode : List.of(JvmMode.DEFAULT, JvmMode.COMPACT_HEADERS)) {
            FieldDescriptor before = Baseline.read(baseline).entry("example.Quote", mode).orElseThrow().layout().field("qty");
            FieldDescriptor after = Baseline.read(changed).entry("example.Quote", mode).orElseThrow().layout().field("qty");
            assertTrue(check.err().contains("example.Quote [" + mode.id() + "]: layout changed"), check.toString());
            assertTrue(check.err().contains("field 'qty' type changed from int @" + before.offset() + " to long @" + after.offset()),
                    mode + "\n" + check);
        }
        assertTrue(check.err().contains("re-record the baseline:\n  "), check.toString());
        assertTrue(check.err().contains("record --classpath " + v2 + " --baseline " + baseline + " --modes " + TWO_MODES), check.toString());
    }

    @Test
    void addedAndRemovedClassesFailTheCheck() {
        assertEquals(0, run("record", "--classpath", v1, "--baseline", baseline.toString(), "--modes", "default").exitCode());
        Path other = tmp.resolve("other");
        GeneratedClasses.writeTriviallyCopyable(other);
        GeneratedClasses.write(other, "example.Trade", ClassScanner.TRIVIALLY_COPYABLE, Field.of("id", "J"));

        Run check = run("check", "--classpath", other.toString(), "--baseline", baseline.toString(), "--modes", "default");

        assertEquals(1, check.exitCode(), check.toString());
        assertTrue(check.err().contains("example.Trade [default]: not in the baseline"), check.toString());
        assertTrue(check.err().contains("example.Quote [default]: in the baseline but not found"), check.toString());
    }

    @Test
    void classThatIsNotTriviallyCopyableFailsNamingTheField() {
        Path bad = tmp.resolve("bad");
        GeneratedClasses.write(bad, "example.Named", ClassScanner.TRIVIALLY_COPYABLE, Field.of("name", "Ljava/lang/String;"));

        Run record = run("record", "--classpath", v1 + File.pathSeparator + bad, "--baseline", baseline.toString(), "--modes", "default");

        assertEquals(1, record.exitCode(), record.toString());
        assertTrue(record.err().contains("example.Named [default]: example.Named is not trivially copyable: field Named.name"), record.toString());
        assertFalse(Files.exists(baseline), "nothing is recorded");
    }

    @Test
    void interoperateFlagsOnlyClassesWhoseLayoutDiffersBetweenThoseModes() {
        Path dir = tmp.resolve("mixed");
        // HotSpot on JDK 25: c@12 a@16 b@24 d@32 by default, a@8 b@16 c@24 d@28 with compact headers.
        GeneratedClasses.write(dir, "example.Mixed", ClassScanner.TRIVIALLY_COPYABLE,
                Field.of("a", "J"), Field.of("b", "D"), Field.of("c", "I"), Field.of("d", "B"));
        GeneratedClasses.write(dir, "example.Longs", ClassScanner.TRIVIALLY_COPYABLE, Field.of("a", "J"), Field.of("b", "J"));
        String classPath = tmp.resolve("base") + File.pathSeparator + dir;

        Run print = run("print", "--classpath", classPath, "--modes", TWO_MODES, "--interoperate", TWO_MODES);

        assertEquals(1, print.exitCode(), print.toString());
        assertTrue(print.out().contains("layout example.Mixed mode=compact-headers start=8"), print.toString());
        assertTrue(print.err().contains("example.Mixed: layout differs between modes that must interoperate"), print.toString());
        assertTrue(print.err().contains("written in default, read in compact-headers: example.Mixed: field 'c' moved from +0 (writer) to +16 (reader)"),
                print.toString());
        assertFalse(print.err().contains("example.Longs"), "a class of 8-byte fields has one layout in both modes:\n" + print);
    }

    @Test
    void malformedBaselineExits2NamingFileAndLine() throws IOException {
        Files.writeString(baseline, "blit-layout-baseline 1\n\nlayout example.Quote mode=default start=x\n");

        Run check = run("check", "--classpath", v1, "--baseline", baseline.toString());

        assertEquals(2, check.exitCode(), check.toString());
        assertTrue(check.err().startsWith("error: " + baseline + ":3: malformed layout line"), check.toString());
    }

    @Test
    void missingBaselineExits2SayingHowToRecordIt() {
        Run check = run("check", "--classpath", v1, "--baseline", baseline.toString(), "--modes", "default");

        assertEquals(2, check.exitCode(), check.toString());
        assertTrue(check.err().contains("baseline " + baseline + " does not exist; record it first:"), check.toString());
        assertTrue(check.err().contains("record --classpath " + v1), check.toString());
    }

    @Test
    void badInputExits2WithOneLineNamingIt() {
        Run missingEntry = run("print", "--classpath", tmp.resolve("nowhere").toString());
        assertEquals(2, missingEntry.exitCode());
        assertEquals("error: class path entry " + tmp.resolve("nowhere") + " does not exist", missingEntry.err().strip());

        Path plain = tmp.resolve("plain");
        GeneratedClasses.write(plain, "example.Plain", "java.lang.Object", Field.of("id", "J"));
        Run nothingFound = run("print", "--classpath", plain.toString());
        assertEquals(2, nothingFound.exitCode());
        assertTrue(nothingFound.err().contains("no concrete subclass of io.blit.core.TriviallyCopyable found"), nothingFound.toString());

        Run superclassMissing = run("print", "--classpath", tmp.resolve("v1").toString(), "--modes", "default");
        assertEquals(2, superclassMissing.exitCode());
        assertTrue(superclassMissing.err().contains("cannot load class example.Quote from class path " + tmp.resolve("v1")
                + ": java.lang.NoClassDefFoundError: io/blit/core/TriviallyCopyable"), superclassMissing.toString());

        Run unknownClass = run("print", "--classpath", v1, "--class", "example.Nope", "--modes", "default");
        assertEquals(2, unknownClass.exitCode(), unknownClass.toString());
        assertTrue(unknownClass.err().contains("cannot load class example.Nope"), unknownClass.toString());
    }

    @Test
    void usageErrorsExit2WithOneLineNamingTheProblemAndWhereTheUsageIs() {
        for (String[] args : List.of(new String[0], new String[] {"verify"}, new String[] {"check", "--classpath", "x"},
                new String[] {"print", "--classpath", "x", "--colour", "red"}, new String[] {"print", "--classpath"},
                new String[] {"print", "--classpath", "x", "--modes", "default,huge"},
                new String[] {"print", "--classpath", "x", "--modes", "default", "--interoperate", TWO_MODES})) {
            Run run = run(args);
            assertEquals(2, run.exitCode(), List.of(args) + "\n" + run);
            assertEquals(1, run.err().lines().count(), run.toString());
            assertTrue(run.err().startsWith("error: "), run.toString());
            String command = args.length > 0 && !args[0].equals("verify") ? " " + args[0] : "";
            assertTrue(run.err().strip().endsWith(" (layout-verifier" + command + " --help for usage)"), run.toString());
            assertEquals("", run.out(), run.toString());
        }
        assertEquals("error: no command given (check, record or print) (layout-verifier --help for usage)",
                run().err().strip());
        assertEquals("error: check: --baseline FILE is required (layout-verifier check --help for usage)",
                run("check", "--classpath", "x").err().strip());
        assertEquals("error: print: --modes names an unknown JVM mode 'huge'; known modes: " + JvmMode.allIds()
                + " (layout-verifier print --help for usage)", run("print", "--classpath", "x", "--modes", "default,huge").err().strip());
        Run unknown = run("print", "--classpath", "x", "--colour", "red");
        assertTrue(unknown.err().startsWith("error: print: Unknown options: '--colour', 'red' "), unknown.toString());
    }

    @Test
    void helpPrintsTheUsageAndExits0() {
        Run help = run("--help");
        assertEquals(0, help.exitCode());
        assertTrue(help.out().startsWith("Usage: layout-verifier [-hV] [COMMAND]"), help.toString());
        assertTrue(help.out().contains("exit codes: 0 ok, 1 check failed, 2 usage error or bad input"), help.toString());
        for (String command : List.of("check", "record", "print")) {
            Run commandHelp = run(command, "--help");
            assertEquals(0, commandHelp.exitCode(), commandHelp.toString());
            assertTrue(commandHelp.out().startsWith("Usage: layout-verifier " + command + " "), commandHelp.toString());
            for (String option : List.of("--classpath=PATH", "--baseline=FILE", "--class=NAME", "--modes=LIST",
                    "--interoperate=LIST", "--rerecord-command=TEXT")) {
                assertTrue(commandHelp.out().contains(option), option + " in\n" + commandHelp);
            }
            assertTrue(help.out().contains("  " + command + " "), command + " listed in\n" + help);
        }
    }

    @Test
    void versionPrintsTheProjectVersion() {
        for (String[] args : List.of(new String[] {"--version"}, new String[] {"-V"}, new String[] {"check", "--version"})) {
            Run version = run(args);
            assertEquals(0, version.exitCode(), version.toString());
            assertTrue(version.out().strip().matches("layout-verifier \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"), version.toString());
        }
    }

    /** The JUnit-side assertion across modes forks like the command line, with the test's class path. */
    @Test
    void assertionInModesRecordsAndChecksEveryModeInForkedJvms() {
        List<JvmMode> modes = List.of(JvmMode.DEFAULT, JvmMode.COMPACT_HEADERS);
        Class<?> mixed = io.blit.layout.shapes.Shapes.LongDoubleIntByte.class;
        System.setProperty(LayoutBaseline.RECORD_PROPERTY, "true");
        try {
            LayoutBaseline.assertMatchesInModes(baseline, modes, mixed);
        } finally {
            System.clearProperty(LayoutBaseline.RECORD_PROPERTY);
        }
        Baseline recorded = Baseline.read(baseline);
        assertEquals(12, recorded.entry(mixed.getName(), JvmMode.DEFAULT).orElseThrow().layout().start(), "c@12 by default");
        assertEquals(8, recorded.entry(mixed.getName(), JvmMode.COMPACT_HEADERS).orElseThrow().layout().start(), "a@8 with compact headers");

        LayoutBaseline.assertMatchesInModes(baseline, modes, mixed);

        Class<?> other = io.blit.layout.shapes.Shapes.ThreeInts.class;
        String message = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                () -> LayoutBaseline.assertMatchesInModes(baseline, modes, mixed, other)).getMessage();
        assertTrue(message.contains(other.getName() + " [default]: not in the baseline"), message);
        assertTrue(message.contains(other.getName() + " [compact-headers]: not in the baseline"), message);
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new LayoutCli(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                .run(new ArrayList<>(List.of(args)).toArray(String[]::new));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}

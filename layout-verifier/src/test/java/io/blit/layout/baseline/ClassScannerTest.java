package io.blit.layout.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.baseline.GeneratedClasses.Field;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding subclasses of TriviallyCopyable by reading class files, in directories and jars. */
class ClassScannerTest {
    private static final String TC = ClassScanner.TRIVIALLY_COPYABLE;

    @TempDir
    Path tmp;

    @Test
    void findsConcreteSubclassesTransitivelyAcrossDirectoriesAndJars() {
        Path base = tmp.resolve("base");
        GeneratedClasses.writeTriviallyCopyable(base);
        GeneratedClasses.write(base, "lib.AbstractMessage", TC, true, List.of(Field.of("sequence", "J")));
        Path app = tmp.resolve("app");
        GeneratedClasses.write(app, "app.Direct", TC, Field.of("a", "J"));
        GeneratedClasses.write(app, "app.ViaAbstract", "lib.AbstractMessage", Field.of("b", "I"));
        GeneratedClasses.write(app, "app.TwoLevels", "app.ViaAbstract", Field.of("c", "B"));
        GeneratedClasses.write(app, "app.Unrelated", "java.lang.Object", Field.of("d", "J"));
        GeneratedClasses.writeInterface(app, "app.SomeInterface");
        Path jar = GeneratedClasses.jar(base, tmp.resolve("lib.jar"));

        List<String> found = ClassScanner.subclassesOf(TC, List.of(jar, app));

        assertEquals(List.of("app.Direct", "app.TwoLevels", "app.ViaAbstract"), found,
                "abstract classes, interfaces, unrelated classes and the base itself are left out");
    }

    @Test
    void subclassOfAnIntermediateOutsideTheClassPathIsNotFound() {
        Path app = tmp.resolve("app");
        GeneratedClasses.write(app, "app.Orphan", "lib.Missing", Field.of("a", "J"));

        assertEquals(List.of(), ClassScanner.subclassesOf(TC, List.of(app)));
    }

    @Test
    void metaInfAndModuleInfoAreSkipped() throws IOException {
        Path app = tmp.resolve("app");
        GeneratedClasses.write(app.resolve("META-INF/versions/26"), "app.Direct", TC, Field.of("a", "J"));
        Files.write(app.resolve("module-info.class"), new byte[] {1, 2, 3});

        assertEquals(List.of(), ClassScanner.subclassesOf(TC, List.of(app)));
    }

    @Test
    void corruptClassFileIsNamed() throws IOException {
        Path app = tmp.resolve("app");
        Files.createDirectories(app.resolve("app"));
        Files.write(app.resolve("app/Broken.class"), new byte[] {(byte) 0xCA, (byte) 0xFE, 0, 0});

        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> ClassScanner.subclassesOf(TC, List.of(app)));

        assertTrue(error.getMessage().startsWith("cannot parse class file " + app.resolve("app/Broken.class")), error.getMessage());
    }

    @Test
    void fileThatIsNotAJarIsNamed() throws IOException {
        Path notAJar = Files.writeString(tmp.resolve("notes.txt"), "hello");

        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> ClassScanner.subclassesOf(TC, List.of(notAJar)));

        assertTrue(error.getMessage().startsWith("class path entry " + notAJar + " is neither a directory nor a readable jar"), error.getMessage());
    }

    @Test
    void classPathIsSplitAndEveryEntryMustExist() throws IOException {
        Path a = Files.createDirectories(tmp.resolve("a"));
        Path b = Files.createDirectories(tmp.resolve("b"));

        assertEquals(List.of(a, b), ClassScanner.parseClassPath(a + File.pathSeparator + File.pathSeparator + b));
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> ClassScanner.parseClassPath(a + File.pathSeparator + tmp.resolve("gone")));
        assertEquals("class path entry " + tmp.resolve("gone") + " does not exist", error.getMessage());
    }
}

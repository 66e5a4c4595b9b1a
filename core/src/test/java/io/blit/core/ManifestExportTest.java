package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.blit.layout.testkit.ForkedJvm;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application jar that names {@code Add-Exports: java.base/jdk.internal.misc} in its manifest (as Blit's own
 * command-line jars do), started with {@code java -jar} and no JVM option at all: Blit copies by address and the JVM
 * prints nothing on standard error, no "terminally deprecated" warning. Without the attribute the same jar gets the
 * JDK's warning, which shows the test can fail.
 */
class ManifestExportTest {
    @TempDir
    Path directory;

    @Test
    void aJarWithTheExportInItsManifestRunsQuietWithNoFlags() throws Exception {
        ForkedJvm.Result child = ForkedJvm.runJar(jar("exported.jar", true));
        assertEquals(0, child.exitCode(), child::describe);
        assertEquals(List.of("unsafe jdk.internal.misc.Unsafe", "engine GENERATED", "copied 252"),
                child.stdout().lines().toList(), child::describe);
        assertEquals("", child.stderr(), child::describe);
    }

    @Test
    void theSameJarWithoutTheAttributeGetsTheJdksWarning() throws Exception {
        ForkedJvm.Result child = ForkedJvm.runJar(jar("plain.jar", false));
        assertEquals(0, child.exitCode(), child::describe);
        assertEquals(List.of("unsafe sun.misc.Unsafe", "engine GENERATED", "copied 252"),
                child.stdout().lines().toList(), child::describe);
        assertEquals(1, child.stderr().lines().filter(line -> line.contains("terminally deprecated")).count(),
                child::describe);
    }

    /** An empty jar whose manifest names {@link ExportedCopyMain} and this JVM's class path as absolute URLs. */
    private Path jar(String name, boolean export) throws IOException {
        Manifest manifest = new Manifest();
        Attributes attributes = manifest.getMainAttributes();
        attributes.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        attributes.put(Attributes.Name.MAIN_CLASS, ExportedCopyMain.class.getName());
        attributes.put(Attributes.Name.CLASS_PATH, Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().toUri().toString())
                .collect(Collectors.joining(" ")));
        if (export) {
            attributes.putValue("Add-Exports", "java.base/jdk.internal.misc");
        }
        Path jar = directory.resolve(name);
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            out.flush();
        }
        return jar;
    }
}

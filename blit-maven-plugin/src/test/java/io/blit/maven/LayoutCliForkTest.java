package io.blit.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class LayoutCliForkTest {

    @Test
    void featureReleaseOfVersionStrings() {
        assertEquals(25, LayoutCliFork.feature("25.0.1"));
        assertEquals(25, LayoutCliFork.feature("25"));
        assertEquals(26, LayoutCliFork.feature("26-ea"));
        assertEquals(17, LayoutCliFork.feature("17.0.12+7"));
        assertEquals(8, LayoutCliFork.feature("1.8.0_402"));
    }

    @Test
    void featureReleaseOfTheRunningJdk() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        assertEquals(Runtime.version().feature(), LayoutCliFork.featureRelease(java));
    }

    @Test
    void commandRunsTheCliOnTheToolClassPath() {
        LayoutCliFork fork = new LayoutCliFork("/jdk/bin/java", List.of(new File("lv.jar"), new File("picocli.jar")));
        List<String> command = fork.command(List.of("check", "--baseline", "b.txt"));
        assertEquals(List.of("/jdk/bin/java", "-cp", "lv.jar" + File.pathSeparator + "picocli.jar",
                "io.blit.layout.baseline.LayoutCli", "check", "--baseline", "b.txt"), command);
    }

    @Test
    void runReturnsExitCodeAndOutput() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        LayoutCliFork.Result result = new LayoutCliFork(java, List.of(new File("does-not-exist.jar")))
                .run(List.of(), new File("."));
        assertEquals(1, result.exitCode());
        assertTrue(result.output().contains(LayoutCliFork.MAIN_CLASS), result.output());
    }
}

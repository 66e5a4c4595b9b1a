package io.blit.architecture;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guards the import every rule relies on. ArchUnit before 1.4.1 imports nothing from Java 25 class
 * files and only logs a warning, after which every "no classes should" rule passes vacuously; these
 * tests fail instead if known classes are missing, or if test code or JMH-generated code slipped in.
 */
class ImportedClassesTest {

    @Test
    void importsAKnownClassOfEveryModule() {
        JavaClasses classes = ProductionClasses.get();
        List<String> known = List.of(
                "io.blit.layout.LayoutVerifier",
                BlitRules.UNSAFE_ACCESS,
                "io.blit.core.BlockCopier",
                "io.blit.core.internal.BlockEngine",
                "io.blit.queue.BlitQueue",
                "io.blit.queue.internal.format.RecordHeader",
                "io.blit.tools.messages.MarketData",
                "io.blit.tools.cli.QueueCli",
                "io.blit.stress.ClaimStress",
                "io.blit.benchmarks.MarketDataCopyBenchmark",
                "io.blit.maven.CheckLayoutMojo");
        for (String name : known) {
            assertTrue(classes.contain(name), () -> name + " was not imported; ArchUnit imported " + classes.size()
                    + " classes. Is ArchUnit older than 1.4.1 (no Java 25 class files) or the module missing from the test class path?");
        }
    }

    @Test
    void readsMethodBodiesSoDependencyRulesSeeCalls() {
        JavaClass engine = ProductionClasses.get().get("io.blit.core.internal.BlockEngine");
        assertTrue(engine.getDirectDependenciesFromSelf().stream()
                        .anyMatch(d -> d.getTargetClass().getName().equals(BlitRules.UNSAFE_ACCESS)),
                () -> "BlockEngine calls UnsafeAccess, but ArchUnit saw only " + engine.getDirectDependenciesFromSelf());
    }

    @Test
    void leavesOutTestClassesAndJmhGeneratedCode() {
        JavaClasses classes = ProductionClasses.get();
        assertFalse(classes.contain(ImportedClassesTest.class), "test classes were imported");
        assertFalse(classes.contain("io.blit.architecture.violation.UsesSunMiscUnsafe"), "violating fixtures were imported");
        assertTrue(classes.stream().noneMatch(c -> c.getPackageName().contains("jmh_generated")),
                "JMH-generated classes were imported");
    }
}

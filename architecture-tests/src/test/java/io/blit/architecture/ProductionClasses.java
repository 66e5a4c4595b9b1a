package io.blit.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;

/**
 * Every production class of every Blit module, imported once per test JVM.
 *
 * <p>Test classes are left out ({@link ImportOption.DoNotIncludeTests}): they include this module's
 * deliberately violating fixtures. So is the code JMH generates into {@code ..jmh_generated..}: it is
 * not ours, it subclasses the benchmark classes and declares padding and {@code public volatile}
 * fields by design. None of today's rules flags it (checked by hand with it included), but any rule on
 * fields or inheritance applied to {@code io.blit..} would, so it stays out of the import.
 *
 * <p>The import is immutable; sharing it across tests is safe.
 */
final class ProductionClasses {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(new ImportOption.DoNotIncludeTests())
            .withImportOption(ProductionClasses::isNotJmhGenerated)
            .importPackages("io.blit");

    private ProductionClasses() {
    }

    /** The imported classes. */
    static JavaClasses get() {
        return CLASSES;
    }

    private static boolean isNotJmhGenerated(Location location) {
        return !location.contains("/jmh_generated/");
    }
}

package io.blit.layout.archunit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user-facing ArchUnit rules on generated fixtures: a stand-in {@code io.blit.core.TriviallyCopyable}
 * (core is not a dependency of this module), a class that passes, and one that breaks each rule.
 */
class TriviallyCopyableRulesTest {
    private static final String TC = TriviallyCopyableRules.TRIVIALLY_COPYABLE;

    @TempDir
    Path dir;

    @BeforeEach
    void writeBase() {
        write("io.blit.core.TriviallyCopyable", "java.lang.Object", ClassFile.ACC_ABSTRACT, List.of());
    }

    @Test
    void classOfNonFinalPrimitivesPassesEveryRule() {
        write("app.Good", TC, 0, List.of(field("price", "J", 0), field("qty", "I", 0)));
        write("app.Unrelated", "java.lang.Object", 0, List.of(field("name", "Ljava/lang/String;", ClassFile.ACC_FINAL)));
        JavaClasses classes = importAll();

        EvaluationResult result = TriviallyCopyableRules.all().evaluate(classes);

        assertFalse(result.hasViolation(), result.getFailureReport().toString());
        assertTrue(classes.contain("app.Good"), "the fixture was imported, so the rule checked something");
    }

    @Test
    void referenceFieldFailsNamingClassFieldAndType() {
        write("app.Quote", TC, 0, List.of(field("price", "J", 0), field("symbol", "Ljava/lang/String;", 0)));

        List<String> violations = violations(TriviallyCopyableRules.onlyPrimitiveInstanceFields());

        assertEquals(1, violations.size(), violations.toString());
        assertTrue(violations.getFirst().startsWith("field app.Quote.symbol (java.lang.String)"), violations.toString());
        assertTrue(violations.getFirst().contains("is a reference field"), violations.toString());
    }

    @Test
    void finalFieldFailsNamingClassAndField() {
        write("app.Quote", TC, 0, List.of(field("price", "J", ClassFile.ACC_FINAL)));

        List<String> violations = violations(TriviallyCopyableRules.noFinalInstanceFields());

        assertEquals(1, violations.size(), violations.toString());
        assertTrue(violations.getFirst().startsWith("field app.Quote.price (long)"), violations.toString());
        assertTrue(violations.getFirst().contains("is final"), violations.toString());
    }

    @Test
    void shadowedFieldNameFailsNamingBothFields() {
        write("app.Base", TC, ClassFile.ACC_ABSTRACT, List.of(field("id", "J", 0)));
        write("app.Sub", "app.Base", 0, List.of(field("id", "I", 0)));

        List<String> violations = violations(TriviallyCopyableRules.uniqueFieldNamesInHierarchy());

        assertEquals(1, violations.size(), violations.toString());
        assertTrue(violations.getFirst().startsWith("field app.Sub.id (int)"), violations.toString());
        assertTrue(violations.getFirst().contains("shadows field app.Base.id"), violations.toString());
    }

    @Test
    void violationInASubclassOfASubclassIsFound() {
        write("app.Base", TC, ClassFile.ACC_ABSTRACT, List.of(field("id", "J", 0)));
        write("app.Leaf", "app.Base", 0, List.of(field("payload", "[B", 0)));

        List<String> violations = violations(TriviallyCopyableRules.all());

        assertEquals(1, violations.size(), violations.toString());
        assertTrue(violations.getFirst().startsWith("field app.Leaf.payload (byte[])"), violations.toString());
    }

    @Test
    void staticFieldsOfAnyTypeAreAllowed() {
        write("app.WithStatics", TC, 0, List.of(field("price", "J", 0),
                field("CACHE", "Ljava/lang/Object;", ClassFile.ACC_STATIC | ClassFile.ACC_FINAL)));

        assertEquals(List.of(), violations(TriviallyCopyableRules.all()));
    }

    private List<String> violations(ArchRule rule) {
        EvaluationResult result = rule.evaluate(importAll());
        return result.getFailureReport().getDetails();
    }

    private JavaClasses importAll() {
        return new ClassFileImporter().importPath(dir);
    }

    private record FieldSpec(String name, String descriptor, int flags) {
    }

    private static FieldSpec field(String name, String descriptor, int flags) {
        return new FieldSpec(name, descriptor, flags);
    }

    private void write(String name, String superName, int extraFlags, List<FieldSpec> fields) {
        byte[] bytes = ClassFile.of().build(ClassDesc.of(name), type -> {
            type.withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_SUPER | extraFlags);
            type.withSuperclass(ClassDesc.of(superName));
            for (FieldSpec f : fields) {
                type.withField(f.name(), ClassDesc.ofDescriptor(f.descriptor()), ClassFile.ACC_PUBLIC | f.flags());
            }
        });
        Path file = dir.resolve(name.replace('.', '/') + ".class");
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.blit.layout.archunit;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.HashMap;
import java.util.Map;

/**
 * ArchUnit rules that make the layout verifier's requirements fail at test time, before any copy:
 * every subclass of {@code io.blit.core.TriviallyCopyable} (direct or not, abstract or not) declares
 * only instance fields that are primitive and not final, and no two fields of its hierarchy share a
 * name. A violation names the class, the field, its type and its source location.
 *
 * <pre>{@code
 * @AnalyzeClasses(packages = "com.acme")
 * class MessageRules {
 *     @ArchTest
 *     static final ArchRule triviallyCopyable = TriviallyCopyableRules.all();
 * }
 * }</pre>
 *
 * <p>ArchUnit is an optional dependency of the layout verifier: add {@code com.tngtech.archunit:archunit}
 * (or {@code archunit-junit5}) to your tests to use this class. The base class is matched by name, so
 * the rules work on any import that contains your classes; when core itself is not imported ArchUnit
 * resolves it from the class path. As with every ArchUnit rule, one that matches no class at all fails
 * ({@code failOnEmptyShould}); call {@code .allowEmptyShould(true)} if that is expected.
 *
 * <p>These rules catch what the source shows. The verifier ({@code LayoutVerifier.verify}) remains the
 * authority: it also refuses, for instance, classes with no instance field at all.
 * Stateless; thread-safe.
 */
public final class TriviallyCopyableRules {
    /** The binary name of core's base class. */
    public static final String TRIVIALLY_COPYABLE = "io.blit.core.TriviallyCopyable";

    private TriviallyCopyableRules() {
    }

    /** {@return the rule that every subclass of TriviallyCopyable declares only primitive instance fields} */
    public static ArchRule onlyPrimitiveInstanceFields() {
        return classes().that(areTriviallyCopyable())
                .should(new ArchCondition<JavaClass>("declare only primitive instance fields") {
                    @Override
                    public void check(JavaClass type, ConditionEvents events) {
                        for (JavaField field : type.getFields()) {
                            if (isInstanceField(field) && !field.getRawType().isPrimitive()) {
                                events.add(SimpleConditionEvent.violated(field, describe(field)
                                        + " is a reference field; a TriviallyCopyable class may hold only primitive instance fields"));
                            }
                        }
                    }
                })
                .because("Blit copies the whole field block of these classes as bytes; a reference would be copied as a raw pointer");
    }

    /** {@return the rule that every subclass of TriviallyCopyable declares no final instance field} */
    public static ArchRule noFinalInstanceFields() {
        return classes().that(areTriviallyCopyable())
                .should(new ArchCondition<JavaClass>("declare no final instance fields") {
                    @Override
                    public void check(JavaClass type, ConditionEvents events) {
                        for (JavaField field : type.getFields()) {
                            if (isInstanceField(field) && field.getModifiers().contains(JavaModifier.FINAL)) {
                                events.add(SimpleConditionEvent.violated(field, describe(field)
                                        + " is final; reading a block writes every field in place, which the JIT may not expect of a final field"));
                            }
                        }
                    }
                })
                .because("the layout verifier refuses final fields (docs/layout-verifier.md)");
    }

    /** {@return the rule that no two instance fields in the hierarchy of a subclass of TriviallyCopyable share a name} */
    public static ArchRule uniqueFieldNamesInHierarchy() {
        return classes().that(areTriviallyCopyable())
                .should(new ArchCondition<JavaClass>("have uniquely named instance fields across their hierarchy") {
                    @Override
                    public void check(JavaClass type, ConditionEvents events) {
                        Map<String, JavaField> byName = new HashMap<>();
                        for (JavaField field : type.getFields()) {
                            if (isInstanceField(field)) {
                                byName.put(field.getName(), field);
                            }
                        }
                        for (JavaClass superclass : type.getAllRawSuperclasses()) {
                            for (JavaField inherited : superclass.getFields()) {
                                JavaField own = byName.get(inherited.getName());
                                if (own != null && isInstanceField(inherited)) {
                                    events.add(SimpleConditionEvent.violated(own, describe(own) + " shadows field "
                                            + inherited.getFullName() + "; field names identify fields in layout descriptors"));
                                }
                            }
                        }
                    }
                })
                .because("the layout verifier refuses shadowed field names (docs/layout-verifier.md)");
    }

    /** {@return all of the above as one rule} */
    public static ArchRule all() {
        return CompositeArchRule.of(onlyPrimitiveInstanceFields())
                .and(noFinalInstanceFields())
                .and(uniqueFieldNamesInHierarchy());
    }

    /** {@return the predicate that selects the subclasses of TriviallyCopyable, direct or not, other than itself} */
    public static DescribedPredicate<JavaClass> areTriviallyCopyable() {
        return assignableTo(TRIVIALLY_COPYABLE).and(not(name(TRIVIALLY_COPYABLE)))
                .as("are subclasses of " + TRIVIALLY_COPYABLE);
    }

    private static boolean isInstanceField(JavaField field) {
        return !field.getModifiers().contains(JavaModifier.STATIC);
    }

    private static String describe(JavaField field) {
        return "field " + field.getFullName() + " (" + typeName(field.getRawType()) + ") " + field.getSourceCodeLocation();
    }

    /** {@code byte[]} rather than the binary {@code [B}. */
    private static String typeName(JavaClass type) {
        return type.isArray() ? typeName(type.getComponentType()) + "[]" : type.getName();
    }
}

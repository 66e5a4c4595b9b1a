package io.blit.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.shapes.Shapes;
import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.invoke.MethodHandles;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What the verifier refuses, and what its messages say: the class, and for a field at fault its
 * declaring class, name, offset ({@code @<digits>}, checked against JOL's simulation) and type.
 */
class LayoutVerifierRejectionTest {
    enum Color { RED, GREEN }

    enum Operation {
        PLUS { @Override int apply(int a, int b) { return a + b; } };
        abstract int apply(int a, int b);
    }

    record Point(int x, int y) { }

    interface Shape { }

    @interface Marker { }

    static final class WithString { int a; String name; }
    static final class WithIntArray { long a; int[] values; }
    static final class WithBoxedInteger { Integer boxed; byte a; }
    static final class WithEnum { Color color; short a; }
    static final class WithObject { Object any; double a; }

    static class ReferenceBase { String label; }
    static final class PrimitiveChildOfReferenceBase extends ReferenceBase { int a; long b; }

    /** Uses its enclosing instance, so javac keeps the synthetic {@code this$0} field. */
    final class InnerUsingOuter {
        int a;
        int outerHash() { return LayoutVerifierRejectionTest.this.hashCode(); }
    }

    /** Never uses its enclosing instance: javac 18+ (JDK-8271623) emits no {@code this$0} field. */
    final class InnerIgnoringOuter { int a; }

    static final class SeveralBadFields {
        String text; int ok; int[] numbers; Integer boxed; Color color; Object any; final long fixed = System.nanoTime();
    }

    static final class WithFinalField { final int fixed; long b; WithFinalField(int fixed) { this.fixed = fixed; } }

    static class Duplicated { byte x; long y; }
    static final class DuplicatesSuperclassName extends Duplicated { int x; }

    static final class OnlyStatics { static long counter; static String name = "n"; }
    static class EmptyParent { static int shared; }
    static final class EmptyChild extends EmptyParent { }

    static final class StaticReferencesIgnored { static Object reference = new Object(); static String text = "t"; int a; }

    @Test
    void rejectsStringField() {
        assertFieldFault(WithString.class, WithString.class, "name", "java.lang.String", "is a reference field");
    }

    @Test
    void rejectsArrayField() {
        assertFieldFault(WithIntArray.class, WithIntArray.class, "values", "int[]", "is a reference field");
    }

    @Test
    void rejectsBoxedPrimitiveField() {
        assertFieldFault(WithBoxedInteger.class, WithBoxedInteger.class, "boxed", "java.lang.Integer", "is a reference field");
    }

    @Test
    void rejectsEnumTypedField() {
        assertFieldFault(WithEnum.class, WithEnum.class, "color", Color.class.getName(), "is a reference field");
    }

    @Test
    void rejectsObjectField() {
        assertFieldFault(WithObject.class, WithObject.class, "any", "java.lang.Object", "is a reference field");
    }

    @Test
    void rejectsReferenceFieldInSuperclass() {
        assertFieldFault(PrimitiveChildOfReferenceBase.class, ReferenceBase.class, "label", "java.lang.String", "is a reference field");
    }

    @Test
    void rejectsInnerClassEnclosingInstanceReference() {
        String message = assertFieldFault(InnerUsingOuter.class, InnerUsingOuter.class, "this$0",
                LayoutVerifierRejectionTest.class.getName(), "enclosing-instance reference of an inner class");
        assertTrue(message.contains("declare the class static"), message);
    }

    @Test
    void acceptsInnerClassThatJavacCompiledWithoutEnclosingInstance() {
        assertEquals(0, java.util.Arrays.stream(InnerIgnoringOuter.class.getDeclaredFields()).filter(f -> f.isSynthetic()).count(),
                "javac 18+ drops this$0 from inner classes that never use it");
        assertEquals(List.of("a"), LayoutVerifier.verify(InnerIgnoringOuter.class).fields().stream().map(FieldSlot::name).toList());
    }

    @Test
    void rejectsFinalField() {
        assertFieldFault(WithFinalField.class, WithFinalField.class, "fixed", "int", "is final");
    }

    @Test
    void listsEveryBadField() {
        String message = rejectionMessage(SeveralBadFields.class);
        assertFieldNamed(message, SeveralBadFields.class, SeveralBadFields.class, "text", "java.lang.String");
        assertFieldNamed(message, SeveralBadFields.class, SeveralBadFields.class, "numbers", "int[]");
        assertFieldNamed(message, SeveralBadFields.class, SeveralBadFields.class, "boxed", "java.lang.Integer");
        assertFieldNamed(message, SeveralBadFields.class, SeveralBadFields.class, "color", Color.class.getName());
        assertFieldNamed(message, SeveralBadFields.class, SeveralBadFields.class, "any", "java.lang.Object");
        assertFieldNamed(message, SeveralBadFields.class, SeveralBadFields.class, "fixed", "long");
        assertFalse(message.contains(".ok @"), "the good field is not a fault: " + message);
        assertEquals(5, count(message, "is a reference field"), message);
        assertEquals(1, count(message, "is final"), message);
    }

    @Test
    void rejectsDuplicateFieldNameAcrossHierarchy() {
        String message = rejectionMessage(DuplicatesSuperclassName.class);
        assertFieldNamed(message, DuplicatesSuperclassName.class, Duplicated.class, "x", "byte");
        long childOffset = JolOracle.offsetInThisJvm(DuplicatesSuperclassName.class, DuplicatesSuperclassName.class, "x");
        assertTrue(message.contains("DuplicatesSuperclassName.x @" + childOffset + " (int, 4)"), message);
        assertTrue(message.contains("same name"), message);
    }

    @Test
    void rejectsInterface() {
        assertKindRejected(Shape.class, "an interface");
    }

    @Test
    void rejectsAnnotation() {
        assertKindRejected(Marker.class, "an annotation interface");
    }

    @Test
    void rejectsArrayClasses() {
        assertKindRejected(int[].class, "an array type");
        assertKindRejected(Shapes.OneLong[].class, "an array type");
        assertTrue(rejectionMessage(int[].class).startsWith("int[] "), rejectionMessage(int[].class));
    }

    @Test
    void rejectsPrimitiveClasses() {
        assertKindRejected(int.class, "a primitive type");
        assertKindRejected(void.class, "a primitive type");
        assertTrue(rejectionMessage(int.class).startsWith("int "), rejectionMessage(int.class));
    }

    @Test
    void rejectsEnumClassAndConstantBodyClass() {
        assertKindRejected(Color.class, "an enum");
        Class<?> constantBody = Operation.PLUS.getClass();
        assertTrue(constantBody != Operation.class && constantBody.getSuperclass() == Operation.class, "PLUS has a body class");
        assertKindRejected(constantBody, "an enum");
    }

    @Test
    void rejectsRecord() {
        String message = rejectionMessage(Point.class);
        assertTrue(message.startsWith(Point.class.getName() + " is not trivially copyable: it is a record"), message);
    }

    @Test
    void rejectsClassWithNoInstanceFields() {
        for (Class<?> type : List.of(OnlyStatics.class, EmptyChild.class, Object.class)) {
            String message = rejectionMessage(type);
            assertTrue(message.startsWith(type.getName() + " is not trivially copyable: it has no instance fields"), message);
        }
    }

    @Test
    void rejectsHiddenClassWithPrimitiveFields() throws IllegalAccessException {
        byte[] bytes = ClassFile.of().build(ClassDesc.of(getClass().getPackageName() + ".HiddenProbe"), builder -> builder
                .withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL | ClassFile.ACC_SUPER)
                .withSuperclass(ConstantDescs.CD_Object)
                .withField("value", ConstantDescs.CD_long, ClassFile.ACC_PUBLIC));
        Class<?> hidden = MethodHandles.lookup().defineHiddenClass(bytes, false).lookupClass();
        assertTrue(hidden.isHidden(), hidden.getName());
        assertEquals(long.class, hidden.getDeclaredFields()[0].getType(), "its only field is primitive: hidden is the only fault");
        String message = rejectionMessage(hidden);
        assertTrue(message.startsWith(hidden.getName() + " is not trivially copyable: it is a hidden class"), message);
    }

    @Test
    void rejectsLambdaClassAsHidden() {
        IntSupplier lambda = () -> 42;
        Class<?> type = lambda.getClass();
        assertTrue(type.isHidden(), "lambda classes are hidden on JDK 15+: " + type.getName());
        assertTrue(rejectionMessage(type).contains("it is a hidden class"), rejectionMessage(type));
    }

    @Test
    void rejectsNullWithNullPointerException() {
        assertThrows(NullPointerException.class, () -> LayoutVerifier.verify(null));
        assertThrows(NullPointerException.class, () -> LayoutVerifier.isTriviallyCopyable(null));
    }

    @Test
    void ignoresStaticReferenceFields() {
        BlockLayout layout = LayoutVerifier.verify(StaticReferencesIgnored.class);
        assertEquals(List.of("a"), layout.fields().stream().map(FieldSlot::name).toList());
        assertTrue(LayoutVerifier.isTriviallyCopyable(Shapes.StaticsIgnored.class));
        assertEquals(List.of("a"), LayoutVerifier.verify(Shapes.StaticsIgnored.class).fields().stream().map(FieldSlot::name).toList());
    }

    @Test
    void rejectionIsCachedButEachCallThrowsAFreshException() {
        NotTriviallyCopyableException first = assertThrows(NotTriviallyCopyableException.class, () -> LayoutVerifier.verify(SeveralBadFields.class));
        NotTriviallyCopyableException second = assertThrows(NotTriviallyCopyableException.class, () -> LayoutVerifier.verify(SeveralBadFields.class));
        assertNotSame(first, second);
        assertEquals(first.getMessage(), second.getMessage());
        assertSame(SeveralBadFields.class, first.type());
        assertSame(SeveralBadFields.class, second.type());
        assertTrue(first.getStackTrace().length > 0 && second.getStackTrace().length > 0);
    }

    @Test
    void isTriviallyCopyableAgreesWithVerify() {
        List<Class<?>> rejected = List.of(WithString.class, PrimitiveChildOfReferenceBase.class, InnerUsingOuter.class,
                SeveralBadFields.class, WithFinalField.class, DuplicatesSuperclassName.class, Shape.class, Marker.class,
                int[].class, int.class, Color.class, Point.class, OnlyStatics.class, EmptyChild.class, Runnable.class);
        for (Class<?> type : rejected) {
            assertFalse(LayoutVerifier.isTriviallyCopyable(type), type.getName());
            assertThrows(NotTriviallyCopyableException.class, () -> LayoutVerifier.verify(type), type.getName());
            assertFalse(LayoutVerifier.isTriviallyCopyable(type), "still rejected after verify: " + type.getName());
        }
        for (Class<?> type : Shapes.ALL) {
            assertTrue(LayoutVerifier.isTriviallyCopyable(type), type.getName());
            assertSame(LayoutVerifier.verify(type), LayoutVerifier.verify(type), "layout is cached: " + type.getName());
        }
    }

    /** Asserts the rejection of {@code type} names it and the one faulty field; returns the message. */
    private static String assertFieldFault(Class<?> type, Class<?> declaring, String field, String fieldType, String reason) {
        String message = rejectionMessage(type);
        assertTrue(message.startsWith(type.getName() + " is not trivially copyable: field "), message);
        assertFieldNamed(message, type, declaring, field, fieldType);
        assertTrue(message.contains(reason), "expected '" + reason + "' in: " + message);
        return message;
    }

    /** The message contains {@code Declaring.field @<offset> (fieldType)} with JOL's offset for the field. */
    private static void assertFieldNamed(String message, Class<?> type, Class<?> declaring, String field, String fieldType) {
        Matcher matcher = Pattern.compile(Pattern.quote(declaring.getSimpleName() + "." + field + " @") + "(\\d+)"
                + Pattern.quote(" (" + fieldType + ")")).matcher(message);
        assertTrue(matcher.find(), "expected " + declaring.getSimpleName() + "." + field + " @<offset> (" + fieldType + ") in: " + message);
        assertEquals(JolOracle.offsetInThisJvm(type, declaring, field), Long.parseLong(matcher.group(1)), "offset of " + field + " in: " + message);
    }

    private static void assertKindRejected(Class<?> type, String kind) {
        String message = rejectionMessage(type);
        assertTrue(message.startsWith(type.getTypeName() + " is not trivially copyable: it is " + kind), message);
    }

    private static String rejectionMessage(Class<?> type) {
        NotTriviallyCopyableException e = assertThrows(NotTriviallyCopyableException.class, () -> LayoutVerifier.verify(type), type.getName());
        assertSame(type, e.type());
        assertFalse(LayoutVerifier.isTriviallyCopyable(type), type.getName());
        return e.getMessage();
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}

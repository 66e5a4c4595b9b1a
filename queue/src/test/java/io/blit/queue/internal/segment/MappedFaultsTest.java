package io.blit.queue.internal.segment;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.attribute.CodeAttribute;
import org.junit.jupiter.api.Test;

/**
 * The property {@link MappedFaults#surfacePending()} relies on to deliver a pending fault inside the queue
 * call: C2 never inlines it. {@code TruncatedUnderMappingTest} checks the delivery itself in child JVMs.
 */
class MappedFaultsTest {
    /** HotSpot's default {@code FreqInlineSize} (C2's limit for a hot call), the larger of the two limits. */
    private static final int FREQ_INLINE_SIZE = 325;

    @Test
    void surfacePendingIsTooBigForC2ToInlineWithMargin() throws IOException {
        byte[] bytes;
        try (InputStream in = MappedFaults.class.getResourceAsStream("MappedFaults.class")) {
            bytes = in.readAllBytes();
        }
        ClassModel model = ClassFile.of().parse(bytes);
        MethodModel method = model.methods().stream()
                .filter(m -> m.methodName().equalsString("surfacePending") && m.methodType().equalsString("()V"))
                .findFirst().orElseThrow();
        int codeLength = method.findAttribute(Attributes.code())
                .map(CodeAttribute::codeLength).orElseThrow();
        assertTrue(codeLength > 2 * FREQ_INLINE_SIZE,
                "surfacePending() has " + codeLength + " bytes of bytecode; it must stay well above FreqInlineSize "
                        + FREQ_INLINE_SIZE + " so that C2 never inlines it (its return poll delivers the fault)");
    }
}

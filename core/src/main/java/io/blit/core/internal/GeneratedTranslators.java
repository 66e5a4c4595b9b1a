package io.blit.core.internal;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.INIT_NAME;
import static java.lang.constant.ConstantDescs.MTD_void;

import io.blit.layout.BlockLayout;
import io.blit.layout.FieldSlot;
import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Generates, per (writer layout, reader class) pair, a hidden class implementing
 * {@link BlockTranslator} with straight-line code in the reader's field order: each field read from
 * its <em>writer</em> offset with the accessor of its type and stored into the field; a field the
 * writer lacks set to its zero; the writer's other bytes never read. Where the writer's byte order
 * differs, the value is read as the integer of its size and swapped ({@code Short/Character/Integer/
 * Long.reverseBytes}, then {@code Float.intBitsToFloat}/{@code Double.longBitsToDouble} for floating
 * types, which keep every bit including NaN payloads).
 *
 * <p>Same shape, field access ({@link FieldAccess}: direct in a nestmate where possible, method
 * handles otherwise), chunking and the two access forms ({@code read} through the segment
 * accessors, {@code readRaw} by address) as {@link GeneratedCodecs}, and the same chunk bodies
 * ({@link ReadChunks}, which the bulk read emits with the reader's own offsets); no scratch memory,
 * no allocation per read.
 */
public final class GeneratedTranslators {
    private static final ClassDesc CD_BLOCK_TRANSLATOR = ClassDesc.of(BlockTranslator.class.getName());

    /** A generated translator's identity within its reader class: where each field comes from, and the byte order. */
    private record Plan(List<Integer> writerOffsets, boolean swap) {
    }

    /**
     * Per reader class, the translators generated so far (direct form where possible). Held by the
     * class's {@code ClassValue} map, so a translator lives as long as its reader class, never keeping
     * another class loader alive; the number of entries is the number of distinct writer layouts read.
     */
    private static final ClassValue<Map<Plan, BlockTranslator>> CACHE = new ClassValue<>() {
        @Override
        protected Map<Plan, BlockTranslator> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    private GeneratedTranslators() {
    }

    /**
     * The translator for this plan, generated on first use and cached per reader class and plan, so that
     * every reader of the same writer layout into the same class shares one generated class.
     *
     * @throws IllegalAccessException as {@link #generate}
     */
    public static BlockTranslator cached(BlockLayout reader, int[] writerOffsets, boolean swap) throws IllegalAccessException {
        Plan plan = new Plan(Arrays.stream(writerOffsets).boxed().toList(), swap);
        Map<Plan, BlockTranslator> translators = CACHE.get(reader.type());
        BlockTranslator translator = translators.get(plan);
        if (translator == null) {
            // Generated outside the map's lock; two threads racing may both generate, one result is kept.
            BlockTranslator generated = generate(reader, writerOffsets, swap, true);
            translator = translators.putIfAbsent(plan, generated);
            if (translator == null) {
                translator = generated;
            }
        }
        return translator;
    }

    /**
     * A translator into objects of {@code reader}'s class.
     *
     * @param reader        the reading class's layout in this JVM
     * @param writerOffsets for each field of {@code reader} (in its offset order), the offset of the same
     *                      field from the start of the writer's block, or -1 if the writer lacks it
     * @param swap          whether every multi-byte value must be byte-swapped (the writer's byte order differs)
     * @param allowDirect   false forces the method-handle form (for tests comparing both forms)
     * @throws IllegalArgumentException if {@code writerOffsets} does not have one entry per reader field
     * @throws IllegalAccessException   if the fields' packages are not open to this module
     */
    public static BlockTranslator generate(BlockLayout reader, int[] writerOffsets, boolean swap, boolean allowDirect)
            throws IllegalAccessException {
        if (writerOffsets.length != reader.fields().size()) {
            throw new IllegalArgumentException(writerOffsets.length + " writer offsets for " + reader.fields().size() + " fields");
        }
        int[] offsets = writerOffsets.clone();
        return (BlockTranslator) GeneratedCodecs.define(reader, allowDirect, "BlitTranslator",
                (self, access) -> classBytes(self, reader.fields(), offsets, swap, access));
    }

    private static byte[] classBytes(ClassDesc self, List<FieldSlot> fields, int[] offsets, boolean swap, FieldAccess access) {
        int chunks = (fields.size() + GeneratedCodecs.FIELDS_PER_CHUNK - 1) / GeneratedCodecs.FIELDS_PER_CHUNK;
        return ClassFile.of().build(self, clb -> {
            clb.withFlags(ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC);
            clb.withInterfaceSymbols(CD_BLOCK_TRANSLATOR);
            clb.withMethodBody(INIT_NAME, MTD_void, ClassFile.ACC_PUBLIC,
                    cob -> cob.aload(0).invokespecial(CD_Object, INIT_NAME, MTD_void).return_());
            clb.withMethodBody("read", GeneratedCodecs.READ, ClassFile.ACC_PUBLIC,
                    cob -> GeneratedCodecs.callChunks(cob, self, "read", chunks, 4, 1, 2));
            clb.withMethodBody("readRaw", GeneratedCodecs.READ_RAW, ClassFile.ACC_PUBLIC,
                    cob -> GeneratedCodecs.callRawChunks(cob, self, "readRaw", chunks, 3, 1));
            int flags = ClassFile.ACC_PRIVATE | ClassFile.ACC_STATIC;
            for (int c = 0; c < chunks; c++) {
                int from = c * GeneratedCodecs.FIELDS_PER_CHUNK;
                int to = Math.min(fields.size(), from + GeneratedCodecs.FIELDS_PER_CHUNK);
                clb.withMethodBody("read" + c, GeneratedCodecs.CHUNK, flags,
                        cob -> ReadChunks.emit(cob, fields, offsets, swap, access, from, to, false));
                clb.withMethodBody("readRaw" + c, GeneratedCodecs.RAW_CHUNK, flags,
                        cob -> ReadChunks.emit(cob, fields, offsets, swap, access, from, to, true));
            }
        });
    }
}

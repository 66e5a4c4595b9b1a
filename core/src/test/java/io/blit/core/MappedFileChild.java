package io.blit.core;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;

/**
 * The fresh JVM's side of {@link FreshJvmMappedFileTest}. {@code write FILE SEED}: creates the file and
 * writes the objects of SEED. {@code read FILE SEED}: reads the file and compares it with the objects of
 * SEED. An optional fourth argument names the {@link CopyEngine} to use (default: {@link BlockCopier#of(Class)}'s),
 * and the line {@code BLIT engine E} reports the engine used. Either way it prints {@link MappedFileImage#describe} of what it wrote or read, each line
 * prefixed with {@code BLIT }, then {@code BLIT verdict OK} or the first difference; exit 0 only if OK.
 */
public final class MappedFileChild {
    static final String PREFIX = "BLIT ";

    private MappedFileChild() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path file = Path.of(args[1]);
        long seed = Long.parseLong(args[2]);
        CopyEngine engine = args.length > 3 ? CopyEngine.valueOf(args[3]) : null;
        System.out.println(PREFIX + "engine " + (engine != null ? engine : BlockCopier.of(MappedFileImage.SHAPES.getFirst()).engine()));
        List<Object> expected = MappedFileImage.objects(seed);
        List<Object> objects;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = MappedFileImage.map(file, arena, mode.equals("write"));
            if (mode.equals("write")) {
                MappedFileImage.write(segment, expected, engine);
                segment.force();
                objects = expected;
            } else {
                objects = MappedFileImage.read(segment, engine);
            }
        }
        MappedFileImage.describe(objects).forEach(line -> System.out.println(PREFIX + line));
        String verdict = "OK";
        for (int i = 0; i < expected.size(); i++) {
            try {
                RandomFields.assertSameBits(expected.get(i), objects.get(i), "object " + i + ": ");
            } catch (AssertionError e) {
                verdict = "MISMATCH " + e.getMessage();
                break;
            }
        }
        System.out.println(PREFIX + "verdict " + verdict);
        System.out.flush();
        System.exit(verdict.equals("OK") ? 0 : 1);
    }
}

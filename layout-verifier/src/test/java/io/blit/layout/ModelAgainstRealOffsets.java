package io.blit.layout;

import io.blit.layout.internal.UnsafeAccess;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compares {@link HotSpotLayoutModel} with the running JVM's own offsets ({@code Unsafe.objectFieldOffset})
 * for one class. Shared by the layout tests and, as a main class run in forked JVMs of every header
 * mode, by the modules that own message classes (queue-demo, benchmarks).
 */
public final class ModelAgainstRealOffsets {
    /** Exit status of {@link #main} when some offset differs. */
    public static final int MISMATCH = 4;

    private ModelAgainstRealOffsets() {
    }

    /**
     * Every difference between model and JVM for {@code type}'s hierarchy, one line each (empty if
     * none), and at least one line per field if the model misses fields.
     *
     * @throws IllegalStateException if Unsafe memory access is denied (there is no real offset to compare)
     */
    public static List<String> differences(Class<?> type) {
        if (!UnsafeAccess.memoryAccessAllowed()) {
            throw new IllegalStateException("the real offsets need sun.misc.Unsafe memory access");
        }
        Map<Field, Integer> modelled = HotSpotLayoutModel.instanceFieldOffsets(type);
        List<String> differences = new ArrayList<>();
        int fields = 0;
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (java.lang.reflect.Modifier.isStatic(field.getModifiers())) {
                    continue;
                }
                fields++;
                long real = UnsafeAccess.objectFieldOffset(field);
                Integer model = modelled.get(field);
                if (model == null || model != real) {
                    differences.add(type.getName() + ": " + c.getSimpleName() + "." + field.getName()
                            + " real @" + real + " model @" + model);
                }
            }
        }
        if (fields != modelled.size()) {
            differences.add(type.getName() + ": model has " + modelled.size() + " fields, the class " + fields);
        }
        return differences;
    }

    /** Checks every class named in {@code args}; prints {@code N classes ok} or the differences (exit {@link #MISMATCH}). */
    public static void main(String[] args) throws ClassNotFoundException {
        List<String> differences = new ArrayList<>();
        for (String name : args) {
            differences.addAll(differences(Class.forName(name)));
        }
        if (!differences.isEmpty()) {
            differences.forEach(System.out::println);
            System.exit(MISMATCH);
        }
        System.out.println(args.length + " classes ok in " + JvmFacts.current().headerMode());
    }
}

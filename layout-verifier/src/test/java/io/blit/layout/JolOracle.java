package io.blit.layout;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import org.openjdk.jol.datamodel.DataModel;
import org.openjdk.jol.datamodel.Model64;
import org.openjdk.jol.datamodel.Model64_Lilliput;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;
import org.openjdk.jol.layouters.HotSpotLayouter;

/**
 * JOL's HotSpot layout simulator as an independent oracle: it computes offsets from the field
 * declarations and a data model, without Unsafe and without asking the running JVM
 * ({@code VM.current()} is never called; neither is {@code ClassLayout.toPrintable}, which would).
 */
final class JolOracle {
    /** The JDK version whose field layout algorithm the simulator follows. */
    static final int JDK_VERSION = 25;

    private JolOracle() {
    }

    /** The data model of a JVM with these facts. */
    static DataModel modelFor(JvmFacts facts) {
        boolean compressedOops = compressedOops();
        if (facts.compactObjectHeaders()) {
            // target=false: the 8-byte compact header of JDK 24+, not Lilliput's planned 4-byte one.
            return new Model64_Lilliput(compressedOops, facts.objectAlignment(), false);
        }
        return new Model64(compressedOops, facts.compressedClassPointers(), facts.objectAlignment());
    }

    /** The data model of a default JVM (12-byte headers) and of one with compact headers. */
    static DataModel defaultModel() {
        return new Model64(true, true, 8);
    }

    static DataModel compactModel() {
        return new Model64_Lilliput(true, 8, false);
    }

    /** The simulated layout of {@code type} under {@code model}. */
    static ClassLayout layout(Class<?> type, DataModel model) {
        return ClassLayout.parseClass(type, new HotSpotLayouter(model, JDK_VERSION));
    }

    /** The simulated fields of the whole hierarchy, by name (names are unique in every class verified). */
    static Map<String, FieldLayout> fieldsByName(ClassLayout layout) {
        Map<String, FieldLayout> byName = new LinkedHashMap<>();
        for (FieldLayout field : layout.fields()) {
            FieldLayout earlier = byName.put(field.name(), field);
            if (earlier != null) {
                throw new IllegalArgumentException("duplicate field name " + field.name() + " in " + layout);
            }
        }
        return byName;
    }

    /**
     * The offset JOL predicts, in this JVM's mode, for field {@code name} declared by {@code declaring}
     * in objects of {@code type} (the declaring class disambiguates names repeated in a hierarchy).
     */
    static long offsetInThisJvm(Class<?> type, Class<?> declaring, String name) {
        for (FieldLayout field : layout(type, modelFor(JvmFacts.current())).fields()) {
            if (field.name().equals(name) && field.hostClass().equals(hostName(declaring))) {
                return field.offset();
            }
        }
        throw new IllegalArgumentException("JOL sees no field " + declaring.getName() + "." + name + " in " + type.getName());
    }

    /** How JOL names a declaring class ({@code FieldLayout.hostClass()}): the canonical name, e.g. {@code Shapes.ByteLong}. */
    static String hostName(Class<?> declaring) {
        String canonical = declaring.getCanonicalName();
        return canonical != null ? canonical : declaring.getName();
    }

    private static boolean compressedOops() {
        HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        return Boolean.parseBoolean(hotSpot.getVMOption("UseCompressedOops").getValue());
    }
}

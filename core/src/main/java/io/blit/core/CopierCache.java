package io.blit.core;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;
import java.util.Arrays;

/**
 * A faster front for {@link BlockCopier#of(Class)} on {@link TriviallyCopyable}'s per-call path:
 * an immutable open-addressing table from class to copier, replaced as a whole when a class is added.
 *
 * <p>Why: {@code ClassValue.get} costs more than half of copying MarketData's 144 bytes
 * ({@code CopierLookupBenchmark}; the measured figures in docs/copy-engine.md); this table costs about two loads and
 * a compare. To never keep a class loader alive, only classes whose loader is Blit's own or one of its
 * ancestors (which cannot be unloaded while Blit is loaded) are cached here; others always go through
 * {@code ClassValue}.
 *
 * <p>In front of the table, {@link #invoker()} is a call site whose target tests the first
 * {@value #MAX_GUARDS} cached classes one by one and returns each one's {@link CopyPath} as a
 * constant, falling back to the table. Held in a {@code static final} field and called with {@code invokeExact}, the JIT
 * inlines it; where it knows the exact class of the object (a final class, as MarketData), the test
 * folds away and the copier's {@link CopyPath}, its length and its codec become constants, so the
 * per-call lookup costs nothing (docs/copy-engine.md, "Decision: the class lookup as a constant call site").
 * Each new guard
 * re-targets the call site, which deoptimises the code that inlined it: that happens at most
 * {@value #MAX_GUARDS} times.
 *
 * <p>Thread-safe: readers see either an old or the new table, each immutable and safely published
 * through final fields; writers are serialised. A stale or lost update only costs a miss. A thread that
 * still sees an older call-site target gets the same copiers through fewer guards and the table.
 */
final class CopierCache {
    private static final int MAX_PROBES = 8;
    /** Classes tested by the call site before the table; each costs one compare where not folded. */
    static final int MAX_GUARDS = 8;
    private static final MethodHandle SAME_CLASS;
    private static final MethodHandle TABLE_GET;
    private static final MethodHandle PATH_OF_COPIER;

    static {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        try {
            SAME_CLASS = lookup.findStatic(CopierCache.class, "sameClass", MethodType.methodType(boolean.class, Class.class, Class.class));
            TABLE_GET = lookup.findVirtual(CopierCache.class, "get", MethodType.methodType(BlockCopier.class, Class.class));
            PATH_OF_COPIER = lookup.findVirtual(BlockCopier.class, "path", MethodType.methodType(CopyPath.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** {@code (Class)CopyPath}: guards for the first cached classes, then {@link #get}'s copier's path. */
    private final MutableCallSite site = new MutableCallSite(MethodHandles.filterReturnValue(TABLE_GET.bindTo(this), PATH_OF_COPIER));
    /** Guards installed so far; written only under this object's lock (in {@link #add}). */
    private int guards;

    /** Keys and values at the same index; length a power of two, at most half full. */
    private record Table(Class<?>[] keys, BlockCopier<?>[] values) {
    }

    /**
     * Deliberately not volatile: a volatile load on every copy would keep the JIT from hoisting
     * anything across it. A {@link Table} is safely published through a data race, because its arrays
     * are filled before the constructor stores them in final fields (JLS 17.5); a reader that still
     * sees an older table merely misses and takes the {@code ClassValue} path.
     */
    private Table table = new Table(new Class<?>[16], new BlockCopier<?>[16]);

    /**
     * A method handle of type {@code (Class)CopyPath} giving the {@link BlockCopier#path() path} of the
     * same copier as {@link #get}. To be inlined it must be held in a {@code static final} field and
     * called with {@code invokeExact}.
     */
    MethodHandle invoker() {
        return site.dynamicInvoker();
    }

    private static boolean sameClass(Class<?> expected, Class<?> actual) {
        return expected == actual;
    }

    /** The copier of {@code type}: from the table when present, else from {@link BlockCopier#of}. */
    BlockCopier<?> get(Class<?> type) {
        Table t = table;
        Class<?>[] keys = t.keys;
        int mask = keys.length - 1;
        int index = System.identityHashCode(type) & mask;
        for (int probe = 0; probe < MAX_PROBES; probe++, index = (index + 1) & mask) {
            Class<?> key = keys[index];
            if (key == type) {
                return t.values[index];
            }
            if (key == null) {
                break;
            }
        }
        return miss(type);
    }

    private BlockCopier<?> miss(Class<?> type) {
        BlockCopier<?> copier = BlockCopier.of(type);
        if (cannotOutliveBlit(type.getClassLoader())) {
            add(type, copier);
        }
        return copier;
    }

    private synchronized void add(Class<?> type, BlockCopier<?> copier) {
        Table t = table;
        int size = 1;
        for (Class<?> key : t.keys) {
            if (key == type) {
                return;
            }
            if (key != null) {
                size++;
            }
        }
        int capacity = t.keys.length;
        while (size * 2 > capacity) {
            capacity *= 2;
        }
        while (true) {
            Table grown = rehash(t, capacity, type, copier);
            if (grown != null) {
                table = grown;
                guard(type, copier);
                return;
            }
            capacity *= 2; // a probe sequence was longer than MAX_PROBES: spread the keys further
        }
    }

    /**
     * Puts a test for {@code type} in front of the call site's current target, up to {@link #MAX_GUARDS}.
     * A hit returns the copier's {@link CopyPath} as a constant: a record, whose final fields the JIT
     * trusts, so that its length and codec become constants too.
     */
    private void guard(Class<?> type, BlockCopier<?> copier) {
        if (guards >= MAX_GUARDS) {
            return;
        }
        MethodHandle test = MethodHandles.insertArguments(SAME_CLASS, 0, type);
        MethodHandle hit = MethodHandles.dropArguments(MethodHandles.constant(CopyPath.class, copier.path()), 0, Class.class);
        site.setTarget(MethodHandles.guardWithTest(test, hit, site.getTarget()));
        guards++;
    }

    /** A new table with every entry of {@code t} plus the new one, or null if some key needs too many probes. */
    private static Table rehash(Table t, int capacity, Class<?> type, BlockCopier<?> copier) {
        Class<?>[] keys = new Class<?>[capacity];
        BlockCopier<?>[] values = new BlockCopier<?>[capacity];
        Class<?>[] oldKeys = Arrays.copyOf(t.keys, t.keys.length + 1);
        BlockCopier<?>[] oldValues = Arrays.copyOf(t.values, t.values.length + 1);
        oldKeys[t.keys.length] = type;
        oldValues[t.keys.length] = copier;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null && !insert(keys, values, oldKeys[i], oldValues[i])) {
                return null;
            }
        }
        return new Table(keys, values);
    }

    private static boolean insert(Class<?>[] keys, BlockCopier<?>[] values, Class<?> key, BlockCopier<?> value) {
        int mask = keys.length - 1;
        int index = System.identityHashCode(key) & mask;
        for (int probe = 0; probe < MAX_PROBES; probe++, index = (index + 1) & mask) {
            if (keys[index] == null) {
                keys[index] = key;
                values[index] = value;
                return true;
            }
        }
        return false;
    }

    private static boolean cannotOutliveBlit(ClassLoader loader) {
        if (loader == null) {
            return true; // the boot loader is never unloaded
        }
        for (ClassLoader blit = CopierCache.class.getClassLoader(); blit != null; blit = blit.getParent()) {
            if (blit == loader) {
                return true;
            }
        }
        return false;
    }
}

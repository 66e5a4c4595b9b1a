package io.blit.core;

import java.util.Arrays;

/**
 * A faster front for {@link BlockCopier#of(Class)} on {@link TriviallyCopyable}'s per-call path:
 * an immutable open-addressing table from class to copier, replaced as a whole when a class is added.
 *
 * <p>Why: {@code ClassValue.get} measured about 5.5 ns on JDK 25 ({@code CopierLookupBenchmark}),
 * more than half the cost of copying MarketData's 144 bytes; this table costs about two loads and a
 * compare. To never keep a class loader alive, only classes whose loader is Blit's own or one of its
 * ancestors (which cannot be unloaded while Blit is loaded) are cached here; others always go through
 * {@code ClassValue}.
 *
 * <p>Thread-safe: readers see either an old or the new table, each immutable and safely published
 * through final fields; writers are serialised. A stale or lost update only costs a miss.
 */
final class CopierCache {
    private static final int MAX_PROBES = 8;

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
                return;
            }
            capacity *= 2; // a probe sequence was longer than MAX_PROBES: spread the keys further
        }
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

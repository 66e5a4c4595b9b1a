package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.NotTriviallyCopyableException;
import io.blit.layout.shapes.Shapes;
import java.lang.invoke.MethodHandle;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class CopierCacheTest {
    @Test
    void returnsTheSameCopierAsBlockCopierOfForEveryShapeAfterGrowing() {
        CopierCache cache = new CopierCache();
        for (int round = 0; round < 3; round++) { // the first round fills and grows the table; later rounds hit it
            for (Class<?> shape : Shapes.concrete()) {
                assertSame(BlockCopier.of(shape), cache.get(shape), shape + " in round " + round);
            }
        }
    }

    @Test
    void theInvokerGivesTheSameCopiersPathsThroughItsGuardsAndPastThem() throws Throwable {
        CopierCache cache = new CopierCache();
        MethodHandle invoker = cache.invoker();
        List<Class<?>> shapes = Shapes.concrete();
        assertTrue(shapes.size() > 2 * CopierCache.MAX_GUARDS, "enough shapes to go past the guards");
        for (int round = 0; round < 3; round++) { // round 0 installs the guards; later rounds hit guards and table
            for (Class<?> shape : shapes) {
                CopyPath path = (CopyPath) invoker.invokeExact(shape);
                BlockCopier<?> copier = BlockCopier.of(shape);
                assertSame(copier.path(), path, shape + " in round " + round);
                assertSame(copier, path.copier(), shape + " in round " + round);
                assertEquals(copier.byteSize(), path.length(), shape + " in round " + round);
            }
        }
    }

    @Test
    void theInvokerThrowsNotTriviallyCopyableUnwrapped() {
        MethodHandle invoker = new CopierCache().invoker();
        for (int i = 0; i < 2; i++) {
            assertThrows(NotTriviallyCopyableException.class, () -> {
                CopyPath unused = (CopyPath) invoker.invokeExact((Class<?>) String.class);
            });
        }
    }

    @Test
    void concurrentFirstLookupsAllAgree() throws Exception {
        CopierCache cache = new CopierCache();
        List<Class<?>> shapes = Shapes.concrete();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<BlockCopier<?>>>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                results.add(pool.submit(() -> {
                    start.await();
                    List<BlockCopier<?>> seen = new ArrayList<>();
                    for (Class<?> shape : shapes) {
                        seen.add(cache.get(shape));
                    }
                    return seen;
                }));
            }
            start.countDown();
            for (Future<List<BlockCopier<?>>> result : results) {
                List<BlockCopier<?>> seen = result.get();
                for (int i = 0; i < shapes.size(); i++) {
                    assertSame(BlockCopier.of(shapes.get(i)), seen.get(i), shapes.get(i).getName());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aClassFromAChildLoaderIsServedButWithTheSameCopierAsClassValueGives() throws Exception {
        URL testClasses = Shapes.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader child = new URLClassLoader(new URL[] {testClasses}, null)) {
            Class<?> foreign = child.loadClass(Shapes.OddTail.class.getName());
            assertEquals(Shapes.OddTail.class.getName(), foreign.getName());
            CopierCache cache = new CopierCache();
            assertSame(BlockCopier.of(foreign), cache.get(foreign));
            assertSame(BlockCopier.of(foreign), cache.get(foreign));
        }
    }

    @Test
    void aClassThatIsNotTriviallyCopyableFailsEveryTime() {
        CopierCache cache = new CopierCache();
        for (int i = 0; i < 2; i++) {
            assertThrows(NotTriviallyCopyableException.class, () -> cache.get(String.class));
        }
    }
}

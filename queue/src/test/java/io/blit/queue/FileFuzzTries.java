package io.blit.queue;

import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Gives the properties of a class that creates real files in each try ({@code @AddLifecycleHook(FileFuzzTries.class)})
 * a fifth of jqwik's default number of tries (1000, or what {@code -Djqwik.tries.default=N} says), so that the default
 * run stays short and a long run scales them too.
 * A property that states its own {@code tries} keeps it.
 */
final class FileFuzzTries implements AroundPropertyHook {
    static final int DIVISOR = 5;

    /** Made by jqwik, once per property. */
    FileFuzzTries() {
    }

    /** Added to a class, it applies to the class's properties. */
    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.DIRECT_DESCENDANTS;
    }

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        boolean stated = context.findAnnotation(Property.class).map(p -> p.tries() != Property.TRIES_NOT_SET).orElse(false);
        if (!stated) {
            context.attributes().setTries(Math.max(1, defaultTries() / DIVISOR));
        }
        return property.execute();
    }

    /** jqwik's default number of tries: 1000 unless {@code -Djqwik.tries.default=N} (docs/fuzzing.md). */
    private static int defaultTries() {
        return Integer.parseInt(System.getProperty("jqwik.tries.default", "1000").strip());
    }
}

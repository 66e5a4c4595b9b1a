package io.blit.queue.micrometer;

import io.blit.queue.BlitQueue;
import io.blit.queue.ConsumerPosition;
import io.blit.queue.QueueStats;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Micrometer {@link MeterBinder} of one {@link BlitQueue}: its {@link BlitQueue#stats()} as gauges, tagged with the
 * queue's directory ({@code queue}) and the tags given.
 *
 * <table>
 *   <caption>Gauges</caption>
 *   <tr><td>{@code blit.queue.end.index}</td><td>the end index: the index the next append gets</td></tr>
 *   <tr><td>{@code blit.queue.files}</td><td>segment files in the directory</td></tr>
 *   <tr><td>{@code blit.queue.bytes}</td><td>their total size, bytes</td></tr>
 *   <tr><td>{@code blit.queue.append.rate}</td><td>messages appended per second (NaN until two samples)</td></tr>
 *   <tr><td>{@code blit.queue.consumer.lag}</td><td>per named consumer (tag {@code consumer}): messages it has still to
 *   read</td></tr>
 *   <tr><td>{@code blit.queue.consumer.committed}</td><td>per named consumer: its committed index</td></tr>
 * </table>
 *
 * Reading the gauges of one scrape takes one sample: a sample is reused for {@value #REUSE_MILLIS} ms. A named consumer
 * created after binding gets its gauges at the first sample that lists it; one removed since reads NaN.
 * {@code new BlitQueueMetrics(queue).bindTo(registry)}. Thread-safe.
 */
public final class BlitQueueMetrics implements MeterBinder {
    /** How long one {@link QueueStats} sample serves gauge reads. */
    static final long REUSE_MILLIS = 100;
    private final BlitQueue<?> queue;
    private final Tags tags;
    private final Set<String> consumersBound = ConcurrentHashMap.newKeySet();
    private volatile MeterRegistry registry;
    private volatile QueueStats last;
    private volatile long lastAtNanos;

    /**
     * Gauges of {@code queue}, tagged with its directory.
     *
     * @param queue the open queue to sample; the binder does not close it
     */
    public BlitQueueMetrics(BlitQueue<?> queue) {
        this(queue, Tags.empty());
    }

    /**
     * Gauges of {@code queue}, tagged with its directory and {@code tags}.
     *
     * @param queue the open queue to sample; the binder does not close it
     * @param tags  further tags of every gauge (e.g. the application's), besides {@code queue}
     */
    public BlitQueueMetrics(BlitQueue<?> queue, Iterable<Tag> tags) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.tags = Tags.concat(tags, "queue", queue.directory().toString());
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        gauge(registry, "blit.queue.end.index", "the end index: the index the next append gets", null,
                s -> s.endIndex());
        gauge(registry, "blit.queue.files", "segment files of the queue", null, s -> s.files());
        gauge(registry, "blit.queue.bytes", "bytes of the queue's segment files", "bytes", s -> s.bytes());
        gauge(registry, "blit.queue.append.rate", "messages appended per second", "messages/s",
                QueueStats::appendRatePerSecond);
        bindConsumers(stats());
    }

    private void gauge(MeterRegistry registry, String name, String description, String unit,
                       java.util.function.ToDoubleFunction<QueueStats> value) {
        Gauge.builder(name, this, metrics -> value.applyAsDouble(metrics.stats())).description(description)
                .baseUnit(unit).tags(tags).register(registry);
    }

    /** The sample of the last {@value #REUSE_MILLIS} ms, or a new one (which binds consumers not seen before). */
    private QueueStats stats() {
        QueueStats stats = last;
        long now = System.nanoTime();
        if (stats == null || now - lastAtNanos > REUSE_MILLIS * 1_000_000L) {
            stats = queue.stats();
            last = stats;
            lastAtNanos = now;
            bindConsumers(stats);
        }
        return stats;
    }

    private void bindConsumers(QueueStats stats) {
        MeterRegistry target = registry;
        if (target == null) {
            return;
        }
        for (ConsumerPosition consumer : stats.consumers()) {
            String name = consumer.name();
            if (consumersBound.add(name)) {
                Tags consumerTags = tags.and("consumer", name);
                Gauge.builder("blit.queue.consumer.lag", this, metrics -> metrics.consumer(name, true))
                        .description("messages the named consumer has still to read").tags(consumerTags)
                        .register(target);
                Gauge.builder("blit.queue.consumer.committed", this, metrics -> metrics.consumer(name, false))
                        .description("the named consumer's committed index").tags(consumerTags).register(target);
            }
        }
    }

    private double consumer(String name, boolean lag) {
        for (ConsumerPosition consumer : stats().consumers()) {
            if (consumer.name().equals(name)) {
                return lag ? consumer.lag() : consumer.committedIndex();
            }
        }
        return Double.NaN;
    }
}

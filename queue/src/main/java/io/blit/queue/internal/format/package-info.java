/**
 * The format descriptors, the bottom of the queue: the offsets, bit fields, limits, versions and feature flags of the
 * bytes Blit writes ({@link io.blit.queue.internal.format.SegmentFormat} for segment files,
 * {@link io.blit.queue.internal.format.RecordHeader} for the record word, {@link io.blit.queue.internal.format.FileFeatures}
 * for the byte order and feature masks, {@link io.blit.queue.internal.format.ConsumerFormat} for the positions file).
 * Every other package of the queue, the API value types included, takes these values from here: none is written twice.
 * Uses nothing of the queue. The bytes themselves are specified in docs/format.md.
 */
package io.blit.queue.internal.format;

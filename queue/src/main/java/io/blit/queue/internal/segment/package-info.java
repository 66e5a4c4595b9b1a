/**
 * One segment file: its header and type table ({@link io.blit.queue.internal.segment.SegmentHeader},
 * {@link io.blit.queue.internal.segment.TypeTableDecoder}), its name and listing
 * ({@link io.blit.queue.internal.segment.SegmentFiles}), its mapping and the faults a mapping can raise
 * ({@link io.blit.queue.internal.segment.MappedSegment}, {@link io.blit.queue.internal.segment.MappedFaults}), and the
 * preparation of a new file (blank, published complete). Knows nothing of the records inside.
 */
package io.blit.queue.internal.segment;

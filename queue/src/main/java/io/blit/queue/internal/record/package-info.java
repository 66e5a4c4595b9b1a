/**
 * The records of one file: the claim/commit protocol appenders run ({@link io.blit.queue.internal.record.RecordProtocol}),
 * the position a reader or writer stands at ({@link io.blit.queue.internal.record.RecordCursor}), one step of the walk
 * that classifies the word at a position ({@link io.blit.queue.internal.record.RecordStep}), the checkpoints
 * ({@link io.blit.queue.internal.record.Checkpoints}), the tail of a file
 * ({@link io.blit.queue.internal.record.SegmentTail}) and record times. Walks across files live a package up, in the
 * directory.
 */
package io.blit.queue.internal.record;

/**
 * A queue directory as a whole: its files in index order and the next one prepared
 * ({@link io.blit.queue.internal.directory.SegmentDirectory}, {@link io.blit.queue.internal.directory.SegmentPreparer}),
 * the walk across files that tailers, dumps and replication sources run
 * ({@link io.blit.queue.internal.directory.RecordWalker}), seeks by time
 * ({@link io.blit.queue.internal.directory.TimeLookup}), time-based rolls and retention. The top of the engine: the
 * facades of {@code io.blit.queue} and {@code io.blit.queue.replica} use it.
 */
package io.blit.queue.internal.directory;

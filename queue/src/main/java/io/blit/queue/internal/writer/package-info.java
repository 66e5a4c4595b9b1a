/**
 * Writer liveness: the writer ids that appenders lease in {@code writers.blitw}
 * ({@link io.blit.queue.internal.writer.WriterRegistry}), and whether the claimer of a record word is alive
 * ({@link io.blit.queue.internal.writer.WriterLiveness}). Readers judge a claim by it; nothing here waits on a reader.
 */
package io.blit.queue.internal.writer;

/**
 * The small files beside the segments: the positions of named consumers ({@link io.blit.queue.internal.sidecar.ConsumerFile},
 * {@link io.blit.queue.internal.sidecar.ConsumerSlots}), the term history and the fence
 * ({@link io.blit.queue.internal.sidecar.TermHistoryFile}, {@link io.blit.queue.internal.sidecar.FenceFile}), and a
 * replica's marker, identity and quarantine marker. Each file's bytes are specified in docs/format.md.
 */
package io.blit.queue.internal.sidecar;

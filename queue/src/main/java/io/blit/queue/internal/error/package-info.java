/**
 * The one place that builds the engine's exceptions ({@link io.blit.queue.internal.error.QueueErrors}): every
 * message that names a file, an offset and what is wrong with it, so that the wording of a refusal is the same
 * wherever it is found. Uses the format descriptors only.
 */
package io.blit.queue.internal.error;

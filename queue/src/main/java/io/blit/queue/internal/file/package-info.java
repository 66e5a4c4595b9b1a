/**
 * Opening and locking a queue directory's files: {@link io.blit.queue.internal.file.FileModes} (permissions, opens
 * that never follow a link), {@link io.blit.queue.internal.file.FileLocks} (testing a lock without taking it) and
 * {@link io.blit.queue.internal.file.ProcessIdentity} (a pid and its start stamp). Knows no file format.
 */
package io.blit.queue.internal.file;

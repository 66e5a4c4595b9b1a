package io.blit.benchmarks.peers;

import io.blit.tools.messages.BookUpdate;
import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesMarshallable;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.bytes.BytesUtil;

/**
 * The latency harness's BookUpdate as Chronicle's documentation writes a trivially copyable message: a
 * {@link BytesMarshallable} whose {@code writeMarshallable}/{@code readMarshallable} copy the object's primitive field
 * block with {@code unsafeWriteObject}/{@code unsafeReadObject} over {@link BytesUtil#triviallyCopyableStart} and
 * {@link BytesUtil#triviallyCopyableLength}, held in {@code static final} constants. The block is that of the very
 * {@link BookUpdate} the Blit kinds send (same 4 longs and 20 doubles, same content), so both peers carry the same
 * 192 bytes. Not thread-safe (a reused message, like the BookUpdate it wraps).
 */
public final class ChronicleBookUpdate implements BytesMarshallable {
    static final int START = BytesUtil.triviallyCopyableStart(BookUpdate.class);
    static final int LENGTH = BytesUtil.triviallyCopyableLength(BookUpdate.class);

    /** The message whose fields travel. */
    public final BookUpdate update = new BookUpdate();

    @Override
    public void writeMarshallable(BytesOut<?> bytes) {
        bytes.unsafeWriteObject(update, START, LENGTH);
    }

    @Override
    public void readMarshallable(BytesIn<?> bytes) {
        bytes.unsafeReadObject(update, START, LENGTH);
    }
}

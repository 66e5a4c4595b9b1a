package io.blit.replication;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A replica's request to be served (docs/replication.md, "Handshake"): who it is, the nonce the source must echo, the
 * index it holds up to ({@code nextIndex}: it holds [first, nextIndex); -1 if it holds no file), the header of its
 * newest file (the source compares it with its own file of that first index: the same queue?), the layout it
 * expects (null: any), whether it forces to disk before acknowledging, and the channel the source sends to.
 */
record SubscribeRequest(long replicaId, byte[] nonce, long nextIndex, boolean sync, String dataChannel,
                        byte[] newestHeader, byte[] expectedDescriptor, boolean signed) {

    /** Encodes this request signed with {@code hmac} at offset 0; returns its length. */
    int encode(MutableDirectBuffer buffer, Hmac hmac) {
        buffer.putInt(0, Wire.SUBSCRIBE, Wire.ORDER);
        buffer.putInt(Wire.SUB_VERSION, Wire.VERSION, Wire.ORDER);
        buffer.putLong(Wire.SUB_REPLICA, replicaId, Wire.ORDER);
        buffer.putBytes(Wire.SUB_NONCE, nonce);
        buffer.putLong(Wire.SUB_NEXT, nextIndex, Wire.ORDER);
        buffer.putInt(Wire.SUB_FLAGS, sync ? Wire.FLAG_SYNC : 0, Wire.ORDER);
        int at = Wire.putBytes(buffer, Wire.SUB_VARIABLE, Wire.utf8(dataChannel));
        at = Wire.putBytes(buffer, at, newestHeader);
        at = Wire.putBytes(buffer, at, expectedDescriptor);
        buffer.putBytes(at, hmac.sign(buffer, 0, at));
        return at + Hmac.LENGTH;
    }

    /**
     * Decodes the request of {@code length} bytes at {@code offset} and checks its signature ({@link #signed}: an
     * unsigned request is decoded only so that the refusal can be sent to its data channel).
     *
     * @throws RefusalException if it is malformed or of another protocol version
     */
    static SubscribeRequest decode(DirectBuffer buffer, int offset, int length, Hmac hmac) {
        int limit = offset + length;
        if (length < Wire.SUB_VARIABLE + 12 + Hmac.LENGTH) {
            throw new RefusalException("malformed subscribe request (" + length + " bytes)");
        }
        int version = buffer.getInt(offset + Wire.SUB_VERSION, Wire.ORDER);
        if (version != Wire.VERSION) {
            throw new RefusalException("protocol version " + version + ", this source speaks " + Wire.VERSION);
        }
        int channelEnd = Wire.bytesEnd(buffer, offset + Wire.SUB_VARIABLE, limit);
        int headerEnd = channelEnd < 0 ? -1 : Wire.bytesEnd(buffer, channelEnd, limit);
        int descriptorEnd = headerEnd < 0 ? -1 : Wire.bytesEnd(buffer, headerEnd, limit);
        if (descriptorEnd < 0 || descriptorEnd + Hmac.LENGTH != limit) {
            throw new RefusalException("malformed subscribe request (" + length + " bytes)");
        }
        boolean signed = hmac.verify(buffer, offset, descriptorEnd - offset);
        byte[] nonce = new byte[Wire.NONCE_LENGTH];
        buffer.getBytes(offset + Wire.SUB_NONCE, nonce);
        byte[] header = Wire.getBytes(buffer, channelEnd);
        byte[] descriptor = Wire.getBytes(buffer, headerEnd);
        return new SubscribeRequest(buffer.getLong(offset + Wire.SUB_REPLICA, Wire.ORDER), nonce,
                buffer.getLong(offset + Wire.SUB_NEXT, Wire.ORDER),
                (buffer.getInt(offset + Wire.SUB_FLAGS, Wire.ORDER) & Wire.FLAG_SYNC) != 0,
                Wire.text(Wire.getBytes(buffer, offset + Wire.SUB_VARIABLE)),
                header.length == 0 ? null : header, descriptor.length == 0 ? null : descriptor, signed);
    }
}

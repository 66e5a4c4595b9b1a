package example;

import io.blit.core.TriviallyCopyable;

/** A persisted message: fields of four sizes. */
public class Quote extends TriviallyCopyable {
    byte side;
    short venue;
    int qty;
    long price;
}

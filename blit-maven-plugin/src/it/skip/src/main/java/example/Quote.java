package example;

import io.blit.core.TriviallyCopyable;

/** A persisted message: fields of four sizes. */
public class Quote extends TriviallyCopyable {
    long qty;
    int price;
    short venue;
    byte side;
}

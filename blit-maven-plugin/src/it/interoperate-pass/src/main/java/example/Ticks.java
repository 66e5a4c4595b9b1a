package example;

import io.blit.core.TriviallyCopyable;

/** Only 8-byte fields: the same block layout under every header size. */
public class Ticks extends TriviallyCopyable {
    long time;
    long bid;
    double ask;
}

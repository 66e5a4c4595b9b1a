package io.blit.failover.zookeeper;

import java.nio.charset.StandardCharsets;

/**
 * The znodes of a group under its path, and the text each holds (UTF-8, fields separated by single spaces):
 *
 * <pre>
 * /group/election/...        Curator LeaderLatch's ephemeral sequential nodes
 * /group/term                persistent: the newest term any node of the group promoted to ("2"); only rises,
 *                            written with a version check, so that no two nodes take one term
 * /group/leader              persistent: the newest primary, "&lt;term&gt; &lt;endpoint&gt; &lt;nodeId&gt;"
 * /group/members/&lt;nodeId&gt;   ephemeral, one per live node: what its directory holds, "&lt;term&gt; &lt;endIndex&gt;"
 *                            ("-1 -1" for a directory without a queue id)
 * </pre>
 *
 * <p>Stateless; thread-safe.
 */
final class GroupZnodes {
    private GroupZnodes() {
    }

    static String election(String group) {
        return group + "/election";
    }

    static String term(String group) {
        return group + "/term";
    }

    static String leader(String group) {
        return group + "/leader";
    }

    static String members(String group) {
        return group + "/members";
    }

    static String member(String group, String nodeId) {
        return members(group) + "/" + nodeId;
    }

    /** The primary a node published: the term it promoted to, its replication endpoint and its node id. */
    record Leader(long term, String endpoint, String nodeId) {
        byte[] encode() {
            return (term + " " + endpoint + " " + nodeId).getBytes(StandardCharsets.UTF_8);
        }

        /** {@return the leader in {@code data}, or null if it is empty or malformed} */
        static Leader decode(byte[] data) {
            String[] fields = text(data).split(" ");
            if (fields.length != 3) {
                return null;
            }
            try {
                return new Leader(Long.parseLong(fields[0]), fields[1], fields[2]);
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    /**
     * What a member's directory holds: its newest term and its end index; a directory without a queue id is
     * {@link #NONE}. Members are ranked by term, then by end index: the one ranked highest holds the longest history.
     */
    record Member(long term, long endIndex) implements Comparable<Member> {
        static final Member NONE = new Member(-1, -1);

        byte[] encode() {
            return (term + " " + endIndex).getBytes(StandardCharsets.UTF_8);
        }

        /** {@return the member in {@code data}, or {@link #NONE} if it is empty or malformed} */
        static Member decode(byte[] data) {
            String[] fields = text(data).split(" ");
            if (fields.length != 2) {
                return NONE;
            }
            try {
                return new Member(Long.parseLong(fields[0]), Long.parseLong(fields[1]));
            } catch (NumberFormatException e) {
                return NONE;
            }
        }

        @Override
        public int compareTo(Member other) {
            int byTerm = Long.compare(term, other.term);
            return byTerm != 0 ? byTerm : Long.compare(endIndex, other.endIndex);
        }
    }

    /** {@return the term in {@code data}, 0 if it is empty (a group that never promoted)} */
    static long decodeTerm(byte[] data) {
        String text = text(data);
        return text.isEmpty() ? 0 : Long.parseLong(text);
    }

    static byte[] encodeTerm(long term) {
        return Long.toString(term).getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] data) {
        return data == null ? "" : new String(data, StandardCharsets.UTF_8).strip();
    }
}

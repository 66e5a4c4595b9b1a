package io.blit.failover.zookeeper;

import io.blit.queue.replica.QueueTerms;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The znodes of a group under its path, and the text each holds (ASCII, fields separated by single spaces):
 *
 * <pre>
 * /group/election/...        Curator LeaderLatch's ephemeral sequential nodes, each holding its node's id
 * /group/term                persistent: the newest term any node of the group promoted to ("2"); only rises,
 *                            written with a version check, so that no two nodes take one term
 * /group/leader              persistent: the newest primary, "&lt;term&gt; &lt;endpoint&gt; &lt;nodeId&gt;"
 * /group/members/&lt;nodeId&gt;   ephemeral, one per live node: what its directory holds,
 *                            "&lt;term&gt; &lt;endIndex&gt;" ("-1 -1" for a directory without a queue id)
 * /group/handover            persistent: the newest planned handover, "&lt;term&gt; &lt;endIndex&gt; &lt;from&gt; &lt;to&gt;":
 *                            the primary {@code from} stopped its appends at {@code endIndex} for node {@code to}
 *                            to take over at {@code term}
 * /group/handover-request    persistent while asked: "&lt;nodeId&gt;", the node an operator asks the primary to hand
 *                            over to ({@code blit failover handover}); the primary deletes it when it takes it
 * </pre>
 *
 * <p><b>Parsed strictly.</b> Every value must be exactly as a node writes it: decimal numbers without sign, leading
 * zero or spaces, one space between fields, nothing around them. A term must be below
 * {@link QueueTerms#MAX_TERM} ({@link #MAX_GROUP_TERM} at most), so that a promotion above it always remains possible;
 * an end index is from 0 to {@link Long#MAX_VALUE}; an endpoint is {@code host:port}; a node id as
 * {@link FailoverOptions#nodeId()}. Anything else decodes as malformed (null, or -1 for a term), never as a value.
 *
 * <p>Stateless; thread-safe.
 */
final class GroupZnodes {
    /** The highest term a group may reach: below {@link QueueTerms#MAX_TERM}, so that a promotion remains possible. */
    static final long MAX_GROUP_TERM = QueueTerms.MAX_TERM - 1;
    /** A term that is not a term: the value of a malformed {@code /term}. */
    static final long MALFORMED = -1;

    private static final String NUMBER = "(0|[1-9][0-9]{0,18})";
    private static final Pattern TERM = Pattern.compile(NUMBER);
    private static final Pattern MEMBER = Pattern.compile(NUMBER + " " + NUMBER);
    private static final Pattern LEADER = Pattern.compile(NUMBER + " ([^\\s:]{1,253}|\\[[0-9A-Fa-f:.]{2,45}\\]):"
            + "([1-9][0-9]{0,4}) ([A-Za-z0-9._-]{1,64})");
    private static final Pattern HANDOVER = Pattern.compile(NUMBER + " " + NUMBER
            + " ([A-Za-z0-9._-]{1,64}) ([A-Za-z0-9._-]{1,64})");
    private static final Pattern NODE_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final String LATCH = "latch-";

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

    static String handover(String group) {
        return group + "/handover";
    }

    static String handoverRequest(String group) {
        return group + "/handover-request";
    }

    static String members(String group) {
        return members(group, "");
    }

    static String member(String group, String nodeId) {
        return members(group, nodeId);
    }

    private static String members(String group, String nodeId) {
        return nodeId.isEmpty() ? group + "/members" : group + "/members/" + nodeId;
    }

    /** The primary a node published: the term it promoted to, its replication endpoint and its node id. */
    record Leader(long term, String endpoint, String nodeId) {
        byte[] encode() {
            return (term + " " + endpoint + " " + nodeId).getBytes(StandardCharsets.UTF_8);
        }

        /** {@return the leader in {@code data}, or null if it is absent, empty or malformed (see the class)} */
        static Leader decode(byte[] data) {
            Matcher matcher = LEADER.matcher(text(data));
            if (!matcher.matches()) {
                return null;
            }
            long term = number(matcher.group(1));
            int port = Integer.parseInt(matcher.group(3));
            if (term < 0 || term > MAX_GROUP_TERM || port > 65535) {
                return null;
            }
            return new Leader(term, matcher.group(2) + ":" + port, matcher.group(4));
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

        /**
         * {@return the member in {@code data}: {@link #NONE} for exactly {@code -1 -1}, null if it is absent, empty
         * or malformed, or its term is above {@link #MAX_GROUP_TERM}}
         */
        static Member decode(byte[] data) {
            String text = text(data);
            if (text.equals("-1 -1")) {
                return NONE;
            }
            Matcher matcher = MEMBER.matcher(text);
            if (!matcher.matches()) {
                return null;
            }
            long term = number(matcher.group(1));
            long end = number(matcher.group(2));
            return term < 0 || term > MAX_GROUP_TERM || end < 0 ? null : new Member(term, end);
        }

        @Override
        public int compareTo(Member other) {
            int byTerm = Long.compare(term, other.term);
            return byTerm != 0 ? byTerm : Long.compare(endIndex, other.endIndex);
        }
    }

    /**
     * A planned handover: the primary {@code from} fenced its directory at {@code term} with its end at
     * {@code endIndex}, for node {@code to} to take over at that term once it holds every record below it.
     */
    record Handover(long term, long endIndex, String from, String to) {
        byte[] encode() {
            return (term + " " + endIndex + " " + from + " " + to).getBytes(StandardCharsets.UTF_8);
        }

        /** {@return the handover in {@code data}, or null if it is absent, empty or malformed (see the class)} */
        static Handover decode(byte[] data) {
            Matcher matcher = HANDOVER.matcher(text(data));
            if (!matcher.matches()) {
                return null;
            }
            long term = number(matcher.group(1));
            long end = number(matcher.group(2));
            if (term < 1 || term > MAX_GROUP_TERM || end < 0 || matcher.group(3).equals(matcher.group(4))) {
                return null;
            }
            return new Handover(term, end, matcher.group(3), matcher.group(4));
        }
    }

    /** {@return the node id a handover request names, or null if {@code data} is absent, empty or not a node id} */
    static String decodeRequest(byte[] data) {
        String text = text(data);
        return NODE_ID.matcher(text).matches() ? text : null;
    }

    /**
     * {@return the term in {@code data}: 0 if it is empty (a group that never promoted), {@link #MALFORMED} if it is
     * not a decimal number from 0 to {@link #MAX_GROUP_TERM} written as a node writes it}
     */
    static long decodeTerm(byte[] data) {
        String text = text(data);
        if (text.isEmpty()) {
            return 0;
        }
        long term = TERM.matcher(text).matches() ? number(text) : MALFORMED;
        return term < 0 || term > MAX_GROUP_TERM ? MALFORMED : term;
    }

    static byte[] encodeTerm(long term) {
        return Long.toString(term).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * {@return the id of the node holding the election, as Curator's {@code LeaderLatch} decides it: the data of the
     * child of {@code <group>/election} whose sequence number (the text after {@code latch-}) sorts first; null if it
     * has none}
     *
     * @param children the election's children, by name, with their data
     */
    static String electionHolder(Map<String, byte[]> children) {
        return children.entrySet().stream()
                .min(Comparator.comparing(child -> sequence(child.getKey())))
                .map(child -> text(child.getValue())).orElse(null);
    }

    /** {@return the election children's names in the order Curator's {@code LeaderLatch} ranks them} */
    static List<String> electionOrder(List<String> children) {
        return children.stream()
                .sorted(Comparator.comparing(GroupZnodes::sequence)).toList();
    }

    /**
     * Curator's sort key of an election child ({@code StandardLockInternalsDriver.fixForSorting}): what follows its
     * last {@code latch-}, or all of its name without one.
     */
    private static String sequence(String child) {
        int at = child.lastIndexOf(LATCH);
        return at < 0 ? child : child.substring(at + LATCH.length());
    }

    /** {@return a decimal number of 1 to 19 digits, or -1 if it exceeds {@link Long#MAX_VALUE}} */
    private static long number(String digits) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException overflow) {
            return -1;
        }
    }

    /** {@return the text of {@code data}, as it is (empty for null)} */
    static String text(byte[] data) {
        return data == null ? "" : new String(data, StandardCharsets.UTF_8);
    }
}

package io.blit.replication;

import java.util.regex.Pattern;

/**
 * The one grammar of every endpoint replication takes, from options or from the wire: {@code host:port}, where host
 * is a DNS name (labels of letters, digits and hyphens, at most 253 characters), a dotted IPv4 address, or an IPv6
 * address in brackets, and port is 1 to 65535. Nothing else passes: in particular none of the characters Aeron's
 * channel URIs give meaning to ({@code | = ? ,} and white space), so an endpoint can never add a parameter (a term
 * length, another endpoint) to the channel it is put into. Stateless; thread-safe.
 */
final class Endpoint {
    private static final Pattern NAME = Pattern.compile(
            "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*");
    private static final Pattern IPV6 = Pattern.compile("\\[[0-9A-Fa-f:.]{2,45}]");
    private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");

    private Endpoint() {
    }

    /** Whether {@code endpoint} is {@code host:port} by the grammar above. */
    static boolean isValid(String endpoint) {
        if (endpoint == null || endpoint.length() > 300) {
            return false;
        }
        int colon = endpoint.lastIndexOf(':');
        if (colon <= 0) {
            return false;
        }
        String host = endpoint.substring(0, colon);
        String port = endpoint.substring(colon + 1);
        if (!PORT.matcher(port).matches()) {
            return false;
        }
        int number = Integer.parseInt(port);
        if (number < 1 || number > 65535) {
            return false;
        }
        return host.startsWith("[") ? IPV6.matcher(host).matches()
                : host.length() <= 253 && NAME.matcher(host).matches();
    }

    /**
     * The Aeron UDP channel of {@code endpoint}.
     *
     * @throws IllegalArgumentException if it is not {@code host:port} by the grammar above
     */
    static String udp(String endpoint) {
        if (!isValid(endpoint)) {
            throw new IllegalArgumentException("an endpoint is host:port (a DNS name, an IPv4 address or a bracketed"
                    + " IPv6 address, and a port from 1 to 65535), got " + endpoint);
        }
        return "aeron:udp?endpoint=" + endpoint;
    }
}

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
    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(?:\\.[0-9]{1,3}){3}");
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
     * The one spelling of {@code endpoint}, so that two spellings of one address compare equal: the host in lower
     * case, an IPv4 address with each number in decimal without leading zeros, an IPv6 address in the JDK's full form
     * ({@code [0:0:0:0:0:0:0:1]}), the port in decimal without leading zeros. No name is resolved: a DNS name and the
     * address it resolves to stay two spellings (a replica's identity, not its endpoint, tells replicas apart).
     *
     * @throws IllegalArgumentException if it is not {@code host:port} by the grammar above
     */
    static String canonical(String endpoint) {
        udp(endpoint);
        int colon = endpoint.lastIndexOf(':');
        String host = endpoint.substring(0, colon).toLowerCase(java.util.Locale.ROOT);
        int port = Integer.parseInt(endpoint.substring(colon + 1));
        if (host.startsWith("[")) {
            host = "[" + ipv6(host.substring(1, host.length() - 1), endpoint) + "]";
        } else if (IPV4.matcher(host).matches()) {
            StringBuilder canonical = new StringBuilder();
            for (String part : host.split("\\.")) {
                int number = Integer.parseInt(part);
                if (number > 255) {
                    throw new IllegalArgumentException("an IPv4 address has numbers from 0 to 255, got " + endpoint);
                }
                canonical.append(canonical.isEmpty() ? "" : ".").append(number);
            }
            host = canonical.toString();
        }
        return host + ":" + port;
    }

    private static String ipv6(String literal, String endpoint) {
        if (!literal.contains(":")) {
            throw new IllegalArgumentException("not an IPv6 address: " + endpoint);
        }
        try {
            // A literal with a colon is parsed, never looked up.
            return java.net.InetAddress.getByName(literal).getHostAddress();
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException("not an IPv6 address: " + endpoint, e);
        }
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

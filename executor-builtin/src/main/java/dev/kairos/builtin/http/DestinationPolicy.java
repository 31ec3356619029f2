package dev.kairos.builtin.http;

import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where this executor's HTTP jobs may call. An executor serves one app, so its policy is that
 * app's.
 *
 * <ul>
 *   <li>With no allow-list, any public address may be called; loopback, link-local (cloud metadata
 *       endpoints), private and unique-local, carrier-grade NAT, unspecified and multicast
 *       addresses are refused.
 *   <li>With an allow-list, only destinations it names may be called, internal ones included when
 *       named.
 * </ul>
 *
 * <p>An entry is a host name ({@code billing.example.com}), every subdomain of one ({@code
 * *.example.com}), an address or CIDR range ({@code 10.20.0.0/16}, {@code [fd00::]/8}), each
 * optionally with a port ({@code billing.internal:8443}, {@code 10.0.0.0/8:443}; none means any). A
 * host-name entry allows that name whatever it resolves to; an address entry allows a destination
 * when every address its host resolves to is in range. The check runs on the addresses resolved
 * just before the call and again at every redirect; a name whose DNS answer changes between the
 * check and the connection (DNS rebinding) is not caught here: an egress firewall is the hard
 * boundary.
 */
public final class DestinationPolicy {

  /** Why a destination was refused; the run fails with it. */
  public static final class RefusedException extends Exception {
    RefusedException(String message) {
      super(message);
    }
  }

  /** Resolves a host name to its addresses (the JDK's resolver; tests give literal ones). */
  @FunctionalInterface
  public interface Resolver {
    InetAddress[] resolve(String host) throws UnknownHostException;
  }

  private record Entry(String text, String host, boolean subdomains, Range range, int port) {

    boolean allows(String name, int destinationPort, InetAddress[] addresses) {
      if (port != 0 && port != destinationPort) {
        return false;
      }
      if (host != null) {
        return subdomains ? name.endsWith("." + host) : name.equals(host);
      }
      for (InetAddress address : addresses) {
        if (!range.contains(address)) {
          return false;
        }
      }
      return addresses.length > 0;
    }
  }

  private record Range(byte[] network, int bits) {

    boolean contains(InetAddress address) {
      byte[] bytes = address.getAddress();
      if (bytes.length != network.length) {
        return false;
      }
      BigInteger mask =
          BigInteger.ONE
              .shiftLeft(bits)
              .subtract(BigInteger.ONE)
              .shiftLeft(bytes.length * 8 - bits);
      return new BigInteger(1, bytes).and(mask).equals(new BigInteger(1, network).and(mask));
    }
  }

  /** Property that names the allow-list, for refusals a reader can act on. */
  public static final String PROPERTY = "kairos.executor.builtin.http.allowed-destinations";

  private final List<Entry> allowed;
  private final Resolver resolver;

  private DestinationPolicy(List<Entry> allowed, Resolver resolver) {
    this.allowed = List.copyOf(allowed);
    this.resolver = resolver;
  }

  /** Public addresses only: the default. */
  public static DestinationPolicy publicOnly() {
    return new DestinationPolicy(List.of(), InetAddress::getAllByName);
  }

  /**
   * @throws IllegalArgumentException naming the entry that is not a host, address or range
   */
  public static DestinationPolicy allowing(List<String> entries) {
    return allowing(entries, InetAddress::getAllByName);
  }

  static DestinationPolicy allowing(List<String> entries, Resolver resolver) {
    List<Entry> parsed = new ArrayList<>();
    for (String entry : entries) {
      if (entry != null && !entry.isBlank()) {
        parsed.add(parse(entry.trim()));
      }
    }
    return new DestinationPolicy(parsed, resolver);
  }

  /** Whether an allow-list is configured (then nothing else may be called). */
  public boolean allowListed() {
    return !allowed.isEmpty();
  }

  /**
   * Refuses a destination this executor may not call; returns normally otherwise. A host that does
   * not resolve is allowed only by a host-name entry (with no allow-list it is left to the call,
   * which fails on it).
   */
  public void check(URI url) throws RefusedException {
    String host = hostOf(url);
    int port = url.getPort() != -1 ? url.getPort() : defaultPort(url);
    InetAddress[] addresses;
    try {
      addresses = resolver.resolve(host);
    } catch (UnknownHostException e) {
      addresses = new InetAddress[0]; // a host-name entry may still name it; else the call fails
    }
    if (!allowed.isEmpty()) {
      for (Entry entry : allowed) {
        if (entry.allows(host, port, addresses)) {
          return;
        }
      }
      throw new RefusedException(
          "destination " + host + ":" + port + " is not in " + PROPERTY + " " + entries());
    }
    for (InetAddress address : addresses) {
      Optional<String> kind = internalKind(address);
      if (kind.isPresent()) {
        throw new RefusedException(
            "destination "
                + host
                + ":"
                + port
                + " resolves to "
                + address.getHostAddress()
                + ", a "
                + kind.get()
                + " address; HTTP jobs call public addresses only, unless "
                + PROPERTY
                + " names the destination");
      }
    }
  }

  private List<String> entries() {
    return allowed.stream().map(Entry::text).toList();
  }

  private static int defaultPort(URI url) {
    return "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
  }

  private static String hostOf(URI url) {
    String host = url.getHost();
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    return host.toLowerCase(Locale.ROOT);
  }

  /** What kind of internal address this is, or empty for a public one. */
  static Optional<String> internalKind(InetAddress address) {
    if (address.isLoopbackAddress()) {
      return Optional.of("loopback");
    }
    if (address.isLinkLocalAddress()) {
      return Optional.of("link-local");
    }
    if (address.isAnyLocalAddress()) {
      return Optional.of("unspecified");
    }
    if (address.isMulticastAddress()) {
      return Optional.of("multicast");
    }
    if (address.isSiteLocalAddress()) {
      return Optional.of("private");
    }
    byte[] b = address.getAddress();
    if (address instanceof Inet4Address) {
      int first = b[0] & 0xff;
      int second = b[1] & 0xff;
      if (first == 100 && second >= 64 && second < 128) {
        return Optional.of("carrier-grade NAT");
      }
      if (first == 0) {
        return Optional.of("unspecified");
      }
    }
    if (address instanceof Inet6Address) {
      if ((b[0] & 0xfe) == 0xfc) {
        return Optional.of("unique-local");
      }
      if (isIpv4Mapped(b)) {
        try {
          return internalKind(InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]}));
        } catch (UnknownHostException e) {
          return Optional.of("unreadable");
        }
      }
    }
    return Optional.empty();
  }

  private static boolean isIpv4Mapped(byte[] b) {
    for (int i = 0; i < 10; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
  }

  private static Entry parse(String text) {
    String rest = text;
    String target;
    if (rest.startsWith("[")) {
      int close = rest.indexOf(']');
      if (close < 0) {
        throw invalid(text, "an IPv6 entry is [address] or [address]/bits");
      }
      target = rest.substring(1, close);
      rest = rest.substring(close + 1);
      String bits = "";
      if (rest.startsWith("/")) {
        int colon = rest.indexOf(':');
        bits = colon < 0 ? rest.substring(1) : rest.substring(1, colon);
        rest = colon < 0 ? "" : rest.substring(colon);
      }
      int port = port(text, rest);
      return new Entry(text, null, false, range(text, target, bits, 128), port);
    }
    int colon = rest.lastIndexOf(':');
    int port = 0;
    if (colon >= 0) {
      port = port(text, rest.substring(colon));
      rest = rest.substring(0, colon);
    }
    int slash = rest.indexOf('/');
    target = slash < 0 ? rest : rest.substring(0, slash);
    String bits = slash < 0 ? "" : rest.substring(slash + 1);
    if (target.matches("[0-9.]+")) {
      return new Entry(text, null, false, range(text, target, bits, 32), port);
    }
    if (!bits.isEmpty()) {
      throw invalid(text, "a range needs an address before the /");
    }
    String host = target.toLowerCase(Locale.ROOT);
    boolean subdomains = host.startsWith("*.");
    if (subdomains) {
      host = host.substring(2);
    }
    if (!host.matches("[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*")) {
      throw invalid(text, "is not a host name, *.domain, address or range");
    }
    return new Entry(text, host, subdomains, null, port);
  }

  private static int port(String text, String suffix) {
    if (suffix.isEmpty()) {
      return 0;
    }
    if (!suffix.matches(":[0-9]{1,5}")) {
      throw invalid(text, "a port is :1 to :65535 at the end");
    }
    int port = Integer.parseInt(suffix.substring(1));
    if (port < 1 || port > 65_535) {
      throw invalid(text, "a port is :1 to :65535 at the end");
    }
    return port;
  }

  private static Range range(String text, String address, String bits, int maxBits) {
    byte[] bytes;
    try {
      // A literal: getByName parses it without a DNS lookup.
      bytes = InetAddress.getByName(address).getAddress();
    } catch (UnknownHostException e) {
      throw invalid(text, "is not an address");
    }
    if (bytes.length * 8 != maxBits) {
      throw invalid(text, "mixes IPv4 and IPv6");
    }
    int prefix = maxBits;
    if (!bits.isEmpty()) {
      if (!bits.matches("[0-9]{1,3}") || Integer.parseInt(bits) > maxBits) {
        throw invalid(text, "the bits after / are 0 to " + maxBits);
      }
      prefix = Integer.parseInt(bits);
    }
    return new Range(bytes, prefix);
  }

  private static IllegalArgumentException invalid(String entry, String why) {
    return new IllegalArgumentException(PROPERTY + " entry '" + entry + "': " + why);
  }
}

package dev.kairos.node.system;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.UUID;

/**
 * This node's stable name, the address peers use to reach it, and the incarnation id of this
 * process start (docs/design.md "Nodes own their keys": a late reply from an old incarnation is
 * never mistaken for the new one).
 */
public record NodeIdentity(String name, String internalAddress, String incarnation) {

  public NodeIdentity {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(internalAddress, "internalAddress");
    Objects.requireNonNull(incarnation, "incarnation");
  }

  /** Resolves empty properties to the host's name and address with the HTTP port. */
  public static NodeIdentity resolve(String name, String internalAddress, int serverPort) {
    String resolvedName = name.isBlank() ? sanitize(hostName()) + "-" + serverPort : name;
    String resolvedAddress =
        internalAddress.isBlank() ? hostAddress() + ":" + serverPort : internalAddress;
    return new NodeIdentity(resolvedName, resolvedAddress, UUID.randomUUID().toString());
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      String env = System.getenv("HOSTNAME");
      return env == null || env.isBlank() ? "localhost" : env;
    }
  }

  private static String hostAddress() {
    try {
      return InetAddress.getLocalHost().getHostAddress();
    } catch (UnknownHostException e) {
      return "127.0.0.1";
    }
  }

  /** Host names may carry characters a Redis key or znode name should not. */
  static String sanitize(String host) {
    String cleaned = host.replaceAll("[^A-Za-z0-9._-]", "_");
    return cleaned.isEmpty() || !Character.isLetterOrDigit(cleaned.charAt(0))
        ? "node" + cleaned
        : cleaned;
  }
}

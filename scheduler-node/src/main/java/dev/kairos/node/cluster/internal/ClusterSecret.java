package dev.kairos.node.cluster.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The shared secret of the internal cluster endpoints. Compared in constant time; {@link
 * #toString()} never shows it, so it cannot end up in a log by accident.
 */
final class ClusterSecret {

  static final String HEADER = "X-Kairos-Cluster-Secret";

  private final byte[] value;
  private final String text;
  private final boolean generated;

  private ClusterSecret(String text, boolean generated) {
    this.text = text;
    this.value = text.getBytes(StandardCharsets.UTF_8);
    this.generated = generated;
  }

  /** The configured secret, or a random one for this process when none is configured. */
  static ClusterSecret of(String configured) {
    if (configured == null || configured.isBlank()) {
      byte[] random = new byte[32];
      new SecureRandom().nextBytes(random);
      return new ClusterSecret(HexFormat.of().formatHex(random), true);
    }
    return new ClusterSecret(configured, false);
  }

  /** Whether this process made the secret up (no other node can know it). */
  boolean generated() {
    return generated;
  }

  /** Constant-time comparison with what a caller sent; a missing header never matches. */
  boolean matches(String presented) {
    if (presented == null) {
      return false;
    }
    return MessageDigest.isEqual(value, presented.getBytes(StandardCharsets.UTF_8));
  }

  /** The value for the outgoing header. */
  String header() {
    return text;
  }

  @Override
  public String toString() {
    return "ClusterSecret[****]";
  }
}

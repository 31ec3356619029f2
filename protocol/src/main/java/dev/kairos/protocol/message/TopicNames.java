package dev.kairos.protocol.message;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * RocketMQ topic names of Kairos. One topic per (app, handler): {@code kairos_<app>_<handler>}.
 *
 * <p>RocketMQ allows {@code [%|a-zA-Z0-9_-]} and at most {@value #MAX_LENGTH} characters; Kairos
 * leaves {@code %} and {@code |} to RocketMQ (retry topics, namespaces). Because {@code _} is the
 * separator, the plain form is used only when app and handler are made of {@code [a-zA-Z0-9-]} and
 * the name fits: such a name has exactly two underscores. Otherwise every other character becomes
 * {@code -}, the parts are shortened to fit, and {@code _<10 hex of SHA-256(app NUL handler)>} is
 * appended: such a name has at least three underscores, so it can never equal a plain name, and two
 * different pairs collide only if 40 bits of SHA-256 do. The result topic has one underscore.
 */
public final class TopicNames {

  public static final int MAX_LENGTH = 127;

  /** Topic of every executor result, consumed by the scheduler nodes. */
  public static final String RESULTS = "kairos_results";

  /**
   * Queues of {@link #RESULTS} per broker: the scheduler nodes' consumer group shares them, so at
   * most this many nodes consume results at once.
   */
  public static final int RESULTS_QUEUES = 8;

  static final String PREFIX = "kairos_";
  private static final int HASH_HEX = 10;
  private static final Pattern NOT_ALLOWED = Pattern.compile("[^a-zA-Z0-9-]");

  private TopicNames() {}

  /** The topic of one handler of one app; stable across processes and versions. */
  public static String handlerTopic(String app, String handler) {
    Objects.requireNonNull(app, "app");
    Objects.requireNonNull(handler, "handler");
    if (app.isEmpty() || handler.isEmpty()) {
      throw new IllegalArgumentException("app and handler must not be empty");
    }
    if (isPlain(app)
        && isPlain(handler)
        && PREFIX.length() + app.length() + 1 + handler.length() <= MAX_LENGTH) {
      return PREFIX + app + "_" + handler;
    }
    String safeApp = NOT_ALLOWED.matcher(app).replaceAll("-");
    String safeHandler = NOT_ALLOWED.matcher(handler).replaceAll("-");
    // PREFIX + app + "_" + handler + "_" + hash must fit; split the room between the two parts.
    int room = MAX_LENGTH - PREFIX.length() - 2 - HASH_HEX;
    int appRoom = Math.max(room - safeHandler.length(), room / 2);
    safeApp = safeApp.substring(0, Math.min(safeApp.length(), appRoom));
    safeHandler = safeHandler.substring(0, Math.min(safeHandler.length(), room - safeApp.length()));
    return PREFIX + safeApp + "_" + safeHandler + "_" + hash(app + '\0' + handler);
  }

  /**
   * {@code [a-zA-Z0-9-]+}, tested without a regex: every dispatch names its topic, and a matcher
   * per call was a tenth of the dispatch threads' allocation.
   */
  private static boolean isPlain(String part) {
    for (int i = 0; i < part.length(); i++) {
      char c = part.charAt(i);
      boolean allowed =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
      if (!allowed) {
        return false;
      }
    }
    return true;
  }

  private static String hash(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, HASH_HEX);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JVM", e);
    }
  }
}

package dev.kairos.alarm.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 of the request body with a shared secret, sent as {@code X-Kairos-Signature:
 * sha256=<hex>}, so a receiver can check that the alarm came from this cluster and was not altered.
 * The secret is never logged ({@link #toString()} hides it).
 */
public final class WebhookSigner {

  public static final String HEADER = "X-Kairos-Signature";
  private static final String ALGORITHM = "HmacSHA256";

  private final SecretKeySpec key;

  public WebhookSigner(String secret) {
    if (secret == null || secret.isEmpty()) {
      throw new IllegalArgumentException("a webhook secret must not be empty");
    }
    this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
  }

  /** The header value for {@code body}: {@code sha256=} followed by the lower-case hex digest. */
  public String sign(byte[] body) {
    try {
      // Mac instances are not thread-safe; one per call is cheap next to an HTTP request.
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is required of every JVM", e);
    }
  }

  @Override
  public String toString() {
    return "WebhookSigner[secret=***]";
  }
}

package dev.kairos.core.log;

import java.util.Locale;

/**
 * Which names say that their value is a secret: the values of headers, query parameters and params
 * fields so named are masked wherever Kairos shows them (an HTTP job's run log, a job read by a
 * reader who may not write it). One rule for every place: {@code Authorization}, {@code
 * Proxy-Authorization}, {@code Cookie}, {@code Set-Cookie}, and any name containing {@code token},
 * {@code secret}, {@code password}, {@code passwd}, {@code api-key}, {@code apikey}, {@code
 * api_key} or {@code credential}, in any case.
 */
public final class SecretNames {

  /** What a masked value shows instead. */
  public static final String MASK = "***";

  private static final String[] SECRET_PARTS = {
    "token", "secret", "password", "passwd", "api-key", "apikey", "api_key", "credential"
  };

  private SecretNames() {}

  /** Whether a header, query parameter or field of this name carries a secret. */
  public static boolean isSecret(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.equals("authorization")
        || lower.equals("proxy-authorization")
        || lower.equals("cookie")
        || lower.equals("set-cookie")) {
      return true;
    }
    for (String part : SECRET_PARTS) {
      if (lower.contains(part)) {
        return true;
      }
    }
    return false;
  }
}

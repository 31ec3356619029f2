package dev.kairos.builtin.http;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * What an HTTP job's log must not show: the values of credential headers ({@code Authorization},
 * {@code Proxy-Authorization}, {@code Cookie}, and any name containing {@code token}, {@code
 * secret}, {@code password}, {@code passwd}, {@code api-key}, {@code apikey} or {@code credential},
 * in any case), the user-info of a URL and the values of query parameters with such names.
 */
public final class SecretRedaction {

  public static final String MASK = "***";

  private static final String[] SECRET_PARTS = {
    "token", "secret", "password", "passwd", "api-key", "apikey", "api_key", "credential"
  };

  private SecretRedaction() {}

  /** Whether a header or query parameter of this name carries a secret. */
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

  /** {@code {Name=value, Authorization=***}} in the given order. */
  public static String headers(Map<String, String> headers) {
    StringJoiner text = new StringJoiner(", ", "{", "}");
    headers.forEach((name, value) -> text.add(name + "=" + (isSecret(name) ? MASK : value)));
    return text.toString();
  }

  /** The URL without user-info and with secret query values masked; fragment dropped. */
  public static String url(URI uri) {
    StringBuilder text = new StringBuilder();
    text.append(uri.getScheme()).append("://");
    if (uri.getRawUserInfo() != null) {
      text.append(MASK).append('@');
    }
    text.append(uri.getHost());
    if (uri.getPort() >= 0) {
      text.append(':').append(uri.getPort());
    }
    text.append(uri.getRawPath() == null ? "" : uri.getRawPath());
    String query = uri.getRawQuery();
    if (query != null) {
      StringJoiner params = new StringJoiner("&", "?", "");
      for (String pair : query.split("&", -1)) {
        int eq = pair.indexOf('=');
        String name = eq < 0 ? pair : pair.substring(0, eq);
        params.add(eq >= 0 && isSecret(name) ? name + "=" + MASK : pair);
      }
      text.append(params);
    }
    return text.toString();
  }
}

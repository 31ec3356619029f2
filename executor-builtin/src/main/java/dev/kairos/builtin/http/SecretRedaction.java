package dev.kairos.builtin.http;

import dev.kairos.core.log.SecretNames;
import java.net.URI;
import java.util.Map;
import java.util.StringJoiner;

/**
 * What an HTTP job's log must not show: the values of credential headers ({@code Authorization},
 * {@code Proxy-Authorization}, {@code Cookie}, and any name containing {@code token}, {@code
 * secret}, {@code password}, {@code passwd}, {@code api-key}, {@code apikey} or {@code credential},
 * in any case), the user-info of a URL and the values of query parameters with such names.
 */
public final class SecretRedaction {

  public static final String MASK = SecretNames.MASK;

  private SecretRedaction() {}

  /** Whether a header or query parameter of this name carries a secret ({@link SecretNames}). */
  public static boolean isSecret(String name) {
    return SecretNames.isSecret(name);
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

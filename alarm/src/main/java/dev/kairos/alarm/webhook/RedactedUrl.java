package dev.kairos.alarm.webhook;

import java.net.URI;

/**
 * A webhook URL as it may be logged: scheme, host and port only. Webhook URLs carry their token in
 * the query string, the user info or the path itself (chat webhooks such as {@code
 * /services/T0/B0/<token>}), so none of those is ever printed; the channel name tells which
 * configured URL it was.
 */
public final class RedactedUrl {

  private RedactedUrl() {}

  public static String of(URI uri) {
    StringBuilder out = new StringBuilder();
    out.append(uri.getScheme()).append("://").append(uri.getHost());
    if (uri.getPort() >= 0) {
      out.append(':').append(uri.getPort());
    }
    String path = uri.getRawPath();
    boolean more =
        (path != null && !path.isEmpty() && !path.equals("/"))
            || uri.getRawQuery() != null
            || uri.getRawFragment() != null;
    return out.append(more ? "/…" : "/").toString();
  }
}

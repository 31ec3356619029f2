package dev.kairos.alarm.webhook;

import dev.kairos.alarm.RetryPolicy;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * One webhook target.
 *
 * @param url where alarms are POSTed (http or https); never logged beyond scheme, host and port
 * @param headers extra request headers (for example {@code Authorization}); never logged
 * @param secret HMAC-SHA256 key of the {@code X-Kairos-Signature} header, or null for none
 * @param connectTimeout bound of the TCP (and TLS) connect
 * @param readTimeout bound of the wait for the response status once the request is sent
 * @param retry retries of a failed delivery (connection refused, timeout, 408, 429, 5xx)
 */
public record WebhookSettings(
    URI url,
    Map<String, String> headers,
    String secret,
    Duration connectTimeout,
    Duration readTimeout,
    RetryPolicy retry) {

  public WebhookSettings {
    Objects.requireNonNull(url, "url");
    String scheme = url.getScheme();
    if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme)) {
      // Only the scheme is named: the rest of the URL may carry a token.
      throw new IllegalArgumentException(
          "a webhook URL must be http or https, not " + scheme + " (" + RedactedUrl.of(url) + ")");
    }
    if (url.getHost() == null) {
      throw new IllegalArgumentException("a webhook URL needs a host");
    }
    headers = Map.copyOf(headers);
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(readTimeout, "readTimeout");
    Objects.requireNonNull(retry, "retry");
  }

  @Override
  public String toString() {
    return "WebhookSettings[url="
        + RedactedUrl.of(url)
        + ", headers="
        + headers.keySet()
        + ", secret="
        + (secret == null ? "none" : "***")
        + ", connectTimeout="
        + connectTimeout
        + ", readTimeout="
        + readTimeout
        + ", retry="
        + retry
        + "]";
  }
}

package dev.kairos.alarm.webhook;

import dev.kairos.alarm.AlarmChannel;
import dev.kairos.alarm.AlarmDeliveryException;
import dev.kairos.alarm.AlarmNotice;
import dev.kairos.alarm.RetryPolicy;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * POSTs each notice as JSON ({@link AlarmJson}) to one URL with the JDK {@link HttpClient}. A 2xx
 * answer is delivered; a refused or timed-out connection, 408, 429 and 5xx are retryable; any other
 * status is a rejected request and not tried again. Redirects are not followed, so the headers and
 * the signature never reach a host that was not configured.
 */
public final class WebhookAlarmChannel implements AlarmChannel {

  private final String name;
  private final WebhookSettings settings;
  private final String target;
  private final WebhookSigner signer;
  private final HttpClient client;

  public WebhookAlarmChannel(String name, WebhookSettings settings) {
    this(
        name,
        settings,
        HttpClient.newBuilder()
            .connectTimeout(settings.connectTimeout())
            .followRedirects(HttpClient.Redirect.NEVER)
            .build());
  }

  /**
   * A channel posting with a shared client, which must not follow redirects (the client's connect
   * timeout applies, not {@code settings.connectTimeout()}).
   */
  public WebhookAlarmChannel(String name, WebhookSettings settings, HttpClient client) {
    this.name = name;
    this.settings = settings;
    this.target = RedactedUrl.of(settings.url());
    this.signer = settings.secret() == null ? null : new WebhookSigner(settings.secret());
    this.client = client;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public RetryPolicy retryPolicy() {
    return settings.retry();
  }

  /** The URL as logs show it. */
  public String target() {
    return target;
  }

  @Override
  public void deliver(AlarmNotice notice) {
    byte[] body = AlarmJson.write(notice);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(settings.url())
            .timeout(settings.readTimeout())
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    settings.headers().forEach(request::header);
    if (signer != null) {
      request.header(WebhookSigner.HEADER, signer.sign(body));
    }
    int status;
    try {
      status = client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      // The exception type says what happened (ConnectException, HttpTimeoutException); its
      // message is left out because it is not ours to vouch for.
      throw new AlarmDeliveryException(e.getClass().getSimpleName() + " from " + target, true);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AlarmDeliveryException("interrupted while posting to " + target, false);
    }
    if (status >= 200 && status < 300) {
      return;
    }
    boolean retryable = status == 408 || status == 429 || status >= 500;
    throw new AlarmDeliveryException("HTTP " + status + " from " + target, retryable);
  }

  @Override
  public String toString() {
    return "WebhookAlarmChannel[" + name + " -> " + target + "]";
  }
}

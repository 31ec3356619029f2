package dev.kairos.alarm;

import dev.kairos.alarm.email.EmailAlarmChannel;
import dev.kairos.alarm.webhook.WebhookAlarmChannel;
import dev.kairos.alarm.webhook.WebhookSettings;
import dev.kairos.core.alarm.AlarmRecipients;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.mail.javamail.JavaMailSender;

/**
 * Channels for a job's own alarm recipients: one mail to all of its addresses (channel {@value
 * #EMAIL}) through the node's mail server, and one POST per webhook URL (channel {@value
 * #WEBHOOK}).
 *
 * <p>Safety: a job's webhooks get the alarm JSON only — never the configured webhooks' headers or
 * signing secret, which belong to the operator's receivers, not to whatever URL a job names. All of
 * them share one {@link HttpClient}. Without a mail server ({@code spring.mail.host}) a job's email
 * recipients cannot be served: that delivery fails at once, is logged and counted as failed.
 */
public final class JobRecipientChannels implements RecipientChannels {

  public static final String EMAIL = "job-email";
  public static final String WEBHOOK = "job-webhook";
  private static final Logger log = LoggerFactory.getLogger(JobRecipientChannels.class);

  private final JavaMailSender mail;
  private final String from;
  private final RetryPolicy emailRetry;
  private final Duration readTimeout;
  private final RetryPolicy webhookRetry;
  private final HttpClient http;

  /**
   * @param mail the node's mail sender, or null when no mail server is configured
   * @param from sender address of the mails, or null/empty to leave it to the mail server
   */
  public JobRecipientChannels(
      JavaMailSender mail,
      String from,
      RetryPolicy emailRetry,
      Duration connectTimeout,
      Duration readTimeout,
      RetryPolicy webhookRetry) {
    this.mail = mail;
    this.from = from;
    this.emailRetry = emailRetry;
    this.readTimeout = readTimeout;
    this.webhookRetry = webhookRetry;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(connectTimeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  @Override
  public List<AlarmChannel> channelsFor(AlarmRecipients recipients) {
    List<AlarmChannel> channels = new ArrayList<>();
    if (!recipients.emails().isEmpty()) {
      channels.add(
          mail != null
              ? new EmailAlarmChannel(EMAIL, mail, from, recipients.emails(), emailRetry)
              : new NoMailServer(recipients.emails().size()));
    }
    for (String url : recipients.webhooks()) {
      WebhookSettings settings;
      try {
        settings =
            new WebhookSettings(
                URI.create(url),
                Map.of(),
                null,
                http.connectTimeout().orElseThrow(),
                readTimeout,
                webhookRetry);
      } catch (IllegalArgumentException e) {
        // Validated when the job was saved; a hash restored from elsewhere may still hold junk.
        log.warn("job alarm webhook skipped: {}", e.getMessage());
        continue;
      }
      channels.add(new WebhookAlarmChannel(WEBHOOK, settings, http));
    }
    return channels;
  }

  /** Stands in for the mail a job asked for when the node has no mail server. */
  private record NoMailServer(int recipients) implements AlarmChannel {

    @Override
    public String name() {
      return EMAIL;
    }

    @Override
    public void deliver(AlarmNotice notice) {
      throw new AlarmDeliveryException(
          "no mail server configured (spring.mail.host) for "
              + recipients
              + " job alarm recipient(s)",
          false);
    }
  }
}

package dev.kairos.core.alarm;

import java.util.List;
import java.util.Objects;

/**
 * Who gets an alarm on top of the channels the node is configured with: a job's own alarm emails
 * and webhooks ({@code JobDefinition.alarmEmails()}, {@code alarmWebhooks()}), already validated.
 *
 * @param emails mail addresses
 * @param webhooks http or https URLs the alarm is POSTed to as JSON
 */
public record AlarmRecipients(List<String> emails, List<String> webhooks) {

  /** Only the configured channels. */
  public static final AlarmRecipients NONE = new AlarmRecipients(List.of(), List.of());

  public AlarmRecipients {
    emails = List.copyOf(Objects.requireNonNull(emails, "emails"));
    webhooks = List.copyOf(Objects.requireNonNull(webhooks, "webhooks"));
  }

  public boolean isEmpty() {
    return emails.isEmpty() && webhooks.isEmpty();
  }

  /** Webhook URLs often carry a token, so only the counts are shown. */
  @Override
  public String toString() {
    return "AlarmRecipients[emails=" + emails.size() + ", webhooks=" + webhooks.size() + "]";
  }
}

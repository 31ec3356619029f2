package dev.kairos.core.alarm;

import java.util.Map;
import java.util.Objects;

/**
 * Something an operator must hear about.
 *
 * @param kind what happened
 * @param subject what it happened to (job id, app name, shard, or "cluster"); with {@code kind} it
 *     forms the de-duplication key
 * @param title one line for a mail subject or a chat message
 * @param details flat key/value context (trigger id, attempt, state, message); never secrets
 * @param atMs when it was detected, epoch ms of the cluster clock
 * @param recipients who gets it besides the configured channels (a failed job's own alarm emails
 *     and webhooks); not part of the de-duplication key
 */
public record Alarm(
    AlarmKind kind,
    String subject,
    String title,
    Map<String, String> details,
    long atMs,
    AlarmRecipients recipients) {

  public Alarm {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(title, "title");
    details = Map.copyOf(details);
    Objects.requireNonNull(recipients, "recipients");
  }

  /** An alarm for the configured channels only. */
  public Alarm(
      AlarmKind kind, String subject, String title, Map<String, String> details, long atMs) {
    this(kind, subject, title, details, atMs, AlarmRecipients.NONE);
  }

  /** The de-duplication key: one alarm per key within a window. */
  public String key() {
    return kind + ":" + subject;
  }
}

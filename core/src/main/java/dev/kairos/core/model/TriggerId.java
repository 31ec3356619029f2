package dev.kairos.core.model;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Identity of one trigger; everything downstream dedups on it.
 *
 * <ul>
 *   <li>scheduled fire: {@code <jobId>:<fireMs>}
 *   <li>one shard of a broadcast: {@code <jobId>:<fireMs>#<index>/<total>}
 *   <li>manual trigger: {@code <jobId>:<fireMs>:m<nonce>}
 *   <li>retry attempt n of a trigger: {@code <parentId>/r<n>}
 * </ul>
 *
 * Job ids never contain {@code : # / @ |}, so the forms cannot collide.
 */
public record TriggerId(String value) {

  private static final Pattern SCHEDULED = Pattern.compile("[^:#/]+:\\d+");

  public TriggerId {
    Objects.requireNonNull(value, "value");
    if (value.isEmpty() || value.indexOf(':') < 1) {
      throw new IllegalArgumentException("not a trigger id: " + value);
    }
  }

  public static TriggerId scheduled(String jobId, long fireMs) {
    return new TriggerId(jobId + ":" + fireMs);
  }

  public static TriggerId manual(String jobId, long requestedMs, String nonce) {
    return new TriggerId(jobId + ":" + requestedMs + ":m" + nonce);
  }

  public TriggerId shard(int index, int total) {
    return new TriggerId(value + "#" + index + "/" + total);
  }

  public TriggerId retry(int attempt) {
    return new TriggerId(value + "/r" + attempt);
  }

  /** The job this trigger belongs to. */
  public String jobId() {
    return value.substring(0, value.indexOf(':'));
  }

  /** The fire time the id was made for (scheduled, or the manual request time). */
  public long fireMs() {
    int start = value.indexOf(':') + 1;
    int end = start;
    while (end < value.length() && Character.isDigit(value.charAt(end))) {
      end++;
    }
    return Long.parseLong(value.substring(start, end));
  }

  public boolean isScheduled() {
    return SCHEDULED.matcher(value).matches();
  }

  @Override
  public String toString() {
    return value;
  }
}

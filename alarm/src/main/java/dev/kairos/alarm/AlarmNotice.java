package dev.kairos.alarm;

import dev.kairos.core.alarm.Alarm;
import java.util.Objects;

/**
 * What a channel delivers: an alarm that passed de-duplication, with the number of alarms of the
 * same key that were suppressed since the previous delivery of that key.
 *
 * @param alarm the alarm
 * @param suppressed duplicates of {@code alarm.key()} swallowed by the previous window, 0 when none
 */
public record AlarmNotice(Alarm alarm, long suppressed) {

  public AlarmNotice {
    Objects.requireNonNull(alarm, "alarm");
    if (suppressed < 0) {
      throw new IllegalArgumentException("suppressed must not be negative: " + suppressed);
    }
  }
}

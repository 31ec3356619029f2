package dev.kairos.alarm;

import dev.kairos.core.alarm.Alarm;
import java.util.Optional;

/**
 * Decides which alarms are delivered: one per key ({@link Alarm#key()}) per window, the first one
 * after a window carrying the count of those suppressed inside it. {@link AlarmDeduplicator} keeps
 * the windows in this process; {@link RedisAlarmWindow} shares them across the cluster.
 * Implementations are thread-safe.
 */
public interface AlarmWindow {

  /**
   * Decides whether {@code alarm} is sent.
   *
   * @return the notice to deliver, or empty when it is a duplicate inside its key's window
   */
  Optional<AlarmNotice> admit(Alarm alarm);
}

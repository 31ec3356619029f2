package dev.kairos.lifecycle;

import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmSink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The alarm sink of last resort when no alarm channel is configured: one WARN line per alarm, no
 * de-duplication (the log is the channel).
 */
public final class LoggingAlarmSink implements AlarmSink {

  private static final Logger log = LoggerFactory.getLogger(LoggingAlarmSink.class);

  @Override
  public boolean raise(Alarm alarm) {
    log.warn("ALARM {} {}: {} {}", alarm.kind(), alarm.subject(), alarm.title(), alarm.details());
    return true;
  }
}

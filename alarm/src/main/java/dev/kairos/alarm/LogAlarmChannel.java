package dev.kairos.alarm;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each notice as one WARN line (logger {@code dev.kairos.alarm.ALARM}), so alarms reach the
 * node's log even where no webhook or mail is configured.
 */
public final class LogAlarmChannel implements AlarmChannel {

  private static final Logger log = LoggerFactory.getLogger("dev.kairos.alarm.ALARM");

  @Override
  public String name() {
    return "log";
  }

  @Override
  public void deliver(AlarmNotice notice) {
    log.warn(
        "ALARM key={} suppressed={} atMs={} title=\"{}\" details={}",
        notice.alarm().key(),
        notice.suppressed(),
        notice.alarm().atMs(),
        notice.alarm().title(),
        notice.alarm().details());
  }
}

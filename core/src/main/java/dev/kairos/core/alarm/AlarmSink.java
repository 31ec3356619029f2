package dev.kairos.core.alarm;

/**
 * Where components hand alarms. Implementations de-duplicate and deliver asynchronously: {@link
 * #raise} never blocks on a network call, so the scheduling path may call it.
 */
@FunctionalInterface
public interface AlarmSink {

  /**
   * Raises an alarm.
   *
   * @return false when it was suppressed as a duplicate of one raised within the window
   */
  boolean raise(Alarm alarm);
}

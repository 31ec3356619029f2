package dev.kairos.core.model;

/** How a job's fire times are computed. */
public enum ScheduleType {
  /** Six-field cron (seconds first) evaluated in the job's IANA time zone. */
  CRON,
  /** Every interval, aligned to the job's start instant, regardless of how long runs take. */
  FIXED_RATE,
  /**
   * The next fire is the previous trigger's end plus the interval; armed by the trigger lifecycle.
   */
  FIXED_DELAY,
  /** Exactly one fire, at a given instant. */
  ONE_SHOT,
  /** Never fires on its own; triggered through the API only. */
  API
}

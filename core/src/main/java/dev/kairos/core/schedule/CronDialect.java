package dev.kairos.core.schedule;

/**
 * How a job's cron text is read. Both dialects have a seconds field and share the syntax of the
 * second, minute, hour and month fields; they differ where the same text would otherwise silently
 * mean something else.
 *
 * <ul>
 *   <li>{@link #KAIROS}, the default: six fields; day-of-week {@code 0-7} with 0 and 7 Sunday and 1
 *       Monday; when both day fields are restricted a day matches if either does (Vixie cron).
 *   <li>{@link #QUARTZ}, as Quartz and xxl-job read it: six or seven fields (an optional year,
 *       1970-2199); day-of-week {@code 1-7} with 1 Sunday and 7 Saturday, a lone {@code L} meaning
 *       Saturday; exactly one of the two day fields must be {@code ?}.
 * </ul>
 */
public enum CronDialect {
  KAIROS,
  QUARTZ;

  /** The dialect of a job that names none: the one every job had before dialects existed. */
  public static final CronDialect DEFAULT = KAIROS;
}

package dev.kairos.sync.history.read;

import java.time.LocalDate;

/**
 * One app's trigger counts of one UTC day: the sum of its jobs' rows of the daily report. {@code
 * app} is "*" on the row of all jobs, and null for jobs PostgreSQL has no job row for (yet).
 *
 * @param fires every trigger the report counted that day
 * @param running triggers not final when the report was refreshed
 * @param other final, neither success nor failure (cancelled, discarded, dropped stale)
 */
public record AppDailyCount(
    LocalDate day, String app, long fires, long success, long failure, long running, long other) {

  /** The JPQL constructor expression's target: sums arrive as {@code Long}. */
  public AppDailyCount(
      LocalDate day, String app, Long success, Long failure, Long running, Long other) {
    this(day, app, success + failure + running + other, success, failure, running, other);
  }
}

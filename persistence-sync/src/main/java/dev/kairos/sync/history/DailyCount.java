package dev.kairos.sync.history;

import java.time.LocalDate;

/** Trigger counts of one UTC day for one job, or for all jobs when {@code jobId} is "*". */
public record DailyCount(
    LocalDate day, String jobId, long success, long failure, long running, long other) {

  public static final String ALL_JOBS = "*";
}

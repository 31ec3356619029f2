package dev.kairos.core.store;

import dev.kairos.core.error.KairosException;

/** Someone else changed the job since the caller read it; re-read and retry. */
public class JobVersionConflictException extends KairosException {

  private final String jobId;
  private final long expected;
  private final long actual;

  public JobVersionConflictException(String jobId, long expected, long actual) {
    super("job " + jobId + " is at version " + actual + ", not the expected " + expected);
    this.jobId = jobId;
    this.expected = expected;
    this.actual = actual;
  }

  public String jobId() {
    return jobId;
  }

  public long expected() {
    return expected;
  }

  public long actual() {
    return actual;
  }
}

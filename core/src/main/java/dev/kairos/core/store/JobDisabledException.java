package dev.kairos.core.store;

import dev.kairos.core.error.KairosException;

/** An operation that needs an enabled job (e.g. "trigger now") found the job disabled. */
public class JobDisabledException extends KairosException {

  private final String jobId;

  public JobDisabledException(String jobId) {
    super("job is disabled: " + jobId);
    this.jobId = jobId;
  }

  public String jobId() {
    return jobId;
  }
}

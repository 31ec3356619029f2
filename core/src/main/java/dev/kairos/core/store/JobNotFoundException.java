package dev.kairos.core.store;

import dev.kairos.core.error.KairosException;

public class JobNotFoundException extends KairosException {

  private final String jobId;

  public JobNotFoundException(String jobId) {
    super("job not found: " + jobId);
    this.jobId = jobId;
  }

  public String jobId() {
    return jobId;
  }
}

package dev.kairos.core.store;

import dev.kairos.core.error.KairosException;

public class JobAlreadyExistsException extends KairosException {

  private final String jobId;

  public JobAlreadyExistsException(String jobId) {
    super("job already exists: " + jobId);
    this.jobId = jobId;
  }

  public String jobId() {
    return jobId;
  }
}

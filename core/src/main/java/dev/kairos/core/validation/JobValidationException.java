package dev.kairos.core.validation;

import dev.kairos.core.error.KairosException;
import java.util.List;
import java.util.stream.Collectors;

/** A job was rejected before anything was written; carries every problem found. */
public class JobValidationException extends KairosException {

  private final String jobId;
  private final List<ValidationProblem> problems;

  public JobValidationException(String jobId, List<ValidationProblem> problems) {
    super(
        "job "
            + jobId
            + " is invalid: "
            + problems.stream().map(ValidationProblem::toString).collect(Collectors.joining("; ")));
    this.jobId = jobId;
    this.problems = List.copyOf(problems);
  }

  public String jobId() {
    return jobId;
  }

  public List<ValidationProblem> problems() {
    return problems;
  }
}

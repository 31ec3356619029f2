package dev.kairos.core.validation;

/**
 * One thing wrong with a submitted job.
 *
 * @param field the job-hash / API field name ({@link dev.kairos.core.redis.JobFields}), so a 4xx
 *     response can point at it
 * @param message what is wrong, in words an operator can act on
 */
public record ValidationProblem(String field, String message) {

  @Override
  public String toString() {
    return field + ": " + message;
  }
}

package dev.kairos.node.api.problem;

import java.util.List;
import java.util.Map;

/**
 * Thrown by API code to answer with a problem; {@link ApiExceptionHandler} renders it. Carries no
 * stack trace worth logging: it is an answer, not a failure.
 */
public class ApiProblemException extends RuntimeException {

  private final ProblemType type;
  private final List<FieldError> errors;
  private final Map<String, Object> properties;

  public ApiProblemException(
      ProblemType type, String detail, List<FieldError> errors, Map<String, Object> properties) {
    super(detail, null, false, false);
    this.type = type;
    this.errors = List.copyOf(errors);
    this.properties = Map.copyOf(properties);
  }

  public ApiProblemException(ProblemType type, String detail) {
    this(type, detail, List.of(), Map.of());
  }

  /** A problem with one named field. */
  public static ApiProblemException field(ProblemType type, String field, String message) {
    return new ApiProblemException(
        type, field + ": " + message, List.of(new FieldError(field, message)), Map.of());
  }

  public ProblemType type() {
    return type;
  }

  public List<FieldError> errors() {
    return errors;
  }

  public Map<String, Object> properties() {
    return properties;
  }
}

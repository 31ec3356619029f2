package dev.kairos.node.api.problem;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * Builds RFC 9457 bodies: {@code type}, {@code title}, {@code status}, {@code detail}, {@code
 * instance}, plus {@code code} (the stable error code) and, when fields are at fault, {@code
 * errors: [{field, message}]}. Used by the MVC exception handler and by the security filters, which
 * answer before MVC runs.
 */
public final class Problems {

  private Problems() {}

  public static ProblemDetail detail(
      ProblemType type,
      String detail,
      String instance,
      List<FieldError> errors,
      Map<String, Object> properties) {
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(type.status(), abbreviate(detail));
    problem.setType(type.uri());
    problem.setTitle(type.title());
    if (instance != null && instance.length() <= MAX_TEXT) {
      try {
        problem.setInstance(java.net.URI.create(instance));
      } catch (IllegalArgumentException e) {
        // A path the container accepted but java.net.URI does not: leave instance out.
      }
    }
    problem.setProperty("code", type.code());
    if (!errors.isEmpty()) {
      problem.setProperty(
          "errors",
          errors.stream()
              .map(e -> new FieldError(abbreviate(e.field()), abbreviate(e.message())))
              .toList());
    }
    properties.forEach(problem::setProperty);
    return problem;
  }

  /** Longest text of a problem body before it is abbreviated. */
  static final int MAX_TEXT = 512;

  /**
   * Messages echo the offending value; a megabyte of cron or zone must not come back as a megabyte
   * of error. Longer texts keep their start and say how much was left out.
   */
  static String abbreviate(String text) {
    if (text == null || text.length() <= MAX_TEXT) {
      return text;
    }
    return text.substring(0, MAX_TEXT) + "… (" + (text.length() - MAX_TEXT) + " more characters)";
  }

  public static ResponseEntity<ProblemDetail> response(ProblemDetail problem) {
    return ResponseEntity.status(problem.getStatus())
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(problem);
  }

  /** Writes a problem straight to the servlet response (filters, entry points). */
  public static void write(
      HttpServletResponse response, ObjectMapper json, ProblemType type, String detail, String path)
      throws IOException {
    write(response, json, type, type.status().value(), detail, path);
  }

  /**
   * Writes a problem with a status other than the type's own (an error page rendering the status
   * the container or a resolver chose), whatever the request's {@code Accept} says.
   */
  public static void write(
      HttpServletResponse response,
      ObjectMapper json,
      ProblemType type,
      int status,
      String detail,
      String path)
      throws IOException {
    ProblemDetail problem = detail(type, detail, path, List.of(), Map.of());
    problem.setStatus(status);
    response.setStatus(status);
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    json.writeValue(response.getOutputStream(), problem);
  }
}

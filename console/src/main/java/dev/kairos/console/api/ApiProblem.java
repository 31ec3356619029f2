package dev.kairos.console.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An admin API error (problem+json) as the console shows it: the sentence for the top of the page
 * and the messages by field, so a form shows each next to its input.
 *
 * @param code the API's stable code ({@code validation-failed}, {@code job-exists}, ...)
 * @param fields message per field name as the API named it ({@code schedule}, {@code zone})
 */
public record ApiProblem(int status, String code, String detail, Map<String, String> fields) {

  static ApiProblem of(int status, Map<String, Object> body) {
    String code = String.valueOf(body.getOrDefault("code", "http-" + status));
    Object detail = body.getOrDefault("detail", body.getOrDefault("title", "HTTP " + status));
    Map<String, String> fields = new LinkedHashMap<>();
    if (body.get("errors") instanceof List<?> errors) {
      for (Object error : errors) {
        if (error instanceof Map<?, ?> e && e.get("field") != null) {
          // Two problems on one field read as one sentence.
          fields.merge(
              String.valueOf(e.get("field")),
              String.valueOf(e.get("message")),
              (a, b) -> a + "; " + b);
        }
      }
    }
    return new ApiProblem(status, code, String.valueOf(detail), fields);
  }

  /** A problem found by the console itself before calling the API (a number that is not one). */
  public static ApiProblem local(Map<String, String> fields) {
    return new ApiProblem(400, "validation-failed", "The values break a rule", Map.copyOf(fields));
  }
}

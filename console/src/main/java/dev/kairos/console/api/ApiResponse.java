package dev.kairos.console.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One answer of the node's admin API: its status and its JSON body as plain maps and lists (what
 * the templates read), or a problem when it failed.
 *
 * @param body the parsed JSON body; an empty map when there was none
 */
public record ApiResponse(int status, Map<String, Object> body) {

  public boolean ok() {
    return status >= 200 && status < 300;
  }

  /** The failure as the console shows it; only meaningful when {@link #ok()} is false. */
  public ApiProblem problem() {
    return ApiProblem.of(status, body);
  }

  /** A list field of the body ({@code items} of a page, {@code fires} of a preview). */
  @SuppressWarnings("unchecked")
  public List<Map<String, Object>> list(String field) {
    Object value = body.get(field);
    return value instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
  }

  static ApiResponse of(int status, Object parsed) {
    Object json = lenient(parsed);
    if (json instanceof ApiObject object) {
      return new ApiResponse(status, object);
    }
    // The list endpoints (executors) answer a JSON array: keep it under "items" like a page.
    ApiObject wrapped = new ApiObject();
    if (json instanceof List<?> list) {
      wrapped.put("items", list);
    }
    return new ApiResponse(status, wrapped);
  }

  /** Every JSON object, however deep, as an {@link ApiObject}. */
  private static Object lenient(Object value) {
    if (value instanceof Map<?, ?> map) {
      ApiObject object = new ApiObject();
      map.forEach((k, v) -> object.put(String.valueOf(k), lenient(v)));
      return object;
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>(list.size());
      list.forEach(v -> copy.add(lenient(v)));
      return copy;
    }
    return value;
  }
}

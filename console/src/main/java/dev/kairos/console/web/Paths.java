package dev.kairos.console.web;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.springframework.web.util.UriUtils;

/** API paths built from user input: each id is encoded so it cannot change the path. */
final class Paths {

  private Paths() {}

  static String job(String id) {
    return "/api/v1/jobs/" + UriUtils.encodePathSegment(id, StandardCharsets.UTF_8);
  }

  /**
   * A trigger id keeps its slashes (a retry is {@code <parent>/r1}, the API reads the rest of the
   * path); every segment is encoded, so {@code #} of a broadcast shard goes as {@code %23}.
   */
  static String trigger(String id) {
    return "/api/v1/triggers/"
        + Arrays.stream(id.split("/", -1))
            .map(s -> UriUtils.encodePathSegment(s, StandardCharsets.UTF_8))
            .collect(Collectors.joining("/"));
  }

  static String backfill(String id) {
    return "/api/v1/backfills/" + UriUtils.encodePathSegment(id, StandardCharsets.UTF_8);
  }

  static String workflow(String id) {
    return "/api/v1/workflows/" + UriUtils.encodePathSegment(id, StandardCharsets.UTF_8);
  }

  static String workflowRun(String runId) {
    return "/api/v1/workflow-runs/" + UriUtils.encodePathSegment(runId, StandardCharsets.UTF_8);
  }

  static String token(String id) {
    return "/api/v1/tokens/" + UriUtils.encodePathSegment(id, StandardCharsets.UTF_8);
  }

  static String query(String value) {
    return URLEncoder.encode(value == null ? "" : value, StandardCharsets.UTF_8);
  }
}

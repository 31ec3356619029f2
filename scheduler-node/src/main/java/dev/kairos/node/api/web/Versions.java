package dev.kairos.node.api.web;

import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import java.util.OptionalLong;

/**
 * Job versions as HTTP entity tags: a job at version 7 has {@code ETag: "7"}, and a write sends
 * {@code If-Match: "7"} to apply only to that version (weak tags and the bare number are accepted
 * too).
 */
public final class Versions {

  public static final String IF_MATCH = "If-Match";

  private Versions() {}

  public static String etag(long version) {
    return "\"" + version + "\"";
  }

  /** The version an If-Match header names; empty without the header. */
  public static OptionalLong ifMatch(String header) {
    if (header == null || header.isBlank()) {
      return OptionalLong.empty();
    }
    String tag = header.trim();
    if (tag.startsWith("W/")) {
      tag = tag.substring(2);
    }
    if (tag.length() >= 2 && tag.startsWith("\"") && tag.endsWith("\"")) {
      tag = tag.substring(1, tag.length() - 1);
    }
    try {
      long version = Long.parseLong(tag);
      if (version >= 1) {
        return OptionalLong.of(version);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw ApiProblemException.field(
        ProblemType.INVALID_FIELD,
        IF_MATCH,
        "must be the job's ETag, a quoted version such as \"3\", but was '"
            + (header.length() > 40 ? header.substring(0, 37) + "..." : header)
            + "'");
  }
}

package dev.kairos.node.api.web;

import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import java.util.OptionalLong;

/**
 * Job versions as HTTP entity tags: a job at version 7 has {@code ETag: "7"}, and a write sends
 * {@code If-Match: "7"} to apply only to that version (the bare number is accepted too). If-Match
 * compares strongly (RFC 9110 section 13.1.1): a weak tag such as {@code W/"7"} never matches, so
 * it is refused with 412 rather than taken for version 7.
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
      throw ApiProblemException.field(
          ProblemType.PRECONDITION_FAILED,
          IF_MATCH,
          "a weak entity tag never matches (If-Match compares strongly, RFC 9110 section 13.1.1);"
              + " send the ETag as the job's GET answered it, such as \"3\"");
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

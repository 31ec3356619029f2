package dev.kairos.node.api.web;

import dev.kairos.core.model.JobId;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;

/** Checks a job id taken from a path or list before it reaches Redis. */
public final class JobIds {

  private JobIds() {}

  public static String checked(String field, String id) {
    if (!JobId.isValid(id)) {
      String shown = id == null ? "null" : id.length() > 70 ? id.substring(0, 67) + "..." : id;
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD,
          field,
          "must be 1-"
              + JobId.MAX_LENGTH
              + " characters of [A-Za-z0-9_.-] but was '"
              + shown
              + "'");
    }
    return id;
  }
}

package dev.kairos.node.api.web;

import dev.kairos.core.model.JobId;
import dev.kairos.core.model.TriggerId;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;

/**
 * Checks a trigger id taken from a path before it reaches Redis: a valid job id, a colon, and at
 * most {@link #MAX_LENGTH} characters. The rest is not checked: manual, retry, child and broadcast
 * ids all extend the scheduled form (see {@link TriggerId}), and an id that matches no record is a
 * 404, not a 400.
 */
public final class TriggerIds {

  /** Longer than any id Kairos makes (job id 64 + fire ms + a child's parent id + suffixes). */
  public static final int MAX_LENGTH = 300;

  private TriggerIds() {}

  public static TriggerId checked(String field, String text) {
    int colon = text.indexOf(':');
    if (colon < 1 || !JobId.isValid(text.substring(0, colon)) || text.length() > MAX_LENGTH) {
      throw ApiProblemException.field(
          ProblemType.INVALID_FIELD,
          field,
          "must look like <jobId>:<fireMs>[...] (see docs/api.md) but was '"
              + (text.length() > 80 ? text.substring(0, 77) + "..." : text)
              + "'");
    }
    return new TriggerId(text);
  }
}

package dev.kairos.node.api.web;

import dev.kairos.core.model.JobId;
import dev.kairos.node.api.problem.ApiProblemException;
import dev.kairos.node.api.problem.ProblemType;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The opaque cursor of a list sorted by job id: where the next page starts (strictly after the job
 * it names). Encoded as URL-safe base64 without padding of {@code 1:<job id>}, so a client passes
 * it back as it came and the format can change with its version prefix.
 */
public final class ListCursor {

  private static final String VERSION = "1:";

  private ListCursor() {}

  /** The cursor that continues after job {@code jobId}; {@code null} for none. */
  public static String encode(String jobId) {
    if (jobId == null) {
      return null;
    }
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString((VERSION + jobId).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The job id a cursor continues after; {@code null} for an absent or empty cursor.
   *
   * @throws ApiProblemException {@code invalid-field} naming {@code field} when it is not a cursor
   *     this API gave
   */
  public static String decode(String field, String cursor) {
    if (cursor == null || cursor.isEmpty()) {
      return null;
    }
    String text;
    try {
      text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw invalid(field);
    }
    if (!text.startsWith(VERSION) || !JobId.isValid(text.substring(VERSION.length()))) {
      throw invalid(field);
    }
    return text.substring(VERSION.length());
  }

  private static ApiProblemException invalid(String field) {
    return ApiProblemException.field(
        ProblemType.INVALID_FIELD,
        field,
        "is not a cursor of this list: pass nextCursor from the previous page as it came");
  }
}

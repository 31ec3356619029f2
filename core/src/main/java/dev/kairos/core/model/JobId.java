package dev.kairos.core.model;

import java.util.regex.Pattern;

/**
 * The shape of a job id: 1–64 characters from {@code [A-Za-z0-9_.-]}. The id ends up in Redis keys,
 * trigger ids ({@code <jobId>:<fireMs>}) and MQ message keys, so it never contains a separator
 * ({@code : # / @ |}), a hash-tag brace or whitespace.
 */
public final class JobId {

  public static final int MAX_LENGTH = 64;
  private static final Pattern VALID = Pattern.compile("[A-Za-z0-9_.-]{1," + MAX_LENGTH + "}");

  private JobId() {}

  /**
   * 1–64 of {@code [A-Za-z0-9_.-]}, and not {@code .} or {@code ..}: those two are path segments (a
   * URL with them is normalised away), so a job with such an id could never be addressed.
   */
  public static boolean isValid(String id) {
    return id != null && VALID.matcher(id).matches() && !id.equals(".") && !id.equals("..");
  }
}

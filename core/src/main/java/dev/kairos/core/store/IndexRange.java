package dev.kairos.core.store;

import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.Range;
import io.lettuce.core.Range.Boundary;

/**
 * The part of a shard's job index a list reads, as one lex range: every job ({@link
 * RedisKeys#jobIds}), or one app's ({@link RedisKeys#appJobIds}, members {@code <app>:<id>}), and
 * within either only the ids that start with a prefix. Ids and app names are {@code
 * [A-Za-z0-9_.-]}, so a prefix's range ends before the prefix with its last character raised by
 * one, and {@code :} never occurs in an app name.
 *
 * @param app only this app's jobs; {@code null} for every app
 * @param idPrefix only ids starting with it (case-sensitive); {@code null} or empty for all
 */
public record IndexRange(String app, String idPrefix) {

  /** Every job. */
  public static final IndexRange ALL = new IndexRange(null, null);

  /** Separates app and id in a member of {@link RedisKeys#appJobIds}. */
  public static final char APP_SEPARATOR = ':';

  public IndexRange {
    if (app != null && (app.isEmpty() || app.indexOf(APP_SEPARATOR) >= 0)) {
      throw new IllegalArgumentException("app must be non-empty and have no ':' but was " + app);
    }
    if (idPrefix != null && idPrefix.isEmpty()) {
      idPrefix = null;
    }
  }

  /** One app's jobs. */
  public static IndexRange ofApp(String app) {
    return new IndexRange(app, null);
  }

  /** The member of {@link RedisKeys#appJobIds} for a job. */
  public static String appMember(String app, String jobId) {
    return app + APP_SEPARATOR + jobId;
  }

  /** True when this range is every job of the index, with no prefix. */
  public boolean isAll() {
    return app == null && idPrefix == null;
  }

  /** The index key this range reads in {@code shard}. */
  public String key(int shard) {
    return app == null ? RedisKeys.jobIds(shard) : RedisKeys.appJobIds(shard);
  }

  /** The members strictly after job {@code afterId} ({@code null}: the whole range). */
  public Range<String> after(String afterId) {
    String prefix = memberPrefix();
    Boundary<String> lower;
    if (afterId == null) {
      lower = prefix.isEmpty() ? Boundary.<String>unbounded() : Boundary.including(prefix);
    } else {
      String afterMember = (app == null ? "" : app + APP_SEPARATOR) + afterId;
      lower =
          afterMember.compareTo(prefix) < 0
              ? Boundary.including(prefix)
              : Boundary.excluding(afterMember);
    }
    Boundary<String> upper =
        prefix.isEmpty() ? Boundary.<String>unbounded() : Boundary.excluding(successor(prefix));
    return Range.from(lower, upper);
  }

  /** The job id of a member of this range's index. */
  public String idOf(String member) {
    return app == null ? member : member.substring(app.length() + 1);
  }

  /** Whether job {@code id} of app {@code jobApp} lies in this range. */
  public boolean contains(String jobApp, String id) {
    return (app == null || app.equals(jobApp)) && (idPrefix == null || id.startsWith(idPrefix));
  }

  private String memberPrefix() {
    return (app == null ? "" : app + APP_SEPARATOR) + (idPrefix == null ? "" : idPrefix);
  }

  /** The smallest string above every string that starts with {@code prefix}. */
  private static String successor(String prefix) {
    char last = prefix.charAt(prefix.length() - 1);
    return prefix.substring(0, prefix.length() - 1) + (char) (last + 1);
  }
}

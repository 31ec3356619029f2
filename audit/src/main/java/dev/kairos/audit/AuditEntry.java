package dev.kairos.audit;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One change made through the admin API: when (cluster time), who (the token's name and where the
 * token comes from: {@code config} or a runtime token's id), what, and on which app, job and
 * trigger. A job change carries the job's version and definition (the API's JSON of it) before and
 * after; a script job the SHA-256 of its script. Never a token secret.
 *
 * @param atMs cluster time of the change, epoch ms
 * @param actor the authenticated token's name ({@code ?} when the API runs without tokens)
 * @param actorSource {@code config} for a configured token, the token id for a runtime one
 * @param action what was done; its name is stored, so a newer node's action reads back as text
 * @param app the job's (or the app settings') app, or null
 * @param jobId the job, or null
 * @param triggerId the trigger triggered or cancelled, or null
 * @param versionBefore the job's version before the change, or null (created, or not a job)
 * @param versionAfter the job's version after the change, or null (deleted, or not a job)
 * @param jobBefore the job's definition before, as JSON, or null
 * @param jobAfter the job's definition after, as JSON, or null
 * @param scriptSha256 hex SHA-256 of a script job's script (after the change), or null
 * @param detail free text (the source of a copy, a token's role and owner, ...), or null
 */
public record AuditEntry(
    long atMs,
    String actor,
    String actorSource,
    String action,
    String app,
    String jobId,
    String triggerId,
    Long versionBefore,
    Long versionAfter,
    String jobBefore,
    String jobAfter,
    String scriptSha256,
    String detail) {

  static final String AT_MS = "atMs";
  static final String ACTOR = "actor";
  static final String ACTOR_SOURCE = "actorSource";
  static final String ACTION = "action";
  static final String APP = "app";
  static final String JOB_ID = "jobId";
  static final String TRIGGER_ID = "triggerId";
  static final String VERSION_BEFORE = "versionBefore";
  static final String VERSION_AFTER = "versionAfter";
  static final String JOB_BEFORE = "jobBefore";
  static final String JOB_AFTER = "jobAfter";
  static final String SCRIPT_SHA256 = "scriptSha256";
  static final String DETAIL = "detail";

  public AuditEntry {
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(actorSource, "actorSource");
    Objects.requireNonNull(action, "action");
  }

  /** The entry as stream fields; absent values are left out. */
  public Map<String, String> toFields() {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put(AT_MS, Long.toString(atMs));
    fields.put(ACTOR, actor);
    fields.put(ACTOR_SOURCE, actorSource);
    fields.put(ACTION, action);
    put(fields, APP, app);
    put(fields, JOB_ID, jobId);
    put(fields, TRIGGER_ID, triggerId);
    put(fields, VERSION_BEFORE, versionBefore == null ? null : versionBefore.toString());
    put(fields, VERSION_AFTER, versionAfter == null ? null : versionAfter.toString());
    put(fields, JOB_BEFORE, jobBefore);
    put(fields, JOB_AFTER, jobAfter);
    put(fields, SCRIPT_SHA256, scriptSha256);
    put(fields, DETAIL, detail);
    return fields;
  }

  /**
   * The entry a stream entry holds. Lenient, since the stream outlives versions: a missing time is
   * the entry id's, a missing actor or action reads {@code ?}, an unreadable version is absent.
   */
  public static AuditEntry fromFields(long entryMs, Map<String, String> fields) {
    return new AuditEntry(
        longOr(fields.get(AT_MS), entryMs),
        fields.getOrDefault(ACTOR, "?"),
        fields.getOrDefault(ACTOR_SOURCE, "?"),
        fields.getOrDefault(ACTION, "?"),
        fields.get(APP),
        fields.get(JOB_ID),
        fields.get(TRIGGER_ID),
        longOrNull(fields.get(VERSION_BEFORE)),
        longOrNull(fields.get(VERSION_AFTER)),
        fields.get(JOB_BEFORE),
        fields.get(JOB_AFTER),
        fields.get(SCRIPT_SHA256),
        fields.get(DETAIL));
  }

  private static void put(Map<String, String> fields, String name, String value) {
    if (value != null) {
      fields.put(name, value);
    }
  }

  private static long longOr(String value, long fallback) {
    Long parsed = longOrNull(value);
    return parsed == null ? fallback : parsed;
  }

  private static Long longOrNull(String value) {
    if (value == null) {
      return null;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}

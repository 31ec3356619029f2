package dev.kairos.core.model;

import dev.kairos.core.error.KairosException;
import dev.kairos.core.redis.JobFields;
import dev.kairos.core.schedule.CronDialect;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Converts a {@link JobDefinition} to and from its Redis hash ({@link JobFields} names, every value
 * a string). Booleans are {@code "true"}/{@code "false"}; enums their names; numbers decimal; the
 * retry backoff {@link RetryBackoff#encode()}; child job ids comma-separated (job ids never contain
 * a comma), absent in hashes written before child jobs existed and read as none; the cron dialect
 * likewise absent in older hashes and read as {@link CronDialect#DEFAULT}; description and owner
 * absent in older hashes read as "", and the alarm recipients (newline-separated: URLs and
 * addresses that pass validation contain no whitespace, while a URL may contain a comma) as none.
 * Calendar names are comma-separated like child job ids (the same charset), absent in older hashes
 * and read as none. The runtime fields {@code nextFireMs} and {@code lastFireMs} belong to the
 * store and scanner and are not part of the definition.
 */
public final class JobHash {

  private JobHash() {}

  public static Map<String, String> toHash(JobDefinition job) {
    Map<String, String> hash = new LinkedHashMap<>();
    hash.put(JobFields.ID, job.id());
    hash.put(JobFields.APP, job.app());
    hash.put(JobFields.HANDLER, job.handler());
    hash.put(JobFields.SCHEDULE_TYPE, job.scheduleType().name());
    hash.put(JobFields.SCHEDULE, job.scheduleSpec());
    hash.put(JobFields.ZONE, job.zone());
    hash.put(JobFields.CRON_DIALECT, job.cronDialect().name());
    hash.put(JobFields.PARAMS, job.params());
    hash.put(JobFields.ROUTING, job.routing().name());
    hash.put(JobFields.BLOCK, job.block().name());
    hash.put(JobFields.TIMEOUT_MS, Long.toString(job.timeoutMs()));
    hash.put(JobFields.RETRY_COUNT, Integer.toString(job.retryCount()));
    hash.put(JobFields.RETRY_BACKOFF, job.retryBackoff().encode());
    hash.put(JobFields.MISFIRE, job.misfireStrategy().name());
    hash.put(JobFields.MISFIRE_THRESHOLD_MS, Long.toString(job.misfireThresholdMs()));
    hash.put(JobFields.ENABLED, Boolean.toString(job.enabled()));
    hash.put(JobFields.SCHEDULE_VERSION, Long.toString(job.scheduleVersion()));
    hash.put(JobFields.VERSION, Long.toString(job.version()));
    hash.put(JobFields.CREATED_MS, Long.toString(job.createdMs()));
    hash.put(JobFields.UPDATED_MS, Long.toString(job.updatedMs()));
    hash.put(JobFields.CHILD_JOB_IDS, encodeChildren(job.childJobIds()));
    hash.put(JobFields.DESCRIPTION, job.description());
    hash.put(JobFields.OWNER, job.owner());
    hash.put(JobFields.ALARM_EMAILS, encodeLines(job.alarmEmails()));
    hash.put(JobFields.ALARM_WEBHOOKS, encodeLines(job.alarmWebhooks()));
    hash.put(JobFields.CALENDARS, encodeChildren(job.calendars()));
    hash.put(JobFields.LATENESS_OBJECTIVE, LatenessObjective.encode(job.latenessObjective()));
    return hash;
  }

  /**
   * Reads a job hash; extra fields (runtime ones, fields of a newer version) are ignored.
   *
   * @throws KairosException naming the job and field when a field is missing or malformed
   */
  public static JobDefinition fromHash(Map<String, String> hash) {
    String id = hash.get(JobFields.ID);
    if (id == null) {
      throw new KairosException("job hash has no '" + JobFields.ID + "' field: " + hash.keySet());
    }
    Reader r = new Reader(id, hash);
    return new JobDefinition(
        id,
        r.text(JobFields.APP),
        r.text(JobFields.HANDLER),
        r.enumValue(JobFields.SCHEDULE_TYPE, ScheduleType.class),
        r.text(JobFields.SCHEDULE),
        r.text(JobFields.ZONE),
        hash.containsKey(JobFields.CRON_DIALECT)
            ? r.enumValue(JobFields.CRON_DIALECT, CronDialect.class)
            : CronDialect.DEFAULT,
        r.text(JobFields.PARAMS),
        r.enumValue(JobFields.ROUTING, RoutingStrategy.class),
        r.enumValue(JobFields.BLOCK, BlockStrategy.class),
        r.number(JobFields.TIMEOUT_MS),
        (int) r.number(JobFields.RETRY_COUNT),
        r.backoff(),
        r.enumValue(JobFields.MISFIRE, MisfireStrategy.class),
        r.number(JobFields.MISFIRE_THRESHOLD_MS),
        r.bool(JobFields.ENABLED),
        r.number(JobFields.SCHEDULE_VERSION),
        r.number(JobFields.VERSION),
        r.number(JobFields.CREATED_MS),
        r.number(JobFields.UPDATED_MS),
        decodeChildren(hash.get(JobFields.CHILD_JOB_IDS)),
        hash.getOrDefault(JobFields.DESCRIPTION, ""),
        hash.getOrDefault(JobFields.OWNER, ""),
        decodeLines(hash.get(JobFields.ALARM_EMAILS)),
        decodeLines(hash.get(JobFields.ALARM_WEBHOOKS)),
        decodeChildren(hash.get(JobFields.CALENDARS)),
        r.objective());
  }

  /**
   * Reads the {@link JobScheduling} fields of a job hash (which may hold only those).
   *
   * @throws KairosException naming the job and field when a field is missing or malformed
   */
  static JobScheduling schedulingFromHash(Map<String, String> hash) {
    String id = hash.get(JobFields.ID);
    if (id == null) {
      throw new KairosException("job hash has no '" + JobFields.ID + "' field: " + hash.keySet());
    }
    Reader r = new Reader(id, hash);
    return new JobScheduling(
        id,
        r.enumValue(JobFields.SCHEDULE_TYPE, ScheduleType.class),
        r.text(JobFields.SCHEDULE),
        r.text(JobFields.ZONE),
        hash.containsKey(JobFields.CRON_DIALECT)
            ? r.enumValue(JobFields.CRON_DIALECT, CronDialect.class)
            : CronDialect.DEFAULT,
        r.enumValue(JobFields.MISFIRE, MisfireStrategy.class),
        r.number(JobFields.MISFIRE_THRESHOLD_MS),
        r.bool(JobFields.ENABLED),
        r.number(JobFields.SCHEDULE_VERSION),
        r.number(JobFields.CREATED_MS),
        decodeChildren(hash.get(JobFields.CALENDARS)));
  }

  /** The hash form of the alarm recipient lists: newline-separated, "" for none. */
  public static String encodeLines(List<String> values) {
    return String.join("\n", values);
  }

  /** Inverse of {@link #encodeLines}; null (a hash from before the field) reads as none. */
  public static List<String> decodeLines(String text) {
    if (text == null || text.isEmpty()) {
      return List.of();
    }
    return Arrays.asList(text.split("\n"));
  }

  /** The hash form of child job ids: comma-separated, "" for none. */
  public static String encodeChildren(List<String> childJobIds) {
    return String.join(",", childJobIds);
  }

  /** Inverse of {@link #encodeChildren}; null (a hash from before child jobs) reads as none. */
  public static List<String> decodeChildren(String text) {
    if (text == null || text.isEmpty()) {
      return List.of();
    }
    return Arrays.asList(text.split(","));
  }

  private record Reader(String id, Map<String, String> hash) {

    String text(String field) {
      String value = hash.get(field);
      if (value == null) {
        throw corrupt(field, "missing");
      }
      return value;
    }

    long number(String field) {
      String value = text(field);
      try {
        return Long.parseLong(value);
      } catch (NumberFormatException e) {
        throw corrupt(field, "not a number: " + value);
      }
    }

    boolean bool(String field) {
      String value = text(field);
      if (value.equals("true") || value.equals("false")) {
        return value.equals("true");
      }
      throw corrupt(field, "not true/false: " + value);
    }

    <E extends Enum<E>> E enumValue(String field, Class<E> type) {
      String value = text(field);
      try {
        return Enum.valueOf(type, value);
      } catch (IllegalArgumentException e) {
        throw corrupt(field, "not a " + type.getSimpleName() + ": " + value);
      }
    }

    RetryBackoff backoff() {
      try {
        return RetryBackoff.decode(text(JobFields.RETRY_BACKOFF));
      } catch (IllegalArgumentException e) {
        throw corrupt(JobFields.RETRY_BACKOFF, e.getMessage());
      }
    }

    Optional<LatenessObjective> objective() {
      try {
        return LatenessObjective.decode(hash.get(JobFields.LATENESS_OBJECTIVE));
      } catch (IllegalArgumentException e) {
        throw corrupt(JobFields.LATENESS_OBJECTIVE, e.getMessage());
      }
    }

    private KairosException corrupt(String field, String problem) {
      return new KairosException("job " + id + ": field '" + field + "' " + problem);
    }
  }
}

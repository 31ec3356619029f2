package dev.kairos.console.web;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The job form as the browser posts it: every field a string, named like the API's fields so the
 * API's field errors land next to the right input. Numbers are parsed here; one that is not a
 * number is reported by field without calling the API.
 *
 * @param enabled "true" when the checkbox is ticked, absent otherwise
 * @param childJobIds comma-separated job ids
 * @param alarmEmails addresses separated by commas, spaces or line breaks
 * @param alarmWebhooks URLs separated by line breaks or spaces (a URL may contain a comma)
 * @param calendars calendar names, comma-separated
 * @param objectiveThresholdMs the start-lateness objective's threshold; empty: no objective (then
 *     the percentile and window are not sent; empty percentile or window take the API's defaults)
 * @param version the version the edit started from (sent as If-Match); absent on create
 */
public record JobForm(
    String id,
    String app,
    String handler,
    String scheduleType,
    String schedule,
    String zone,
    String cronDialect,
    String params,
    String routing,
    String block,
    String timeoutMs,
    String retryCount,
    String misfire,
    String misfireThresholdMs,
    String enabled,
    String childJobIds,
    String description,
    String owner,
    String alarmEmails,
    String alarmWebhooks,
    String calendars,
    String objectivePercentile,
    String objectiveThresholdMs,
    String objectiveWindowMs,
    String version) {

  /** Fields of the API's job request; anything else in a stored job is not sent back. */
  static final Set<String> REQUEST_FIELDS =
      Set.of(
          "app",
          "handler",
          "scheduleType",
          "schedule",
          "zone",
          "cronDialect",
          "params",
          "routing",
          "block",
          "timeoutMs",
          "retryCount",
          "retryBackoff",
          "misfire",
          "misfireThresholdMs",
          "enabled",
          "childJobIds",
          "description",
          "owner",
          "alarmEmails",
          "alarmWebhooks",
          "calendars",
          "latenessObjective");

  /** A new job's form, with the defaults the API would apply. */
  static JobForm blank() {
    return new JobForm(
        "",
        "",
        "",
        "CRON",
        "",
        "UTC",
        "KAIROS",
        "",
        "",
        "SERIAL_EXECUTION",
        "0",
        "0",
        "DO_NOTHING",
        "5000",
        "true",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        null);
  }

  /** The form of a stored job (the API's job view). */
  static JobForm of(Map<String, Object> job) {
    Object children = job.get("childJobIds");
    String childIds =
        children instanceof List<?> l
            ? String.join(",", l.stream().map(String::valueOf).toList())
            : "";
    Map<?, ?> objective = job.get("latenessObjective") instanceof Map<?, ?> m ? m : Map.of();
    return new JobForm(
        text(job.get("id")),
        text(job.get("app")),
        text(job.get("handler")),
        text(job.get("scheduleType")),
        text(job.get("schedule")),
        text(job.get("zone")),
        text(job.get("cronDialect")),
        text(job.get("params")),
        text(job.get("routing")),
        text(job.get("block")),
        text(job.get("timeoutMs")),
        text(job.get("retryCount")),
        text(job.get("misfire")),
        text(job.get("misfireThresholdMs")),
        Boolean.TRUE.equals(job.get("enabled")) ? "true" : null,
        childIds,
        text(job.get("description")),
        text(job.get("owner")),
        lines(job.get("alarmEmails")),
        lines(job.get("alarmWebhooks")),
        job.get("calendars") instanceof List<?> c
            ? String.join(",", c.stream().map(String::valueOf).toList())
            : "",
        objective.isEmpty() ? "" : text(objective.get("percentile")),
        objective.isEmpty() ? "" : text(objective.get("thresholdMs")),
        objective.isEmpty() ? "" : text(objective.get("windowMs")),
        text(job.get("version")));
  }

  /** This form as a new job's: no id, no version. */
  JobForm asCopy() {
    return new JobForm(
        "",
        app,
        handler,
        scheduleType,
        schedule,
        zone,
        cronDialect,
        params,
        routing,
        block,
        timeoutMs,
        retryCount,
        misfire,
        misfireThresholdMs,
        enabled,
        childJobIds,
        description,
        owner,
        alarmEmails,
        alarmWebhooks,
        calendars,
        objectivePercentile,
        objectiveThresholdMs,
        objectiveWindowMs,
        null);
  }

  /**
   * The API request body: {@code stored}'s request fields (on an edit, so fields the form does not
   * show, such as the retry backoff, keep their values) overlaid with the form's. Numbers that do
   * not parse go into {@code errors} by field.
   */
  Map<String, Object> toRequest(Map<String, Object> stored, Map<String, String> errors) {
    Map<String, Object> body = new LinkedHashMap<>();
    stored.forEach(
        (k, v) -> {
          if (REQUEST_FIELDS.contains(k)) {
            body.put(k, v);
          }
        });
    body.put("app", trim(app));
    body.put("handler", trim(handler));
    body.put("scheduleType", trim(scheduleType));
    body.put("schedule", trim(schedule));
    body.put("zone", trim(zone).isEmpty() ? "UTC" : trim(zone));
    // Absent (a form from before dialects): an edit keeps the stored dialect, a create the default.
    if (!trim(cronDialect).isEmpty()) {
      body.put("cronDialect", trim(cronDialect));
    }
    body.put("params", params == null ? "" : params);
    if (trim(routing).isEmpty()) {
      // "The app's default": a create without routing takes the app's default routing.
      body.remove("routing");
    } else {
      body.put("routing", trim(routing));
    }
    body.put("block", trim(block));
    body.put("misfire", trim(misfire));
    body.put("timeoutMs", number("timeoutMs", timeoutMs, errors));
    body.put("retryCount", number("retryCount", retryCount, errors));
    body.put("misfireThresholdMs", number("misfireThresholdMs", misfireThresholdMs, errors));
    body.put("enabled", "true".equals(enabled));
    body.put(
        "childJobIds",
        Arrays.stream(trim(childJobIds).split(","))
            .map(String::trim)
            .filter(s -> !s.isEmpty())
            .toList());
    body.put("description", description == null ? "" : description.strip());
    body.put("owner", trim(owner));
    body.put("alarmEmails", split(alarmEmails, "[,\\s]+"));
    body.put("alarmWebhooks", split(alarmWebhooks, "\\s+"));
    body.put("calendars", names(calendars));
    if (trim(objectiveThresholdMs).isEmpty()) {
      body.remove("latenessObjective");
    } else {
      Map<String, Object> objective = new LinkedHashMap<>();
      objective.put("thresholdMs", number("latenessObjective", objectiveThresholdMs, errors));
      if (!trim(objectivePercentile).isEmpty()) {
        try {
          objective.put("percentile", Double.parseDouble(trim(objectivePercentile)));
        } catch (NumberFormatException e) {
          errors.put(
              "latenessObjective",
              "percentile must be a number, was '" + trim(objectivePercentile) + "'");
        }
      }
      if (!trim(objectiveWindowMs).isEmpty()) {
        objective.put("windowMs", number("latenessObjective", objectiveWindowMs, errors));
      }
      body.put("latenessObjective", objective);
    }
    return body;
  }

  /** Comma-separated names as a list, blanks dropped. */
  static List<String> names(String text) {
    return Arrays.stream(trim(text).split(","))
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .toList();
  }

  /** The body of a create: the request with the id. */
  Map<String, Object> toCreateRequest(Map<String, String> errors) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", trim(id));
    body.putAll(toRequest(Map.of(), errors));
    return body;
  }

  long versionOr(long fallback) {
    try {
      return Long.parseLong(trim(version));
    } catch (NumberFormatException e) {
      return fallback;
    }
  }

  private static Long number(String field, String value, Map<String, String> errors) {
    String v = trim(value);
    if (v.isEmpty()) {
      return 0L;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      errors.put(field, "must be a whole number, was '" + v + "'");
      return null;
    }
  }

  private static List<String> split(String text, String separators) {
    return Arrays.stream(trim(text).split(separators)).filter(s -> !s.isEmpty()).toList();
  }

  /** A list of the job view as one item per line, as the form's text areas show it. */
  private static String lines(Object list) {
    return list instanceof List<?> l
        ? String.join("\n", l.stream().map(String::valueOf).toList())
        : "";
  }

  private static String trim(String s) {
    return s == null ? "" : s.trim();
  }

  private static String text(Object o) {
    return o == null ? "" : String.valueOf(o);
  }
}

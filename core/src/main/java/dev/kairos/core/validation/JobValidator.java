package dev.kairos.core.validation;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.JobId;
import dev.kairos.core.model.LatenessObjective;
import dev.kairos.core.model.RetryBackoff;
import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.redis.JobFields;
import dev.kairos.core.schedule.InvalidScheduleException;
import dev.kairos.core.schedule.Schedule;
import dev.kairos.core.schedule.Schedules;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a job definition before anything is written and reports every problem at once.
 *
 * <ul>
 *   <li>id: {@link JobId} (1–64 of {@code [A-Za-z0-9_.-]})
 *   <li>app: 1–64 of {@code [A-Za-z0-9_.-]} (it becomes a Redis hash tag and part of MQ topic
 *       names, so no braces, separators or spaces)
 *   <li>handler: 1–128 of {@code [A-Za-z0-9_.$-]} (method or bean names such as {@code
 *       com.acme.Report$Daily})
 *   <li>schedule and zone: parse (cron syntax of the job's cron dialect, positive intervals, known
 *       IANA zone)
 *   <li>params: at most {@link JobDefinition#MAX_PARAMS_BYTES} UTF-8 bytes
 *   <li>timeoutMs ≥ 0 (0 = none); retryCount 0..{@link JobDefinition#MAX_RETRY_COUNT}; retry
 *       backoff delays ≥ 0 with max ≥ initial and jitter in [0, 1]
 *   <li>childJobIds: at most {@link JobDefinition#MAX_CHILD_JOBS} valid job ids, no duplicates, not
 *       the job itself (cycles through other jobs need the stored jobs: the store checks them)
 *   <li>description: at most {@link JobDefinition#MAX_DESCRIPTION_LENGTH} characters; owner: at
 *       most {@link JobDefinition#MAX_OWNER_LENGTH} characters, no control characters
 *   <li>alarmEmails: at most {@link JobDefinition#MAX_ALARM_EMAILS} addresses of the form {@code
 *       local@domain.tld} (no display names, no whitespace), no duplicates; alarmWebhooks: at most
 *       {@link JobDefinition#MAX_ALARM_WEBHOOKS} absolute http or https URLs with a host, at most
 *       {@link #MAX_URL_LENGTH} characters, no duplicates
 *   <li>calendars: at most {@link JobDefinition#MAX_CALENDARS} valid calendar names (the job id
 *       charset), no duplicates (whether they exist needs the stored calendars: the API checks it)
 *   <li>misfireThresholdMs ≥ {@link JobDefinition#MIN_MISFIRE_THRESHOLD_MS}, the pre-read window: a
 *       smaller threshold would call the scanner's own look-ahead a misfire
 *   <li>latenessObjective: only on a scheduled job; percentile in (0, 100), thresholdMs 1 ms to 7
 *       days, windowMs 1 min to 7 days
 * </ul>
 *
 * Naming an app or handler that has no live executor is not a problem here: executors deploy
 * independently and such fires end as NO_EXECUTOR.
 */
public final class JobValidator {

  private static final Pattern APP = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final Pattern HANDLER = Pattern.compile("[A-Za-z0-9_.$-]{1,128}");

  /**
   * What a mail server accepts in practice (RFC 5321's dot-atom local part, a dotted host name):
   * stricter than RFC 5322, which would allow quoted local parts, comments and display names that
   * no alarm recipient needs.
   */
  private static final Pattern EMAIL =
      Pattern.compile(
          "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
              + "@[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
              + "(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+");

  /** RFC 5321's bound of a forward path. */
  public static final int MAX_EMAIL_LENGTH = 254;

  public static final int MAX_URL_LENGTH = 2000;

  public List<ValidationProblem> validate(JobDefinition job) {
    List<ValidationProblem> problems = new ArrayList<>();
    if (!JobId.isValid(job.id())) {
      problems.add(
          new ValidationProblem(
              JobFields.ID,
              "must be 1-"
                  + JobId.MAX_LENGTH
                  + " characters of [A-Za-z0-9_.-], not '.' or '..', but was '"
                  + abbreviate(job.id())
                  + "'"));
    }
    if (!APP.matcher(job.app()).matches()) {
      problems.add(
          new ValidationProblem(
              JobFields.APP,
              job.app().isEmpty()
                  ? "must not be empty"
                  : "must be 1-64 characters of [A-Za-z0-9_.-] but was '"
                      + abbreviate(job.app())
                      + "'"));
    }
    if (!HANDLER.matcher(job.handler()).matches()) {
      problems.add(
          new ValidationProblem(
              JobFields.HANDLER,
              job.handler().isEmpty()
                  ? "must not be empty"
                  : "must be 1-128 characters of [A-Za-z0-9_.$-] but was '"
                      + abbreviate(job.handler())
                      + "'"));
    }
    ZoneId zone = ZoneOffset.UTC;
    try {
      zone = Schedules.zone(job.zone());
    } catch (InvalidScheduleException e) {
      problems.add(new ValidationProblem(JobFields.ZONE, e.getMessage()));
    }
    try {
      // With an unknown zone the spec is still checked (in UTC) so both problems are reported.
      Schedule schedule =
          Schedules.parse(
              job.scheduleType(), job.scheduleSpec(), zone, job.cronDialect(), job.createdMs());
      // A cron must fire after the job is saved: its creation, or this update.
      ScheduleBounds.problem(schedule, Math.max(job.createdMs(), job.updatedMs()))
          .ifPresent(p -> problems.add(new ValidationProblem(JobFields.SCHEDULE, p)));
    } catch (InvalidScheduleException e) {
      problems.add(new ValidationProblem(JobFields.SCHEDULE, e.getMessage()));
    }
    int paramBytes = job.params().getBytes(StandardCharsets.UTF_8).length;
    if (paramBytes > JobDefinition.MAX_PARAMS_BYTES) {
      problems.add(
          new ValidationProblem(
              JobFields.PARAMS,
              "is "
                  + paramBytes
                  + " bytes; at most "
                  + JobDefinition.MAX_PARAMS_BYTES
                  + " (64 KiB) are allowed"));
    }
    if (job.timeoutMs() < 0 || job.timeoutMs() > JobDefinition.MAX_DURATION_MS) {
      problems.add(
          new ValidationProblem(
              JobFields.TIMEOUT_MS,
              "must be in 0.."
                  + JobDefinition.MAX_DURATION_MS
                  + " ms (0 = no timeout, at most 7 days) but was "
                  + job.timeoutMs()));
    }
    if (job.retryCount() < 0 || job.retryCount() > JobDefinition.MAX_RETRY_COUNT) {
      problems.add(
          new ValidationProblem(
              JobFields.RETRY_COUNT,
              "must be in 0.." + JobDefinition.MAX_RETRY_COUNT + " but was " + job.retryCount()));
    }
    backoffProblem(job.retryBackoff())
        .ifPresent(p -> problems.add(new ValidationProblem(JobFields.RETRY_BACKOFF, p)));
    if (job.misfireThresholdMs() > JobDefinition.MAX_DURATION_MS) {
      problems.add(
          new ValidationProblem(
              JobFields.MISFIRE_THRESHOLD_MS,
              "must be at most "
                  + JobDefinition.MAX_DURATION_MS
                  + " ms (7 days) but was "
                  + job.misfireThresholdMs()));
    }
    if (job.misfireThresholdMs() < JobDefinition.MIN_MISFIRE_THRESHOLD_MS) {
      problems.add(
          new ValidationProblem(
              JobFields.MISFIRE_THRESHOLD_MS,
              "must be >= "
                  + JobDefinition.MIN_MISFIRE_THRESHOLD_MS
                  + " ms (the scanner's pre-read window) but was "
                  + job.misfireThresholdMs()));
    }
    childProblem(job)
        .ifPresent(p -> problems.add(new ValidationProblem(JobFields.CHILD_JOB_IDS, p)));
    int descriptionLength = job.description().codePointCount(0, job.description().length());
    if (descriptionLength > JobDefinition.MAX_DESCRIPTION_LENGTH) {
      problems.add(
          new ValidationProblem(
              JobFields.DESCRIPTION,
              "is "
                  + descriptionLength
                  + " characters; at most "
                  + JobDefinition.MAX_DESCRIPTION_LENGTH
                  + " are allowed"));
    }
    int ownerLength = job.owner().codePointCount(0, job.owner().length());
    if (ownerLength > JobDefinition.MAX_OWNER_LENGTH) {
      problems.add(
          new ValidationProblem(
              JobFields.OWNER,
              "is "
                  + ownerLength
                  + " characters; at most "
                  + JobDefinition.MAX_OWNER_LENGTH
                  + " are allowed"));
    } else if (job.owner().codePoints().anyMatch(Character::isISOControl)) {
      problems.add(
          new ValidationProblem(JobFields.OWNER, "must be one line without control characters"));
    }
    emailProblem(job.alarmEmails())
        .ifPresent(p -> problems.add(new ValidationProblem(JobFields.ALARM_EMAILS, p)));
    webhookProblem(job.alarmWebhooks())
        .ifPresent(p -> problems.add(new ValidationProblem(JobFields.ALARM_WEBHOOKS, p)));
    calendarProblem(job.calendars())
        .ifPresent(p -> problems.add(new ValidationProblem(JobFields.CALENDARS, p)));
    job.latenessObjective()
        .flatMap(o -> objectiveProblem(o, job.scheduleType()))
        .ifPresent(p -> problems.add(new ValidationProblem(JobFields.LATENESS_OBJECTIVE, p)));
    return List.copyOf(problems);
  }

  private static Optional<String> calendarProblem(List<String> calendars) {
    if (calendars.size() > JobDefinition.MAX_CALENDARS) {
      return Optional.of(
          "has "
              + calendars.size()
              + " names; at most "
              + JobDefinition.MAX_CALENDARS
              + " are allowed");
    }
    Set<String> seen = new HashSet<>();
    for (String name : calendars) {
      if (!JobId.isValid(name)) {
        return Optional.of(
            "'" + abbreviate(String.valueOf(name)) + "' is not a valid calendar name");
      }
      if (!seen.add(name)) {
        return Optional.of("calendar '" + name + "' is listed twice");
      }
    }
    return Optional.empty();
  }

  /** Whether {@code address} is an alarm email address this validator accepts. */
  public static boolean isValidEmail(String address) {
    return address != null
        && address.length() <= MAX_EMAIL_LENGTH
        && EMAIL.matcher(address).matches();
  }

  private static Optional<String> emailProblem(List<String> emails) {
    if (emails.size() > JobDefinition.MAX_ALARM_EMAILS) {
      return Optional.of(
          "has "
              + emails.size()
              + " addresses; at most "
              + JobDefinition.MAX_ALARM_EMAILS
              + " are allowed");
    }
    Set<String> seen = new HashSet<>();
    for (String email : emails) {
      if (!isValidEmail(email)) {
        return Optional.of(
            "'"
                + abbreviate(String.valueOf(email))
                + "' is not an email address (name@example.com, no display name)");
      }
      if (!seen.add(email.toLowerCase(java.util.Locale.ROOT))) {
        return Optional.of("'" + email + "' is listed twice");
      }
    }
    return Optional.empty();
  }

  /**
   * Why {@code url} is not an alarm webhook URL, or empty when it is one: absolute http or https,
   * with a host, at most {@link #MAX_URL_LENGTH} characters. Only the scheme and host are echoed:
   * the path or query of a webhook URL often carries a token.
   */
  public static Optional<String> webhookUrlProblem(String url) {
    if (url == null || url.isEmpty()) {
      return Optional.of("an empty URL is not a webhook");
    }
    if (url.length() > MAX_URL_LENGTH) {
      return Optional.of(
          "a URL of " + url.length() + " characters is too long; at most " + MAX_URL_LENGTH);
    }
    java.net.URI uri;
    try {
      uri = new java.net.URI(url);
    } catch (java.net.URISyntaxException e) {
      return Optional.of("'" + abbreviate(url) + "' is not a URL: " + e.getReason());
    }
    String scheme = uri.getScheme();
    if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
      return Optional.of(
          "a webhook URL must be http or https, not " + (scheme == null ? "relative" : scheme));
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      return Optional.of("a " + scheme + " URL needs a host");
    }
    return Optional.empty();
  }

  private static Optional<String> webhookProblem(List<String> urls) {
    if (urls.size() > JobDefinition.MAX_ALARM_WEBHOOKS) {
      return Optional.of(
          "has "
              + urls.size()
              + " URLs; at most "
              + JobDefinition.MAX_ALARM_WEBHOOKS
              + " are allowed");
    }
    Set<String> seen = new HashSet<>();
    for (String url : urls) {
      Optional<String> problem = webhookUrlProblem(url);
      if (problem.isPresent()) {
        return problem;
      }
      if (!seen.add(url)) {
        return Optional.of("a URL is listed twice");
      }
    }
    return Optional.empty();
  }

  private static Optional<String> childProblem(JobDefinition job) {
    List<String> children = job.childJobIds();
    if (children.size() > JobDefinition.MAX_CHILD_JOBS) {
      return Optional.of(
          "has "
              + children.size()
              + " ids; at most "
              + JobDefinition.MAX_CHILD_JOBS
              + " are allowed");
    }
    Set<String> seen = new HashSet<>();
    for (String child : children) {
      if (!JobId.isValid(child)) {
        return Optional.of("'" + abbreviate(String.valueOf(child)) + "' is not a valid job id");
      }
      if (child.equals(job.id())) {
        return Optional.of("a job cannot be its own child");
      }
      if (!seen.add(child)) {
        return Optional.of("'" + child + "' is listed twice");
      }
    }
    return Optional.empty();
  }

  /**
   * @throws JobValidationException with every problem when there is at least one
   */
  public void check(JobDefinition job) {
    List<ValidationProblem> problems = validate(job);
    if (!problems.isEmpty()) {
      throw new JobValidationException(job.id(), problems);
    }
  }

  private static Optional<String> backoffProblem(RetryBackoff b) {
    if (b.initialDelayMs() < 0) {
      return Optional.of("initial delay must be >= 0 but was " + b.initialDelayMs());
    }
    if (b.maxDelayMs() > JobDefinition.MAX_DURATION_MS) {
      return Optional.of(
          "max delay must be at most "
              + JobDefinition.MAX_DURATION_MS
              + " ms (7 days) but was "
              + b.maxDelayMs());
    }
    if (b.maxDelayMs() < b.initialDelayMs()) {
      return Optional.of(
          "max delay " + b.maxDelayMs() + " is below the initial delay " + b.initialDelayMs());
    }
    if (!(b.jitter() >= 0.0 && b.jitter() <= 1.0)) {
      return Optional.of("jitter must be in [0, 1] but was " + b.jitter());
    }
    return Optional.empty();
  }

  private static Optional<String> objectiveProblem(LatenessObjective o, ScheduleType type) {
    if (type == ScheduleType.API) {
      return Optional.of(
          "an API job has no scheduled fires to measure; set an objective on a scheduled job");
    }
    if (!(o.percentile() > 0.0 && o.percentile() < 100.0)) {
      return Optional.of("percentile must be in (0, 100) but was " + o.percentile());
    }
    if (o.thresholdMs() < 1 || o.thresholdMs() > JobDefinition.MAX_DURATION_MS) {
      return Optional.of(
          "thresholdMs must be in 1.."
              + JobDefinition.MAX_DURATION_MS
              + " (7 days) but was "
              + o.thresholdMs());
    }
    if (o.windowMs() < LatenessObjective.MIN_WINDOW_MS
        || o.windowMs() > JobDefinition.MAX_DURATION_MS) {
      return Optional.of(
          "windowMs must be in "
              + LatenessObjective.MIN_WINDOW_MS
              + ".."
              + JobDefinition.MAX_DURATION_MS
              + " (1 min to 7 days) but was "
              + o.windowMs());
    }
    return Optional.empty();
  }

  /** Keeps error messages bounded when someone submits a megabyte of junk as an id. */
  static String abbreviate(String text) {
    return text.length() <= 80 ? text : text.substring(0, 77) + "...";
  }
}

package dev.kairos.node.api.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.audit.AuditAction;
import dev.kairos.audit.AuditEntry;
import dev.kairos.audit.AuditStream;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.time.KairosClock;
import dev.kairos.node.api.job.JobRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Records each change made through the API, once it has succeeded: a log line of the logger {@code
 * dev.kairos.node.api.audit} (with MDC {@code jobId} and {@code triggerId}) and a durable entry in
 * the audit stream ({@link AuditStream}; PostgreSQL gets it from there). A job change carries the
 * job's definition before and after as the API shows it to an ADMIN, and a script job the SHA-256
 * of its script. Neither ever fails the request: the change has been made.
 */
public final class AuditTrail {

  /** The handler whose {@code script} param is hashed into the entry. */
  static final String SCRIPT_HANDLER = "kairos.script";

  private static final Logger log = LoggerFactory.getLogger("dev.kairos.node.api.audit");

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One job's change.
   *
   * @param before the job before the change; null for a creation (or when it was not read)
   * @param after the job after it; null for a deletion
   */
  public record JobChange(String jobId, JobDefinition before, JobDefinition after) {}

  private final AuditStream stream;
  private final KairosClock clock;

  /**
   * @param stream where entries go; null when the durable trail is off ({@code
   *     kairos.audit.enabled=false}): log lines only
   */
  public AuditTrail(AuditStream stream, KairosClock clock) {
    this.stream = stream;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** A change to one job; {@code detail} is free text for the log line and the entry. */
  public void job(AuditAction action, JobDefinition before, JobDefinition after, String detail) {
    jobs(
        action,
        List.of(new JobChange(after != null ? after.id() : before.id(), before, after)),
        detail);
  }

  /** The same change to several jobs (a batch, an import): one entry per job, one round trip. */
  public void jobs(AuditAction action, List<JobChange> changes, String detail) {
    if (changes.isEmpty()) {
      return;
    }
    Actor actor = Actor.current();
    long now = clock.nowMs();
    List<AuditEntry> entries = new ArrayList<>(changes.size());
    for (JobChange change : changes) {
      JobDefinition before = change.before();
      JobDefinition after = change.after();
      JobDefinition last = after != null ? after : before;
      try (MDC.MDCCloseable ignored = MDC.putCloseable("jobId", change.jobId())) {
        log.info(
            "job {} {} by token {}{}{}",
            change.jobId(),
            action,
            actor.name(),
            versions(before, after),
            detail == null || detail.isEmpty() ? "" : ": " + detail);
      }
      entries.add(
          new AuditEntry(
              now,
              actor.name(),
              actor.source(),
              action.name(),
              last == null ? null : last.app(),
              change.jobId(),
              null,
              before == null ? null : before.version(),
              after == null ? null : after.version(),
              definition(before),
              definition(after),
              last == null ? null : scriptSha256(last),
              detail));
    }
    append(entries);
  }

  /** A change to one trigger (triggered now, cancelled). */
  public void trigger(
      AuditAction action, String app, String jobId, String triggerId, String detail) {
    Actor actor = Actor.current();
    try (MDC.MDCCloseable job = MDC.putCloseable("jobId", jobId);
        MDC.MDCCloseable trigger = MDC.putCloseable("triggerId", triggerId)) {
      log.info(
          "trigger {} {} by token {}{}",
          triggerId,
          action,
          actor.name(),
          detail == null || detail.isEmpty() ? "" : ": " + detail);
    }
    append(List.of(plain(actor, action, app, jobId, triggerId, detail)));
  }

  /** An action on one job that changes no definition (a backfill started or cancelled). */
  public void jobAction(AuditAction action, String app, String jobId, String detail) {
    Actor actor = Actor.current();
    try (MDC.MDCCloseable job = MDC.putCloseable("jobId", jobId)) {
      log.info(
          "job {} {} by token {}{}",
          jobId,
          action,
          actor.name(),
          detail == null || detail.isEmpty() ? "" : ": " + detail);
    }
    append(List.of(plain(actor, action, app, jobId, null, detail)));
  }

  /** A change to no job: the cluster's pause, app settings ({@code app}), a token, a rebuild. */
  public void action(AuditAction action, String app, String detail) {
    Actor actor = Actor.current();
    log.info(
        "{} by token {}{}",
        action,
        actor.name(),
        detail == null || detail.isEmpty() ? "" : ": " + detail);
    append(List.of(plain(actor, action, app, null, null, detail)));
  }

  /** An entry without job versions or definitions. */
  private AuditEntry plain(
      Actor actor, AuditAction action, String app, String jobId, String triggerId, String detail) {
    return new AuditEntry(
        clock.nowMs(),
        actor.name(),
        actor.source(),
        action.name(),
        app,
        jobId,
        triggerId,
        null,
        null,
        null,
        null,
        null,
        detail);
  }

  private void append(List<AuditEntry> entries) {
    if (stream != null) {
      stream.appendAll(entries);
    }
  }

  private static String versions(JobDefinition before, JobDefinition after) {
    if (before != null && after != null) {
      return ", version " + before.version() + " -> " + after.version();
    }
    if (after != null) {
      return ", version " + after.version();
    }
    return "";
  }

  /**
   * The job as stored (secret params sealed when the cluster has a params key), in the API's JSON;
   * null for no job.
   */
  private static String definition(JobDefinition job) {
    if (job == null) {
      return null;
    }
    try {
      return JSON.writeValueAsString(JobRequest.of(job));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("job " + job.id() + " cannot be written as JSON", e);
    }
  }

  /**
   * The hex SHA-256 of a script job's script: the {@code script} field of its params, or the params
   * whole when they are not such an object; null for every other handler.
   */
  static String scriptSha256(JobDefinition job) {
    if (!SCRIPT_HANDLER.equals(job.handler()) || job.params() == null) {
      return null;
    }
    String script = job.params();
    try {
      JsonNode root = JSON.readTree(job.params());
      if (root != null && root.path("script").isTextual()) {
        script = root.path("script").asText();
      }
    } catch (JsonProcessingException e) {
      // not JSON: the params are the script as far as the audit is concerned
    }
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(script.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}

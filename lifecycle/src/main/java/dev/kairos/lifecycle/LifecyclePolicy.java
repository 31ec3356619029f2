package dev.kairos.lifecycle;

import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmKind;
import dev.kairos.core.alarm.AlarmRecipients;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.ScheduleType;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.model.TriggerKind;
import dev.kairos.core.model.TriggerState;
import dev.kairos.protocol.adhoc.AdhocRequest;
import dev.kairos.protocol.record.TriggerFields;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.DoubleSupplier;

/**
 * Decides what a trigger's final state leads to; pure, so every rule is unit-tested.
 *
 * <ul>
 *   <li><b>Retry</b> after NO_EXECUTOR, FAIL, TIMEOUT, LOST or EXPIRED (never DISCARDED, CANCELLED
 *       or DROPPED_STALE) while {@code attempt ≤ retryCount}: retry {@code n = attempt} of the
 *       chain, id {@code <root>/r<n>}, attempt {@code n + 1}, due at the end time (or now) + the
 *       job's back-off for retry n, linked to the attempt that failed, with the same params
 *       override, depth and schedule version.
 *   <li><b>Alarm</b> ({@link AlarmKind#TRIGGER_FAILED}) when such a failure has no retry left.
 *   <li><b>Children</b> after SUCCESS: one CHILD trigger per child job, id {@code
 *       TriggerId.child(childJobId)}, due now, depth + 1; a chain deeper than {@code maxChildDepth}
 *       stops (the bound on cycles formed by concurrent saves).
 *   <li><b>FIXED_DELAY re-arm</b> when the chain ends (any final state with no retry following) for
 *       a trigger of a scheduled fire: at end time + delay after a run, now + delay otherwise.
 * </ul>
 */
final class LifecyclePolicy {

  static final Set<TriggerState> RETRYABLE =
      EnumSet.of(
          TriggerState.NO_EXECUTOR,
          TriggerState.FAIL,
          TriggerState.TIMEOUT,
          TriggerState.LOST,
          TriggerState.EXPIRED);

  private final int maxChildDepth;
  private final DoubleSupplier random;

  /**
   * @param maxChildDepth child triggers deeper than this are not created
   * @param random uniform values in [0, 1) for the back-off jitter
   */
  LifecyclePolicy(int maxChildDepth, DoubleSupplier random) {
    if (maxChildDepth < 1) {
      throw new IllegalArgumentException("maxChildDepth must be >= 1 but was " + maxChildDepth);
    }
    this.maxChildDepth = maxChildDepth;
    this.random = random;
  }

  int maxChildDepth() {
    return maxChildDepth;
  }

  /**
   * @param record the trigger's Redis record (empty when it expired: the id then gives the attempt)
   * @param job the job as stored now, empty when it was deleted (then nothing follows)
   * @param nowMs cluster time
   */
  Reaction decide(
      FinalEvent event, Map<String, String> record, Optional<JobDefinition> job, long nowMs) {
    if (job.isEmpty() || event.state() == TriggerState.SKIPPED) {
      // SKIPPED: a calendar excluded the fire; it did not run, so nothing follows it.
      return Reaction.NONE;
    }
    JobDefinition j = job.get();
    TriggerId id = event.triggerId();
    int attempt = number(record, TriggerFields.ATTEMPT).orElse(id.retryNumber() + 1L).intValue();
    int depth = number(record, TriggerFields.DEPTH).orElse(0L).intValue();
    OptionalLong scheduleVersion = scheduleVersion(record);
    Optional<String> params = Optional.ofNullable(record.get(TriggerFields.PARAMS));
    Optional<Long> endedMs = event.endedMs().or(() -> number(record, TriggerFields.ENDED_MS));
    boolean ran = record.containsKey(TriggerFields.STARTED_MS);

    Optional<AdhocRequest> retry = Optional.empty();
    Optional<Alarm> alarm = Optional.empty();
    List<AdhocRequest> children = new ArrayList<>();
    int skipped = 0;
    if (RETRYABLE.contains(event.state())) {
      if (attempt <= j.retryCount()) {
        long delay = j.retryBackoff().delayBeforeAttempt(attempt, random);
        retry =
            Optional.of(
                new AdhocRequest(
                    id.retry(attempt),
                    TriggerKind.RETRY,
                    endedMs.orElse(nowMs) + delay,
                    attempt + 1,
                    params,
                    Optional.of(id),
                    depth,
                    scheduleVersion));
      } else {
        alarm = Optional.of(failed(event, record, attempt, j, nowMs));
      }
    } else if (event.state() == TriggerState.SUCCESS) {
      for (String child : j.childJobIds()) {
        if (depth + 1 > maxChildDepth) {
          skipped++;
          continue;
        }
        children.add(
            new AdhocRequest(
                id.child(child),
                TriggerKind.CHILD,
                nowMs,
                1,
                Optional.empty(),
                Optional.of(id),
                depth + 1,
                OptionalLong.empty()));
      }
    }
    Optional<Reaction.Rearm> rearm = Optional.empty();
    if (retry.isEmpty()
        && j.scheduleType() == ScheduleType.FIXED_DELAY
        && scheduleVersion.isPresent()) {
      long delay = Long.parseLong(j.scheduleSpec());
      long from = ran && endedMs.isPresent() ? endedMs.get() : nowMs;
      rearm =
          Optional.of(
              new Reaction.Rearm(
                  j.id(), scheduleVersion.getAsLong(), id.root().fireMs(), from + delay));
    }
    return new Reaction(retry, children, rearm, alarm, skipped);
  }

  /**
   * The schedule version of a chain that started from a scheduled fire (its record carries the
   * claim's version; a retry inherits it). Manual and child triggers have none: they never park the
   * job, so their end never re-arms it.
   */
  private static OptionalLong scheduleVersion(Map<String, String> record) {
    String kind = record.get(TriggerFields.KIND);
    boolean scheduledChain =
        kind == null
            || kind.equals(TriggerKind.SCHEDULED.name())
            || kind.equals(TriggerKind.RETRY.name());
    Optional<Long> version = number(record, TriggerFields.SCHEDULE_VERSION);
    return scheduledChain && version.isPresent()
        ? OptionalLong.of(version.get())
        : OptionalLong.empty();
  }

  private static Alarm failed(
      FinalEvent event, Map<String, String> record, int attempt, JobDefinition job, long nowMs) {
    Map<String, String> details = new LinkedHashMap<>();
    details.put("jobId", job.id());
    details.put("triggerId", event.triggerId().value());
    details.put("state", event.state().name());
    details.put("attempt", Integer.toString(attempt));
    details.put("retryCount", Integer.toString(job.retryCount()));
    String message = record.get(TriggerFields.MESSAGE);
    if (message != null && !message.isEmpty()) {
      details.put("message", message.length() > 500 ? message.substring(0, 500) : message);
    }
    return new Alarm(
        AlarmKind.TRIGGER_FAILED,
        job.id(),
        "job "
            + job.id()
            + " failed: trigger "
            + event.triggerId()
            + " ended "
            + event.state()
            + " after attempt "
            + attempt
            + " of "
            + (job.retryCount() + 1),
        details,
        nowMs,
        new AlarmRecipients(job.alarmEmails(), job.alarmWebhooks()));
  }

  private static Optional<Long> number(Map<String, String> record, String field) {
    String value = record.get(field);
    if (value == null || value.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Long.parseLong(value));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}

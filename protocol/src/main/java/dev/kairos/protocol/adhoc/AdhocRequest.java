package dev.kairos.protocol.adhoc;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.model.TriggerKind;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One ad-hoc trigger to submit through {@link AdhocTriggers}.
 *
 * @param triggerId the trigger's id; submitting the same id twice is harmless
 * @param kind MANUAL, RETRY or CHILD (never SCHEDULED: those come from the due ZSET)
 * @param dueMs when it should fire, epoch ms on cluster time (in the past: at once)
 * @param attempt 1, or n + 1 for retry n
 * @param paramsOverride parameters handed to the handler instead of the job's, if present
 * @param parentTriggerId the previous attempt (RETRY) or the parent's trigger (CHILD)
 * @param depth child chain depth: 0 for manual triggers, parent's + 1 for a child
 * @param scheduleVersion for a retry of a scheduled fire, the version the fire was claimed under:
 *     the end of the chain re-arms a parked FIXED_DELAY job only while it still has that version
 * @param targetSlot the executor slot this trigger must go to (a "trigger now" on a chosen slot),
 *     or empty to route it by the job's strategy; at most {@link #MAX_SLOT}
 */
public record AdhocRequest(
    TriggerId triggerId,
    TriggerKind kind,
    long dueMs,
    int attempt,
    Optional<String> paramsOverride,
    Optional<TriggerId> parentTriggerId,
    int depth,
    OptionalLong scheduleVersion,
    OptionalInt targetSlot) {

  /**
   * The highest slot a trigger may ask for: far above any queue count of a handler topic (slot i is
   * queue i), so a typo is refused instead of waiting for a slot that can never exist.
   */
  public static final int MAX_SLOT = 1023;

  /** A request routed by the job's strategy. */
  public AdhocRequest(
      TriggerId triggerId,
      TriggerKind kind,
      long dueMs,
      int attempt,
      Optional<String> paramsOverride,
      Optional<TriggerId> parentTriggerId,
      int depth,
      OptionalLong scheduleVersion) {
    this(
        triggerId,
        kind,
        dueMs,
        attempt,
        paramsOverride,
        parentTriggerId,
        depth,
        scheduleVersion,
        OptionalInt.empty());
  }

  public AdhocRequest {
    Objects.requireNonNull(triggerId, "triggerId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(paramsOverride, "paramsOverride");
    Objects.requireNonNull(parentTriggerId, "parentTriggerId");
    Objects.requireNonNull(scheduleVersion, "scheduleVersion");
    Objects.requireNonNull(targetSlot, "targetSlot");
    if (targetSlot.isPresent() && (targetSlot.getAsInt() < 0 || targetSlot.getAsInt() > MAX_SLOT)) {
      throw new IllegalArgumentException(
          "targetSlot must be in 0.." + MAX_SLOT + " but was " + targetSlot.getAsInt());
    }
    if (kind == TriggerKind.SCHEDULED) {
      throw new IllegalArgumentException("scheduled fires are not ad-hoc: " + triggerId);
    }
    if (dueMs < 0) {
      throw new IllegalArgumentException("dueMs must be >= 0 but was " + dueMs);
    }
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt must be >= 1 but was " + attempt);
    }
    if (depth < 0) {
      throw new IllegalArgumentException("depth must be >= 0 but was " + depth);
    }
    paramsOverride.ifPresent(
        p -> {
          int bytes = p.getBytes(StandardCharsets.UTF_8).length;
          if (bytes > JobDefinition.MAX_PARAMS_BYTES) {
            throw new IllegalArgumentException(
                "params override is "
                    + bytes
                    + " bytes; at most "
                    + JobDefinition.MAX_PARAMS_BYTES
                    + " are allowed");
          }
        });
  }

  public String jobId() {
    return triggerId.jobId();
  }

  /** A manual "trigger now" request due at {@code dueMs}. */
  public static AdhocRequest manual(TriggerId triggerId, long dueMs, Optional<String> params) {
    return manual(triggerId, dueMs, params, OptionalInt.empty());
  }

  /** A manual "trigger now" request due at {@code dueMs}, sent to {@code slot} when present. */
  public static AdhocRequest manual(
      TriggerId triggerId, long dueMs, Optional<String> params, OptionalInt slot) {
    return new AdhocRequest(
        triggerId,
        TriggerKind.MANUAL,
        dueMs,
        1,
        params,
        Optional.empty(),
        0,
        OptionalLong.empty(),
        slot);
  }
}

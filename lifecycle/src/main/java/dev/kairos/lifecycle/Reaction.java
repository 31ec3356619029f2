package dev.kairos.lifecycle;

import dev.kairos.core.alarm.Alarm;
import dev.kairos.protocol.adhoc.AdhocRequest;
import java.util.List;
import java.util.Optional;

/**
 * What the lifecycle does about one trigger's final state.
 *
 * @param retry the next attempt to submit, when the state is retryable and retries are left
 * @param children one trigger per child job, after a SUCCESS
 * @param rearm the FIXED_DELAY re-arm, when the trigger chain ended
 * @param alarm the final-failure alarm, when a retryable failure has no retry left
 * @param skippedChildren children not triggered because the chain reached the depth bound
 */
record Reaction(
    Optional<AdhocRequest> retry,
    List<AdhocRequest> children,
    Optional<Rearm> rearm,
    Optional<Alarm> alarm,
    int skippedChildren) {

  static final Reaction NONE =
      new Reaction(Optional.empty(), List.of(), Optional.empty(), Optional.empty(), 0);

  Reaction {
    children = List.copyOf(children);
  }

  /**
   * Re-arm a parked FIXED_DELAY job at {@code atMs}.
   *
   * @param scheduleVersion the version the chain's first fire was claimed under
   * @param chainFireMs fire time of the chain's first fire
   */
  record Rearm(String jobId, long scheduleVersion, long chainFireMs, long atMs) {}
}

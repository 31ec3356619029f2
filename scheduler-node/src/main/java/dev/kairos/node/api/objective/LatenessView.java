package dev.kairos.node.api.objective;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kairos.core.model.LatenessObjective;
import dev.kairos.objectives.LatenessSample;
import dev.kairos.objectives.ObjectiveStatus;

/**
 * A job's start lateness against its objective, as {@code GET /api/v1/jobs/{id}/lateness} shows it.
 *
 * @param verdict MET, BREACHED, NO_DATA (no fire of the window has ended), or NONE (the job
 *     declares no objective; nothing else is set then)
 * @param observedMs the objective's percentile of start lateness; absent when there is no fire or
 *     the percentile falls on a fire that never started
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LatenessView(
    String jobId,
    Objective objective,
    String verdict,
    Long fromMs,
    Long toMs,
    Long fires,
    Long neverStarted,
    Long observedMs) {

  /** The objective as the job declares it, and in words. */
  public record Objective(double percentile, long thresholdMs, long windowMs, String description) {
    static Objective of(LatenessObjective o) {
      return new Objective(o.percentile(), o.thresholdMs(), o.windowMs(), o.describe());
    }
  }

  static LatenessView none(String jobId) {
    return new LatenessView(jobId, null, "NONE", null, null, null, null, null);
  }

  static LatenessView of(ObjectiveStatus status) {
    LatenessSample s = status.sample();
    return new LatenessView(
        status.jobId(),
        Objective.of(status.objective()),
        status.verdict().name(),
        s.fromMs(),
        s.toMs(),
        s.fires(),
        s.neverStarted(),
        s.observedMs().isPresent() ? s.observedMs().getAsLong() : null);
  }
}

package dev.kairos.objectives;

import dev.kairos.core.model.LatenessObjective;
import java.util.Objects;

/**
 * One job's objective judged against its sample.
 *
 * @param verdict MET when the percentile is within the threshold, BREACHED when above it (or on a
 *     fire that never started), NO_DATA when no fire of the window has ended
 * @param evaluatedMs cluster time of the judgement
 */
public record ObjectiveStatus(
    JobObjective job, LatenessSample sample, Verdict verdict, long evaluatedMs) {

  public enum Verdict {
    MET,
    BREACHED,
    NO_DATA
  }

  public ObjectiveStatus {
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(sample, "sample");
    Objects.requireNonNull(verdict, "verdict");
  }

  /** Judges {@code sample} against the job's objective. */
  public static ObjectiveStatus judge(JobObjective job, LatenessSample sample, long nowMs) {
    Verdict verdict;
    if (sample.fires() == 0) {
      verdict = Verdict.NO_DATA;
    } else if (sample.observedMs().isEmpty()
        || sample.observedMs().getAsLong() > job.objective().thresholdMs()) {
      verdict = Verdict.BREACHED;
    } else {
      verdict = Verdict.MET;
    }
    return new ObjectiveStatus(job, sample, verdict, nowMs);
  }

  public String jobId() {
    return job.jobId();
  }

  public LatenessObjective objective() {
    return job.objective();
  }

  public boolean breached() {
    return verdict == Verdict.BREACHED;
  }
}

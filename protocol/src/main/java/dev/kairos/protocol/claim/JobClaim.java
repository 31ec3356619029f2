package dev.kairos.protocol.claim;

import dev.kairos.core.calendar.SkippedFire;
import dev.kairos.core.schedule.NextDue;
import java.util.List;
import java.util.Objects;

/**
 * The claim of one job inside a {@link ClaimBatch}: a CAS on the job's due score and schedule
 * version, then its fires (ascending fire times, possibly none when only the score moves, e.g. a
 * DO_NOTHING misfire skipping ahead) and the fires its calendars exclude ({@code skipped}: each is
 * recorded SKIPPED under its trigger id, in the same call, when the CAS passes).
 */
public record JobClaim(
    String jobId,
    long expectedScore,
    long scheduleVersion,
    NextDue next,
    List<Fire> fires,
    List<SkippedFire> skipped) {

  /** A claim with no fire excluded by a calendar. */
  public JobClaim(
      String jobId, long expectedScore, long scheduleVersion, NextDue next, List<Fire> fires) {
    this(jobId, expectedScore, scheduleVersion, next, fires, List.of());
  }

  public JobClaim {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(next, "next");
    fires = List.copyOf(fires);
    skipped = List.copyOf(skipped);
    for (int i = 1; i < fires.size(); i++) {
      if (fires.get(i).fireMs() <= fires.get(i - 1).fireMs()) {
        throw new IllegalArgumentException(
            "fires of job " + jobId + " must be strictly ascending: " + fires);
      }
    }
  }
}

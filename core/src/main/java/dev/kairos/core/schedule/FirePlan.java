package dev.kairos.core.schedule;

import dev.kairos.core.model.TriggerId;
import java.util.List;

/**
 * What the scanner does with one due job: claim {@link #fireTimes()} (ascending, each becomes
 * trigger {@code <jobId>:<fireMs>}) and move the job in the due ZSET as {@link #next()} says.
 *
 * @param misfired the due fire was older than the misfire threshold and the strategy applied
 * @param capped the per-call fire cap was hit; {@link #next()} is the first unclaimed fire
 */
public record FirePlan(List<Long> fireTimes, NextDue next, boolean misfired, boolean capped) {

  public FirePlan {
    fireTimes = List.copyOf(fireTimes);
  }

  public List<TriggerId> triggerIds(String jobId) {
    return fireTimes.stream().map(ms -> TriggerId.scheduled(jobId, ms)).toList();
  }
}

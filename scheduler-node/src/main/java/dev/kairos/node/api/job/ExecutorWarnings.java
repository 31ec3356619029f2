package dev.kairos.node.api.job;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.node.api.executor.LiveSlots;
import dev.kairos.protocol.slot.SlotInfo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says when a job names an app or handler with no live executor. Such a job is still accepted
 * (executors deploy independently, docs/design.md invariant 6): its fires end NO_EXECUTOR until one
 * registers. One slot-lease read per app per call.
 */
public final class ExecutorWarnings {

  private static final Logger log = LoggerFactory.getLogger(ExecutorWarnings.class);

  private final LiveSlots slots;

  public ExecutorWarnings(LiveSlots slots) {
    this.slots = slots;
  }

  /** A checker for one request, reading each app's leases at most once. */
  public Checker checker() {
    return new Checker();
  }

  public List<Warning> check(JobDefinition job) {
    return checker().check(job);
  }

  /** Not thread-safe: one per request. */
  public final class Checker {

    private final Map<String, List<SlotInfo>> live = new HashMap<>();

    public List<Warning> check(JobDefinition job) {
      List<SlotInfo> appSlots;
      try {
        appSlots = live.computeIfAbsent(job.app(), slots::of);
      } catch (RuntimeException e) {
        log.warn("cannot read the slot leases of app {}: {}", job.app(), e.toString());
        return List.of(
            new Warning(
                "executors-unknown",
                "could not check whether app '" + job.app() + "' has a live executor"));
      }
      if (appSlots.isEmpty()) {
        return List.of(
            new Warning(
                "no-live-executor",
                "no live executor of app '"
                    + job.app()
                    + "' holds a slot: fires end NO_EXECUTOR until one registers"));
      }
      if (appSlots.stream().noneMatch(s -> s.hosts(job.handler()))) {
        return List.of(
            new Warning(
                "no-live-handler",
                "no live executor of app '"
                    + job.app()
                    + "' hosts handler '"
                    + job.handler()
                    + "': fires end NO_EXECUTOR until one does"));
      }
      return List.of();
    }
  }
}

package dev.kairos.node.alarm;

import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmKind;
import dev.kairos.core.alarm.AlarmSink;
import dev.kairos.core.time.KairosClock;
import dev.kairos.protocol.slot.SlotInfo;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * APP_WITHOUT_EXECUTOR: an executor app has enabled jobs but no live slot lease, for longer than a
 * grace period (an executor restarting or deploying is not an incident). Which apps have enabled
 * jobs comes from core's per-shard counts ({@code EnabledApps}: one small read per shard), live
 * slots from the leases ({@code SlotRegistry}: one script call per app). Only the leader judges.
 */
final class AppWithoutExecutorCheck implements ConditionCheck {

  private final Supplier<Map<String, Long>> enabledApps;
  private final Function<String, List<SlotInfo>> liveSlots;
  private final BooleanSupplier judges;
  private final long graceMs;
  private final KairosClock clock;
  private final AlarmSink sink;
  // Monitor thread only; bounded by the apps that have enabled jobs.
  private final Map<String, Long> withoutExecutorSince = new HashMap<>();
  private volatile boolean active;

  AppWithoutExecutorCheck(
      Supplier<Map<String, Long>> enabledApps,
      Function<String, List<SlotInfo>> liveSlots,
      BooleanSupplier judges,
      Duration grace,
      KairosClock clock,
      AlarmSink sink) {
    this.enabledApps = enabledApps;
    this.liveSlots = liveSlots;
    this.judges = judges;
    this.graceMs = grace.toMillis();
    this.clock = clock;
    this.sink = sink;
  }

  @Override
  public String name() {
    return "app-without-executor";
  }

  @Override
  public boolean active() {
    return active;
  }

  @Override
  public void check() {
    if (!judges.getAsBoolean()) {
      withoutExecutorSince.clear();
      active = false;
      return;
    }
    Map<String, Long> apps = enabledApps.get();
    long now = clock.nowMs();
    withoutExecutorSince.keySet().retainAll(apps.keySet());
    boolean any = false;
    for (Map.Entry<String, Long> app : apps.entrySet()) {
      if (!liveSlots.apply(app.getKey()).isEmpty()) {
        withoutExecutorSince.remove(app.getKey());
        continue;
      }
      long since = withoutExecutorSince.computeIfAbsent(app.getKey(), k -> now);
      if (now - since < graceMs) {
        continue;
      }
      any = true;
      sink.raise(
          new Alarm(
              AlarmKind.APP_WITHOUT_EXECUTOR,
              app.getKey(),
              "executor app "
                  + app.getKey()
                  + " has "
                  + app.getValue()
                  + " enabled job(s) but no live executor",
              Map.of(
                  "app", app.getKey(),
                  "enabledJobs", Long.toString(app.getValue()),
                  "withoutExecutorMs", Long.toString(now - since)),
              now));
    }
    active = any;
  }
}

package dev.kairos.sync.spring;

import dev.kairos.sync.worker.ShardLag;
import dev.kairos.sync.worker.StreamSyncWorker;
import dev.kairos.sync.worker.SyncHealth;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * The {@code persistenceSync} health component. Always UP: PostgreSQL is off the trigger path, so a
 * lagging or stopped write-behind must never take the node out of readiness or out of a load
 * balancer. Lag shows in the details ({@code lagging}, {@code maxLagMs}, the lagging shards) and in
 * the {@code kairos.sync.*} gauges, which is where alerts belong.
 */
public final class PersistenceSyncHealthIndicator implements HealthIndicator {

  private final SyncHealth health;
  private final StreamSyncWorker worker;

  public PersistenceSyncHealthIndicator(SyncHealth health, StreamSyncWorker worker) {
    this.health = health;
    this.worker = worker;
  }

  @Override
  public Health health() {
    Map<String, Object> lagging = new TreeMap<>();
    for (ShardLag lag : health.snapshot()) {
      if (lag.oldestUnsyncedAgeMs() > health.thresholdMs()) {
        lagging.put(
            Integer.toString(lag.shard()),
            Map.of("pending", lag.pending(), "oldestUnsyncedAgeMs", lag.oldestUnsyncedAgeMs()));
      }
    }
    return Health.up()
        .withDetail("lagging", !lagging.isEmpty())
        .withDetail("maxLagMs", health.maxLagMs())
        .withDetail("lagThresholdMs", health.thresholdMs())
        .withDetail("workerRunning", worker.isRunning())
        .withDetail("schemaReady", worker.schemaReady())
        .withDetail("laggingShards", lagging)
        .build();
  }
}

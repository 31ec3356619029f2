package dev.kairos.sync.spring;

import dev.kairos.sync.worker.ShardLag;
import dev.kairos.sync.worker.StreamSyncWorker;
import dev.kairos.sync.worker.SyncHealth;
import dev.kairos.sync.worker.SyncLagSnapshot;
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
    SyncLagSnapshot snapshot = health.snapshot();
    Map<String, Object> lagging = new TreeMap<>();
    for (ShardLag lag : snapshot.laggingShards()) {
      lagging.put(
          Integer.toString(lag.shard()),
          Map.of("pending", lag.pending(), "oldestUnsyncedAgeMs", lag.oldestUnsyncedAgeMs()));
    }
    return Health.up()
        .withDetail("lagging", snapshot.lagging())
        .withDetail("maxLagMs", snapshot.maxLagMs())
        .withDetail("totalPending", snapshot.totalPending())
        .withDetail("sampledAtMs", snapshot.sampledAtMs())
        .withDetail("lagThresholdMs", snapshot.thresholdMs())
        .withDetail("workerRunning", worker.isRunning())
        .withDetail("schemaReady", worker.schemaReady())
        .withDetail("laggingShards", lagging)
        .build();
  }
}

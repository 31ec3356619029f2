package dev.kairos.sync.worker;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** Counters of the sync worker; gauges of the lag live in {@link SyncHealth}. */
public final class SyncMetrics {

  private final MeterRegistry registry;
  private final Counter applied;
  private final Counter unknown;
  private final Counter loopErrors;
  private final Counter databaseFailures;
  private final Counter claimed;
  private final Counter trimmed;
  private final Counter consumersRemoved;
  private final Counter compacted;

  public SyncMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.applied = registry.counter("kairos.sync.events.applied");
    this.unknown = registry.counter("kairos.sync.events.unknown");
    this.loopErrors = registry.counter("kairos.sync.loop.errors");
    this.databaseFailures = registry.counter("kairos.sync.database.failures");
    this.claimed = registry.counter("kairos.sync.entries.claimed");
    this.trimmed = registry.counter("kairos.sync.entries.trimmed");
    this.consumersRemoved = registry.counter("kairos.sync.consumers.removed");
    this.compacted =
        Counter.builder("kairos.sync.records.compacted")
            .description("SUCCESS records replaced by tombstones once their history was synced")
            .register(registry);
  }

  public MeterRegistry registry() {
    return registry;
  }

  void applied(int n) {
    applied.increment(n);
  }

  void unknown() {
    unknown.increment();
  }

  void loopError() {
    loopErrors.increment();
  }

  void databaseFailure() {
    databaseFailures.increment();
  }

  void claimed(int n) {
    claimed.increment(n);
  }

  void trimmed(long n) {
    trimmed.increment(n);
  }

  void compacted(long n) {
    compacted.increment(n);
  }

  public double compactedCount() {
    return compacted.count();
  }

  void consumersRemoved(int n) {
    consumersRemoved.increment(n);
  }

  public double consumersRemovedCount() {
    return consumersRemoved.count();
  }

  public double appliedCount() {
    return applied.count();
  }

  public double unknownCount() {
    return unknown.count();
  }

  public double databaseFailureCount() {
    return databaseFailures.count();
  }

  public double claimedCount() {
    return claimed.count();
  }
}

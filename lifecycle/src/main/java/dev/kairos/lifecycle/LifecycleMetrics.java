package dev.kairos.lifecycle;

import dev.kairos.protocol.record.TriggerFields;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The lifecycle's counters, {@code kairos.lifecycle.*}, and the cluster-wide start histograms
 * {@code kairos.triggers.start.lateness} and {@code kairos.triggers.claim.to.start}: each trigger's
 * final event is handled by one node of the consumer group, so the histograms' buckets summed over
 * every node count each trigger once and aggregate in Prometheus.
 */
final class LifecycleMetrics {

  final Counter finalEvents;
  final Counter quietEnds;
  final Counter retries;
  final Counter retriesExhausted;
  final Counter children;
  final Counter childrenMissing;
  final Counter childDepthStops;
  final Counter rearms;
  final Counter duplicates;
  final Counter alarms;
  final Counter claimed;
  final Counter loopErrors;
  final Timer startLateness;
  final Timer claimToStart;

  /**
   * Bucket range of the start histograms: fires are due to start within ms; minutes is an outage.
   */
  static final Duration HISTOGRAM_MIN = Duration.ofMillis(1);

  static final Duration HISTOGRAM_MAX = Duration.ofMinutes(5);

  LifecycleMetrics(MeterRegistry registry) {
    finalEvents =
        counter(registry, "kairos.lifecycle.final.events", "final-state events reacted to");
    quietEnds =
        counter(
            registry,
            "kairos.lifecycle.final.quiet",
            "final-state events that said no reaction follows (no record or job read)");
    retries = counter(registry, "kairos.lifecycle.retries", "retry attempts submitted");
    retriesExhausted =
        counter(
            registry,
            "kairos.lifecycle.retries.exhausted",
            "retryable failures with no retry left (an alarm is raised)");
    children =
        counter(registry, "kairos.lifecycle.children", "child-job triggers submitted on SUCCESS");
    childrenMissing =
        counter(
            registry,
            "kairos.lifecycle.children.missing",
            "child triggers not created: the child job does not exist or is disabled");
    childDepthStops =
        counter(
            registry,
            "kairos.lifecycle.children.depth.stops",
            "child triggers not created: the chain reached its depth bound");
    rearms = counter(registry, "kairos.lifecycle.rearms", "parked FIXED_DELAY jobs re-armed");
    duplicates =
        counter(
            registry,
            "kairos.lifecycle.duplicates",
            "retries or child triggers already submitted (a replayed event)");
    alarms = counter(registry, "kairos.lifecycle.alarms", "final-failure alarms raised");
    claimed =
        counter(
            registry,
            "kairos.lifecycle.entries.claimed",
            "stream entries taken over from a dead node's consumer");
    loopErrors =
        counter(
            registry,
            "kairos.lifecycle.loop.errors",
            "rounds that failed (Redis unavailable); the worker keeps running");
    startLateness =
        histogram(
            registry,
            "kairos.triggers.start.lateness",
            "handler start (the executor's start claim) minus the scheduled fire time, per trigger"
                + " that ran, recorded when it ends");
    claimToStart =
        histogram(
            registry,
            "kairos.triggers.claim.to.start",
            "handler start minus the leader's claim of the fire, per trigger that ran");
  }

  /**
   * Records the start histograms from a final trigger record ({@code fireMs}, {@code claimedMs},
   * {@code startedMs}); a trigger that never started, or a negative difference (clock skew between
   * writers), records nothing.
   */
  void recordStart(Map<String, String> record) {
    Long started = millis(record.get(TriggerFields.STARTED_MS));
    if (started == null) {
      return;
    }
    record(startLateness, millis(record.get(TriggerFields.FIRE_MS)), started);
    record(claimToStart, millis(record.get(TriggerFields.CLAIMED_MS)), started);
  }

  private static void record(Timer timer, Long fromMs, long toMs) {
    if (fromMs != null && toMs >= fromMs) {
      timer.record(toMs - fromMs, TimeUnit.MILLISECONDS);
    }
  }

  private static Long millis(String value) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Timer histogram(MeterRegistry registry, String name, String description) {
    return Timer.builder(name)
        .description(description)
        .publishPercentileHistogram()
        .minimumExpectedValue(HISTOGRAM_MIN)
        .maximumExpectedValue(HISTOGRAM_MAX)
        .register(registry);
  }

  private static Counter counter(MeterRegistry registry, String name, String description) {
    return Counter.builder(name).description(description).register(registry);
  }
}

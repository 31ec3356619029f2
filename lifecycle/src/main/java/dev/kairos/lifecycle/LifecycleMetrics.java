package dev.kairos.lifecycle;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** The lifecycle's counters, {@code kairos.lifecycle.*}. */
final class LifecycleMetrics {

  final Counter finalEvents;
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
  final Counter indexedTriggers;

  LifecycleMetrics(MeterRegistry registry) {
    finalEvents =
        counter(registry, "kairos.lifecycle.final.events", "final-state events reacted to");
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
    indexedTriggers =
        counter(
            registry,
            "kairos.lifecycle.triggers.indexed",
            "new triggers written to their job's recent-trigger index");
  }

  private static Counter counter(MeterRegistry registry, String name, String description) {
    return Counter.builder(name).description(description).register(registry);
  }
}

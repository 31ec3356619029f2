package dev.kairos.alarm;

import dev.kairos.core.alarm.AlarmKind;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counters of the alarm path: {@code kairos.alarm.raised} and {@code kairos.alarm.suppressed} (tag
 * {@code kind}); {@code kairos.alarm.delivered}, {@code .failed} (given up), {@code .retries} and
 * {@code .dropped} (queue full or closing) per {@code channel}; {@code kairos.alarm.dedup.fallback}
 * (tag {@code reason}: {@code timeout}, {@code error}, {@code interrupted}) when the cluster-wide
 * window in Redis did not answer and the node decided alone.
 */
public final class AlarmMetrics {

  private final MeterRegistry registry;

  public AlarmMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  public MeterRegistry registry() {
    return registry;
  }

  void raised(AlarmKind kind) {
    byKind("kairos.alarm.raised", "alarms raised, before de-duplication", kind).increment();
  }

  void suppressed(AlarmKind kind) {
    byKind("kairos.alarm.suppressed", "duplicate alarms suppressed inside their window", kind)
        .increment();
  }

  void delivered(String channel) {
    byChannel("kairos.alarm.delivered", "alarms delivered", channel).increment();
  }

  void failed(String channel) {
    byChannel("kairos.alarm.failed", "alarm deliveries given up", channel).increment();
  }

  void retried(String channel) {
    byChannel("kairos.alarm.retries", "alarm delivery retries scheduled", channel).increment();
  }

  void dropped(String channel) {
    byChannel("kairos.alarm.dropped", "alarm deliveries dropped: queue full or closing", channel)
        .increment();
  }

  void dedupFallback(String reason) {
    Counter.builder("kairos.alarm.dedup.fallback")
        .description("alarms de-duplicated by this node alone because Redis did not answer")
        .tag("reason", reason)
        .register(registry)
        .increment();
  }

  public double count(String name, String tag, String value) {
    Counter counter = registry.find(name).tag(tag, value).counter();
    return counter == null ? 0 : counter.count();
  }

  private Counter byKind(String name, String description, AlarmKind kind) {
    return Counter.builder(name)
        .description(description)
        .tag("kind", kind.name())
        .register(registry);
  }

  private Counter byChannel(String name, String description, String channel) {
    return Counter.builder(name)
        .description(description)
        .tag("channel", channel)
        .register(registry);
  }
}

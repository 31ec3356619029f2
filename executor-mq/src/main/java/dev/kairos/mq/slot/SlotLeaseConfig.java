package dev.kairos.mq.slot;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How one executor instance leases a slot of its app.
 *
 * @param app the executor app
 * @param instanceId unique per process start (a restarted process is a new instance)
 * @param host where the instance runs, for operators
 * @param handlers the handlers it hosts, at least one
 * @param slotCount Q, the queue count of the app's handler topics = the most instances that can
 *     consume at once
 * @param ttl lease lifetime after each renewal, judged by Redis TIME
 * @param renewInterval how often the lease is renewed
 * @param safetyMargin how much earlier than the TTL the instance stops trusting its lease locally,
 *     to absorb the difference between the local monotonic clock and Redis's clock
 */
public record SlotLeaseConfig(
    String app,
    String instanceId,
    String host,
    List<String> handlers,
    int slotCount,
    Duration ttl,
    Duration renewInterval,
    Duration safetyMargin) {

  public static final int DEFAULT_SLOT_COUNT = 8;
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(10);
  public static final Duration DEFAULT_RENEW_INTERVAL = Duration.ofSeconds(3);
  public static final Duration DEFAULT_SAFETY_MARGIN = Duration.ofSeconds(1);

  public SlotLeaseConfig {
    requireText(app, "app");
    requireText(instanceId, "instanceId");
    host = host == null ? "" : host;
    handlers = List.copyOf(Objects.requireNonNull(handlers, "handlers"));
    if (handlers.isEmpty()) {
      throw new IllegalArgumentException("an executor instance must host at least one handler");
    }
    if (slotCount < 1) {
      throw new IllegalArgumentException("slotCount must be >= 1 but was " + slotCount);
    }
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(renewInterval, "renewInterval");
    Objects.requireNonNull(safetyMargin, "safetyMargin");
    if (renewInterval.isNegative()
        || renewInterval.isZero()
        || safetyMargin.isNegative()
        || safetyMargin.isZero()) {
      throw new IllegalArgumentException("renewInterval and safetyMargin must be positive");
    }
    // Two renewals must fit inside the locally trusted window, or one slow renewal loses the slot.
    if (renewInterval.multipliedBy(2).compareTo(ttl.minus(safetyMargin)) > 0) {
      throw new IllegalArgumentException(
          "2 x renewInterval ("
              + renewInterval
              + ") must not exceed ttl - safetyMargin ("
              + ttl.minus(safetyMargin)
              + ")");
    }
  }

  /** The defaults: Q = 16, TTL 10 s, renewal every 3 s, stop trusting the lease 1 s early. */
  public static SlotLeaseConfig of(
      String app, String instanceId, String host, List<String> handlers) {
    return new SlotLeaseConfig(
        app,
        instanceId,
        host,
        handlers,
        DEFAULT_SLOT_COUNT,
        DEFAULT_TTL,
        DEFAULT_RENEW_INTERVAL,
        DEFAULT_SAFETY_MARGIN);
  }

  public SlotLeaseConfig withSlotCount(int slots) {
    return new SlotLeaseConfig(
        app, instanceId, host, handlers, slots, ttl, renewInterval, safetyMargin);
  }

  public SlotLeaseConfig withTiming(Duration leaseTtl, Duration renewEvery, Duration margin) {
    return new SlotLeaseConfig(
        app, instanceId, host, handlers, slotCount, leaseTtl, renewEvery, margin);
  }

  /** How long after a renewal starts the instance may still trust its lease. */
  public Duration trustedWindow() {
    return ttl.minus(safetyMargin);
  }

  private static void requireText(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " must not be blank");
    }
  }
}

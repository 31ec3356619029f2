package dev.kairos.node.route;

import dev.kairos.protocol.slot.SlotInfo;
import java.util.List;
import java.util.function.Predicate;

/**
 * The first slot (lowest index) that passes a health test of its lease, else the first live slot:
 * FAILOVER (a fresh lease) and BUSYOVER (not busy). Both read only what the lease already carries,
 * so they cost no extra Redis call; what they see is as old as the cached read of the leases plus,
 * for the busy flag, one renewal interval (the executor publishes it when it renews).
 *
 * <p>When no slot passes, the trigger still goes to the first live slot rather than ending
 * NO_EXECUTOR: its lease has not expired, so the executor may yet run it, and the message waits in
 * the slot's queue either way.
 */
final class LeaseAwareChooser implements SlotChooser {

  /**
   * A lease is fresh while its age (lease clock now − last renewal) is at most half its TTL. With
   * the defaults (TTL 10 s, renewal every 3 s) a healthy executor's lease is at most about 3 s old;
   * one that has missed a renewal is older than 5 s and is passed over long before it expires.
   */
  static boolean fresh(SlotInfo slot, long nowMs) {
    long ttl = slot.expiresMs() - slot.lastRenewalMs();
    return nowMs - slot.lastRenewalMs() <= ttl / 2;
  }

  static LeaseAwareChooser failover() {
    return new LeaseAwareChooser((slot, now) -> fresh(slot, now));
  }

  static LeaseAwareChooser busyover() {
    return new LeaseAwareChooser((slot, now) -> !slot.busy());
  }

  private interface Test {
    boolean passes(SlotInfo slot, long nowMs);
  }

  private final Test test;

  private LeaseAwareChooser(Test test) {
    this.test = test;
  }

  @Override
  public SlotInfo choose(String jobId, List<SlotInfo> hosting, long nowMs) {
    Predicate<SlotInfo> passes = slot -> test.passes(slot, nowMs);
    return hosting.stream().filter(passes).findFirst().orElse(hosting.get(0));
  }
}

package dev.kairos.node.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the rules of docs/design.md "Timing parameters". Each message names the property that
 * breaks the rule, its value, and the rule with the values it was compared against, so an operator
 * can fix the configuration without reading the source.
 */
public final class TimingValidator {

  public static final String HEARTBEAT_INTERVAL = "kairos.cluster.heartbeat-interval";
  public static final String LEADER_TIMEOUT = "kairos.cluster.leader-timeout";
  public static final String ELECTION_BUDGET = "kairos.cluster.election-budget";
  public static final String ZK_SESSION_TIMEOUT = "kairos.zookeeper.session-timeout";
  public static final String ZK_TICK_TIME = "kairos.zookeeper.tick-time";
  public static final String SCAN_INTERVAL = "kairos.cluster.scan-interval";
  public static final String PRE_READ = "kairos.cluster.pre-read";
  public static final String WHEEL_RECONCILE_INTERVAL = "kairos.cluster.wheel-reconcile-interval";
  public static final String MISFIRE_THRESHOLD = "kairos.cluster.misfire-threshold";
  public static final String DEDUP_WINDOW = "kairos.cluster.dedup-window";
  public static final String REDELIVERY_BUDGET = "kairos.cluster.redelivery-budget";
  public static final String SLOT_LEASE_TTL = "kairos.cluster.slot-lease-ttl";
  public static final String SLOT_LEASE_RENEW_INTERVAL = "kairos.cluster.slot-lease-renew-interval";
  public static final String PRE_DISPATCH = "kairos.fire.pre-dispatch";

  private TimingValidator() {}

  /** Throws {@link InvalidTimingException} listing every broken rule; returns quietly otherwise. */
  public static void check(TimingParameters p) {
    List<String> violations = violations(p);
    if (!violations.isEmpty()) {
      throw new InvalidTimingException(violations);
    }
  }

  /** Every broken rule, one message each; empty when the parameters are consistent. */
  public static List<String> violations(TimingParameters p) {
    List<String> out = new ArrayList<>();
    positive(out, HEARTBEAT_INTERVAL, p.heartbeatInterval());
    positive(out, LEADER_TIMEOUT, p.leaderTimeout());
    positive(out, ELECTION_BUDGET, p.electionBudget());
    positive(out, ZK_SESSION_TIMEOUT, p.zkSessionTimeout());
    positive(out, ZK_TICK_TIME, p.zkTickTime());
    positive(out, SCAN_INTERVAL, p.scanInterval());
    positive(out, PRE_READ, p.preRead());
    positive(out, WHEEL_RECONCILE_INTERVAL, p.wheelReconcileInterval());
    positive(out, MISFIRE_THRESHOLD, p.misfireThreshold());
    positive(out, DEDUP_WINDOW, p.dedupWindow());
    positive(out, REDELIVERY_BUDGET, p.redeliveryBudget());
    positive(out, SLOT_LEASE_TTL, p.slotLeaseTtl());
    positive(out, SLOT_LEASE_RENEW_INTERVAL, p.slotLeaseRenewInterval());
    if (!out.isEmpty()) {
      // The relations below are meaningless with zero or negative terms.
      return out;
    }

    // Followers must be able to miss two heartbeats before they suspect a live leader.
    Duration leaderThird = p.leaderTimeout().dividedBy(3);
    if (p.heartbeatInterval().compareTo(leaderThird) >= 0) {
      out.add(
          rule(
              HEARTBEAT_INTERVAL,
              p.heartbeatInterval(),
              "less than " + LEADER_TIMEOUT + " / 3",
              leaderThird));
    }
    // A leader that lost its session must be suspected no later than ZooKeeper itself gives up.
    if (p.leaderTimeout().compareTo(p.zkSessionTimeout()) > 0) {
      out.add(
          rule(
              LEADER_TIMEOUT,
              p.leaderTimeout(),
              "at most " + ZK_SESSION_TIMEOUT,
              p.zkSessionTimeout()));
    }
    // The server clamps a session timeout to [2, 20] × tickTime; below that the ask is ignored.
    Duration twoTicks = p.zkTickTime().multipliedBy(2);
    if (p.zkSessionTimeout().compareTo(twoTicks) < 0) {
      out.add(
          rule(
              ZK_SESSION_TIMEOUT,
              p.zkSessionTimeout(),
              "at least 2 × " + ZK_TICK_TIME + " (the ZooKeeper servers' tickTime)",
              twoTicks));
    }
    // A scan must happen at least once per pre-read window, or fires are claimed too late.
    if (p.scanInterval().compareTo(p.preRead()) >= 0) {
      out.add(rule(SCAN_INTERVAL, p.scanInterval(), "less than " + PRE_READ, p.preRead()));
    }
    // Wheels are pre-loaded for longer than a failover takes, so a leader change costs no fire.
    Duration failover = p.leaderTimeout().plus(p.electionBudget()).plus(p.scanInterval());
    if (p.preRead().compareTo(failover) <= 0) {
      out.add(
          rule(
              PRE_READ,
              p.preRead(),
              "greater than " + LEADER_TIMEOUT + " + " + ELECTION_BUDGET + " + " + SCAN_INTERVAL,
              failover));
    }
    // A lost notification must be repaired by a reconcile before the claimed fire is due.
    Duration reconcileLimit = p.preRead().minus(p.scanInterval());
    if (p.wheelReconcileInterval().compareTo(reconcileLimit) >= 0) {
      out.add(
          rule(
              WHEEL_RECONCILE_INTERVAL,
              p.wheelReconcileInterval(),
              "less than " + PRE_READ + " − " + SCAN_INTERVAL,
              reconcileLimit));
    }
    // A fire is claimed onto a wheel (a scan, then at worst a reconcile) before its lead begins.
    if (p.preDispatch().isNegative()) {
      out.add(rule(PRE_DISPATCH, p.preDispatch(), "0 or more", Duration.ZERO));
    }
    Duration leadLimit = p.preRead().minus(p.scanInterval()).minus(p.wheelReconcileInterval());
    if (!p.preDispatch().isZero() && p.preDispatch().compareTo(leadLimit) >= 0) {
      out.add(
          rule(
              PRE_DISPATCH,
              p.preDispatch(),
              "less than " + PRE_READ + " − " + SCAN_INTERVAL + " − " + WHEEL_RECONCILE_INTERVAL,
              leadLimit));
    }
    // Fires claimed ahead by the pre-read are not yet late; a smaller threshold calls them
    // misfires.
    if (p.misfireThreshold().compareTo(p.preRead()) < 0) {
      out.add(rule(MISFIRE_THRESHOLD, p.misfireThreshold(), "at least " + PRE_READ, p.preRead()));
    }
    // A redelivered copy must still find the start claim of the first one.
    Duration redelivery = p.slotLeaseTtl().plus(p.redeliveryBudget());
    if (p.dedupWindow().compareTo(redelivery) <= 0) {
      out.add(
          rule(
              DEDUP_WINDOW,
              p.dedupWindow(),
              "greater than " + SLOT_LEASE_TTL + " + " + REDELIVERY_BUDGET,
              redelivery));
    }
    // One late renewal must not lose the slot: renew at least twice per lease lifetime.
    Duration halfTtl = p.slotLeaseTtl().dividedBy(2);
    if (p.slotLeaseRenewInterval().compareTo(halfTtl) >= 0) {
      out.add(
          rule(
              SLOT_LEASE_RENEW_INTERVAL,
              p.slotLeaseRenewInterval(),
              "less than " + SLOT_LEASE_TTL + " / 2",
              halfTtl));
    }
    return out;
  }

  private static void positive(List<String> out, String property, Duration value) {
    if (value.isZero() || value.isNegative()) {
      out.add(property + " (" + format(value) + ") must be positive");
    }
  }

  private static String rule(String property, Duration value, String relation, Duration limit) {
    return property + " (" + format(value) + ") must be " + relation + " (" + format(limit) + ")";
  }

  /** Compact, unit-exact rendering: 500ms, 3s, 10m, 1500ms. */
  static String format(Duration d) {
    long ms = d.toMillis();
    if (ms != 0 && ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    if (ms != 0 && ms % 1_000 == 0) {
      return ms / 1_000 + "s";
    }
    return ms + "ms";
  }
}

package dev.kairos.node.cluster;

import dev.kairos.coordinator.scan.ScanConfig;
import java.time.Duration;
import java.util.Objects;

/**
 * The durations that together decide how fast a dead leader is replaced and whether a fire can be
 * lost or started twice on the way. They only make sense together, which is why they are checked as
 * one record by {@link TimingValidator}; docs/design.md "Timing parameters" is the source of the
 * rules.
 *
 * @param heartbeatInterval how often the leader heartbeats every follower
 * @param leaderTimeout how long a follower waits without a heartbeat before it suspects the leader
 * @param electionBudget time a takeover needs after the leader timeout: the confirmation round,
 *     creating the term znode and fencing every shard
 * @param zkSessionTimeout the ZooKeeper session timeout the node asks for
 * @param zkTickTime the ZooKeeper servers' tickTime; the server grants at least 2 × tickTime
 * @param scanInterval how often the leader scans the due sets
 * @param preRead how far ahead of now the leader claims fires into node wheels
 * @param wheelReconcileInterval how often a node re-reads its persisted wheel from Redis
 * @param misfireThreshold default lateness beyond which a fire is a misfire
 * @param dedupWindow how long a trigger id's start claim is remembered (window D)
 * @param redeliveryBudget the longest the broker and the scheduler take to redeliver a message that
 *     was not started (producer retries, inflight re-send, slot handover)
 * @param slotLeaseTtl the lifetime of an executor's slot lease
 * @param slotLeaseRenewInterval how often an executor renews its slot lease
 */
public record TimingParameters(
    Duration heartbeatInterval,
    Duration leaderTimeout,
    Duration electionBudget,
    Duration zkSessionTimeout,
    Duration zkTickTime,
    Duration scanInterval,
    Duration preRead,
    Duration wheelReconcileInterval,
    Duration misfireThreshold,
    Duration dedupWindow,
    Duration redeliveryBudget,
    Duration slotLeaseTtl,
    Duration slotLeaseRenewInterval,
    Duration preDispatch) {

  public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofMillis(500);
  public static final Duration DEFAULT_LEADER_TIMEOUT = Duration.ofSeconds(3);
  public static final Duration DEFAULT_ELECTION_BUDGET = Duration.ofMillis(500);
  public static final Duration DEFAULT_ZK_SESSION_TIMEOUT = Duration.ofSeconds(6);

  /** ZooKeeper's sample configuration uses 2 s; Kairos assumes it unless told otherwise. */
  public static final Duration DEFAULT_ZK_TICK_TIME = Duration.ofSeconds(2);

  public static final Duration DEFAULT_SCAN_INTERVAL = ScanConfig.DEFAULT_INTERVAL;
  public static final Duration DEFAULT_PRE_READ = ScanConfig.DEFAULT_PRE_READ;
  public static final Duration DEFAULT_WHEEL_RECONCILE_INTERVAL = Duration.ofSeconds(1);
  public static final Duration DEFAULT_MISFIRE_THRESHOLD = Duration.ofSeconds(5);
  public static final Duration DEFAULT_DEDUP_WINDOW = ScanConfig.DEFAULT_DEDUP_WINDOW;
  public static final Duration DEFAULT_REDELIVERY_BUDGET = Duration.ofMinutes(2);
  public static final Duration DEFAULT_SLOT_LEASE_TTL = Duration.ofSeconds(10);
  public static final Duration DEFAULT_SLOT_LEASE_RENEW_INTERVAL = Duration.ofSeconds(3);

  /**
   * {@code kairos.fire.pre-dispatch}: a trigger is sent this long before its fire time. Half a
   * second past a whole one on purpose: cron fleets fire on whole seconds, so the takes and sends
   * of a burst (and their acks) happen half a second away from the start claims of the bursts
   * before and after it instead of on top of them (W2 2,000: start p99 289 ms with a 2 s lead, 201
   * ms with 2.5 s; docs/benchmarks.md).
   */
  public static final Duration DEFAULT_PRE_DISPATCH = Duration.ofMillis(2_500);

  public TimingParameters {
    Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
    Objects.requireNonNull(leaderTimeout, "leaderTimeout");
    Objects.requireNonNull(electionBudget, "electionBudget");
    Objects.requireNonNull(zkSessionTimeout, "zkSessionTimeout");
    Objects.requireNonNull(zkTickTime, "zkTickTime");
    Objects.requireNonNull(scanInterval, "scanInterval");
    Objects.requireNonNull(preRead, "preRead");
    Objects.requireNonNull(wheelReconcileInterval, "wheelReconcileInterval");
    Objects.requireNonNull(misfireThreshold, "misfireThreshold");
    Objects.requireNonNull(dedupWindow, "dedupWindow");
    Objects.requireNonNull(redeliveryBudget, "redeliveryBudget");
    Objects.requireNonNull(slotLeaseTtl, "slotLeaseTtl");
    Objects.requireNonNull(slotLeaseRenewInterval, "slotLeaseRenewInterval");
    Objects.requireNonNull(preDispatch, "preDispatch");
  }

  /** The defaults of docs/design.md, which satisfy every rule. */
  public static TimingParameters defaults() {
    return new TimingParameters(
        DEFAULT_HEARTBEAT_INTERVAL,
        DEFAULT_LEADER_TIMEOUT,
        DEFAULT_ELECTION_BUDGET,
        DEFAULT_ZK_SESSION_TIMEOUT,
        DEFAULT_ZK_TICK_TIME,
        DEFAULT_SCAN_INTERVAL,
        DEFAULT_PRE_READ,
        DEFAULT_WHEEL_RECONCILE_INTERVAL,
        DEFAULT_MISFIRE_THRESHOLD,
        DEFAULT_DEDUP_WINDOW,
        DEFAULT_REDELIVERY_BUDGET,
        DEFAULT_SLOT_LEASE_TTL,
        DEFAULT_SLOT_LEASE_RENEW_INTERVAL,
        DEFAULT_PRE_DISPATCH);
  }
}

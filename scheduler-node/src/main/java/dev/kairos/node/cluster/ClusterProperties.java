package dev.kairos.node.cluster;

import dev.kairos.coordinator.scan.ScanConfig;
import dev.kairos.node.system.PositiveDuration;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The cluster ({@code kairos.cluster.*}): timing of leadership, scanning and delivery, checked
 * together with the ZooKeeper session timeout by {@link TimingValidator} before the node starts;
 * and how nodes talk to each other for leadership ({@code secret}, {@code leadership.*}, {@code
 * drain.*}).
 */
@Validated
@ConfigurationProperties("kairos.cluster")
public class ClusterProperties {

  /**
   * A node spreads each scan pass over a quarter second; the library's default ({@link
   * ScanConfig#DEFAULT_SPREAD}) starts every shard at once.
   */
  public static final Duration DEFAULT_SCAN_SPREAD = Duration.ofMillis(250);

  public static final Duration DEFAULT_FAILOVER_SWEEP_INTERVAL = Duration.ofSeconds(10);

  public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofMinutes(2);

  /** How often the leader heartbeats every follower; must be below leader-timeout / 3. */
  private Duration heartbeatInterval = TimingParameters.DEFAULT_HEARTBEAT_INTERVAL;

  /** How long a follower goes without a heartbeat before it asks the others about the leader. */
  private Duration leaderTimeout = TimingParameters.DEFAULT_LEADER_TIMEOUT;

  /** Time a takeover needs after the leader timeout: confirmation round, term znode, fencing. */
  private Duration electionBudget = TimingParameters.DEFAULT_ELECTION_BUDGET;

  /** How often the leader scans every shard for fires due within the pre-read window. */
  private Duration scanInterval = TimingParameters.DEFAULT_SCAN_INTERVAL;

  /**
   * How long a scan pass takes to start its shards, evenly apart, so its claim scripts do not hold
   * Redis for every other client at once (0 to scan-interval; 0 starts them all together).
   */
  private Duration scanSpread = DEFAULT_SCAN_SPREAD;

  /** How far ahead of now the leader claims fires into node wheels. */
  private Duration preRead = TimingParameters.DEFAULT_PRE_READ;

  /** How often a node re-reads its persisted wheel, repairing a lost assignment notification. */
  private Duration wheelReconcileInterval = TimingParameters.DEFAULT_WHEEL_RECONCILE_INTERVAL;

  /** Default lateness beyond which a fire is a misfire; jobs may set their own, not below this. */
  private Duration misfireThreshold = TimingParameters.DEFAULT_MISFIRE_THRESHOLD;

  /**
   * The most lateness forgiven to a fire for a gap in its shard's scanning (a failover, a Redis or
   * ZooKeeper outage) before it is judged against its job's misfire threshold.
   */
  private Duration misfireGrace = ScanConfig.DEFAULT_MISFIRE_GRACE;

  /**
   * How long a trigger id's start claim is remembered, so a redelivered copy does not run twice.
   */
  private Duration dedupWindow = TimingParameters.DEFAULT_DEDUP_WINDOW;

  /** The longest the broker and the scheduler take to redeliver a message that never started. */
  private Duration redeliveryBudget = TimingParameters.DEFAULT_REDELIVERY_BUDGET;

  /** Lifetime of an executor's slot lease; an expired slot's queue passes to another executor. */
  private Duration slotLeaseTtl = TimingParameters.DEFAULT_SLOT_LEASE_TTL;

  /** How often an executor renews its slot lease. */
  private Duration slotLeaseRenewInterval = TimingParameters.DEFAULT_SLOT_LEASE_RENEW_INTERVAL;

  /**
   * Shared secret every node sends to the others' internal endpoints (header {@code
   * X-Kairos-Cluster-Secret}) and requires from them; the same value on every node. Empty means a
   * random secret for this process: fine for one node, but then no other node can reach it.
   */
  private String secret = "";

  /** Leader election and the leader's duties (scanning, failover). */
  @Valid private final Leadership leadership = new Leadership();

  /** Draining this node out of the cluster ({@code POST /api/v1/node/drain}). */
  @Valid private final Drain drain = new Drain();

  /**
   * The leader's scan: the pre-read, scan interval, dedup window, misfire grace and scan spread of
   * these properties, Redis calls bounded by {@code redisTimeout}, the library's defaults for the
   * rest.
   *
   * @throws IllegalStateException when the scan spread is not between 0 and the scan interval
   */
  public ScanConfig toScanConfig(Duration redisTimeout) {
    if (scanSpread == null || scanSpread.isNegative() || scanSpread.compareTo(scanInterval) > 0) {
      throw new IllegalStateException(
          "kairos.cluster.scan-spread is "
              + scanSpread
              + " but must be between 0 and kairos.cluster.scan-interval ("
              + scanInterval
              + ")");
    }
    return ScanConfig.builder()
        .preRead(preRead)
        .interval(scanInterval)
        .dedupWindow(dedupWindow)
        .redisTimeout(redisTimeout)
        .misfireGrace(misfireGrace)
        .spread(scanSpread)
        .build();
  }

  public Duration getHeartbeatInterval() {
    return heartbeatInterval;
  }

  public void setHeartbeatInterval(Duration heartbeatInterval) {
    this.heartbeatInterval = heartbeatInterval;
  }

  public Duration getLeaderTimeout() {
    return leaderTimeout;
  }

  public void setLeaderTimeout(Duration leaderTimeout) {
    this.leaderTimeout = leaderTimeout;
  }

  public Duration getElectionBudget() {
    return electionBudget;
  }

  public void setElectionBudget(Duration electionBudget) {
    this.electionBudget = electionBudget;
  }

  public Duration getScanInterval() {
    return scanInterval;
  }

  public void setScanInterval(Duration scanInterval) {
    this.scanInterval = scanInterval;
  }

  public Duration getScanSpread() {
    return scanSpread;
  }

  public void setScanSpread(Duration scanSpread) {
    this.scanSpread = scanSpread;
  }

  public Duration getPreRead() {
    return preRead;
  }

  public void setPreRead(Duration preRead) {
    this.preRead = preRead;
  }

  public Duration getWheelReconcileInterval() {
    return wheelReconcileInterval;
  }

  public void setWheelReconcileInterval(Duration wheelReconcileInterval) {
    this.wheelReconcileInterval = wheelReconcileInterval;
  }

  public Duration getMisfireThreshold() {
    return misfireThreshold;
  }

  public void setMisfireThreshold(Duration misfireThreshold) {
    this.misfireThreshold = misfireThreshold;
  }

  public Duration getMisfireGrace() {
    return misfireGrace;
  }

  public void setMisfireGrace(Duration misfireGrace) {
    this.misfireGrace = misfireGrace;
  }

  public Duration getDedupWindow() {
    return dedupWindow;
  }

  public void setDedupWindow(Duration dedupWindow) {
    this.dedupWindow = dedupWindow;
  }

  public Duration getRedeliveryBudget() {
    return redeliveryBudget;
  }

  public void setRedeliveryBudget(Duration redeliveryBudget) {
    this.redeliveryBudget = redeliveryBudget;
  }

  public Duration getSlotLeaseTtl() {
    return slotLeaseTtl;
  }

  public void setSlotLeaseTtl(Duration slotLeaseTtl) {
    this.slotLeaseTtl = slotLeaseTtl;
  }

  public Duration getSlotLeaseRenewInterval() {
    return slotLeaseRenewInterval;
  }

  public void setSlotLeaseRenewInterval(Duration slotLeaseRenewInterval) {
    this.slotLeaseRenewInterval = slotLeaseRenewInterval;
  }

  public String getSecret() {
    return secret;
  }

  public void setSecret(String secret) {
    this.secret = secret;
  }

  public Leadership getLeadership() {
    return leadership;
  }

  public Drain getDrain() {
    return drain;
  }

  /** {@code kairos.cluster.drain.*}. */
  public static class Drain {

    /**
     * How long each step of a drain may wait (another member leading, in-flight sends acknowledged,
     * the wheel moved, the member znode gone) before the drain is reported FAILED.
     */
    @NotNull private Duration timeout = DEFAULT_DRAIN_TIMEOUT;

    public Duration getTimeout() {
      return timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }
  }

  /** {@code kairos.cluster.leadership.*}. */
  public static class Leadership {

    /** Whether this node joins the election (and, when it leads, scans and sweeps). */
    private boolean enabled = true;

    /** How often the leader moves the wheel entries of node names that are not live members. */
    @NotNull @PositiveDuration
    private Duration failoverSweepInterval = DEFAULT_FAILOVER_SWEEP_INTERVAL;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getFailoverSweepInterval() {
      return failoverSweepInterval;
    }

    public void setFailoverSweepInterval(Duration failoverSweepInterval) {
      this.failoverSweepInterval = failoverSweepInterval;
    }
  }

  @Override
  public String toString() {
    return "ClusterProperties[secret=****, leadership.enabled=" + leadership.enabled + "]";
  }
}

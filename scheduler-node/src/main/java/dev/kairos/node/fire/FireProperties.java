package dev.kairos.node.fire;

import dev.kairos.node.cluster.TimingParameters;
import dev.kairos.node.system.PositiveDuration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** How this node fires the entries of its wheel ({@code kairos.fire.*}). */
@Validated
@ConfigurationProperties("kairos.fire")
public class FireProperties {

  public static final int DEFAULT_INITIAL_SHARDS = 64;
  public static final Duration DEFAULT_SLOT_CACHE_TTL = Duration.ofSeconds(1);
  public static final Duration DEFAULT_TOPIC_TIMEOUT = Duration.ofSeconds(10);
  public static final String DEFAULT_BROKER_CLUSTER = "DefaultCluster";

  /** Whether this node loads its wheel and fires; off, the node only serves its API. */
  private boolean enabled = true;

  /**
   * Shard count written to Redis by the first node of a new cluster; later nodes adopt the stored
   * value, so changing it after the first start has no effect.
   */
  @Min(1)
  @Max(16384)
  private int initialShards = DEFAULT_INITIAL_SHARDS;

  /** Most due entries handed to one dispatch task (one take_due script call per shard in it). */
  @Min(1)
  @Max(10_000)
  private int batchSize = FirePathSettings.DEFAULT_BATCH_SIZE;

  /** Threads that take due entries off the persisted wheel, route them and start their sends. */
  @Min(1)
  @Max(256)
  private int dispatchThreads = FirePathSettings.DEFAULT_DISPATCH_THREADS;

  /**
   * Threads that handle the outcome of the (non-blocking, pipelined) Redis acknowledgements:
   * counting and logging, never waiting on a round trip.
   */
  @Min(1)
  @Max(256)
  private int ackThreads = FirePathSettings.DEFAULT_ACK_THREADS;

  /** Most entries the in-memory wheel holds; beyond it entries wait in Redis for the reconcile. */
  @Min(1)
  private int maxPending = FirePathSettings.DEFAULT_MAX_PENDING;

  /**
   * Most sends awaiting a broker answer at once. Beyond it due triggers wait in order (they are
   * inflight in Redis already), so an overloaded broker makes fires late instead of failing them.
   */
  @Min(1)
  private int maxUnackedSends = FirePathSettings.DEFAULT_MAX_UNACKED_SENDS;

  /** How long an app's live executor slots are cached before the slot leases are read again. */
  @NotNull private Duration slotCacheTtl = DEFAULT_SLOT_CACHE_TTL;

  /** How long the first fire of a handler waits for its topic to be created and routed. */
  @NotNull private Duration topicTimeout = DEFAULT_TOPIC_TIMEOUT;

  /** How often the node looks for inflight entries whose send never completed. */
  @NotNull @PositiveDuration
  private Duration inflightSweepInterval = FirePathSettings.DEFAULT_SWEEP_INTERVAL;

  /**
   * How long an entry may sit in inflight (taken, not acknowledged by the broker) before it is
   * re-sent; must exceed {@code kairos.rocketmq.send-timeout}, or slow sends are published twice.
   */
  @NotNull private Duration inflightResendAfter = FirePathSettings.DEFAULT_RESEND_AFTER;

  /** The RocketMQ broker cluster on which handler topics are created. */
  @NotNull private String brokerCluster = DEFAULT_BROKER_CLUSTER;

  /**
   * How long a trigger that finds no live executor slot waits for one (re-checked every second)
   * before it ends NO_EXECUTOR; must be shorter than {@code inflight-resend-after}.
   */
  @NotNull private Duration noExecutorGrace = FirePathSettings.DEFAULT_NO_EXECUTOR_GRACE;

  /**
   * How long a broker acknowledgement waits for others of its shard before they are recorded in one
   * script call; 0 records each at once. Below {@code inflight-resend-after}.
   */
  @NotNull private Duration ackLinger = FirePathSettings.DEFAULT_ACK_LINGER;

  /**
   * The grid due fires are handed out on: 0 hands each out at its own millisecond; a tick of q ms
   * groups each q ms of fires into one hand-off (fewer, larger Redis calls and broker batches),
   * each at most q - 1 ms late. At most 100 ms.
   */
  @NotNull private Duration wheelTick = FirePathSettings.DEFAULT_WHEEL_TICK;

  /**
   * How long before its fire time a trigger is taken off the wheel and sent to its executor, which
   * holds it and starts it at its fire time: a burst of fires due on one millisecond is taken, sent
   * and delivered before it is due. 0 sends each at its fire time. Below the pre-read window minus
   * the scan and reconcile intervals (checked at start), so the leader has claimed a fire onto a
   * wheel before its lead begins. The default (2.5 s) keeps a burst's sends half a second away from
   * the start claims of bursts due on whole seconds.
   */
  @NotNull private Duration preDispatch = FirePathSettings.DEFAULT_PRE_DISPATCH;

  /**
   * The fire path's settings: these properties, with the pre-read and reconcile interval of the
   * cluster's timing ({@code kairos.cluster.*}).
   */
  public FirePathSettings toSettings(TimingParameters timing) {
    return FirePathSettings.builder()
        .batchSize(batchSize)
        .dispatchThreads(dispatchThreads)
        .ackThreads(ackThreads)
        .maxPending(maxPending)
        .preRead(timing.preRead())
        .reconcileInterval(timing.wheelReconcileInterval())
        .sweepInterval(inflightSweepInterval)
        .resendAfter(inflightResendAfter)
        .maxUnackedSends(maxUnackedSends)
        .noExecutorGrace(noExecutorGrace)
        .ackLinger(ackLinger)
        .wheelTick(wheelTick)
        .preDispatch(preDispatch)
        .build();
  }

  public Duration getPreDispatch() {
    return preDispatch;
  }

  public void setPreDispatch(Duration preDispatch) {
    this.preDispatch = preDispatch;
  }

  public Duration getWheelTick() {
    return wheelTick;
  }

  public void setWheelTick(Duration wheelTick) {
    this.wheelTick = wheelTick;
  }

  public Duration getAckLinger() {
    return ackLinger;
  }

  public void setAckLinger(Duration ackLinger) {
    this.ackLinger = ackLinger;
  }

  public Duration getNoExecutorGrace() {
    return noExecutorGrace;
  }

  public void setNoExecutorGrace(Duration noExecutorGrace) {
    this.noExecutorGrace = noExecutorGrace;
  }

  public int getMaxUnackedSends() {
    return maxUnackedSends;
  }

  public void setMaxUnackedSends(int maxUnackedSends) {
    this.maxUnackedSends = maxUnackedSends;
  }

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public int getInitialShards() {
    return initialShards;
  }

  public void setInitialShards(int initialShards) {
    this.initialShards = initialShards;
  }

  public int getBatchSize() {
    return batchSize;
  }

  public void setBatchSize(int batchSize) {
    this.batchSize = batchSize;
  }

  public int getDispatchThreads() {
    return dispatchThreads;
  }

  public void setDispatchThreads(int dispatchThreads) {
    this.dispatchThreads = dispatchThreads;
  }

  public int getAckThreads() {
    return ackThreads;
  }

  public void setAckThreads(int ackThreads) {
    this.ackThreads = ackThreads;
  }

  public int getMaxPending() {
    return maxPending;
  }

  public void setMaxPending(int maxPending) {
    this.maxPending = maxPending;
  }

  public Duration getSlotCacheTtl() {
    return slotCacheTtl;
  }

  public void setSlotCacheTtl(Duration slotCacheTtl) {
    this.slotCacheTtl = slotCacheTtl;
  }

  public Duration getTopicTimeout() {
    return topicTimeout;
  }

  public void setTopicTimeout(Duration topicTimeout) {
    this.topicTimeout = topicTimeout;
  }

  public Duration getInflightSweepInterval() {
    return inflightSweepInterval;
  }

  public void setInflightSweepInterval(Duration inflightSweepInterval) {
    this.inflightSweepInterval = inflightSweepInterval;
  }

  public Duration getInflightResendAfter() {
    return inflightResendAfter;
  }

  public void setInflightResendAfter(Duration inflightResendAfter) {
    this.inflightResendAfter = inflightResendAfter;
  }

  public String getBrokerCluster() {
    return brokerCluster;
  }

  public void setBrokerCluster(String brokerCluster) {
    this.brokerCluster = brokerCluster;
  }
}

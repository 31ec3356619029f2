package dev.kairos.sync.spring;

import dev.kairos.sync.history.TriggerRetention;
import dev.kairos.sync.rebuild.ShardInitialiser;
import dev.kairos.sync.worker.SyncConfig;
import dev.kairos.sync.worker.SyncHealth;
import dev.kairos.sync.worker.SyncLagMonitor;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Settings of persistence-sync ({@code kairos.sync.*}). */
@ConfigurationProperties("kairos.sync")
public class SyncProperties {

  /** Whether this node runs the Redis-streams-to-PostgreSQL worker at all. */
  private boolean enabled = true;

  /**
   * This node's consumer name in the shared group; stable across restarts so a restarted node
   * finishes its own pending entries at once. Defaults to the host name.
   */
  private String consumer;

  /** Consumer group shared by every node. */
  private String group = SyncConfig.DEFAULT_GROUP;

  /** Entries read per shard per round. */
  private int batchSize = SyncConfig.DEFAULT_BATCH_SIZE;

  /** Entries applied in one PostgreSQL transaction, across shards. */
  private int maxEventsPerRound = SyncConfig.DEFAULT_MAX_EVENTS_PER_ROUND;

  /** Pause after a round that found nothing to sync. */
  private Duration pollInterval = SyncConfig.DEFAULT_POLL_INTERVAL;

  /** Pending entries idle this long belong to a dead node and are taken over (XAUTOCLAIM). */
  private Duration claimIdle = SyncConfig.DEFAULT_CLAIM_IDLE;

  /** How often idle pending entries are looked for. */
  private Duration claimInterval = SyncConfig.DEFAULT_CLAIM_INTERVAL;

  /** How often acknowledged entries are trimmed from the streams. */
  private Duration trimInterval = SyncConfig.DEFAULT_TRIM_INTERVAL;

  /** First back-off while PostgreSQL or Redis is unavailable. */
  private Duration retryInitial = SyncConfig.DEFAULT_RETRY_INITIAL;

  /** Longest back-off while PostgreSQL or Redis is unavailable. */
  private Duration retryMax = SyncConfig.DEFAULT_RETRY_MAX;

  /**
   * A consumer of the group idle this long with nothing pending is removed (a node that restarted
   * under another name, or left): keeps the groups from piling up consumers.
   */
  private Duration consumerExpiry = SyncConfig.DEFAULT_CONSUMER_EXPIRY;

  /** A shard whose oldest unsynced entry is older than this is logged at WARN and "lagging". */
  private Duration lagThreshold = SyncHealth.DEFAULT_LAG_THRESHOLD;

  /** How often the lag gauges are sampled. */
  private Duration lagCheckInterval = SyncLagMonitor.DEFAULT_INTERVAL;

  /**
   * How often the node re-reads every shard's initialised marker: a shard whose Redis master lost
   * its data is taken out of the scan within this long, and rebuilt from PostgreSQL.
   */
  private Duration shardCheckInterval = ShardInitialiser.DEFAULT_CHECK_INTERVAL;

  /** Trigger history older than this is deleted (at least 7 days). */
  private Duration retention = TriggerRetention.DEFAULT_RETENTION;

  /** How often retention runs. */
  private Duration retentionInterval = TriggerRetention.DEFAULT_INTERVAL;

  /** The worker's settings: these properties, named {@code defaultConsumer} unless one is set. */
  public SyncConfig toConfig(String defaultConsumer) {
    return SyncConfig.builder(consumer == null || consumer.isBlank() ? defaultConsumer : consumer)
        .group(group)
        .batchSize(batchSize)
        .maxEventsPerRound(maxEventsPerRound)
        .pollInterval(pollInterval)
        .claimIdle(claimIdle)
        .claimInterval(claimInterval)
        .trimInterval(trimInterval)
        .retryInitial(retryInitial)
        .retryMax(retryMax)
        .consumerExpiry(consumerExpiry)
        .build();
  }

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public String getConsumer() {
    return consumer;
  }

  public void setConsumer(String consumer) {
    this.consumer = consumer;
  }

  public String getGroup() {
    return group;
  }

  public void setGroup(String group) {
    this.group = group;
  }

  public int getBatchSize() {
    return batchSize;
  }

  public void setBatchSize(int batchSize) {
    this.batchSize = batchSize;
  }

  public int getMaxEventsPerRound() {
    return maxEventsPerRound;
  }

  public void setMaxEventsPerRound(int maxEventsPerRound) {
    this.maxEventsPerRound = maxEventsPerRound;
  }

  public Duration getPollInterval() {
    return pollInterval;
  }

  public void setPollInterval(Duration pollInterval) {
    this.pollInterval = pollInterval;
  }

  public Duration getClaimIdle() {
    return claimIdle;
  }

  public void setClaimIdle(Duration claimIdle) {
    this.claimIdle = claimIdle;
  }

  public Duration getClaimInterval() {
    return claimInterval;
  }

  public void setClaimInterval(Duration claimInterval) {
    this.claimInterval = claimInterval;
  }

  public Duration getTrimInterval() {
    return trimInterval;
  }

  public void setTrimInterval(Duration trimInterval) {
    this.trimInterval = trimInterval;
  }

  public Duration getRetryInitial() {
    return retryInitial;
  }

  public void setRetryInitial(Duration retryInitial) {
    this.retryInitial = retryInitial;
  }

  public Duration getRetryMax() {
    return retryMax;
  }

  public void setRetryMax(Duration retryMax) {
    this.retryMax = retryMax;
  }

  public Duration getConsumerExpiry() {
    return consumerExpiry;
  }

  public void setConsumerExpiry(Duration consumerExpiry) {
    this.consumerExpiry = consumerExpiry;
  }

  public Duration getLagThreshold() {
    return lagThreshold;
  }

  public void setLagThreshold(Duration lagThreshold) {
    this.lagThreshold = lagThreshold;
  }

  public Duration getLagCheckInterval() {
    return lagCheckInterval;
  }

  public void setLagCheckInterval(Duration lagCheckInterval) {
    this.lagCheckInterval = lagCheckInterval;
  }

  public Duration getShardCheckInterval() {
    return shardCheckInterval;
  }

  public void setShardCheckInterval(Duration shardCheckInterval) {
    this.shardCheckInterval = shardCheckInterval;
  }

  public Duration getRetention() {
    return retention;
  }

  public void setRetention(Duration retention) {
    this.retention = retention;
  }

  public Duration getRetentionInterval() {
    return retentionInterval;
  }

  public void setRetentionInterval(Duration retentionInterval) {
    this.retentionInterval = retentionInterval;
  }
}

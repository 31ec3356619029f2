package dev.kairos.node.lifecycle;

import dev.kairos.lifecycle.LifecycleConfig;
import dev.kairos.node.system.PositiveDuration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * What happens after a trigger ends: retries, FIXED_DELAY re-arm, child jobs, final-failure alarms
 * ({@code kairos.lifecycle.*}).
 */
@Validated
@ConfigurationProperties("kairos.lifecycle")
public class LifecycleProperties {

  /**
   * Whether this node runs a lifecycle worker. Every node should: the consumer group spreads the
   * work. A cluster where no node runs it neither retries, re-arms FIXED_DELAY jobs, triggers child
   * jobs nor raises final-failure alarms, and its streams are not trimmed (persistence-sync trims
   * below every group) until the group is destroyed.
   */
  private boolean enabled = true;

  /** Stream entries read per shard per round. */
  @Min(1)
  @Max(10_000)
  private int batchSize = LifecycleConfig.DEFAULT_BATCH_SIZE;

  /** Pause after a round that found nothing to do. */
  @NotNull @PositiveDuration private Duration pollInterval = LifecycleConfig.DEFAULT_POLL_INTERVAL;

  /** Entries another node read and left unacknowledged this long are taken over (it died). */
  @NotNull private Duration claimIdle = LifecycleConfig.DEFAULT_CLAIM_IDLE;

  /** How often to look for such entries. */
  @NotNull @PositiveDuration
  private Duration claimInterval = LifecycleConfig.DEFAULT_CLAIM_INTERVAL;

  /**
   * Deepest child-job chain: a child trigger deeper than this is not created (logged and counted).
   * Bounds a cycle that two concurrent saves formed past the store's cycle check.
   */
  @Min(1)
  @Max(1_000)
  private int maxChildDepth = LifecycleConfig.DEFAULT_MAX_CHILD_DEPTH;

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public int getBatchSize() {
    return batchSize;
  }

  public void setBatchSize(int batchSize) {
    this.batchSize = batchSize;
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

  public int getMaxChildDepth() {
    return maxChildDepth;
  }

  public void setMaxChildDepth(int maxChildDepth) {
    this.maxChildDepth = maxChildDepth;
  }

  /**
   * The worker's settings: these properties for {@code consumer}, a round's Redis calls bounded by
   * five times the node's Redis timeout.
   */
  LifecycleConfig toConfig(String consumer, Duration redisTimeout) {
    return LifecycleConfig.builder(consumer)
        .batchSize(batchSize)
        .pollInterval(pollInterval)
        .claimIdle(claimIdle)
        .claimInterval(claimInterval)
        .maxChildDepth(maxChildDepth)
        .redisTimeout(redisTimeout.multipliedBy(5))
        .build();
  }
}

package dev.kairos.node.lifecycle.guard;

import dev.kairos.node.system.PositiveDuration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** The leader's lost-trigger monitor ({@code kairos.lifecycle.monitor.*}). */
@Validated
@ConfigurationProperties("kairos.lifecycle.monitor")
public class LostMonitorProperties {

  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);
  public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);
  public static final Duration DEFAULT_BACKLOG_LIMIT = Duration.ofMinutes(5);
  public static final int DEFAULT_BATCH_SIZE = 500;
  public static final int DEFAULT_MAX_PAGES_PER_SHARD = 20;
  public static final long DEFAULT_MAX_READ_RATE = PassPacing.DEFAULT_READS_PER_SECOND;

  /** Whether the leader runs the lost-trigger monitor. */
  private boolean enabled = true;

  /**
   * Pause between two passes over every shard's open triggers. A RUNNING trigger whose executor
   * died is marked LOST within the executor's lease TTL plus this interval.
   */
  @NotNull @PositiveDuration private Duration interval = DEFAULT_INTERVAL;

  /**
   * A DISPATCHED trigger whose slot is live but that has not started this long after its last
   * dispatch is published again (same trigger id), provided the slot's executor has received its
   * queue through that dispatch (the progress in its lease); a trigger still waiting in the queue
   * is left until {@code backlog-limit}. At least {@code interval}, below {@code
   * kairos.cluster.dedup-window}.
   */
  @NotNull private Duration startTimeout = DEFAULT_START_TIMEOUT;

  /**
   * A DISPATCHED trigger whose slot is live but whose executor has not yet received it (a backlog
   * in the slot's queue) is published again anyway this long after its last dispatch. Bounds the
   * wait when an executor renews its lease but has stopped consuming. At least {@code
   * start-timeout}, below {@code kairos.cluster.dedup-window}.
   */
  @NotNull private Duration backlogLimit = DEFAULT_BACKLOG_LIMIT;

  /** Open triggers read, and verdicts written, per script call. */
  @Min(1)
  @Max(10_000)
  private int batchSize = DEFAULT_BATCH_SIZE;

  /** Pages of {@code batch-size} read per shard in one pass; the rest waits for the next pass. */
  @Min(1)
  @Max(1_000)
  private int maxPagesPerShard = DEFAULT_MAX_PAGES_PER_SHARD;

  /**
   * Open triggers read per second, averaged over a pass and the pause after it: a pass that read
   * more than {@code interval × max-read-rate} pauses longer, so a backlog does not cost Redis in
   * proportion to its size every interval.
   */
  @Min(1)
  private long maxReadRate = DEFAULT_MAX_READ_RATE;

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Duration getInterval() {
    return interval;
  }

  public void setInterval(Duration interval) {
    this.interval = interval;
  }

  public Duration getStartTimeout() {
    return startTimeout;
  }

  public void setStartTimeout(Duration startTimeout) {
    this.startTimeout = startTimeout;
  }

  public Duration getBacklogLimit() {
    return backlogLimit;
  }

  public void setBacklogLimit(Duration backlogLimit) {
    this.backlogLimit = backlogLimit;
  }

  public int getBatchSize() {
    return batchSize;
  }

  public void setBatchSize(int batchSize) {
    this.batchSize = batchSize;
  }

  public int getMaxPagesPerShard() {
    return maxPagesPerShard;
  }

  public void setMaxPagesPerShard(int maxPagesPerShard) {
    this.maxPagesPerShard = maxPagesPerShard;
  }

  public long getMaxReadRate() {
    return maxReadRate;
  }

  public void setMaxReadRate(long maxReadRate) {
    this.maxReadRate = maxReadRate;
  }
}

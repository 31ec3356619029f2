package dev.kairos.coordinator.scan;

import dev.kairos.core.redis.RedisKeys;
import dev.kairos.protocol.start.TriggerRecords;
import java.time.Duration;
import java.util.Objects;

/**
 * Parameters of the leader's due-fire scan. Defaults follow docs/design.md "Timing parameters".
 *
 * @param preRead fires due before now + preRead are claimed (default 5 s)
 * @param interval pause between two scan passes; must be shorter than {@code preRead}
 * @param batchSize jobs read and claimed per script call per shard
 * @param maxBatchesPerShard bound of one pass per shard; the next pass continues
 * @param dedupWindow D: trigger records expire at fire time + D
 * @param eventsMaxLen approximate bound of each shard's event stream
 * @param redisTimeout how long a pass waits for Redis before it gives up (and retries next pass)
 * @param misfireGrace the most a fire's lateness is forgiven for a gap in its shard's scanning
 *     (default 60 s; see {@code DueFireScanner})
 * @param spread how long a pass takes to start its shards, evenly apart (0 to {@code interval}; 0:
 *     all at once). Redis runs one script at a time, so a pass that claims every shard at once
 *     makes every other client's command wait behind all of its claims.
 */
public record ScanConfig(
    Duration preRead,
    Duration interval,
    int batchSize,
    int maxBatchesPerShard,
    Duration dedupWindow,
    long eventsMaxLen,
    Duration redisTimeout,
    Duration misfireGrace,
    Duration spread) {

  public static final Duration DEFAULT_PRE_READ = Duration.ofSeconds(5);
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
  public static final int DEFAULT_BATCH_SIZE = 200;
  public static final int DEFAULT_MAX_BATCHES_PER_SHARD = 50;
  public static final Duration DEFAULT_DEDUP_WINDOW = TriggerRecords.DEFAULT_DEDUP_WINDOW;
  public static final long DEFAULT_EVENTS_MAX_LEN = RedisKeys.DEFAULT_EVENTS_MAX_LEN;
  public static final Duration DEFAULT_REDIS_TIMEOUT = Duration.ofSeconds(5);

  /**
   * The longest scanning gap (a failover, a Redis or ZooKeeper outage) whose fires are still run
   * instead of judged misfired: a fire's lateness is forgiven the time its shard went unscanned.
   */
  public static final Duration DEFAULT_MISFIRE_GRACE = Duration.ofSeconds(60);

  /** The library starts every shard of a pass at once; a node spreads them (kairos.cluster). */
  public static final Duration DEFAULT_SPREAD = Duration.ZERO;

  public ScanConfig {
    Objects.requireNonNull(preRead, "preRead");
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(dedupWindow, "dedupWindow");
    Objects.requireNonNull(redisTimeout, "redisTimeout");
    Objects.requireNonNull(misfireGrace, "misfireGrace");
    Objects.requireNonNull(spread, "spread");
    if (misfireGrace.isNegative()) {
      throw new IllegalArgumentException("misfire grace must not be negative: " + misfireGrace);
    }
    if (interval.isNegative() || interval.isZero() || interval.compareTo(preRead) >= 0) {
      throw new IllegalArgumentException(
          "scan interval " + interval + " must be positive and shorter than pre-read " + preRead);
    }
    if (spread.isNegative() || spread.compareTo(interval) > 0) {
      throw new IllegalArgumentException(
          "scan spread " + spread + " must be between 0 and the scan interval " + interval);
    }
    if (batchSize < 1 || maxBatchesPerShard < 1 || eventsMaxLen < 1) {
      throw new IllegalArgumentException(
          "batchSize, maxBatchesPerShard and eventsMaxLen must be >= 1");
    }
  }

  public static ScanConfig defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    return new Builder()
        .preRead(preRead)
        .interval(interval)
        .batchSize(batchSize)
        .maxBatchesPerShard(maxBatchesPerShard)
        .dedupWindow(dedupWindow)
        .eventsMaxLen(eventsMaxLen)
        .redisTimeout(redisTimeout)
        .misfireGrace(misfireGrace)
        .spread(spread);
  }

  /** Parameters one by one; every one not set keeps its default. */
  public static final class Builder {
    private Duration preRead = DEFAULT_PRE_READ;
    private Duration interval = DEFAULT_INTERVAL;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private int maxBatchesPerShard = DEFAULT_MAX_BATCHES_PER_SHARD;
    private Duration dedupWindow = DEFAULT_DEDUP_WINDOW;
    private long eventsMaxLen = DEFAULT_EVENTS_MAX_LEN;
    private Duration redisTimeout = DEFAULT_REDIS_TIMEOUT;
    private Duration misfireGrace = DEFAULT_MISFIRE_GRACE;
    private Duration spread = DEFAULT_SPREAD;

    private Builder() {}

    public Builder preRead(Duration preRead) {
      this.preRead = preRead;
      return this;
    }

    public Builder interval(Duration interval) {
      this.interval = interval;
      return this;
    }

    public Builder batchSize(int batchSize) {
      this.batchSize = batchSize;
      return this;
    }

    public Builder maxBatchesPerShard(int maxBatchesPerShard) {
      this.maxBatchesPerShard = maxBatchesPerShard;
      return this;
    }

    public Builder dedupWindow(Duration dedupWindow) {
      this.dedupWindow = dedupWindow;
      return this;
    }

    public Builder eventsMaxLen(long eventsMaxLen) {
      this.eventsMaxLen = eventsMaxLen;
      return this;
    }

    public Builder redisTimeout(Duration redisTimeout) {
      this.redisTimeout = redisTimeout;
      return this;
    }

    public Builder misfireGrace(Duration misfireGrace) {
      this.misfireGrace = misfireGrace;
      return this;
    }

    public Builder spread(Duration spread) {
      this.spread = spread;
      return this;
    }

    public ScanConfig build() {
      return new ScanConfig(
          preRead,
          interval,
          batchSize,
          maxBatchesPerShard,
          dedupWindow,
          eventsMaxLen,
          redisTimeout,
          misfireGrace,
          spread);
    }
  }
}

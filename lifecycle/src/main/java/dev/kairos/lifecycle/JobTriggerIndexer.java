package dev.kairos.lifecycle;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps each job's recent-trigger index ({@link RedisKeys#jobTriggers}), which the admin API lists
 * when PostgreSQL does not answer: every trigger record is created by a script that appends a
 * {@code TRIGGER_CLAIMED} event (the leader's claim of scheduled and ad-hoc fires — manual, retry,
 * child — and a broadcast's shard records), so the lifecycle worker, which reads every event
 * anyway, indexes them here instead of adding writes to the claim script, the throughput
 * bottleneck.
 *
 * <p>Per batch and job, pipelined: {@code ZADD} of the batch's trigger ids scored by fire time (the
 * reader lists newest fire first), {@code ZREMRANGEBYRANK} down to the newest {@code maxPerJob},
 * and {@code PEXPIREAT} at the newest record's own expiry, {@code max(fireMs, claimedMs) +
 * retention}, so an index outlives no record it names by more than that. The writes are idempotent:
 * a replayed batch changes nothing but may set that expiry back by the replay's delay (bounded by
 * the worker's claim-idle), which only makes the index expire a little before its last record.
 *
 * <p>Thread-safety: stateless apart from its settings; called by the worker thread only.
 */
public final class JobTriggerIndexer {

  private static final Logger log = LoggerFactory.getLogger(JobTriggerIndexer.class);
  static final String CLAIMED = "TRIGGER_CLAIMED";

  private final KairosRedis redis;
  private final int maxPerJob;
  private final long retentionMs;
  private final LifecycleMetrics metrics;

  JobTriggerIndexer(
      KairosRedis redis, int maxPerJob, Duration retention, LifecycleMetrics metrics) {
    if (maxPerJob < 1) {
      throw new IllegalArgumentException("maxPerJob must be >= 1 but was " + maxPerJob);
    }
    this.redis = redis;
    this.maxPerJob = maxPerJob;
    this.retentionMs = retention.toMillis();
    this.metrics = metrics;
  }

  /** The triggers one job gained in a batch, and when the newest of their records expires. */
  private static final class JobBatch {
    final List<ScoredValue<String>> triggers = new ArrayList<>();
    long expireAtMs = Long.MIN_VALUE;
  }

  /**
   * Sends the index writes of the {@code TRIGGER_CLAIMED} events among one shard's {@code messages}
   * without waiting for them.
   *
   * @return completes when every write is done (with the number of triggers indexed), or
   *     exceptionally when one failed
   */
  CompletableFuture<Integer> index(int shard, List<StreamMessage<String, String>> messages) {
    Map<String, JobBatch> byJob = new LinkedHashMap<>();
    int triggers = 0;
    for (StreamMessage<String, String> m : messages) {
      Map<String, String> body = m.getBody();
      if (!CLAIMED.equals(body.get("type"))) {
        continue;
      }
      String triggerId = body.get("triggerId");
      String jobId = body.get("jobId");
      Long fireMs = parse(body.get("fireMs"));
      if (triggerId == null || jobId == null || fireMs == null) {
        log.warn("shard {}: {} entry {} not indexed: {}", shard, CLAIMED, m.getId(), body);
        continue;
      }
      Long claimedMs = parse(body.get("ms"));
      JobBatch batch = byJob.computeIfAbsent(jobId, j -> new JobBatch());
      batch.triggers.add(ScoredValue.just(fireMs, triggerId));
      long recordExpiry = Math.max(fireMs, claimedMs == null ? fireMs : claimedMs) + retentionMs;
      batch.expireAtMs = Math.max(batch.expireAtMs, recordExpiry);
      triggers++;
    }
    if (byJob.isEmpty()) {
      return CompletableFuture.completedFuture(0);
    }
    RedisClusterAsyncCommands<String, String> async = redis.async();
    List<CompletableFuture<?>> writes = new ArrayList<>(byJob.size() * 3);
    for (Map.Entry<String, JobBatch> e : byJob.entrySet()) {
      String key = RedisKeys.jobTriggers(shard, e.getKey());
      @SuppressWarnings("unchecked")
      ScoredValue<String>[] members = e.getValue().triggers.toArray(new ScoredValue[0]);
      writes.add(async.zadd(key, members).toCompletableFuture());
      writes.add(async.zremrangebyrank(key, 0, -(maxPerJob + 1L)).toCompletableFuture());
      writes.add(async.pexpireat(key, e.getValue().expireAtMs).toCompletableFuture());
    }
    int indexed = triggers;
    return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new))
        .thenApply(
            done -> {
              metrics.indexedTriggers.increment(indexed);
              return indexed;
            });
  }

  private static Long parse(String value) {
    if (value == null) {
      return null;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      // An ad-hoc fire time is copied from a ZSET score, which Redis may print as a double.
      try {
        double d = Double.parseDouble(value);
        return Double.isFinite(d) ? (long) d : null;
      } catch (NumberFormatException notANumber) {
        return null;
      }
    }
  }
}

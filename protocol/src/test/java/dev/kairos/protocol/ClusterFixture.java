package dev.kairos.protocol;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.JobHash;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.Poll;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A clean Redis Cluster for one test: every master flushed (the cluster is shared by all test
 * classes of the JVM), plus the writes the job API would do and reads of the layout.
 */
public final class ClusterFixture implements AutoCloseable {

  /** A fixed, second-aligned epoch so fire times in assertions are readable. */
  public static final long T0 = 1_800_000_000_000L;

  public final EmbeddedRedisCluster cluster;
  public final RedisKeys keys;
  public final KairosRedis redis;
  private final List<KairosRedis> extra = new ArrayList<>();
  private final Duration commandTimeout;

  public ClusterFixture(EmbeddedRedisCluster cluster, int shards) {
    this(cluster, shards, Duration.ofSeconds(10));
  }

  /**
   * @param commandTimeout how long one Redis command may take, e.g. longer for bulk scripts
   */
  public ClusterFixture(EmbeddedRedisCluster cluster, int shards, Duration commandTimeout) {
    this.cluster = cluster;
    this.commandTimeout = commandTimeout;
    for (int i = 0; i < cluster.size(); i++) {
      cluster.flushNode(i);
    }
    this.keys = new RedisKeys(shards);
    this.redis = connect();
  }

  /** Another connection (its own event loop), e.g. for a competing scanner. */
  public KairosRedis newConnection() {
    KairosRedis connection = connect();
    extra.add(connection);
    return connection;
  }

  private KairosRedis connect() {
    return KairosRedis.connect(cluster.uris(), true, commandTimeout);
  }

  /** What the API does on create: the job hash, and the due score when enabled. */
  public void putJob(JobDefinition job, long dueMs) {
    int shard = keys.shardOf(job.id());
    redis.sync().hset(RedisKeys.job(shard, job.id()), JobHash.toHash(job));
    if (job.enabled()) {
      redis.sync().zadd(RedisKeys.due(shard), dueMs, job.id());
    } else {
      redis.sync().zrem(RedisKeys.due(shard), job.id());
    }
  }

  public void deleteJob(String jobId) {
    int shard = keys.shardOf(jobId);
    redis.sync().del(RedisKeys.job(shard, jobId));
    redis.sync().zrem(RedisKeys.due(shard), jobId);
  }

  public Double dueScore(String jobId) {
    return redis.sync().zscore(RedisKeys.due(keys.shardOf(jobId)), jobId);
  }

  public Map<String, String> trigger(String triggerId) {
    String jobId = triggerId.substring(0, triggerId.indexOf(':'));
    return redis.sync().hgetall(RedisKeys.trigger(keys.shardOf(jobId), triggerId));
  }

  /** Trigger id -> fire ms on {@code node}'s wheel, over all shards. */
  public Map<String, Long> wheel(String node) {
    Map<String, Long> entries = new HashMap<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      redis
          .sync()
          .zrangebyscoreWithScores(RedisKeys.wheel(shard, node), Range.unbounded())
          .forEach(v -> entries.put(v.getValue(), (long) v.getScore()));
    }
    return entries;
  }

  public List<String> inflight(String node) {
    List<String> ids = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      ids.addAll(redis.sync().zrange(RedisKeys.inflight(shard, node), 0, -1));
    }
    return ids;
  }

  public List<Map<String, String>> events(int shard) {
    return redis.sync().xrange(RedisKeys.events(shard), Range.unbounded()).stream()
        .map(StreamMessage::getBody)
        .toList();
  }

  public List<Map<String, String>> eventsOfJob(String jobId) {
    return events(keys.shardOf(jobId)).stream().filter(e -> jobId.equals(e.get("jobId"))).toList();
  }

  /**
   * Polls {@code condition} until it holds; fails with {@code what} at the deadline ({@link
   * Poll#until}, the kit's one wait).
   */
  public static void await(Duration timeout, String what, BooleanSupplier condition) {
    Poll.until(timeout, what, condition::getAsBoolean);
  }

  @Override
  public void close() {
    extra.forEach(KairosRedis::close);
    redis.close();
  }
}
